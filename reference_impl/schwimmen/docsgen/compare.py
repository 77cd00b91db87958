"""The comparison: every rule against every ruleset, and every pair of rulesets.

One table per rule group (rows = parameters, columns = rulesets). In a row, equal values
share a colour and the most common value is plain, so a difference is visible before it
is read. Every cell links to the rule on its ruleset's page and carries a footnote with
the evidence (the German quote, the reading or the reason), which the theme shows as a
tooltip. The provenance kind and inheritance are marked in the cell itself.
"""

from __future__ import annotations

from itertools import combinations

from schwimmen.docsgen.context import Site, changed_params
from schwimmen.docsgen.markup import (
    COMPARISON,
    KIND_HELP,
    KIND_SYMBOL,
    PAIRS_INDEX,
    SCHEMA_REFERENCE,
    attr,
    badge,
    code,
    esc,
    footnote_text,
    link,
    origin_badge,
    pair_page,
    param_anchor,
    rel,
    ruleset_page,
    table,
    where,
    wide_page,
)
from schwimmen.docsgen.values import Cell, row_cells, short, short_md, value_classes
from schwimmen.spec.model import ProvenanceKind, Setting
from schwimmen.spec.parameters import BY_PATH, GROUPS, PARAMETERS

PALETTE = 5  # distinct highlight colours for the values of one row (v1 … v5; v0 is plain)


def _footnote_id(rid: str, param: str) -> str:
    return f"{rid}--{param_anchor(param)}"


def _cell_md(cell: Cell, classes: dict[str, int], differs: bool, here: str) -> tuple[str, str]:
    """The cell's markdown and its footnote definition ('' for an inapplicable cell)."""
    setting = cell.setting
    if setting is None:
        return '<span class="v na" title="does not apply to this ruleset">—</span>', ""
    rid = cell.ruleset.id
    key = cell.key or ""
    number = min(classes[key], PALETTE) if differs else 0
    kind = setting.provenance.kind
    css = f"v v{number} k-{kind.value}" + (" inh" if setting.inherited else "")
    tip = kind.value + (f" {setting.provenance.decision}" if setting.provenance.decision else "")
    if setting.inherited:
        tip += f", inherited from {setting.origin}"
    target = rel(here, f"{ruleset_page(rid)}#{param_anchor(setting.param)}")
    value = short_md(setting.param, setting.value)
    mark = KIND_SYMBOL[kind] + ("↳" if setting.inherited else "")
    fid = _footnote_id(rid, setting.param)
    text = f'<span class="{css}" title="{attr(tip)}">{mark} [{value}]({target})</span>[^{fid}]'
    note = f"[^{fid}]: {footnote_text(setting, short(setting.param, setting.value))}"
    return text, note


def comparison_legend() -> str:
    kinds = " ".join(
        f'<span class="v v0 k-{k.value}" title="{attr(KIND_HELP[k])}">{KIND_SYMBOL[k]} '
        f"{k.value}</span>"
        for k in ProvenanceKind
    )
    return (
        '<div class="cmp-legend" markdown>\n'
        f"**Key:** {kinds} "
        '<span class="v v0 k-cited inh">❝↳ inherited</span> '
        '<span class="v na">— does not apply</span> · '
        "In a row where the rulesets differ, the most common value is plain and every other "
        'value has its own colour: <span class="v v1">other</span> <span class="v v2">other'
        '</span> <span class="v v3">other</span>. The footnote number after each value shows '
        "the evidence (hover or tap it); the value links to the rule's page.\n"
        "</div>\n"
    )


def comparison_markdown(site: Site) -> str:
    """The whole comparison page: one table per group, footnotes at the end."""
    here = COMPARISON
    rulesets = site.rulesets
    out = [
        *wide_page("Compare the rulesets", hide_navigation=True),
        f"Every rule of the {len(rulesets)} rulesets side by side, one table per topic. "
        f"For two rulesets at a time see {link(here, PAIRS_INDEX, 'Compare two')}.",
        "",
        comparison_legend(),
        "",
    ]
    jump = []
    sections: list[str] = []
    notes: list[str] = []
    for group, title in GROUPS.items():
        params = [p for p in PARAMETERS if p.group == group]
        header = ["rule"] + [link(here, ruleset_page(rid), code(rid)) for rid in rulesets]
        rows = []
        differing = 0
        for param in params:
            cells = row_cells(param.path, rulesets)
            classes = value_classes(cells)
            differs = len(classes) > 1 or any(c.setting is None for c in cells)
            differing += differs
            marker = "row-differs" if differs else "row-same"
            name = link(here, f"{SCHEMA_REFERENCE}#{param_anchor(param.path)}", esc(param.title))
            row = [
                f'<span class="{marker}" title="{attr(param.path)}">{name}</span>'
                + ("" if differs else ' <small class="same-note">same in all</small>')
            ]
            for cell in cells:
                text, note = _cell_md(cell, classes, differs, here)
                row.append(text)
                if note:
                    notes.append(note)
            rows.append(row)
        jump.append(f"[{esc(title)}](#{group}) ({differing}/{len(params)} differ)")
        sections += [
            f"## {esc(title)} {{#{group}}}",
            "",
            f'<div class="cmp-table" markdown>\n\n{table(header, rows)}\n\n</div>',
            "",
        ]
    out += [" · ".join(jump), "{: .cmp-jump }", ""]
    out += sections
    out += notes
    out.append("")
    return "\n".join(out)


# ----------------------------------------------------------------------------- pairs
def pair_ids(site: Site) -> list[tuple[str, str]]:
    """Every unordered pair of rulesets once, in ruleset order (45 for ten rulesets)."""
    return list(combinations(site.rulesets, 2))


def _pair_cell(setting: Setting | None, base: str, here: str) -> str:
    if setting is None:
        return '<span class="na">does not apply</span>'
    prov = setting.provenance
    text = (
        f"**{short_md(setting.param, setting.value)}** "
        f"{badge(prov.kind, prov.decision)} {origin_badge(setting, base, here)}"
    )
    if prov.citations:
        first = prov.citations[0]
        more = f" (+{len(prov.citations) - 1})" if len(prov.citations) > 1 else ""
        text += (
            f'<br><span class="de-quote" lang="de">„{esc(first.quote)}“</span>{more} '
            f"<small>— {where(first, here)}</small>"
        )
    if prov.reading:
        text += f"<br><small>Reading: {esc(prov.reading)}</small>"
    elif prov.kind is ProvenanceKind.DEFAULT and prov.why:
        text += f"<br><small>Why: {esc(prov.why)}</small>"
    return text


def pair_markdown(site: Site, a: str, b: str) -> str:
    """Two rulesets: only what differs, each side with its evidence; the rest folded."""
    here = pair_page(a, b)
    ra, rb = site.rulesets[a], site.rulesets[b]
    differ = changed_params(ra, rb)
    order = {p.path: i for i, p in enumerate(PARAMETERS)}
    differ.sort(key=order.__getitem__)
    out = [
        *wide_page(f"{a} vs {b}", hide_navigation=True),
        f"{link(here, ruleset_page(a), esc(ra.title))} and "
        f"{link(here, ruleset_page(b), esc(rb.title))} differ in **{len(differ)}** rules. "
        f"On the command line: {code(f'schwimmen diff {a} {b}')}.",
        "",
    ]
    rows = [
        [
            f"{esc(GROUPS[BY_PATH[p].group])}: "
            + link(here, f"{SCHEMA_REFERENCE}#{param_anchor(p)}", f"**{esc(BY_PATH[p].title)}**"),
            _pair_cell(ra.settings.get(p), ra.base, here),
            _pair_cell(rb.settings.get(p), rb.base, here),
        ]
        for p in differ
    ]
    if rows:
        out += [
            '<div class="pair-table" markdown>',
            "",
            table(["rule", code(a), code(b)], rows),
            "",
            "</div>",
            "",
        ]
    same = [p.path for p in PARAMETERS if p.path in ra.settings and p.path not in differ]
    if same:
        body = "\n".join(
            f"- **{esc(BY_PATH[p].title)}**: {short_md(p, ra.settings[p].value)}" for p in same
        )
        out.append(f'??? note "The {len(same)} rules they share"\n')
        out += ["    " + line for line in body.splitlines()]
        out.append("")
    out += [f"Back to {link(here, PAIRS_INDEX, 'all pairs')}.", ""]
    return "\n".join(out)


def pairs_index_markdown(site: Site) -> str:
    """A grid of all pairs: each cell is the number of differing rules, linked."""
    here = PAIRS_INDEX
    ids = list(site.rulesets)
    counts = {
        (a, b): len(changed_params(site.rulesets[a], site.rulesets[b])) for a, b in pair_ids(site)
    }
    top = max(counts.values(), default=1) or 1
    rows = []
    for a in ids:
        row = [link(here, ruleset_page(a), code(a))]
        for b in ids:
            if a == b:
                row.append('<span class="na">·</span>')
                continue
            key = (a, b) if (a, b) in counts else (b, a)
            n = counts[key]
            heat = round(4 * n / top)
            row.append(
                f'<span class="heat heat{heat}" title="{a} vs {b}: {n} rules differ">'
                f"[{n}]({rel(here, pair_page(*key))})</span>"
            )
        rows.append(row)
    out = [
        *wide_page("Compare two rulesets"),
        "Each number is how many rules two rulesets set differently; follow it to see those "
        "rules side by side with their evidence. The darker the cell, the further apart.",
        "",
        '<div class="cmp-table pairs-grid" markdown>',
        "",
        table([""] + [code(b) for b in ids], rows),
        "",
        "</div>",
        "",
        f"All rules at once: {link(here, COMPARISON, 'the comparison')}.",
        "",
    ]
    return "\n".join(out)
