"""A simulated round that never ends is reported, not played for ever: the compiled round
and the rounds in lockstep stop at a turn cap (a parameter of the simulation, not of the
rules) with an error that names the composition, the round, its deal and the cap.

The composition that never ends is the issue's own contradiction ("a knock counts as a
pass" with "passing is forbidden"), which the loader refuses; the test builds it past the
contradiction table, as a composition the table missed would be built.
"""

from __future__ import annotations

import pickle
import random

import pytest
from never_ending import NEVER_ENDS, catalog, never_ending

from schwimmen.engine.compiled import MAX_TURNS, RoundTooLong, compile_round
from schwimmen.engine.hands import evaluator_for
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.rules import Rules

CAP = 2_000


def _decks(rules: Rules, count: int, seed: int = 1) -> list[list[int]]:
    rng = random.Random(seed)
    pack = list(evaluator_for(rules).pack)
    out = []
    for _ in range(count):
        deck = list(pack)
        rng.shuffle(deck)
        out.append(deck)
    return out


def test_the_composition_is_one_the_loader_refuses() -> None:
    with pytest.raises(SpecErrors):
        catalog().mutant("pagat", NEVER_ENDS)


def test_a_compiled_round_that_never_ends_stops_at_the_cap_naming_the_round() -> None:
    ruleset = never_ending()
    compiled = compile_round(ruleset.rules, max_turns=CAP)
    rng = random.Random(7)
    played = 0
    with pytest.raises(RoundTooLong) as caught:
        for deck in _decks(ruleset.rules, 50):
            played += 1
            compiled.play(deck, 3, rng.random, None)
    error = caught.value
    assert error.turns == CAP and error.players == 3
    assert error.where == f"round {played} of this simulation"
    text = str(error.named(ruleset.id))
    assert ruleset.id in text and f"round {played} " in text and "2,000 turns" in text
    assert "may never end" in text
    # the deal is the pack the round was dealt from, card by card
    assert len(error.deal.split()) == len(evaluator_for(ruleset.rules).pack)
    # a worker process hands it back to the parent whole
    again = pickle.loads(pickle.dumps(error.named(ruleset.id)))
    assert str(again) == text


def test_rounds_that_end_are_played_as_before_under_the_cap() -> None:
    rules = catalog().resolve("pagat").rules
    assert compile_round(rules).max_turns == MAX_TURNS
    capped = compile_round(rules, max_turns=CAP)
    free = compile_round(rules, max_turns=10 * MAX_TURNS)
    for seed, deck in enumerate(_decks(rules, 200)):
        a = capped.play(list(deck), 4, random.Random(seed).random, None)
        b = free.play(list(deck), 4, random.Random(seed).random, None)
        assert a == b


def test_a_batch_in_lockstep_stops_at_the_cap_naming_the_round() -> None:
    """Lockstep plays neither "a knock counts as a pass" nor "a knock needs a 31", and its
    random bot knocks wherever a knock is legal one time in ten, so no composition it
    plays leaves a round without an end; the cap is shown with a cap shorter than the
    rounds of pagat."""
    np = pytest.importorskip("numpy")
    from schwimmen.engine.lockstep import Lockstep

    rules = catalog().resolve("pagat").rules
    with pytest.raises(RoundTooLong) as caught:
        Lockstep(rules, max_turns=3).play(4, 20, np.random.default_rng(1))
    error = caught.value
    assert error.turns == 3 and error.players == 4
    assert error.where.endswith("of a batch of 20 played in lockstep")
    assert "pagat" in str(error.named("pagat"))
    full = Lockstep(rules).play(4, 200, np.random.default_rng(1))
    assert (full.reason >= 0).all()
