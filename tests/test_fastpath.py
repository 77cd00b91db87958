"""The generated decision (engine.fastpath) against the general path, in every ruleset and
composition of the catalogue: the same random draws pick the same action, and applying it
records the same events and leaves the same round and match as ``Round.apply``."""

from __future__ import annotations

import pickle
import random
from functools import cache
from typing import Any

import pytest

from schwimmen.engine.fastpath import KNOCK_PROBABILITY, fast_for
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.match import Match, shuffled
from schwimmen.engine.reasons import IllegalAction
from schwimmen.engine.roundkit import kit_for
from schwimmen.engine.rounds import Round
from schwimmen.engine.turncap import RoundTooLong
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import Action, ActionKind
from schwimmen.spec.loader import Catalog


@cache
def _catalog() -> Catalog:
    return Catalog.load()


def _names() -> list[str]:
    catalog = _catalog()
    compositions = [
        f"{spec.data['origin']}+{name}" for name, spec in sorted(catalog.house_rules.items())
    ]
    return sorted(catalog.rulesets) + compositions


def _general_pick(rnd: Round, rng: random.Random) -> Action:
    """The random bot's policy through the general path (counts, then the one action)."""
    moves, knocks = rnd.counts()
    if knocks and (not moves or rng.random() < KNOCK_PROBABILITY):
        return rnd.knock_option(int(rng.random() * knocks))
    return rnd.move_option(int(rng.random() * moves))


def _general_step(rnd: Round, action: Action) -> None:
    rnd.apply(action)


_CACHES = {"_legal", "_split", "_owed", "_lazy", "_picked", "emit", "_kit", "rules", "evaluator"}


def _state(match: Match) -> tuple[Any, ...]:
    rnd = match.round
    fields = [(name, getattr(rnd, name)) for name in Round.__slots__ if name not in _CACHES]
    return (
        fields,
        match.lives,
        match.dealer,
        match.round_no,
        match.over,
        match.winners,
        sorted(match.eliminated),
        match.results,
        match.lives_lost,
        match._losers,
        match.began,
        match.points,
        match._head,
    )


def _twins(name: str, seats: int, seed: int) -> tuple[Match, Match]:
    ruleset = _catalog().resolve(name)
    general = Match(ruleset, seats, seed=seed, lives=2)
    # the general path: Round.apply itself for every action, and a round's end settled
    # by Match._finish_round
    general._step = _general_step
    general._finish = Match._finish_rounds
    general.__class__ = Match  # Match.apply, not the generated one
    return Match(ruleset, seats, seed=seed, lives=2), general


@pytest.mark.parametrize("name", _names())
def test_the_generated_decision_is_the_general_path(name: str) -> None:
    rules = _catalog().resolve(name).rules
    rng = random.Random(name)
    low, high = rules.players.min, min(rules.players.max, 6)
    for game in range(3):
        seats = low + game % (high - low + 1)
        fast, general = _twins(name, seats, rng.randrange(1 << 30))
        draws = random.Random(game)
        decisions = 0
        while not fast.over and decisions < 1_500:
            decisions += 1
            state = draws.getstate()
            picked = fast.pick(fast.round, draws.random)
            draws.setstate(state)
            expected = _general_pick(general.round, draws)
            assert picked is expected
            fast.apply(picked)
            general.apply(expected)
            assert fast.events == general.events
            assert _state(fast) == _state(general)
        assert general.over == fast.over


def _refusals(match: Match) -> list[str]:
    """What ``apply`` says, on the way through a match whose rounds may take two moves:
    to the wrong seat at each decision, to a round that goes on too long, and once the
    match is over."""
    said = []
    draws = random.Random(0)
    while not match.over:
        seat = match.to_move()
        assert seat is not None
        action = match.pick(match.round, draws.random)
        try:
            match.apply(action, (seat + 1) % match.table_size)
        except IllegalAction as exc:
            said.append(str(exc))
        try:
            match.apply(action, seat)
        except RoundTooLong as exc:
            said.append(str(exc))
            match.max_turns = 10_000
            match.round.max_turns = 10_000
    try:
        match.apply(Action(ActionKind.PASS))
    except IllegalAction as exc:
        said.append(str(exc))
    return said


@pytest.mark.parametrize("name", _names())
def test_the_generated_apply_refuses_as_match_apply_does(name: str) -> None:
    ruleset = _catalog().resolve(name)
    fast = Match(ruleset, ruleset.rules.players.min, seed=3, lives=1, max_turns=2)
    general = Match(ruleset, ruleset.rules.players.min, seed=3, lives=1, max_turns=2)
    general.__class__ = Match
    assert type(fast).apply is not Match.apply
    said = _refusals(fast)
    assert said == _refusals(general)
    assert fast.events == general.events
    assert any(name in text for text in said)  # the round too long, named


def _round_state(rnd: Round) -> list[tuple[str, Any]]:
    return [(name, getattr(rnd, name)) for name in Round.__slots__ if name != "emit"]


@pytest.mark.parametrize("name", _names())
def test_the_generated_deal_is_round_deal(name: str) -> None:
    """Every number of players, dealers and seats out of the match: the same round, the
    same events (and where the deal ends the round, the same result)."""
    rules = _catalog().resolve(name).rules
    evaluator = evaluator_for(rules)
    fast = fast_for(kit_for(rules))
    rng = random.Random(name)
    for players in range(rules.players.min, min(rules.players.max, 8) + 1):
        deal, needed = fast.deal_for(players)
        for _ in range(12):
            table = players + rng.randrange(3)
            seats = sorted(rng.sample(range(table), players))
            dealer = rng.choice(seats)
            pack = shuffled(evaluator.pack, rng)
            assert needed <= len(pack)
            expected_events: list[ev.Record] = []
            expected = Round.deal(
                rules, evaluator, table, seats, dealer, pack, expected_events.append, 3, 50
            )
            events: list[ev.Record] = []
            made = deal(
                rules, evaluator, table, list(seats), dealer, list(pack), events.append, 3, 50
            )
            assert type(made) is type(expected)
            assert _round_state(made) == _round_state(expected)
            assert events == expected_events


@pytest.mark.parametrize("size", [0, 1, 2, 3, 24, 32, 36, 52, 64])
def test_the_written_out_shuffle_is_random_shuffle(size: int) -> None:
    """The same order, and the generator left in the same state (the next pack too)."""
    for seed in range(25):
        ours, theirs = random.Random(seed), random.Random(seed)
        pack = list(range(100, 100 + size))
        expected = list(pack)
        theirs.shuffle(expected)
        assert shuffled(pack, ours) == expected
        assert ours.getstate() == theirs.getstate()


def test_a_match_pickles_and_copies_without_its_generated_functions() -> None:
    """The generated functions cannot be pickled: a pickled or cloned match takes them
    again from its rules, and plays on as the original does. (Pagat: a kit whose deal
    plan picks a single card, an upcard, holds a lambda and does not pickle.)"""
    match = Match(_catalog().resolve("pagat"), 4, seed=5)
    draws = random.Random(1)
    for _ in range(30):
        match.apply(match.pick(match.round, draws.random))
    twins = [pickle.loads(pickle.dumps(match)), match.clone()]
    for played in [match, *twins]:
        again = random.Random(2)
        while not played.over:
            played.apply(played.pick(played.round, again.random))
    assert all(twin.events == match.events for twin in twins)
    # a copy shares the rules, and so the generated functions
    assert twins[1].pick is match.pick


def test_the_source_holds_only_what_the_rules_need() -> None:
    """A rules object's generated source leaves out what its rules never do: the draw
    game has no swaps, and a game where a knock starts a last cycle never asks who has
    closed."""
    catalog = _catalog()
    draw = fast_for(kit_for(catalog.resolve("scat").rules)).source
    middle = fast_for(kit_for(catalog.resolve("pagat").rules)).source
    assert "SWAPS" not in draw and "DISCARDS" in draw
    assert "SWAPS" in middle and "DISCARDS" not in middle
    assert kit_for(catalog.resolve("pagat").rules).last_cycle
    assert "rnd.closed" not in middle
