"""An answer of another JSON type than expected is an answer that differs (failed, with
a mismatch that names both types); only an answer that is not the protocol's shape at
all is errored."""

from __future__ import annotations

from typing import Any

import pytest

from schwimmen.conformance.compare import BadReply, compare
from schwimmen.conformance.fixtures import load_fixtures, select
from schwimmen.conformance.runner import Status, judge
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog


@pytest.mark.parametrize(
    ("expect", "outcome", "note"),
    [
        ({"middle": None}, {"middle": ["7C", "8D", "9H"]}, "expected null, got a list"),
        ({"to_move": "P1"}, {"to_move": {"seat": "P1"}}, "expected a string, got an object"),
        ({"hands": {"P1": ["7C"]}}, {"hands": {"P1": "7C"}}, "expected a list, got a string"),
        ({"values": {"P1": {"points": 31}}}, {"values": []}, "expected an object, got a list"),
        ({"swimming": ["P2"]}, {"swimming": [2]}, ""),
        ({"match_over": True}, {"match_over": "yes"}, "expected a boolean, got a string"),
    ],
)
def test_a_value_of_another_type_is_a_mismatch(
    expect: dict[str, Any], outcome: dict[str, Any], note: str
) -> None:
    verdict = compare(expect, outcome)
    assert len(verdict.mismatches) == 1
    assert str(verdict.mismatches[0]).endswith(f"({note})" if note else "[2]")


@pytest.mark.parametrize(
    ("expect", "outcome"),
    [
        ({"rounds": [{"reason": "knock"}]}, {"rounds": {"reason": "knock"}}),
        ({"rounds": [{"reason": "knock"}]}, {"rounds": ["knock"]}),
        ({"end": {"reason": "knock"}}, {"rounds": [5]}),
        ({"legal_includes": ["pass"]}, {"legal": "pass"}),
        ({"steps": {"1": "accepted"}}, {"steps": 5}),
    ],
)
def test_what_is_not_the_protocols_shape_cannot_be_judged(
    expect: dict[str, Any], outcome: dict[str, Any]
) -> None:
    with pytest.raises(BadReply):
        compare(expect, outcome)


def test_a_list_for_a_hidden_middle_fails_the_case(catalog: Catalog) -> None:
    """The engine in the wild that shows a face-down middle: judged, not errored."""
    ruleset = catalog.resolve("beginner-guide+hidden-middle")
    fixtures = select(load_fixtures()[0], pattern="hidden-middle-knock")
    fixture = fixtures[0]
    case = fixture.applicable_case(ruleset)
    assert case is not None and case.expect.get("middle", "absent") is None
    answer = dict(run_case(fixture.request(ruleset)))
    answer["outcome"] = {**answer["outcome"], "middle": ["10S", "8D", "7C"]}
    result = judge(fixture, case, ruleset, answer)
    assert result.status is Status.FAILED, result.message
    assert [m.path for m in result.mismatches] == ["middle"]
    assert "expected null, got a list" in str(result.mismatches[0])
