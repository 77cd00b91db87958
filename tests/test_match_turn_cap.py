"""The full engine stops a round that never ends: after ``max_turns`` moves of one round,
``Match.apply`` raises the same ``RoundTooLong`` as the simulation, naming the ruleset,
the round, its deal and the cap, and leaves the match as it was.

The composition that never ends is the one of tests/never_ending.py ("a knock counts as a
pass" with "passing is forbidden"), built past the contradiction table.
"""

from __future__ import annotations

import pickle
import random

import pytest
from never_ending import catalog, never_ending

from schwimmen.engine.bots import RandomBot
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.match import Match
from schwimmen.engine.turncap import MAX_TURNS, RoundTooLong
from schwimmen.protocol.cards import text

CAP = 300


def _play(match: Match, rng: random.Random, most: int) -> int:
    bot = RandomBot(rng)
    moves = 0
    while not match.over and moves < most:
        match.apply(bot.choose(match))
        moves += 1
    return moves


def test_a_round_that_never_ends_stops_at_the_cap_naming_it() -> None:
    ruleset = never_ending()
    match = Match(ruleset, 3, seed=4, max_turns=CAP)
    assert match.max_turns == CAP
    with pytest.raises(RoundTooLong) as caught:
        _play(match, random.Random(2), 10 * CAP)
    error = caught.value
    assert error.turns == CAP and error.players == 3
    assert error.where == "round 1 of this match" and error.composition == ruleset.id
    text_ = str(error)
    assert ruleset.id in text_ and "300 turns" in text_ and "may never end" in text_
    # the deal is the pack as the round was dealt from it, card by card
    assert len(error.deal.split()) == len(evaluator_for(ruleset.rules).pack)
    assert match.round.dealt and error.deal == " ".join(text(c) for c in match.round.dealt)
    # the move that met the cap was not played: the round is where it was, and stays so
    events = len(match.events)
    assert match.round.moves == CAP
    with pytest.raises(RoundTooLong):
        match.apply(match.legal_actions()[0])
    assert len(match.events) == events
    assert str(pickle.loads(pickle.dumps(error))) == text_


def test_a_match_of_rules_alone_raises_it_unnamed() -> None:
    rules = never_ending().rules
    match = Match(rules, 2, seed=1, max_turns=20)
    with pytest.raises(RoundTooLong) as caught:
        _play(match, random.Random(1), 1000)
    assert caught.value.composition is None and caught.value.turns == 20


def _longest_round(seed: int, cap: int) -> tuple[int, list[object]]:
    """The most moves any round of a pagat match took, and its events."""
    match = Match(catalog().resolve("pagat"), 4, seed=seed, max_turns=cap)
    longest = 0
    bot = RandomBot(random.Random(seed))
    while not match.over:
        played = match.round  # the round the move is made in, even if it ends it
        match.apply(bot.choose(match))
        longest = max(longest, played.moves)
    return longest, list(match.events)


def test_rounds_that_end_within_the_cap_are_played_as_without_it() -> None:
    """A cap of exactly the longest round's moves changes nothing; one less stops it."""
    assert Match(catalog().resolve("pagat"), 4).max_turns == MAX_TURNS
    longest, events = _longest_round(5, MAX_TURNS)
    assert longest > 1
    assert _longest_round(5, longest) == (longest, events)
    with pytest.raises(RoundTooLong):
        _longest_round(5, longest - 1)
