"""What a case can now set up and state (issue 14 §2): starting match points, later rounds
as dealt, a round's ``lives_lost`` beside its ``losses``, and a state after a step that says
whether the round is still running and what the hands are worth."""

from __future__ import annotations

from typing import Any

from schwimmen.conformance.compare import compare
from schwimmen.conformance.fixtures import parameter_values
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog

POSITION = {
    "hands": {"P1": ["KS", "9S", "7D"], "P2": ["AH", "JH", "8C"], "P3": ["KC", "QC", "10D"]},
    "middle": ["7C", "8D", "9H"],
    "stock": ["AS", "KD", "QH"],
}
NEXT: dict[str, Any] = {
    "hands": {"P1": ["AS", "10S", "8S"], "P2": ["KD", "QD", "7H"], "P3": ["JC", "9C", "7S"]},
    "middle": ["QH", "10C", "8D"],
}
KNOCK = [{"P1": "knock"}, {"P2": "pass"}, {"P3": "pass"}]


def _run(catalog: Catalog, ruleset: str, **case: Any) -> dict[str, Any]:
    parameters = parameter_values(catalog.resolve(ruleset))
    request = {"kind": "match", "ruleset": {"id": ruleset, "parameters": parameters}}
    answer: dict[str, Any] = run_case({**request, "seats": 3, **POSITION, **case})
    return answer


def test_a_later_round_is_dealt_as_given(catalog: Catalog) -> None:
    for ruleset in ("pagat", "rules-page", "beginner-guide"):  # three ways of dealing
        outcome = _run(catalog, ruleset, steps=KNOCK, deals=[NEXT])["outcome"]
        assert outcome["hands"] == NEXT["hands"] and outcome["middle"] == NEXT["middle"]
        assert outcome["dealer"] == "P1" and outcome["to_move"] == "P2"


def test_later_rounds_come_one_way(catalog: Catalog) -> None:
    pack = [r + s for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    both = _run(catalog, "pagat", steps=KNOCK, deals=[NEXT], decks=[pack])
    assert both["status"] == "errored" and "case.decks and case.deals" in both["message"]
    stray = _run(catalog, "pagat", steps=KNOCK, deals=[{**NEXT, "discard": ["AD"]}])
    assert stray["status"] == "errored" and "discard pile" in stray["message"]


def test_match_points_are_set_up_only_in_a_series(catalog: Catalog) -> None:
    series = _run(catalog, "online", points={"P2": 4})
    assert series["outcome"]["points"] == {"P2": 4}
    single = _run(catalog, "pagat", points={"P2": 4})
    assert single["status"] == "errored" and "single match" in single["message"]


def test_lives_lost_is_what_the_match_took(catalog: Catalog) -> None:
    """A knocker with one life who is to lose two: the rules impose two, he loses one."""
    two = "rules-page+knocker-loses-two"
    without = {**NEXT, "hands": {s: h for s, h in NEXT["hands"].items() if s != "P1"}}
    outcome = _run(catalog, two, steps=KNOCK, lives={"P1": 1}, deals=[without])["outcome"]
    (record,) = outcome["rounds"]
    assert record["losses"] == {"P1": 2} and record["lives_lost"] == {"P1": 1}
    assert outcome["eliminated"] == ["P1"]


def test_a_state_reports_the_values_of_the_hands(catalog: Catalog) -> None:
    outcome = _run(catalog, "pagat", steps=KNOCK[:1], checkpoints=[1])["outcome"]
    assert outcome["states"]["1"]["values"]["P1"] == {
        "points": 19,
        "hand": "suit",
        "suit": "S",
        "maximum": False,
    }
    assert set(outcome["values"]) == {"P1", "P2", "P3"}


def test_round_over_after_a_step_is_read_from_the_round_records() -> None:
    outcome = {"rounds": [{"reason": "knock", "after_step": 3}], "states": {}}
    expect = {"after_step": {"2": {"round_over": False}, "3": {"round_over": True}}}
    verdict = compare(expect, outcome)
    assert verdict.mismatches == [] and verdict.judged == 2
    wrong = compare({"after_step": {"2": {"round_over": True}}}, outcome)
    assert [str(m) for m in wrong.mismatches] == [
        "after_step.2.round_over: expected true, got false"
    ]
    undated = {"rounds": [{"reason": "knock"}]}
    missing = compare({"after_step": {"2": {"round_over": False}}}, undated)
    assert "not reported" in str(missing.mismatches[0])
    declared = compare(
        {"after_step": {"2": {"round_over": False}}},
        undated,
        not_reported=frozenset({"rounds.after_step"}),
    )
    assert declared.mismatches == [] and declared.unjudged == {"rounds.after_step"}


def test_lives_lost_is_matched_like_losses() -> None:
    outcome = {"rounds": [{"lives_lost": {"P1": 1, "P2": 0}}]}
    assert compare({"end": {"lives_lost": {"P1": 1}}}, outcome).mismatches == []
    extra = compare({"end": {"lives_lost": {}}}, outcome)
    assert len(extra.mismatches) == 1, "a seat left out must lose nothing"
