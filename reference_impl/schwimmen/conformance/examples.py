"""A real request, its answer and a real report of the suite, for the guide "Test your
implementation": the request is a real fixture's, the answer the implementation's (the
reference engine's on the site), and the report the harness's own pretty report of a few
real cases, one answered wrongly on purpose, one skipped and one errored, so that the
guide shows what a reader's run prints.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.conformance.harness import SuiteResult
from schwimmen.conformance.plan import Suite
from schwimmen.conformance.report import print_pretty
from schwimmen.conformance.runner import CaseResult, judge
from schwimmen.spec.model import Ruleset

Implementation = Callable[[Mapping[str, Any]], Mapping[str, Any]]


@dataclass(frozen=True)
class Examples:
    """Real messages and a real report, made while the site builds."""

    ruleset: str
    request: Mapping[str, Any]
    answer: Mapping[str, Any]
    request_fixture: Fixture
    report: str
    failing_fixture: Fixture


def _pick(
    suite: Suite, ruleset: str, kind: str, want: Callable[[Fixture, Case], bool] = lambda f, c: True
) -> tuple[Fixture, Case] | None:
    """The fixture of ``kind`` under ``ruleset`` that ``want`` accepts and that quotes the
    fewest sources (so that the example stays short); ties go to the first id."""
    found = [
        (len(case.because), fixture.id, fixture, case)
        for fixture, case in suite.applying_to(ruleset)
        if fixture.kind == kind and want(fixture, case)
    ]
    if not found:
        return None
    _, _, fixture, case = min(found, key=lambda x: (x[0], x[1]))
    return fixture, case


def make_examples(
    rulesets: Mapping[str, Ruleset], suite: Suite, implementation: Implementation, ruleset_id: str
) -> Examples | None:
    """A request and its answer, and the pretty report of five real cases under ``ruleset_id``:
    three answered by ``implementation`` (the reference engine), one answered wrongly on
    purpose (the lives lost moved to another seat), one skipped and one errored."""
    if ruleset_id not in rulesets:
        return None
    rid = ruleset_id
    ruleset: Ruleset = rulesets[rid]
    small = _pick(
        suite,
        rid,
        "round",
        lambda f, c: 0 < len(f.setup.get("steps", ())) <= 2 and "end" in c.expect,
    )
    wrong = _pick(
        suite,
        rid,
        "showdown",
        lambda f, c: bool(c.because) and isinstance(c.expect.get("losses"), Mapping),
    )
    if small is None or wrong is None:
        return None
    request = small[0].request(ruleset)
    answer = implementation(request)

    results: list[CaseResult] = []
    passing = [p for p in suite.applying_to(rid) if p[0].kind == "hand-evaluation"][:2]
    for fixture, case in [small, *passing]:
        results.append(judge(fixture, case, ruleset, implementation(fixture.request(ruleset))))
    fixture, case = wrong
    real = dict(implementation(fixture.request(ruleset)))
    outcome = dict(real.get("outcome", {}))
    seats = [f"P{i}" for i in range(1, int(fixture.setup.get("seats", 2)) + 1)]
    expected: Mapping[str, Any] = case.expect["losses"]
    losers = [s for s in seats if expected.get(s)]
    others = [s for s in seats if s not in losers]
    if losers and others:
        outcome["losses"] = {others[0]: expected[losers[0]]}
    else:
        outcome["losses"] = {}
    results.append(judge(fixture, case, ruleset, {"status": "ok", "outcome": outcome}))
    skip = _pick(suite, rid, "match")
    if skip is not None:
        fixture_, case_ = skip
        results.append(
            judge(fixture_, case_, ruleset, {"status": "skipped", "reason": "no matches yet"})
        )
    err = _pick(suite, rid, "setup")
    if err is not None:
        fixture_, case_ = err
        results.append(
            judge(
                fixture_,
                case_,
                ruleset,
                {"status": "errored", "message": "cannot set up a table without a deal"},
            )
        )
    suite_result = SuiteResult(
        implementation={"name": "my-engine", "version": "0.1"},
        rulesets=[rid],
        results=results,
        seconds=0.05,
    )
    buffer = io.StringIO()
    console = Console(file=buffer, width=76, color_system=None, force_terminal=False)
    print_pretty(console, suite_result)
    return Examples(rid, request, answer, small[0], buffer.getvalue().rstrip(), wrong[0])
