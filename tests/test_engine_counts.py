"""A random bot reads a decision's legal list without the list: ``Round.counts`` and
``Round.move_option`` make only the action picked. They must count what the list holds and
give the very object it holds there, in every ruleset and every phase, so that the bot
picks the same action for the same random draws as one that reads the whole list. The
observation names a counted decision's actions without the list (``Round.legal_texts``):
the texts must be the list's, in its order."""

from __future__ import annotations

import random
from functools import cache

import pytest

from schwimmen.conformance.harness import default_rulesets
from schwimmen.engine.bots import KNOCK_PROBABILITY, RandomBot
from schwimmen.engine.match import Match
from schwimmen.protocol.actions import Action
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset


@cache
def _catalog() -> Catalog:
    return Catalog.load()


def _ruleset(name: str) -> Ruleset:
    return _catalog().resolve(name)


def _listed_choice(match: Match, rng: random.Random) -> Action:
    """The random bot's policy read off the whole legal list (moves, then knocks)."""
    moves, knocks = match.legal_split()
    if knocks and (not moves or rng.random() < KNOCK_PROBABILITY):
        return knocks[int(rng.random() * len(knocks))]
    return moves[int(rng.random() * len(moves))]


@pytest.mark.parametrize("name", default_rulesets(_catalog()))
def test_counted_options_are_the_legal_list(name: str) -> None:
    ruleset = _ruleset(name)
    rng = random.Random(name)
    seats = min(ruleset.rules.players.min + 1, ruleset.rules.players.max)
    decisions = 0
    for _ in range(3):
        match = Match(ruleset, seats, seed=rng.randrange(1 << 30), lives=2)
        while not match.over and decisions < 3_000:
            decisions += 1
            # what the bot's counting gives, on a copy where nothing was listed yet
            twin = match.clone()
            texts = twin.round.legal_texts()
            moves, knocks = twin.round.counts()
            picked = [twin.round.move_option(i) for i in range(moves)]
            _legal, listed_moves, listed_knocks = match.round.options()
            assert (moves, knocks) == (listed_moves, listed_knocks)
            listed = match.legal_actions()
            assert picked == listed[:moves]
            assert texts == [action.text for action in listed]
            # the same draws pick the same action, and the action applies as one listed
            state = rng.getstate()
            counted = RandomBot(rng).choose(twin)
            rng.setstate(state)
            assert counted == _listed_choice(match, rng)
            twin.apply(counted)
            match.apply(counted)
            assert twin.events == match.events


def test_the_counted_move_is_the_listed_object() -> None:
    """In the commonest decision (three cards against a face-up middle) the move made
    from the counts is the legal list's own object, which apply takes without asking."""
    match = Match(_ruleset("pagat"), 4, seed=3)
    while match.round.phase.value != "turn":
        match.apply(match.legal_actions()[0])
    rnd = match.round
    moves, _knocks = rnd.counts()
    made = [rnd.move_option(i) for i in range(moves)]
    assert [a is b for a, b in zip(made, rnd.legal_actions(), strict=False)] == [True] * moves


@pytest.mark.parametrize("name", default_rulesets(_catalog()))
def test_counted_kinds_are_the_listed_moves_kinds(name: str) -> None:
    """A decision counted without a list names the kinds of its moves in the list's
    order (the fuzzer's case maker picks a kind of move by them); a decision that made
    its list names none."""
    ruleset = _ruleset(name)
    rng = random.Random(name)
    seats = min(ruleset.rules.players.min + 1, ruleset.rules.players.max)
    counted = listed = 0
    for _ in range(3):
        match = Match(ruleset, seats, seed=rng.randrange(1 << 30), lives=2)
        for _step in range(1_000):
            if match.over:
                break
            twin = match.clone()
            moves, _knocks = twin.round.counts()
            kinds = twin.round.counted_kinds(moves)
            actions = match.legal_actions()
            if kinds is None:
                listed += 1
                assert twin.round.counted_kinds(moves) is None
            else:
                counted += 1
                assert kinds == tuple(action.kind for action in actions[:moves])
            match.apply(actions[int(rng.random() * len(actions))])
    assert counted + listed > 0
    if name in ("pagat", "scat"):  # a middle game and a draw game, counted in their turns
        assert counted > 0
