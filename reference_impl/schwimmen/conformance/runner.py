"""Run fixtures against an implementation and classify every case.

Every case ends in exactly one of passed, failed (the implementation answered and the
answer differs), skipped (the implementation declined the case) or errored (it could not
answer: crash, timeout, garbage, or a case it reports it cannot run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from schwimmen.conformance.compare import Mismatch, compare
from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.spec.model import Ruleset

Implementation = Callable[[Mapping[str, Any]], Mapping[str, Any]]


class Status(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    ERRORED = "errored"


@dataclass(frozen=True)
class CaseResult:
    fixture: Fixture
    case: Case
    ruleset: str
    status: Status
    mismatches: tuple[Mismatch, ...] = ()
    message: str = ""
    outcome: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.fixture.id}[{self.ruleset}]"


def planned(
    fixtures: Iterable[Fixture], rulesets: Iterable[Ruleset]
) -> list[tuple[Fixture, Case, Ruleset]]:
    """Every (fixture, case, ruleset) to run: a case per fixture and ruleset, where one applies."""
    out = []
    rulesets = list(rulesets)
    for fixture in fixtures:
        for ruleset in rulesets:
            case = fixture.applicable_case(ruleset)
            if case is not None:
                out.append((fixture, case, ruleset))
    return out


def judge(fixture: Fixture, case: Case, ruleset: Ruleset, answer: Mapping[str, Any]) -> CaseResult:
    status = answer.get("status")
    if status == "skipped":
        return CaseResult(
            fixture, case, ruleset.id, Status.SKIPPED, message=str(answer.get("reason", ""))
        )
    if status != "ok" or not isinstance(answer.get("outcome"), Mapping):
        message = str(answer.get("message", "no outcome in the answer"))
        return CaseResult(fixture, case, ruleset.id, Status.ERRORED, message=message)
    outcome = answer["outcome"]
    steps = len(fixture.setup.get("steps", ()))
    mismatches = tuple(compare(case.expect, outcome, steps))
    status_ = Status.FAILED if mismatches else Status.PASSED
    return CaseResult(fixture, case, ruleset.id, status_, mismatches, outcome=outcome)


def run_in_process(
    plan: Iterable[tuple[Fixture, Case, Ruleset]], implementation: Implementation
) -> list[CaseResult]:
    results = []
    for fixture, case, ruleset in plan:
        try:
            answer = implementation(fixture.request(ruleset))
        except Exception as exc:  # an in-process implementation may raise anything
            answer = {"status": "errored", "message": f"{type(exc).__name__}: {exc}"}
        results.append(judge(fixture, case, ruleset, answer))
    return results
