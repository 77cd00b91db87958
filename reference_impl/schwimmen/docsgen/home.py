"""The generated parts of the home page (``docs/index.md`` and its translations): the
provenance counts, the quotes and the sources with how far to trust each.

The sources section is the bibliography (``spec/sources.yaml``) as the loader reads it,
with each source's own reliability statement: a reader deciding whether to trust a
rule should see what the project knows about the text it comes from.
"""

from __future__ import annotations

from collections.abc import Mapping

from schwimmen.docsgen.context import Site, kind_counts
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    HOME,
    badge,
    citation_md,
    code,
    esc,
    link,
    ruleset_page,
    table,
)
from schwimmen.docsgen.templates import render_markdown
from schwimmen.spec.model import ProvenanceKind
from schwimmen.spec.pagedata import page_quotes, words


def provenance_counts(site: Site, language: str) -> str:
    """How many of the rulesets' own rules are cited, interpreted and default."""
    say = words()
    total = {k: 0 for k in ProvenanceKind}
    for ruleset in site.rulesets.values():
        for kind, n in kind_counts(ruleset, own_only=True).items():
            total[kind] += n
    rows = [
        [badge(kind, language=language), esc(say(f"kind.{kind.value}.help", language)), str(n)]
        for kind, n in total.items()
    ]
    return table([say("table.kind", language), "", say("table.rules", language)], rows)


def sources_table(site: Site, language: str, here: str = HOME) -> str:
    say = words()
    rows = []
    for source in site.catalog.bibliography.sources.values():
        rulesets = ", ".join(
            link(here, ruleset_page(r), code(r)) for r in source.rulesets if r in site.rulesets
        )
        rows.append(
            [
                f"[{source.id}](#{source.id})",
                esc(source.text("title", language)),
                esc(say(f"source-kind.{source.kind}", language)),
                rulesets,
            ]
        )
    header = [say(f"table.{k}", language) for k in ("id", "title", "source-kind", "rulesets")]
    return table(header, rows)


def sources(site: Site, language: str, here: str = HOME) -> str:
    """A section per source (the template ``home-sources.md``), each ending in a blank
    line but the last."""
    text = render_markdown(
        "home-sources.md",
        language,
        sources=site.catalog.bibliography.sources.values(),
        rulesets=site.rulesets,
        here=here,
    )
    return text.removesuffix("\n")


def quote_inserts(here: str = HOME) -> Mapping[str, Insert]:
    """``quote-NAME`` for every quote of ``spec/quotes.yaml``."""

    def make(name: str) -> Insert:
        return lambda language: citation_md(page_quotes()[name], here, language)

    return {f"quote-{name}": make(name) for name in page_quotes()}


def home_inserts(site: Site) -> Mapping[str, Insert]:
    return {
        "provenance-counts": lambda language: provenance_counts(site, language),
        "sources-table": lambda language: sources_table(site, language),
        "sources": lambda language: sources(site, language),
        **quote_inserts(),
    }
