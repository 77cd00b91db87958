"""``schwimmen list``, ``show`` and ``diff``: asking cited questions about the rulesets."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from schwimmen.cli.console import print_table
from schwimmen.cli.lang import ENGLISH, GERMAN, Words
from schwimmen.spec.errors import SpecWarning
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Provenance, ProvenanceKind, Ruleset, Setting, Unresolved
from schwimmen.spec.parameters import BY_PATH, GROUPS, PARAMETERS
from schwimmen.spec.present import PROVENANCE_LABEL, origin_text, provenance_summary, value_text

EN = Words(ENGLISH)

STYLE = {
    ProvenanceKind.CITED: "bold green",
    ProvenanceKind.INTERPRETED: "bold yellow",
    ProvenanceKind.DEFAULT: "bold magenta",
}
MARK = {
    ProvenanceKind.CITED: "CITED",
    ProvenanceKind.INTERPRETED: "INTERPRETED",
    ProvenanceKind.DEFAULT: "DEFAULT",
}


def list_entries(catalog: Catalog) -> list[dict[str, Any]]:
    out = []
    for table, kind in ((catalog.rulesets, "ruleset"), (catalog.house_rules, "house-rule")):
        for rid in sorted(table):
            data = table[rid].data
            entry = {
                "id": rid,
                "kind": kind,
                "title": data["title"],
                "sources": list(data.get("sources", ())),
            }
            if kind == "ruleset" and data.get("extends"):
                entry["extends"] = data["extends"]
            if kind == "house-rule":
                entry["origin"] = data["origin"]
            out.append(entry)
    return out


def print_list(console: Console, catalog: Catalog, fmt: str) -> None:
    entries = list_entries(catalog)
    if fmt == "json":
        console.print_json(json.dumps(entries, ensure_ascii=False))
        return
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column("id", style="cyan", no_wrap=True)
    table.add_column("kind")
    table.add_column("title")
    table.add_column("sources / base")
    for e in entries:
        extra = ", ".join(e["sources"])
        if e.get("extends"):
            extra += f"; extends {e['extends']}"
        if e.get("origin"):
            extra += f"; from {e['origin']}"
        table.add_row(e["id"], e["kind"], escape(e["title"]), extra)
    print_table(console, table)


def _indent(text: Text, width: int = 4) -> Padding:
    return Padding(text, (0, 0, 0, width))


def _provenance_lines(prov: Provenance, w: Words = EN) -> list[Padding]:
    lines: list[Padding] = []
    for c in prov.citations:
        t = Text("„", style="italic")
        t.append(c.quote, style="italic")
        t.append("“  ", style="italic")
        t.append(f"— {c.label()}", style="dim")
        lines.append(_indent(t))
    reading = prov.reading_in(w.language) if w.german else prov.reading
    if reading:
        lines.append(_indent(Text(f"{_reading(w)} {reading}", style="yellow")))
    why = prov.why_in(w.language) if w.german else prov.why
    if why:
        lines.append(_indent(Text(f"{_why(w)} {why}", style="dim")))
    return lines


def _reading(w: Words) -> str:
    return w.label("rule.reading", "reading:")


def _why(w: Words) -> str:
    return w.label("rule.why", "why:")


def _mark(kind: ProvenanceKind, w: Words) -> str:
    return w.label(f"kind.{kind.value}.title", MARK[kind]).upper()


def _origin(setting: Setting, base: str, w: Words) -> str:
    """``inherited from pagat`` / ``set by house rule x``, in the words of the site."""
    if not w.german:
        return origin_text(setting, base)
    if setting.inherited:
        return f"{w.label('rule.inherited', 'inherited from')} {setting.origin}"
    if setting.origin != base:
        return f"{w.label('rule.house', 'house rule')} {setting.origin}"
    return ""


def _value(setting: Setting, w: Words) -> str:
    shown = value_text(setting.param, setting.value)
    if w.german and shown in ("none", "(none)"):
        return w.label("value.none" if shown == "none" else "value.empty", shown)
    return shown


def _setting_block(setting: Setting, base: str, w: Words = EN) -> Group:
    param = BY_PATH[setting.param]
    head = Text(f"{w.param_title(setting.param, param.title)}: ", style="bold")
    head.append(_value(setting, w), style="cyan")
    head.append("  ")
    head.append(f"[{_mark(setting.provenance.kind, w)}", style=STYLE[setting.provenance.kind])
    if setting.provenance.decision:
        head.append(f" {setting.provenance.decision}", style=STYLE[setting.provenance.kind])
    head.append("]", style=STYLE[setting.provenance.kind])
    where = _origin(setting, base, w)
    if where:
        head.append(f"  ({where})", style="blue")
    parts: list[Text | Padding] = [head, *_provenance_lines(setting.provenance, w)]
    note = setting.note_in(w.language) if w.german else setting.note
    if note:
        label = w.label("rule.note", "note:")
        parts.append(_indent(Text(f"{label} {note}", style="dim")))
    return Group(*parts)


def warning_lines(warnings: Iterable[SpecWarning]) -> list[str]:
    """One line a warning, ``file:line:col: warning: $.path: message`` (the message names
    every parameter it concerns)."""
    return [str(w) for w in warnings]


def warning_json(warning: SpecWarning) -> dict[str, Any]:
    return {
        "file": warning.file,
        "line": warning.line,
        "col": warning.col,
        "path": warning.path,
        "parameters": list(warning.parameters),
        "message": warning.message,
    }


def ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
    out = _ruleset_json(ruleset)
    if ruleset.warnings:
        out["warnings"] = [warning_json(w) for w in ruleset.warnings]
    return out


def _ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
    return {
        "id": ruleset.id,
        "title": ruleset.title,
        "base": ruleset.base,
        "overlays": list(ruleset.overlays),
        "summary": ruleset.summary,
        "parameters": {k: s.to_json() for k, s in ruleset.settings.items()},
        "unresolved": [
            {
                "topic": u.topic,
                "why": u.why,
                "decision": u.decision,
                "quotes": [c.to_json() for c in u.citations],
            }
            for u in ruleset.unresolved
        ],
    }


@dataclass(frozen=True)
class Texts:
    """A resolved ruleset's title and summary in a language, from its files' ``de:``
    blocks (the English where a file gives no German)."""

    title: str
    summary: str


def ruleset_texts(catalog: Catalog, ruleset: Ruleset, w: Words = EN) -> Texts:
    """The title of ``pagat+no-triples`` reads "Schwimmen nach pagat.com mit Keine Drillinge"
    in German, as the English one reads "... with ..."."""
    if not w.german:
        return Texts(ruleset.title, ruleset.summary)

    def german(data: Mapping[str, Any], field: str) -> str:
        text = (data.get(GERMAN) or {}).get(field) or data.get(field) or ""
        return " ".join(str(text).split())

    files = {**catalog.rulesets, **catalog.house_rules}
    base = files[ruleset.base].data if ruleset.base in files else {}
    title = german(base, "title") or ruleset.title
    overlays = [german(files[o].data, "title") for o in ruleset.overlays if o in files]
    if len(overlays) == len(ruleset.overlays) and overlays:
        title += f" {w.label('rule.with', 'with')} " + ", ".join(overlays)
    elif ruleset.overlays:
        title = ruleset.title
    return Texts(title, german(base, "summary") or ruleset.summary)


def print_show(
    console: Console, ruleset: Ruleset, fmt: str, w: Words = EN, texts: Texts | None = None
) -> None:
    if fmt == "json":
        console.print_json(json.dumps(ruleset_json(ruleset), ensure_ascii=False))
        return
    texts = texts or Texts(ruleset.title, ruleset.summary)
    counts = {k: 0 for k in ProvenanceKind}
    for s in ruleset.settings.values():
        counts[s.provenance.kind] += 1
    header = Text(texts.title, style="bold")
    header.append(f"  ({ruleset.id})", style="cyan")
    legend = Text("\n")
    for kind in ProvenanceKind:
        legend.append(_mark(kind, w), style=STYLE[kind])
        legend.append(f" {counts[kind]}   ")
    legend.append("\n" + _legend(w), style="dim")
    body: list[Any] = [header, legend]
    if texts.summary:
        body.append(Text("\n" + texts.summary))
    console.print(Panel(Group(*body), expand=True))
    for group, title in GROUPS.items():
        members = [s for s in ruleset.settings.values() if BY_PATH[s.param].group == group]
        if not members:
            continue
        console.print(Text(f"\n{w.group_title(group, title)}", style="bold underline"))
        for setting in members:
            console.print(Padding(_setting_block(setting, ruleset.base, w), (0, 0, 0, 2)))
    for u in ruleset.unresolved:
        console.print(Text(f"\n{_unresolved(u, w)}", style="bold red"))
        why = u.why_in(w.language) if w.german else u.why
        for line in _provenance_lines(Provenance(ProvenanceKind.DEFAULT, u.citations, why=why)):
            console.print(line)


def _legend(w: Words) -> str:
    if not w.german:
        return (
            "cited = the source says so · interpreted = the source is ambiguous, reading "
            "chosen · default = the source is silent, choice stated"
        )
    return " · ".join(
        f"{w.label(f'kind.{k.value}', PROVENANCE_LABEL[k])} = {w.label(f'kind.{k.value}.help', '')}"
        for k in ProvenanceKind
    )


def _unresolved(u: Unresolved, w: Words) -> str:
    if not w.german:
        return f"Unresolved: {u.topic}"
    return f"{w.label('page.unresolved', 'Unresolved')}: {u.topic_in(w.language)}"


def diff_rows(a: Ruleset, b: Ruleset) -> list[tuple[str, Setting | None, Setting | None]]:
    rows = []
    for param in PARAMETERS:
        sa, sb = a.settings.get(param.path), b.settings.get(param.path)
        if sa is None and sb is None:
            continue
        if sa is not None and sb is not None and sa.value == sb.value:
            continue
        rows.append((param.path, sa, sb))
    return rows


def diff_json(a: Ruleset, b: Ruleset) -> dict[str, Any]:
    return {
        "a": a.id,
        "b": b.id,
        "differences": [
            {
                "parameter": path,
                "a": sa.to_json() if sa else None,
                "b": sb.to_json() if sb else None,
            }
            for path, sa, sb in diff_rows(a, b)
        ],
    }


def _cell(setting: Setting | None, base: str, w: Words = EN) -> Group:
    if setting is None:
        return Group(Text(f"— {w.label('rule.does-not-apply', 'does not apply')}", style="dim"))
    prov = setting.provenance
    head = Text(_value(setting, w), style="cyan bold")
    summary = provenance_summary(prov)
    if w.german:
        summary = w.label(f"kind.{prov.kind.value}", summary)
        summary += f" {prov.decision}" if prov.decision else ""
    head.append(f"  [{summary}]", style=STYLE[prov.kind])
    where = _origin(setting, base, w)
    if where:
        head.append(f" ({where})", style="blue")
    lines = [head]
    for c in prov.citations[:2]:
        lines.append(Text(f"„{c.quote}“ — {c.label()}", style="italic"))
    reading = prov.reading_in(w.language) if w.german else prov.reading
    why = prov.why_in(w.language) if w.german else prov.why
    if reading:
        lines.append(Text(f"{_reading(w)} {reading}", style="yellow"))
    elif prov.kind is ProvenanceKind.DEFAULT and why:
        lines.append(Text(f"{_why(w)} {why}", style="dim"))
    return Group(*lines)


def print_diff(console: Console, a: Ruleset, b: Ruleset, fmt: str, w: Words = EN) -> None:
    if fmt == "json":
        console.print_json(json.dumps(diff_json(a, b), ensure_ascii=False))
        return
    rows = diff_rows(a, b)
    title = w.label(
        "cli.diff-title", "{a} vs {b}: {n} parameters differ", a=a.id, b=b.id, n=len(rows)
    )
    table = Table(title=title, show_lines=True)
    table.add_column(w.label("page.parameter", "parameter"), style="bold", ratio=1)
    table.add_column(a.id, ratio=3)
    table.add_column(b.id, ratio=3)
    for path, sa, sb in rows:
        param = BY_PATH[path]
        group = w.group_title(param.group, GROUPS[param.group])
        table.add_row(
            f"{group}\n{w.param_title(path, param.title)}",
            _cell(sa, a.base, w),
            _cell(sb, b.base, w),
        )
    console.print(table)
