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
)
from schwimmen.docsgen.templates import render_markdown
from schwimmen.spec.model import ProvenanceKind
from schwimmen.spec.pagedata import page_quotes


def provenance_counts(site: Site, language: str) -> str:
    """How many of the rulesets' own rules are cited, interpreted and default."""
    total = {k: 0 for k in ProvenanceKind}
    for ruleset in site.rulesets.values():
        for kind, n in kind_counts(ruleset, own_only=True).items():
            total[kind] += n
    return render_markdown("home-tables.md", language, part="counts", totals=total)


def sources_table(site: Site, language: str, here: str = HOME) -> str:
    """The sources with their kind and the rulesets each describes."""
    sources = site.catalog.bibliography.sources.values()
    return render_markdown(
        "home-tables.md",
        language,
        part="sources",
        sources=sources,
        rulesets=site.rulesets,
        here=here,
    )


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
        return lambda language: render_markdown(
            "quote.md", language, c=page_quotes()[name], here=here
        )

    return {f"quote-{name}": make(name) for name in page_quotes()}


def home_inserts(site: Site) -> Mapping[str, Insert]:
    return {
        "provenance-counts": lambda language: provenance_counts(site, language),
        "sources-table": lambda language: sources_table(site, language),
        "sources": lambda language: sources(site, language),
        **quote_inserts(),
    }
