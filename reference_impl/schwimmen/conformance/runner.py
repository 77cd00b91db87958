"""Run fixtures against an implementation and classify every case.

Every case ends in exactly one of passed, failed (the implementation answered and the
answer differs), skipped (the implementation declined the case) or errored (it could not
answer: crash, timeout, garbage, or a case it reports it cannot run).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from schwimmen.conformance.compare import BadReply, Mismatch, compare
from schwimmen.conformance.fields import PROTOCOL_VERSION, excused
from schwimmen.conformance.fixtures import Case, Fixture, parameter_values
from schwimmen.spec.model import Ruleset

# The kinds whose outcome values are those of the position's hands as dealt.
POSITION_VALUES = ("hand-evaluation", "showdown")

Implementation = Callable[[Mapping[str, Any]], Mapping[str, Any]]


class Status(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    ERRORED = "errored"


@dataclass(frozen=True)
class CaseResult:
    """The verdict on one case.

    ``unjudged`` names the fields the implementation declared it does not report whose
    checks were therefore not judged; ``stderr`` is the tail of what the implementation
    wrote to stderr during the case, ``stderr_dropped`` how many bytes before it were not
    kept; ``spec`` is the ruleset judged under, so a report can quote its own sources."""

    fixture: Fixture
    case: Case
    ruleset: str
    status: Status
    mismatches: tuple[Mismatch, ...] = ()
    message: str = ""
    outcome: Mapping[str, Any] = field(default_factory=dict)
    unjudged: tuple[str, ...] = ()
    stderr: str = ""
    stderr_dropped: int = 0
    spec: Ruleset | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.fixture.id}[{self.ruleset}]"

    @property
    def kind(self) -> str:
        return self.fixture.kind

    @property
    def judged(self) -> bool:
        """Compared with the expectation: passed or failed (not skipped, not errored)."""
        return self.status in (Status.PASSED, Status.FAILED)


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


MAX_TEXT = 2000


def _text(value: Any, fallback: str) -> str:
    """A reason or message from the implementation, as bounded plain text."""
    if value is None or value == "":
        return fallback
    text = value if isinstance(value, str) else json.dumps(value, allow_nan=False)[:MAX_TEXT]
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + " [...]"


def judge(
    fixture: Fixture,
    case: Case,
    ruleset: Ruleset,
    answer: Mapping[str, Any],
    not_reported: frozenset[str] = frozenset(),
    protocol: int = PROTOCOL_VERSION,
) -> CaseResult:
    """The verdict on one answer. Never raises: an answer that cannot be judged (not the
    protocol's shape, anything unforeseen) is an errored case with the reason. An adapter
    of an earlier ``protocol`` version is not failed on checks added since."""
    try:
        result = _judge(fixture, case, ruleset, answer, not_reported, protocol)
        return replace(result, spec=ruleset)
    except BadReply as exc:
        message = f"the answer cannot be judged: {exc}"
    except Exception as exc:  # whatever an implementation sends must not end the run
        message = f"the answer cannot be judged: {type(exc).__name__}: {exc}"
    return CaseResult(
        fixture, case, ruleset.id, Status.ERRORED, message=message[:MAX_TEXT], spec=ruleset
    )


def _judge(
    fixture: Fixture,
    case: Case,
    ruleset: Ruleset,
    answer: Mapping[str, Any],
    not_reported: frozenset[str],
    protocol: int,
) -> CaseResult:
    status = answer.get("status")
    if status == "skipped":
        reason = _text(answer.get("reason"), "skipped without a reason")
        return CaseResult(fixture, case, ruleset.id, Status.SKIPPED, message=reason)
    if status != "ok":
        message = _text(answer.get("message"), f"status {_text(status, 'missing')}")
        return CaseResult(fixture, case, ruleset.id, Status.ERRORED, message=message)
    outcome = answer.get("outcome")
    if not isinstance(outcome, Mapping):
        message = "an ok answer without an outcome object"
        return CaseResult(fixture, case, ruleset.id, Status.ERRORED, message=message)
    steps = len(fixture.setup.get("steps", ()))
    dealt = fixture.setup.get("hands") if fixture.kind in POSITION_VALUES else None
    verdict = compare(
        case.expect,
        outcome,
        steps,
        not_reported,
        parameters=parameter_values(ruleset),
        hands=dealt,
        excused=excused(protocol, fixture.kind),
    )
    unjudged = tuple(sorted(verdict.unjudged))
    if verdict.mismatches:
        status_ = Status.FAILED
        message = ""
    elif verdict.judged:
        status_ = Status.PASSED
        message = ""
    else:
        status_ = Status.SKIPPED
        message = "every check is on a field the implementation does not report: " + ", ".join(
            unjudged
        )
    return CaseResult(
        fixture,
        case,
        ruleset.id,
        status_,
        tuple(verdict.mismatches),
        message,
        outcome=outcome,
        unjudged=unjudged,
    )


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
