"""``schwimmen list``, ``show`` and ``diff``: asking cited questions about the rulesets."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Provenance, ProvenanceKind, Ruleset, Setting
from schwimmen.spec.parameters import BY_PATH, GROUPS, PARAMETERS
from schwimmen.spec.present import origin_text, provenance_summary, value_text

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
    console.print(table)


def _indent(text: Text, width: int = 4) -> Padding:
    return Padding(text, (0, 0, 0, width))


def _provenance_lines(prov: Provenance) -> list[Padding]:
    lines: list[Padding] = []
    for c in prov.citations:
        t = Text("„", style="italic")
        t.append(c.quote, style="italic")
        t.append("“  ", style="italic")
        t.append(f"— {c.label()}", style="dim")
        lines.append(_indent(t))
    if prov.reading:
        lines.append(_indent(Text(f"reading: {prov.reading}", style="yellow")))
    if prov.why:
        lines.append(_indent(Text(f"why: {prov.why}", style="dim")))
    return lines


def _setting_block(setting: Setting, base: str) -> Group:
    param = BY_PATH[setting.param]
    head = Text(f"{param.title}: ", style="bold")
    head.append(value_text(setting.param, setting.value), style="cyan")
    head.append("  ")
    head.append(f"[{MARK[setting.provenance.kind]}", style=STYLE[setting.provenance.kind])
    if setting.provenance.decision:
        head.append(f" {setting.provenance.decision}", style=STYLE[setting.provenance.kind])
    head.append("]", style=STYLE[setting.provenance.kind])
    where = origin_text(setting, base)
    if where:
        head.append(f"  ({where})", style="blue")
    parts: list[Text | Padding] = [head, *_provenance_lines(setting.provenance)]
    if setting.note:
        parts.append(_indent(Text(f"note: {setting.note}", style="dim")))
    return Group(*parts)


def ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
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


def print_show(console: Console, ruleset: Ruleset, fmt: str) -> None:
    if fmt == "json":
        console.print_json(json.dumps(ruleset_json(ruleset), ensure_ascii=False))
        return
    counts = {k: 0 for k in ProvenanceKind}
    for s in ruleset.settings.values():
        counts[s.provenance.kind] += 1
    header = Text(ruleset.title, style="bold")
    header.append(f"  ({ruleset.id})", style="cyan")
    legend = Text("\n")
    for kind in ProvenanceKind:
        legend.append(f"{MARK[kind]}", style=STYLE[kind])
        legend.append(f" {counts[kind]}   ")
    legend.append(
        "\ncited = the source says so · interpreted = the source is ambiguous, reading chosen · "
        "default = the source is silent, choice stated",
        style="dim",
    )
    body: list[Any] = [header, legend]
    if ruleset.summary:
        body.append(Text("\n" + ruleset.summary))
    console.print(Panel(Group(*body), expand=True))
    for group, title in GROUPS.items():
        members = [s for s in ruleset.settings.values() if BY_PATH[s.param].group == group]
        if not members:
            continue
        console.print(Text(f"\n{title}", style="bold underline"))
        for setting in members:
            console.print(Padding(_setting_block(setting, ruleset.base), (0, 0, 0, 2)))
    for u in ruleset.unresolved:
        console.print(Text(f"\nUnresolved: {u.topic}", style="bold red"))
        for line in _provenance_lines(Provenance(ProvenanceKind.DEFAULT, u.citations, why=u.why)):
            console.print(line)


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


def _cell(setting: Setting | None, base: str) -> Group:
    if setting is None:
        return Group(Text("— does not apply", style="dim"))
    head = Text(value_text(setting.param, setting.value), style="cyan bold")
    head.append(
        f"  [{provenance_summary(setting.provenance)}]", style=STYLE[setting.provenance.kind]
    )
    where = origin_text(setting, base)
    if where:
        head.append(f" ({where})", style="blue")
    lines = [head]
    for c in setting.provenance.citations[:2]:
        lines.append(Text(f"„{c.quote}“ — {c.label()}", style="italic"))
    if setting.provenance.reading:
        lines.append(Text(f"reading: {setting.provenance.reading}", style="yellow"))
    elif setting.provenance.kind is ProvenanceKind.DEFAULT and setting.provenance.why:
        lines.append(Text(f"why: {setting.provenance.why}", style="dim"))
    return Group(*lines)


def print_diff(console: Console, a: Ruleset, b: Ruleset, fmt: str) -> None:
    if fmt == "json":
        console.print_json(json.dumps(diff_json(a, b), ensure_ascii=False))
        return
    rows = diff_rows(a, b)
    table = Table(title=f"{a.id} vs {b.id}: {len(rows)} parameters differ", show_lines=True)
    table.add_column("parameter", style="bold", ratio=1)
    table.add_column(a.id, ratio=3)
    table.add_column(b.id, ratio=3)
    group_of = {p.path: GROUPS[p.group] for p in PARAMETERS}
    for path, sa, sb in rows:
        table.add_row(
            f"{group_of[path]}\n{BY_PATH[path].title}", _cell(sa, a.base), _cell(sb, b.base)
        )
    console.print(table)
