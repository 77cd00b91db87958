"""The observation is built for speed (a per-round template copied and filled in, literal
lists for the usual card counts, the legal texts read without the list where the round
counts its actions): it must be, key for key and in the same key order, what a plain
reading of the match's public state gives, for every seat, in every ruleset and every
phase a random match passes through."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest

from schwimmen.conformance.harness import default_rulesets
from schwimmen.engine.bots import RandomBot
from schwimmen.engine.match import Match
from schwimmen.engine.rounds import Phase
from schwimmen.protocol.cards import seat_name, texts
from schwimmen.spec.loader import Catalog
from schwimmen.spec.vocabulary import AfterLast


@cache
def _catalog() -> Catalog:
    return Catalog.load()


def _plain(match: Match, seat: int) -> dict[str, Any]:
    """The observation of ``seat`` spelled out from the match, one field after another."""
    rnd = match.round
    seats = range(match.table_size)
    over = match.over
    to_move = None if over or rnd.phase is Phase.OVER else rnd.current
    hand = rnd.hands.get(seat)
    swim = match.rules.lives.after_last is AfterLast.SWIM
    obs: dict[str, Any] = {
        "seat": seat_name(seat),
        "dealer": seat_name(match.dealer),
        "round": match.round_no,
        "phase": "match-over" if over else rnd.phase.value,
        "to_move": None if to_move is None else seat_name(to_move),
        "hand": [] if hand is None else texts(hand),
        "middle": None if rnd.middle_hidden else texts(rnd.middle),
        "middle_hidden": rnd.middle_hidden,
        "stock": len(rnd.stock),
        "discard_top": texts(rnd.discard[-1:])[0] if rnd.discard else None,
        "knocker": None if rnd.knocker is None else seat_name(rnd.knocker),
        "closed": [seat_name(s) for s in sorted(rnd.closed)],
        "lives": {seat_name(s): match.lives[s] for s in seats},
        "swimming": [
            seat_name(s)
            for s in seats
            if swim and match.lives[s] == 0 and s not in match.eliminated
        ],
        "eliminated": [seat_name(s) for s in sorted(match.eliminated)],
        "match_over": over,
        "winners": [seat_name(s) for s in match.winners],
    }
    if rnd.phase is Phase.DEALER_CHOICE and seat == match.dealer:
        obs["extra_hand"] = len(rnd.extra or [])
    if (
        hand is not None
        and rnd.phase is not Phase.OVER
        and len(hand) == match.rules.cards.hand_size
    ):
        obs["value"] = match.evaluator.value_json(hand)
    if to_move == seat:
        obs["legal_actions"] = [action.text for action in match.legal_actions()]
    return obs


@pytest.mark.parametrize("name", default_rulesets(_catalog()))
def test_the_observation_is_the_plain_reading_of_the_match(name: str) -> None:
    ruleset = _catalog().resolve(name)
    rng = random.Random(name)
    seats = min(ruleset.rules.players.min + 1, ruleset.rules.players.max)
    phases: set[str] = set()
    match = Match(ruleset, seats, seed=rng.randrange(1 << 30), lives=2)
    bot = RandomBot(rng)
    for _ in range(1_000):  # a match of a ruleset that knocks only with 31 may go long
        for seat in range(seats):
            # on a copy where nothing was listed yet, as before a bot's decision
            twin = match.clone()
            got = twin.observation(seat)
            want = _plain(match, seat)
            assert list(got) == list(want)
            assert json.dumps(got) == json.dumps(want)
        phases.add(match.observation(0)["phase"])
        if match.over:
            break
        match.apply(bot.choose(match))
    assert "turn" in phases
    assert match.over == ("match-over" in phases)


def test_a_seat_off_the_table_is_refused() -> None:
    match = Match(_catalog().resolve("pagat"), 4, seed=1)
    for seat in (-1, 4, 17):
        with pytest.raises(ValueError, match=f"no seat {seat} at a table of 4"):
            match.observation(seat)
