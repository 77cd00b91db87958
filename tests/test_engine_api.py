"""The engine's public face refuses what it cannot mean: a seat that is not at the table, a
match the ruleset does not allow, a pack with a card twice; and a clone is a match of its
own, which its original never notices being played."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from schwimmen.conformance.harness import default_rulesets
from schwimmen.engine.bots import RandomBot
from schwimmen.engine.match import MAX_LIVES, Match, Position, SetupError, shuffled
from schwimmen.protocol.cards import parse_all
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset


@cache
def _catalog() -> Catalog:
    return Catalog.load()


def _ruleset(name: str) -> Ruleset:
    return _catalog().resolve(name)


def _snapshot(match: Match) -> str:
    """Everything a user of the match can see, as one text to compare."""
    seen: dict[str, Any] = {
        "events": [event.to_json() for event in match.events],
        "observations": [match.observation(s) for s in range(match.table_size)],
        "legal": [str(a) for a in match.legal_actions()],
        "to_move": match.to_move(),
        "lives": match.lives,
        "results": len(match.results),
        "round": match.round_no,
    }
    return json.dumps(seen, sort_keys=True, default=str)


def _play(match: Match, rng: random.Random, actions: int) -> None:
    bot = RandomBot(rng)
    for _ in range(actions):
        if match.over:
            return
        match.apply(bot.choose(match), match.to_move())


@pytest.mark.parametrize("name", default_rulesets(_catalog()))
def test_playing_a_clone_leaves_its_original_as_it_was(name: str) -> None:
    ruleset = _ruleset(name)
    rng = random.Random(name)
    original = Match(ruleset, ruleset.rules.players.min + 1, seed=rng.randrange(1000))
    _play(original, rng, 5)
    before = _snapshot(original)
    clone = original.clone()
    assert _snapshot(clone) == before, "a clone starts as its original is"
    _play(clone, rng, 40)
    assert clone.events != original.events, "the clone was played"
    assert _snapshot(original) == before
    second = clone.clone()
    middle = _snapshot(clone)
    _play(second, rng, 40)
    assert _snapshot(clone) == middle, "a clone of a clone leaves the first clone alone"
    assert _snapshot(original) == before
    _play(original, rng, 40)
    assert _snapshot(clone) == middle, "and playing the original leaves the clones alone"


def test_a_clone_without_an_event_log_keeps_none() -> None:
    match = Match(_ruleset("pagat"), 3, seed=4, record=False)
    clone = match.clone()
    _play(clone, random.Random(4), 30)
    assert match.events == [] and clone.events == []


@pytest.mark.parametrize("seat", [-1, 3, 4, 100])
def test_an_observation_is_only_of_a_seat_at_the_table(seat: int) -> None:
    match = Match(_ruleset("pagat"), 3, seed=1)
    with pytest.raises(ValueError, match=rf"no seat {seat} at a table of 3 \(seats 0 to 2\)"):
        match.observation(seat)
    assert match.observation(2)["seat"] == "P3"


def _position(**changes: list[str]) -> Position:
    cards: dict[str, list[str]] = {
        "P1": ["7C", "8C", "9C"],
        "P2": ["7S", "8S", "9S"],
        "P3": ["7H", "8H", "9H"],
        "middle": ["7D", "8D", "9D"],
        "stock": ["AS", "KS"],
        **changes,
    }
    hands = {
        int(seat[1:]) - 1: parse_all(cards[seat]) for seat in ("P1", "P2", "P3") if seat in cards
    }
    return Position(hands, parse_all(cards["middle"]), stock=parse_all(cards["stock"]))


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        ({"seats": 1}, "played by 2 to 8 players, not 1"),
        ({"seats": 9}, "played by 2 to 8 players, not 9"),
        ({"seats": 200_000_000}, "played by 2 to 8 players"),
        ({"lives": -1}, f"each from 0 to {MAX_LIVES}"),
        ({"lives": 10**9}, f"each from 0 to {MAX_LIVES}"),
        ({"lives": [3, 3]}, "once per seat"),
        ({"first_dealer": -1}, "no seat -1 at a table of 3"),
        ({"first_dealer": 3}, "no seat 3 at a table of 3"),
        ({"eliminated": [7]}, "no seat 7 at a table of 3 to eliminate"),
        ({"eliminated": [0, 1]}, "at least two players"),
        ({"eliminated": [2]}, "an eliminated player cannot deal"),
        ({"decks": [parse_all(["AS"] * 32)]}, "deck 1 holds AS twice"),
        ({"decks": [parse_all(["7C", "2C"])]}, "deck 1 holds 2C, a card this pack lacks"),
        ({"position": _position(stock=["AS", "9C"])}, "the position holds 9C twice"),
        ({"position": _position(P3=["7H", "8H"])}, "P3's hand has 2 cards, not 3"),
        ({"position": _position(middle=["7D"])}, "the middle has 1 cards"),
    ],
)
def test_a_match_the_ruleset_cannot_mean_is_refused(arguments: dict[str, Any], words: str) -> None:
    given = {"seats": 3, **arguments}
    with pytest.raises(SetupError, match=words.replace("(", r"\(").replace(")", r"\)")):
        Match(_ruleset("pagat"), given.pop("seats"), **given)


def test_a_position_must_deal_to_exactly_the_players_left() -> None:
    missing = _position()
    del missing.hands[2]
    with pytest.raises(SetupError, match="deals no hand to P3"):
        Match(_ruleset("pagat"), 3, position=missing)
    with pytest.raises(SetupError, match="deals a hand to P3, who does not play"):
        Match(_ruleset("pagat"), 3, position=_position(), eliminated=[2], first_dealer=1)
    Match(_ruleset("pagat"), 3, position=_position())


def test_part_of_a_pack_is_a_legal_deck() -> None:
    """A stacked deck may leave cards out: 32 cards of the 52 of forty-one deal a round."""
    short = parse_all([r + s for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")])
    match = Match(_ruleset("forty-one"), 4, decks=[short])
    assert match.to_move() is not None or match.results


@pytest.mark.parametrize("size", [0, 1, 2, 24, 32, 36, 52])
def test_a_match_shuffles_exactly_as_random_does(size: int) -> None:
    """A seed deals the packs it always dealt: the match's own shuffle draws what
    ``random.shuffle`` draws, and leaves the generator where it leaves it."""
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        pack = list(range(size))
        expected = pack[:]
        theirs.shuffle(expected)
        assert shuffled(pack, ours) == expected
        assert ours.random() == theirs.random()
