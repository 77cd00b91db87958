"""A field no rule decides is not a difference: the suit of a hand whose two best suits
tie where the ruleset orders no suits (PROTOCOL.md, Hand values: what may vary)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from schwimmen.conformance.compare import compare
from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.conformance.runner import Status, judge
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog

TIED = ["10C", "10S", "7H"]  # clubs and spades both count 10


def _value(suit: str) -> dict[str, Any]:
    return {"values": {"P1": {"points": 10, "hand": "suit", "suit": suit}}}


def test_either_tied_suit_passes_where_no_suit_order_decides(catalog: Catalog) -> None:
    parameters = catalog.resolve("altenburg").values()
    assert parameters["comparison.suit_order"] == "none"
    verdict = compare(_value("C"), _value("S"), parameters=parameters, hands={"P1": TIED})
    assert not verdict.mismatches and verdict.judged
    # a suit that is not among the tied ones still differs
    wrong = compare(_value("C"), _value("H"), parameters=parameters, hands={"P1": TIED})
    assert [m.path for m in wrong.mismatches] == ["values.P1.suit"]


def test_a_suit_order_decides_the_suit(catalog: Catalog) -> None:
    parameters = catalog.resolve("dutch").values()
    assert parameters["comparison.suit_order"] != "none"
    verdict = compare(_value("C"), _value("S"), parameters=parameters, hands={"P1": TIED})
    assert [m.path for m in verdict.mismatches] == ["values.P1.suit"]


def test_the_hands_of_a_round_record_and_of_the_answer_decide_the_tie(catalog: Catalog) -> None:
    parameters = catalog.resolve("altenburg").values()
    expect = {"rounds": [{"values": {"P1": {"suit": "C"}}}]}
    record = {"values": {"P1": {"suit": "S"}}, "hands": {"P1": TIED}}
    assert not compare(expect, {"rounds": [record]}, parameters=parameters).mismatches
    other = {**record, "hands": {"P1": ["10C", "9S", "7H"]}}  # no tie: clubs count
    assert compare(expect, {"rounds": [other]}, parameters=parameters).mismatches
    state = {"values": {"P1": {"suit": "S"}}, "hands": {"P1": TIED}}
    assert not compare({"values": {"P1": {"suit": "C"}}}, state, parameters=parameters).mismatches


@pytest.mark.parametrize(("ruleset", "status"), [("altenburg", "passed"), ("pagat", "failed")])
def test_a_tied_hand_evaluation_is_judged_with_the_rulesets_suit_order(
    catalog: Catalog, ruleset: str, status: str
) -> None:
    """End to end through the runner (the position's hands, the ruleset's parameters): the
    reference's answer to evaluation/best-suit-of-two with a tied seat's suit swapped,
    against a case that pins the reference's suit."""
    spec = catalog.resolve(ruleset)
    fixture = next(f for f in load_fixtures()[0] if f.id == "evaluation/best-suit-of-two")
    case = fixture.applicable_case(spec)
    assert case is not None
    answer = dict(run_case(fixture.request(spec)))
    values = answer["outcome"]["values"]
    seat, cards = "P3", fixture.setup["hands"]["P3"]  # 9C 9S 8H: clubs and spades tie
    assert {c[-1] for c in cards if c.startswith("9")} == {"C", "S"}
    pinned = replace(case, expect={"values": {seat: {"suit": values[seat]["suit"]}}})
    other = "S" if values[seat]["suit"] == "C" else "C"
    swapped = {**values, seat: {**values[seat], "suit": other}}
    outcome = {**answer["outcome"], "values": swapped}
    result = judge(fixture, pinned, spec, {"status": "ok", "outcome": outcome})
    assert result.status is Status(status), result.mismatches
