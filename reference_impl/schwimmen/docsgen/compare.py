"""The comparison's tables: every rule against every ruleset, and every pair of rulesets.

The pages' prose is written in ``docs/compare/index.md`` and ``docs/compare/pairs.md``;
this module makes the tables they insert (see :func:`inserts`): the rules at a glance
(:mod:`schwimmen.spec.glance`), the full comparison and the grid of pairs, and the
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

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from schwimmen.docsgen.blocks import block
from schwimmen.docsgen.context import Site, changed_params
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    PAIRS_INDEX,
    pair_page,
)
from schwimmen.docsgen.rulepages import page
from schwimmen.docsgen.templates import kept, render
from schwimmen.docsgen.values import row_cells, short, value_classes
from schwimmen.spec.glance import Glance, cell_text, runs, shades
from schwimmen.spec.model import Ruleset
from schwimmen.spec.pagedata import words
from schwimmen.spec.parameters import GROUPS, PARAMETERS

PALETTE = 5  # distinct highlight colours for the values of one row (v1 … v5; v0 is plain)


def comparison_key(glance: Glance, language: str = "en") -> str:
    """The key's chips: one per provenance kind, inherited, does not apply, and the
    colours of the other values of a row."""
    return render("compare-key.html", language, g=glance)


def comparison_tables(site: Site, glance: Glance, language: str = "en") -> str:
    """Every rule against every ruleset: the jump list, one table per group, and the
    footnotes with each cell's evidence, folded (the theme shows them as tooltips)."""
    groups = []
    for group in GROUPS:
        rows = []
        for param in (p for p in PARAMETERS if p.group == group):
            cells = row_cells(param.path, site.rulesets)
            classes = value_classes(cells)
            differs = len(classes) > 1 or any(c.setting is None for c in cells)
            tints = [min(classes.get(c.key or "", 0), PALETTE) if differs else 0 for c in cells]
            rows.append((param, differs, list(zip(cells, tints, strict=True))))
        differing = sum(1 for _, differs, _ in rows if differs)
        groups.append((group, words().group_title(group, language), rows, differing))
    body = _render(
        "comparison.html",
        site,
        glance,
        language,
        ids=list(site.rulesets),
        groups=groups,
        short=short,
    )
    return block(body)


def glance_part(glance: Glance, rulesets: Mapping[str, Ruleset], language: str = "en") -> str:
    """The rules at a glance (:mod:`schwimmen.spec.glance` words them)."""
    rows = []
    for row in glance.rows:
        texts = [cell_text(row, ruleset, language) for ruleset in rulesets.values()]
        shade = shades(texts)
        cells = [(text, span, shade[text]) for text, span in runs(texts)]
        rows.append((row.label.get(language), row.topic, len(shade) == 1, cells))
    return block(render("glance.html", language, g=glance, ids=list(rulesets), rows=rows))


# ----------------------------------------------------------------------------- pairs
def pair_ids(site: Site) -> list[tuple[str, str]]:
    """Every unordered pair of rulesets once, in ruleset order (45 for ten rulesets)."""
    return list(combinations(site.rulesets, 2))


def _render(name: str, site: Site, glance: Glance, language: str, **data: Any) -> str:
    fill = kept if name == "pair.html" else render  # the big tables' data is slow to compare
    titles = {rid: ruleset.title for rid, ruleset in site.rulesets.items()}
    return fill(name, language, g=glance, titles=titles, pairs_index=PAIRS_INDEX, **data)


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
    return page(title, body, language, hide=("navigation", "toc"))


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
        "compare-at-a-glance": lambda language: glance_part(glance, site.rulesets, language),
        "compare-key": lambda language: comparison_key(glance, language),
        "compare-tables": lambda language: comparison_tables(site, glance, language),
        "pairs-grid": lambda language: pairs_grid(site, glance, language),
    }
