"""The comparison's tables: every rule against every ruleset, and every pair of rulesets.

The pages' prose is written in ``docs/compare/index.md`` and ``docs/compare/pairs.md``;
this module makes the tables they insert (see :func:`inserts`): the rules at a glance
(:mod:`schwimmen.docsgen.glance`), the full comparison and the grid of pairs, and the
45 pair pages. Rulesets are shown by their name for players and their id.

The full comparison has one table per rule group (rows = parameters, columns =
rulesets). In a row, equal values share a colour and the most common value is plain, so
a difference is visible before it is read. Every cell links to the rule on its ruleset's
page and carries a footnote with the evidence (the German quote, the reading or the
reason), which the theme shows as a tooltip; the notes themselves are folded away, since
unfolded they made the page four times as long. The provenance kind and inheritance are
marked in the cell itself.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from schwimmen.docsgen.blocks import block
from schwimmen.docsgen.context import Site, changed_params
from schwimmen.docsgen.glance import Glance, glance_table
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    COMPARISON,
    KIND_SYMBOL,
    PAIRS_INDEX,
    SCHEMA_REFERENCE,
    attr,
    code,
    esc,
    footnote_text,
    link,
    pair_page,
    param_anchor,
    rel,
    ruleset_page,
    table,
    wide_page,
)
from schwimmen.docsgen.pagedata import words
from schwimmen.docsgen.templates import render
from schwimmen.docsgen.values import Cell, row_cells, short, short_md, value_classes
from schwimmen.spec.model import ProvenanceKind
from schwimmen.spec.parameters import GROUPS, PARAMETERS

PALETTE = 5  # distinct highlight colours for the values of one row (v1 … v5; v0 is plain)
# Python-Markdown's footnotes extension puts the notes where a paragraph reads this.
FOOTNOTES_HERE = "///Footnotes Go Here///"


def _footnote_id(rid: str, param: str) -> str:
    return f"{rid}--{param_anchor(param)}"


def _cell_md(
    cell: Cell, classes: dict[str, int], differs: bool, here: str, language: str
) -> tuple[str, str]:
    """The cell's markdown and its footnote definition ('' for an inapplicable cell)."""
    say = words()
    setting = cell.setting
    if setting is None:
        na = say("rule.does-not-apply", language)
        return f'<span class="v na" title="{attr(na)}">—</span>', ""
    rid = cell.ruleset.id
    key = cell.key or ""
    number = min(classes[key], PALETTE) if differs else 0
    kind = setting.provenance.kind
    css = f"v v{number} k-{kind.value}" + (" inh" if setting.inherited else "")
    tip = say(f"kind.{kind.value}", language)
    tip += f" {setting.provenance.decision}" if setting.provenance.decision else ""
    if setting.inherited:
        tip += f", {say('rule.inherited', language)} {setting.origin}"
    target = rel(here, f"{ruleset_page(rid)}#{param_anchor(setting.param)}")
    value = short_md(setting.param, setting.value, language)
    mark = KIND_SYMBOL[kind] + ("↳" if setting.inherited else "")
    fid = _footnote_id(rid, setting.param)
    text = f'<span class="{css}" title="{attr(tip)}">{mark} [{value}]({target})</span>[^{fid}]'
    shown = short(setting.param, setting.value, language)
    note = f"[^{fid}]: {footnote_text(setting, shown, language)}"
    return text, note


def comparison_key(glance: Glance, language: str = "en") -> str:
    """The key's chips: one per provenance kind, inherited, does not apply, and the
    colours of the other values of a row."""
    say = words()
    kinds = " ".join(
        f'<span class="v v0 k-{k.value}" title="{attr(say(f"kind.{k.value}.help", language))}">'
        f"{KIND_SYMBOL[k]} {say(f'kind.{k.value}', language)}</span>"
        for k in ProvenanceKind
    )
    other = esc(glance.label("other", language))
    return (
        f"{kinds} "
        f'<span class="v v0 k-cited inh">❝↳ {esc(glance.label("inherited", language))}</span> '
        f'<span class="v na">— {esc(glance.label("not-applicable", language))}</span> · '
        + " ".join(f'<span class="v v{i}">{other}</span>' for i in (1, 2, 3))
    )


def ruleset_header(site: Site, glance: Glance, rid: str, here: str, language: str = "en") -> str:
    """A ruleset as a table heading: its name for players, linked to its page, over its id."""
    return (
        f'<span class="rs-name" title="{attr(site.rulesets[rid].title)}">'
        f"{link(here, ruleset_page(rid), esc(glance.name(rid, language, hyphens=True)))}</span><br>"
        f'<span class="rs-id">{code(rid)}</span>'
    )


def comparison_tables(site: Site, glance: Glance, language: str = "en") -> str:
    """Every rule against every ruleset: the jump list, one table per group, and the
    footnotes with each cell's evidence, folded (the theme shows them as tooltips)."""
    here = COMPARISON
    rulesets = site.rulesets
    header = [esc(glance.label("rule", language))] + [
        ruleset_header(site, glance, rid, here, language) for rid in rulesets
    ]
    jump = []
    sections: list[str] = []
    notes: list[str] = []
    say = words()
    for group in GROUPS:
        title = say.group_title(group, language)
        params = [p for p in PARAMETERS if p.group == group]
        rows = []
        differing = 0
        for param in params:
            cells = row_cells(param.path, rulesets)
            classes = value_classes(cells)
            differs = len(classes) > 1 or any(c.setting is None for c in cells)
            differing += differs
            marker = "row-differs" if differs else "row-same"
            name = link(
                here,
                f"{SCHEMA_REFERENCE}#{param_anchor(param.path)}",
                esc(say.param_title(param.path, language)),
            )
            same = esc(glance.label("same-in-all", language))
            row = [
                f'<span class="{marker}" title="{attr(param.path)}">{name}</span>'
                + ("" if differs else f' <small class="same-note">{same}</small>')
            ]
            for cell in cells:
                text, note = _cell_md(cell, classes, differs, here, language)
                row.append(text)
                if note:
                    notes.append(note)
            rows.append(row)
        count = esc(glance.label("differ-count", language, d=differing, n=len(params)))
        jump.append(f"[{esc(title)}](#{group}) ({count})")
        sections += [
            f"### {esc(title)} {{#{group}}}",
            "",
            f'<div class="cmp-table" markdown>\n\n{table(header, rows)}\n\n</div>',
            "",
        ]
    evidence = esc(glance.label("evidence", language, n=len(notes)))
    out = [" · ".join(jump), "{: .cmp-jump }", "", *sections]
    # The footnotes go where the marker stands (Python-Markdown's footnotes extension), here
    # inside a folded box: the page stays short and every note is still a tooltip. Search
    # skips the box: the same quotes are found on the rulesets' pages, one rule at a time.
    out += [
        '<details class="quote cmp-evidence" data-search-exclude markdown="1">',
        f'<summary markdown="span">{evidence}</summary>',
        "",
        FOOTNOTES_HERE,
        "",
        "</details>",
        "",
        *notes,
        "",
    ]
    return "\n".join(out)


# ----------------------------------------------------------------------------- pairs
def pair_ids(site: Site) -> list[tuple[str, str]]:
    """Every unordered pair of rulesets once, in ruleset order (45 for ten rulesets)."""
    return list(combinations(site.rulesets, 2))


def _render(name: str, site: Site, glance: Glance, language: str, **data: Any) -> str:
    titles = {rid: ruleset.title for rid, ruleset in site.rulesets.items()}
    return render(name, language, g=glance, titles=titles, pairs_index=PAIRS_INDEX, **data)


def pair_markdown(site: Site, glance: Glance, a: str, b: str, language: str = "en") -> str:
    """Two rulesets: only what differs, each side with its evidence; the rest folded."""
    ra, rb = site.rulesets[a], site.rulesets[b]
    order = {p.path: i for i, p in enumerate(PARAMETERS)}
    differ = sorted(changed_params(ra, rb), key=order.__getitem__)
    same = [p.path for p in PARAMETERS if p.path in ra.settings and p.path not in differ]
    title = glance.label(
        "pair-title", language, a=glance.name(a, language), b=glance.name(b, language)
    )
    body = _render(
        "pair.html", site, glance, language, a=a, b=b, ra=ra, rb=rb, differ=differ, same=same
    )
    return "\n".join([*wide_page(esc(title), hide_navigation=True), block(body), ""])


def pairs_grid(site: Site, glance: Glance, language: str = "en") -> str:
    """A grid of all pairs: each cell is the number of differing rules, linked to the pair's
    page, its colour the share of the most any pair differs in."""
    counts = {
        (a, b): len(changed_params(site.rulesets[a], site.rulesets[b])) for a, b in pair_ids(site)
    }
    top = max(counts.values(), default=1) or 1
    cells = {}
    for (a, b), n in counts.items():
        cells[(a, b)] = cells[(b, a)] = (n, round(4 * n / top), pair_page(a, b))
    return block(
        _render("pairs-grid.html", site, glance, language, ids=list(site.rulesets), cells=cells)
    )


def inserts(site: Site, glance: Glance) -> dict[str, Insert]:
    """The generated parts of the hand-written comparison pages (``docs/compare/``)."""
    return {
        "compare-at-a-glance": lambda language: glance_table(
            glance, site.rulesets, language, COMPARISON
        ),
        "compare-key": lambda language: comparison_key(glance, language),
        "compare-tables": lambda language: comparison_tables(site, glance, language),
        "pairs-grid": lambda language: pairs_grid(site, glance, language),
    }
