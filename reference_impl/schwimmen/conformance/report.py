"""Reports of a suite run: pretty (terminal), JSON, JUnit XML, Markdown, and the
difference from a tracked earlier run.

Every failure shows what was expected against what came back, with the sources' own
words (or the stated default) that decide the case; the summary is a table per ruleset.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from schwimmen.conformance.harness import SuiteResult
from schwimmen.conformance.runner import CaseResult, Status

STYLE = {
    Status.PASSED: "green",
    Status.FAILED: "bold red",
    Status.SKIPPED: "yellow",
    Status.ERRORED: "bold magenta",
}


def per_ruleset(results: Iterable[CaseResult]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = defaultdict(lambda: {s.value: 0 for s in Status})
    for r in results:
        table[r.ruleset][r.status.value] += 1
    return dict(sorted(table.items()))


def _citations(result: CaseResult) -> list[str]:
    lines = [f"„{c.quote}“ — {c.label()}" for c in result.case.because]
    if result.case.defaults:
        lines.append(
            "rests on the stated default(s) "
            + ", ".join(result.case.defaults)
            + " (rules-matrix §4)"
        )
    return lines


def failure_text(result: CaseResult) -> list[str]:
    """Plain lines describing one failed or errored case."""
    lines = [
        f"{result.status.value.upper()} {result.fixture.id} under {result.ruleset}"
        f" — {result.fixture.title} ({result.case.label()})",
        f"  file: {result.fixture.file}",
    ]
    if result.message:
        lines.append(f"  message: {result.message}")
    for m in result.mismatches:
        lines.append(f"  - expected {m.path}: {_json(m.expected)}")
        lines.append(f"    actual   {m.path}: {_json(m.actual)}")
    for c in _citations(result):
        lines.append(f"  because: {c}")
    return lines


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except TypeError:
        return str(value)


def print_pretty(console: Console, suite: SuiteResult, *, show_passed: bool = False) -> None:
    for error in suite.load_errors:
        console.print(Text(str(error), style="red"))
    for r in suite.results:
        if r.status in (Status.FAILED, Status.ERRORED):
            body: list[Text] = []
            head = Text(f"{r.fixture.id}", style="bold")
            head.append(f"  under {r.ruleset}", style="cyan")
            head.append(f"  ({r.case.label()})", style="dim")
            body.append(head)
            body.append(Text(r.fixture.title))
            if r.message:
                body.append(Text(r.message, style="magenta"))
            for m in r.mismatches:
                line = Text(f"{m.path}\n", style="bold")
                line.append(f"  - expected {_json(m.expected)}\n", style="green")
                line.append(f"  + actual   {_json(m.actual)}", style="red")
                body.append(line)
            for c in _citations(r):
                body.append(Text(c, style="italic"))
            body.append(Text(r.fixture.file, style="dim"))
            console.print(Panel(Group(*body), title=r.status.value, border_style=STYLE[r.status]))
        elif show_passed:
            console.print(Text(f"passed {r.key}", style="green"))
    table = Table(title=f"{suite.implementation.get('name', '?')}: conformance by ruleset")
    table.add_column("ruleset", style="bold")
    for s in Status:
        table.add_column(s.value, justify="right", style=STYLE[s])
    for name, counts in per_ruleset(suite.results).items():
        table.add_row(name, *(str(counts[s.value]) for s in Status))
    totals = suite.counts()
    table.add_row("total", *(str(totals[s.value]) for s in Status), style="bold")
    console.print(table)
    verdict = "all cases pass" if suite.ok else "the implementation does not conform"
    console.print(
        Text(
            f"{len(suite.results)} cases from {len({r.fixture.id for r in suite.results})} "
            f"fixtures in {suite.seconds:.2f} s: {verdict}",
            style="bold green" if suite.ok else "bold red",
        )
    )
    closing = f"{totals['passed']} passed, {totals['failed']} failed"
    if totals["skipped"] or totals["errored"]:
        closing += f", {totals['skipped']} skipped, {totals['errored']} errored"
    console.print(closing)


def to_json(suite: SuiteResult) -> dict[str, Any]:
    return {
        "implementation": suite.implementation,
        "rulesets": suite.rulesets,
        "seconds": suite.seconds,
        "counts": suite.counts(),
        "by_ruleset": per_ruleset(suite.results),
        "load_errors": [str(e) for e in suite.load_errors],
        "results": [
            {
                "fixture": r.fixture.id,
                "title": r.fixture.title,
                "ruleset": r.ruleset,
                "case": r.case.label(),
                "status": r.status.value,
                "message": r.message,
                "mismatches": [
                    {"path": m.path, "expected": _plain(m.expected), "actual": _plain(m.actual)}
                    for m in r.mismatches
                ],
                "because": [c.to_json() for c in r.case.because],
                "defaults": list(r.case.defaults),
            }
            for r in suite.results
        ],
    }


def _plain(value: Any) -> Any:
    try:
        json.dumps(value)
    except TypeError:
        return str(value)
    return value


def to_junit(suite: SuiteResult) -> str:
    root = ET.Element("testsuites", name="schwimmen conformance")
    groups: dict[str, list[CaseResult]] = defaultdict(list)
    for r in suite.results:
        groups[r.ruleset].append(r)
    for ruleset, items in sorted(groups.items()):
        counts = {s: sum(1 for r in items if r.status is s) for s in Status}
        node = ET.SubElement(
            root,
            "testsuite",
            name=ruleset,
            tests=str(len(items)),
            failures=str(counts[Status.FAILED]),
            errors=str(counts[Status.ERRORED]),
            skipped=str(counts[Status.SKIPPED]),
        )
        for r in items:
            case = ET.SubElement(node, "testcase", classname=ruleset, name=r.fixture.id)
            text = "\n".join(failure_text(r))
            if r.status is Status.FAILED:
                ET.SubElement(case, "failure", message=r.case.label()).text = text
            elif r.status is Status.ERRORED:
                ET.SubElement(case, "error", message=r.message[:200]).text = text
            elif r.status is Status.SKIPPED:
                ET.SubElement(case, "skipped", message=r.message)
    return ET.tostring(root, encoding="unicode")


def to_markdown(suite: SuiteResult) -> str:
    lines = [
        f"# Conformance of {suite.implementation.get('name', '?')}",
        "",
        "| ruleset | passed | failed | skipped | errored |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, row in per_ruleset(suite.results).items():
        lines.append(
            f"| {name} | {row['passed']} | {row['failed']} | {row['skipped']} | {row['errored']} |"
        )
    t = suite.counts()
    lines.append(f"| **total** | {t['passed']} | {t['failed']} | {t['skipped']} | {t['errored']} |")
    bad = [r for r in suite.results if r.status in (Status.FAILED, Status.ERRORED)]
    if bad:
        lines += ["", "## Failures", ""]
        for r in bad:
            lines.append(f"### `{r.fixture.id}` under `{r.ruleset}`: {r.status.value}")
            lines.append("")
            lines.append(f"{r.fixture.title} ({r.case.label()})")
            lines.append("")
            if r.message:
                lines.append(f"> {r.message}")
                lines.append("")
            for m in r.mismatches:
                lines.append(
                    f"- `{m.path}`: expected `{_json(m.expected)}`, got `{_json(m.actual)}`"
                )
            for c in _citations(r):
                lines.append(f"- because: {c}")
            lines.append("")
    return "\n".join(lines) + "\n"


def track(suite: SuiteResult, path: Path) -> dict[str, list[str]]:
    """Compare with the statuses stored in ``path`` and store the new ones there.

    Returns what changed: newly failing (incl. errored), fixed, new cases, removed cases,
    and other status changes."""
    before: dict[str, str] = {}
    if path.is_file():
        try:
            before = json.loads(path.read_text(encoding="utf-8")).get("statuses", {})
        except (json.JSONDecodeError, AttributeError):
            before = {}
    now = {r.key: r.status.value for r in suite.results}
    bad = {Status.FAILED.value, Status.ERRORED.value}
    changes: dict[str, list[str]] = {
        "newly failing": [],
        "fixed": [],
        "new": [],
        "removed": [],
        "changed": [],
    }
    for key, status in sorted(now.items()):
        old = before.get(key)
        if old is None:
            changes["new"].append(f"{key}: {status}")
        elif old == status:
            continue
        elif status in bad and old not in bad:
            changes["newly failing"].append(f"{key}: {old} -> {status}")
        elif old in bad and status == Status.PASSED.value:
            changes["fixed"].append(f"{key}: {old} -> {status}")
        else:
            changes["changed"].append(f"{key}: {old} -> {status}")
    changes["removed"] = sorted(k for k in before if k not in now)
    path.write_text(json.dumps({"statuses": now}, indent=1, sort_keys=True), encoding="utf-8")
    return changes


def print_changes(console: Console, changes: dict[str, list[str]]) -> None:
    if not any(changes.values()):
        console.print("No change since the last tracked run.")
        return
    for title, items in changes.items():
        if items:
            console.print(Text(f"{title} ({len(items)})", style="bold"))
            for item in items:
                console.print(f"  {item}")
