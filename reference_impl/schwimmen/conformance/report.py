"""Reports of a suite run: pretty (terminal), JSON, JUnit XML and Markdown.

Every failure shows what was expected against what came back, with the sources' own
words (or the stated default) that decide the case; the summary is a table per ruleset
and one per kind of case (judged, passed, failed, errored, skipped), and the last line
is the verdict with its reason.

Whatever an implementation sends ends up in a report as text, so every format is made
safe for its reader: JSON is strict (RFC 8259: no NaN, no Infinity, no lone
surrogates), XML holds no character XML forbids, and the terminal gets no control
characters to obey.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree as ET

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from schwimmen.conformance.compare import NOT_REPORTED, Mismatch, show
from schwimmen.conformance.harness import SuiteResult
from schwimmen.conformance.runner import CaseResult, Status
from schwimmen.spec.model import Ruleset, Setting
from schwimmen.spec.present import provenance_summary, value_text
from schwimmen.spec.printable import printable

STYLE = {
    Status.PASSED: "green",
    Status.FAILED: "bold red",
    Status.SKIPPED: "yellow",
    Status.ERRORED: "bold magenta",
}
KIND_COLUMNS = ("judged", "passed", "failed", "errored", "skipped")
# Errored cases that share one message are shown once, beyond this many.
GROUP_AFTER = 3
SHORT = {"hand-evaluation": "hands"}
STDERR_SHOWN = 2000


def per_ruleset(results: Iterable[CaseResult]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = defaultdict(lambda: {s.value: 0 for s in Status})
    for r in results:
        table[r.ruleset][r.status.value] += 1
    return dict(sorted(table.items()))


def _own_sources(spec: Ruleset) -> set[str]:
    """The sources a ruleset's own rules quote."""
    return {c.source for s in spec.settings.values() for c in s.provenance.citations}


def _setting_lines(ruleset: str, settings: list[Setting]) -> tuple[list[str], set[str]]:
    """The settings a case hinges on, as the ruleset states them; settings that quote the
    same words share one line. Also returns the quotes shown."""
    by_quote: dict[str, list[Setting]] = {}
    lines = []
    for setting in settings:
        prov = setting.provenance
        if prov.citations:
            by_quote.setdefault(prov.citations[0].quote, []).append(setting)
            continue
        text = prov.reading or prov.why
        head = f"{ruleset}: {_value(setting)} ({provenance_summary(setting.provenance)})"
        lines.append(f"{head}: {text}" if text else head)
    for quote, group in by_quote.items():
        c = group[0].provenance.citations[0]
        values = ", ".join(_value(s) for s in group)
        kinds = sorted({provenance_summary(s.provenance) for s in group})
        lines.insert(0, f"{ruleset}: {values} ({', '.join(kinds)}): „{quote}“ — {c.label()}")
    return lines, set(by_quote)


def _value(setting: Setting) -> str:
    return f"{setting.param} = {value_text(setting.param, setting.value)}"


def _citations(result: CaseResult) -> list[str]:
    """What decides the case, the ruleset under test first: the rules the case hinges on
    as this ruleset states them (with its own quotes), then the fixture's other quotes,
    its own sources before those of other rulesets, which are labelled as such."""
    spec = result.spec
    lines: list[str] = []
    own: set[str] = set()
    quoted: set[str] = set()
    if spec is not None:
        own = _own_sources(spec)
        settings = [spec.settings[p] for p in result.case.where if p in spec.settings]
        lines, quoted = _setting_lines(spec.id, settings)
    ordered = sorted(result.case.because, key=lambda c: bool(own) and c.source not in own)
    for c in ordered:
        if c.quote in quoted:
            continue
        other = own and c.source not in own
        label = f" (a source of other rulesets, not {result.ruleset}'s)" if other else ""
        lines.append(f"„{c.quote}“ — {c.label()}{label}")
    if result.case.defaults:
        lines.append(
            "rests on the stated default(s) "
            + ", ".join(result.case.defaults)
            + " (rules-matrix §4)"
        )
    return lines


def _step_text(result: CaseResult, path: str) -> str:
    """``steps.3`` → the action of step 3, so a mismatch says which move it was."""
    match = re.match(r"^(?:after_step\.\d+\.)?steps\.(\d+)$", path)
    if not match:
        return ""
    steps = result.fixture.setup.get("steps", ())
    index = int(match.group(1)) - 1
    if not 0 <= index < len(steps):
        return ""
    (seat, action), *_ = steps[index].items()
    return f" ({seat}: {action})"


@dataclass(frozen=True)
class Shown:
    """One difference as the reports print it: an expected/actual pair, or a sentence
    (``expected`` None) where a pair would read backwards."""

    head: str
    expected: str | None = None
    actual: str | None = None


_STEP = re.compile(r"^steps\.(\d+)$")


def _numbers(numbers: list[int]) -> str:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs]
    return ("steps " if len(numbers) > 1 else "step ") + ", ".join(parts)


def _one(result: CaseResult, m: Mismatch) -> Shown:
    last = m.path.rsplit(".", 1)[-1]
    if last in ("legal_excludes", "legal_includes") and m.actual is not NOT_REPORTED:
        if last == "legal_excludes":
            names = ", ".join(m.actual)
            verb = "was" if len(m.actual) == 1 else "were"
            return Shown(f"{m.path}: {names} must not be legal, but {verb} offered")
        names = ", ".join(m.expected)
        verb = "was" if len(m.expected) == 1 else "were"
        offered = ", ".join(m.actual) or "nothing"
        return Shown(
            f"{m.path}: {names} must be legal, but {verb} not offered (offered: {offered})"
        )
    return Shown(
        f"{m.path}{_step_text(result, m.path)}" + (f" ({m.note})" if m.note else ""),
        printable(show(m.expected)),
        printable(show(m.actual)),
    )


def shown(result: CaseResult) -> list[Shown]:
    """The differences of a case, the first diverging step in full and the steps after it
    summed up (once one step went another way, the later ones differ as a consequence)."""
    steps = [m for m in result.mismatches if _STEP.match(m.path)]
    later = {id(m) for m in steps[1:]}
    out = []
    for m in result.mismatches:
        if id(m) in later:
            continue
        out.append(_one(result, m))
        if steps and m is steps[0] and later:
            first = int(m.path.split(".")[1])
            rest = _numbers([int(x.path.split(".")[1]) for x in steps[1:]])
            out.append(Shown(f"{rest} differ as well, after the divergence at step {first}"))
    return out


def _stderr_tail(result: CaseResult) -> str:
    text = result.stderr
    if len(text) > STDERR_SHOWN:
        text = "[...]" + text[-STDERR_SHOWN:]
    if result.stderr_dropped:
        text = f"[{result.stderr_dropped} earlier bytes of stderr dropped]\n" + text
    return printable(text.rstrip("\n"))


def failure_text(result: CaseResult) -> list[str]:
    """Plain lines describing one failed or errored case."""
    lines = [
        f"{result.status.value.upper()} {result.fixture.id} under {result.ruleset}"
        f" — {result.fixture.title} ({result.case.label()})",
        f"  file: {result.fixture.file}",
    ]
    if result.message:
        lines.append(f"  message: {printable(result.message)}")
    for item in shown(result):
        if item.expected is None:
            lines.append(f"  - {item.head}")
        else:
            lines.append(f"  - expected {item.head}: {item.expected}")
            lines.append(f"    actual   {item.head}: {item.actual}")
    if result.unjudged:
        lines.append(f"  not judged (not reported): {', '.join(result.unjudged)}")
    for c in _citations(result):
        lines.append(f"  because: {c}")
    if result.stderr or result.stderr_dropped:
        lines.append("  stderr:")
        lines.extend(f"    {line}" for line in _stderr_tail(result).splitlines())
    return lines


def _panel(r: CaseResult) -> Panel:
    body: list[Text] = []
    head = Text(f"{r.fixture.id}", style="bold")
    head.append(f"  under {r.ruleset}", style="cyan")
    head.append(f"  ({r.case.label()})", style="dim")
    body.append(head)
    body.append(Text(r.fixture.title))
    if r.message:
        body.append(Text(printable(r.message), style="magenta"))
    for item in shown(r):
        if item.expected is None:
            body.append(Text(item.head, style="bold"))
            continue
        line = Text(f"{item.head}\n", style="bold")
        line.append(f"  - expected {item.expected}\n", style="green")
        line.append(f"  + actual   {item.actual}", style="red")
        body.append(line)
    if r.unjudged:
        body.append(Text(f"not judged (not reported): {', '.join(r.unjudged)}", style="yellow"))
    for c in _citations(r):
        body.append(Text(c, style="italic"))
    if r.stderr or r.stderr_dropped:
        body.append(Text("stderr:\n" + _stderr_tail(r), style="dim"))
    body.append(Text(r.fixture.file, style="dim"))
    return Panel(Group(*body), title=r.status.value, border_style=STYLE[r.status])


def _grouped(results: list[CaseResult]) -> list[CaseResult | tuple[str, list[CaseResult]]]:
    """Failed cases one by one; errored cases that share a message, beyond a few, as one
    group (an implementation that cannot start errs every case the same way)."""
    by_message: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        if r.status is Status.ERRORED:
            by_message[r.message].append(r)
    out: list[CaseResult | tuple[str, list[CaseResult]]] = []
    shown: set[str] = set()
    for r in results:
        if r.status is Status.FAILED:
            out.append(r)
        elif r.status is Status.ERRORED:
            same = by_message[r.message]
            if len(same) <= GROUP_AFTER:
                out.append(r)
            elif r.message not in shown:
                shown.add(r.message)
                out.append((r.message, same))
    return out


def _group_panel(message: str, results: list[CaseResult]) -> Panel:
    keys = [r.key for r in results]
    listed = ", ".join(keys[:10]) + (f" and {len(keys) - 10} more" if len(keys) > 10 else "")
    body = [
        Text(f"{len(results)} cases errored with the same message", style="bold"),
        Text(printable(message), style="magenta"),
        Text(listed, style="dim"),
    ]
    return Panel(Group(*body), title="errored", border_style=STYLE[Status.ERRORED])


def print_pretty(console: Console, suite: SuiteResult, *, show_passed: bool = False) -> None:
    for error in suite.load_errors:
        console.print(Text(str(error), style="red"))
    for item in _grouped(suite.results):
        if isinstance(item, tuple):
            console.print(_group_panel(*item))
        else:
            console.print(_panel(item))
    if show_passed:
        for r in suite.results:
            if r.status is Status.PASSED:
                console.print(Text(f"passed {r.key}", style="green"))
    name = printable(str(suite.implementation.get("name", "?")))
    console.print(Text(f"{name}: {rulesets_line(suite)}", style="bold"))
    by_kind = suite.by_kind()
    table = Table(title="passed / judged, by ruleset and kind of case")
    table.add_column("ruleset", style="bold")
    for kind in by_kind:
        table.add_column(SHORT.get(kind, kind), justify="right")
    table.add_column("errored", justify="right", style=STYLE[Status.ERRORED])
    table.add_column("skipped", justify="right", style=STYLE[Status.SKIPPED])
    for ruleset, rows in suite.by_ruleset_kind().items():
        cells = [_cell(rows.get(kind)) for kind in by_kind]
        errored = sum(row["errored"] for row in rows.values())
        skipped = sum(row["skipped"] for row in rows.values())
        table.add_row(ruleset, *cells, str(errored), str(skipped))
    totals = suite.counts()
    table.add_row(
        "total",
        *(_cell(row) for row in by_kind.values()),
        str(totals["errored"]),
        str(totals["skipped"]),
        style="bold",
    )
    console.print(table)
    kinds = Table(title="by kind of case")
    kinds.add_column("kind", style="bold")
    for column in KIND_COLUMNS:
        style = STYLE[Status(column)] if column != "judged" else "bold"
        kinds.add_column(column, justify="right", style=style)
    for kind, row in suite.by_kind().items():
        kinds.add_row(kind, *(str(row[c]) for c in KIND_COLUMNS))
    console.print(kinds)
    if suite.fixed_rules:
        console.print(_agreement_table(suite))
    if suite.version_line():
        console.print(Text(f"{name} {suite.version_line()}.", style="yellow"))
    unclaimed = suite.unclaimed_line()
    if suite.named and unclaimed and unclaimed not in suite.verdict().line:
        console.print(Text(unclaimed, style="yellow"))
    unjudged = _unjudged_counts(suite.results)
    if unjudged:
        declared = ", ".join(f"{f} ({n} cases)" for f, n in unjudged.items())
        console.print(
            Text(f"not judged, declared as not reported by the implementation: {declared}")
        )
    verdict = suite.verdict()
    judged = totals["passed"] + totals["failed"]
    console.print(
        Text(
            f"{len(suite.results)} cases from {len({r.fixture.id for r in suite.results})} "
            f"fixtures in {suite.seconds:.2f} s: {verdict.line}",
            style="bold green" if verdict.ok else "bold red",
        )
    )
    console.print(
        f"{judged} judged: {totals['passed']} passed, {totals['failed']} failed; "
        f"{totals['errored']} errored, {totals['skipped']} skipped"
    )


def fixed_rules_line(suite: SuiteResult) -> str:
    """What a run of a fixed-rules engine shows: agreement with each ruleset, not a claim."""
    name = printable(str(suite.implementation.get("name", "?")))
    errored = f", {suite.positions_errored} of them errored" if suite.positions_errored else ""
    return (
        f"{name} plays rules of its own (fixed_rules): {suite.positions} positions were sent"
        f"{errored}, each answer judged against every ruleset; the table says how far its "
        "answers agree with each, not which ruleset it plays"
    )


def _agreement_table(suite: SuiteResult) -> Table:
    table = Table(title=fixed_rules_line(suite))
    table.add_column("ruleset", style="bold", no_wrap=True)
    for column in KIND_COLUMNS:
        style = STYLE[Status(column)] if column != "judged" else "bold"
        table.add_column(column, justify="right", style=style)
    table.add_column("agrees on")
    for row in suite.agreement():
        cells = [str(getattr(row, c)) for c in KIND_COLUMNS]
        table.add_row(row.ruleset, *cells, row.short(), style="green" if row.full else "")
    return table


def rulesets_line(suite: SuiteResult) -> str:
    """Which rulesets ran, in one short line: the default run by its counts (every ruleset,
    and every house rule on the ruleset it comes from), named ones by name (the first three
    of many), which run without house rules unless named with them (pagat+no-triples)."""
    count = len(suite.rulesets)
    if suite.named:
        note = "named with --ruleset; no house rules unless named"
        if count <= 3:
            return f"{', '.join(suite.rulesets)} ({note})"
        return f"{count} rulesets: {', '.join(suite.rulesets[:3])}, … ({note})"
    houses = sum(1 for name in suite.rulesets if "+" in name)
    return f"all {count}: {count - houses} rulesets and {houses} house rules"


def _cell(row: dict[str, int] | None) -> Text:
    if row is None:
        return Text("–", style="dim")
    style = "red" if row["failed"] else ("green" if row["judged"] else "yellow")
    return Text(f"{row['passed']}/{row['judged']}", style=style)


def _unjudged_counts(results: Iterable[CaseResult]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for r in results:
        for name in r.unjudged:
            counts[name] += 1
    return dict(sorted(counts.items()))


def strict(value: Any) -> Any:
    """``value`` as strict JSON data: non-finite numbers and anything JSON cannot hold
    become strings, lone surrogates are escaped, keys become strings."""
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {strict(str(k)): strict(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [strict(v) for v in value]
    return strict(show(value))


def dumps(data: Any, indent: int | None = 2) -> str:
    """Strict JSON text (RFC 8259), whatever ``data`` holds."""
    return json.dumps(strict(data), indent=indent, ensure_ascii=False, allow_nan=False)


def to_json(suite: SuiteResult) -> dict[str, Any]:
    verdict = suite.verdict()
    data = {
        "implementation": suite.implementation,
        "rulesets": suite.rulesets,
        "seconds": suite.seconds,
        "verdict": {"ok": verdict.ok, "reason": verdict.line},
        "counts": suite.counts(),
        "by_ruleset": per_ruleset(suite.results),
        "by_kind": suite.by_kind(),
        "by_ruleset_kind": suite.by_ruleset_kind(),
        "rulesets_named": suite.named,
        "fixed_rules": suite.fixed_rules,
        "protocol": suite.protocol,
        "protocol_note": suite.version_line(),
        "positions": suite.positions,
        "positions_errored": suite.positions_errored,
        "agreement": [a.to_json() for a in suite.agreement()] if suite.fixed_rules else [],
        "not_reported": list(suite.not_reported),
        "load_errors": [str(e) for e in suite.load_errors],
        "results": [
            {
                "fixture": r.fixture.id,
                "title": r.fixture.title,
                "kind": r.kind,
                "ruleset": r.ruleset,
                "case": r.case.label(),
                "status": r.status.value,
                "message": r.message,
                "mismatches": [
                    {
                        "path": m.path,
                        "step": _step_text(r, m.path).strip(" ()") or None,
                        "expected": _plain(m.expected),
                        "actual": _plain(m.actual),
                        **({"note": m.note} if m.note else {}),
                    }
                    for m in r.mismatches
                ],
                "not_judged": list(r.unjudged),
                "stderr": r.stderr,
                "stderr_dropped": r.stderr_dropped,
                "because": [c.to_json() for c in r.case.because],
                "defaults": list(r.case.defaults),
            }
            for r in suite.results
        ],
    }
    result: dict[str, Any] = strict(data)
    return result


def _plain(value: Any) -> Any:
    """A mismatch's value as data; a missing one as the words the reports use."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return show(value)
    return value


# XML 1.0 forbids C0 controls but tab, newline and carriage return, surrogates, U+FFFE/F.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


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
            name=_xml(ruleset),
            tests=str(len(items)),
            failures=str(counts[Status.FAILED]),
            errors=str(counts[Status.ERRORED]),
            skipped=str(counts[Status.SKIPPED]),
        )
        for r in items:
            case = ET.SubElement(node, "testcase", classname=_xml(ruleset), name=_xml(r.fixture.id))
            text = _xml("\n".join(failure_text(r)))
            if r.status is Status.FAILED:
                ET.SubElement(case, "failure", message=_xml(r.case.label())).text = text
            elif r.status is Status.ERRORED:
                ET.SubElement(case, "error", message=_xml(r.message[:200])).text = text
            elif r.status is Status.SKIPPED:
                ET.SubElement(case, "skipped", message=_xml(r.message))
    verdict = suite.verdict()
    properties = ET.SubElement(root, "properties")
    ET.SubElement(properties, "property", name="verdict", value=_xml(verdict.line))
    for kind, row in suite.by_kind().items():
        for column in KIND_COLUMNS:
            ET.SubElement(properties, "property", name=f"{kind}.{column}", value=str(row[column]))
    if suite.fixed_rules:
        ET.SubElement(
            properties, "property", name="fixed_rules", value=_xml(fixed_rules_line(suite))
        )
        ET.SubElement(properties, "property", name="positions", value=str(suite.positions))
        for a in suite.agreement():
            for column in KIND_COLUMNS:
                name = f"agreement.{a.ruleset}.{column}"
                ET.SubElement(
                    properties, "property", name=_xml(name), value=str(getattr(a, column))
                )
            ET.SubElement(
                properties, "property", name=_xml(f"agreement.{a.ruleset}"), value=_xml(a.line())
            )
    if suite.version_line():
        ET.SubElement(properties, "property", name="protocol", value=_xml(suite.version_line()))
    return ET.tostring(root, encoding="unicode")


def to_markdown(suite: SuiteResult) -> str:
    name = printable(str(suite.implementation.get("name", "?")))
    verdict = suite.verdict()
    lines = [
        f"# Conformance of {name}",
        "",
        f"**{'Conforms' if verdict.ok else 'Does not pass'}**: {verdict.line}",
        "",
        f"Rulesets: {rulesets_line(suite)}.",
        "",
        "| ruleset | passed | failed | skipped | errored |",
        "|---|---:|---:|---:|---:|",
    ]
    for ruleset, row in per_ruleset(suite.results).items():
        lines.append(
            f"| {ruleset} | {row['passed']} | {row['failed']} | {row['skipped']} "
            f"| {row['errored']} |"
        )
    t = suite.counts()
    lines.append(f"| **total** | {t['passed']} | {t['failed']} | {t['skipped']} | {t['errored']} |")
    lines += ["", "| kind | " + " | ".join(KIND_COLUMNS) + " |", "|---|" + "---:|" * 5]
    for kind, row in suite.by_kind().items():
        lines.append(f"| {kind} | " + " | ".join(str(row[c]) for c in KIND_COLUMNS) + " |")
    if suite.version_line():
        lines += ["", f"{name} {suite.version_line()}."]
    if suite.fixed_rules:
        lines += [
            "",
            f"{fixed_rules_line(suite)}.",
            "",
            "| ruleset | " + " | ".join(KIND_COLUMNS) + " | agreement |",
        ]
        lines.append("|---|" + "---:|" * 5 + "---|")
        for a in suite.agreement():
            cells = " | ".join(str(getattr(a, c)) for c in KIND_COLUMNS)
            lines.append(f"| {a.ruleset} | {cells} | {a.line()} |")
    bad = [r for r in suite.results if r.status in (Status.FAILED, Status.ERRORED)]
    if bad:
        lines += ["", "## Failures", ""]
        for r in bad:
            lines.append(f"### `{r.fixture.id}` under `{r.ruleset}`: {r.status.value}")
            lines.append("")
            lines.append(f"{r.fixture.title} ({r.case.label()})")
            lines.append("")
            if r.message:
                lines.append(f"> {printable(r.message)}")
                lines.append("")
            for item in shown(r):
                if item.expected is None:
                    lines.append(f"- {item.head}")
                else:
                    lines.append(
                        f"- `{item.head}`: expected `{item.expected}`, got `{item.actual}`"
                    )
            for c in _citations(r):
                lines.append(f"- because: {c}")
            lines.append("")
    return "\n".join(lines) + "\n"
