"""The generated parts of the guide "Test your implementation" (its prose is
``docs/guides/test-your-implementation.md``).

What the guide shows is produced while the site builds, from the things it describes:
the request and the answer are a real fixture's request and the reference engine's
answer, the report is the harness's own pretty report of a few real cases (one answered
wrongly on purpose), the coverage figures come from the coverage module, and the
adapter's code is the example file itself.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.conformance.harness import SuiteResult
from schwimmen.conformance.plan import Suite
from schwimmen.conformance.report import print_pretty
from schwimmen.conformance.runner import CaseResult, judge
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.markup import (
    ADAPTER_EXAMPLE,
    GUIDE_TEST,
    admonition,
    code,
    esc,
    fixture_page,
    link,
    table,
)
from schwimmen.spec.model import Ruleset
from schwimmen.spec.pagedata import words

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


# ----------------------------------------------------------------------------- examples


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
    site: Site, suite: Suite, implementation: Implementation, ruleset_id: str
) -> Examples | None:
    """A request and its answer, and the pretty report of five real cases under ``ruleset_id``:
    three answered by ``implementation`` (the reference engine), one answered wrongly on
    purpose (the lives lost moved to another seat), one skipped and one errored."""
    if ruleset_id not in site.rulesets:
        return None
    rid = ruleset_id
    ruleset: Ruleset = site.rulesets[rid]
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


def _json_block(data: Any, title: str) -> str:
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return f'??? example "{title}"\n\n    ```json\n' + _indent(text) + "\n    ```\n"


def _indent(block: str) -> str:
    return "\n".join("    " + line if line.strip() else "" for line in block.splitlines())


# ----------------------------------------------------------------------------- the parts


def guide_parts(
    suite: Suite | None, adapter_code: str | None, examples: Examples | None
) -> dict[str, str]:
    """The generated parts of ``docs/guides/test-your-implementation.md``: the real request,
    answer and report, the coverage figures and the adapter's code. A part whose input is
    missing (a quick build without the examples) is left out."""
    here = GUIDE_TEST
    parts: dict[str, str] = {}
    if examples is not None:
        asked, failing = examples.request_fixture, examples.failing_fixture
        parts["test-guide-ruleset"] = code(examples.ruleset)
        parts["test-guide-request-fixture"] = link(here, fixture_page(asked.id), code(asked.id))
        parts["test-guide-failing-fixture"] = link(here, fixture_page(failing.id), code(failing.id))
        parts["test-guide-request"] = "\n".join(
            [
                _json_block(
                    {"cmd": "run", "seq": 1, "case": examples.request},
                    words()("testguide.request", title=asked.title),
                ),
                _json_block({"seq": 1, **examples.answer}, words()("testguide.answer")),
            ]
        )
        parts["test-guide-report"] = f"```text\n{examples.report}\n```"
    if suite is not None:
        parts.update(coverage_parts(suite))
    if adapter_code is not None:
        parts["adapter-example"] = f'```js title="{ADAPTER_EXAMPLE}"\n{adapter_code.rstrip()}\n```'
    return parts


def coverage_parts(suite: Suite) -> dict[str, str]:
    """The figures of ``schwimmen conformance coverage`` and the values no case pins."""
    cov = suite.coverage
    pinned = [n for n, ids in cov.disagreements.items() if ids]
    gaps = cov.gaps
    parts = {
        "coverage-values": str(len(cov.values)),
        "coverage-values-pinned": str(len(cov.values) - len(gaps)),
        "coverage-disagreements": str(len(cov.disagreements)),
        "coverage-disagreements-pinned": str(len(pinned)),
    }
    out: list[str] = []
    if gaps:
        rows = [
            [code(g.param), code(json.dumps(g.value, ensure_ascii=False)), esc(g.reason())]
            for g in gaps
        ]
        say = words()
        header = [say(f"testguide.head.{k}") for k in ("parameter", "value", "why-not-pinned")]
        title = say("testguide.not-pinned", n=len(gaps))
        out.append(admonition("info", title, table(header, rows), collapsible=True))
    if cov.unpinned:
        out.append(words()("testguide.unpinned", ids=", ".join(cov.unpinned)))
    parts["coverage-gaps"] = "\n\n".join(out)
    return parts
