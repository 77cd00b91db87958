"""Assemble the whole site: every generated page and the navigation.

:func:`build_site` takes everything it needs as arguments (the catalog, the example's
text and resolved ruleset, the rules matrix text if found, the CLI parser, the schema),
so it does no I/O and can be tested without MkDocs; ``docs/hooks.py`` gathers the
inputs and hands the pages to MkDocs.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schwimmen.docsgen import compare, disagreements, glossary, guides, home, reference, rulepages
from schwimmen.docsgen.context import Site, build_context
from schwimmen.docsgen.markup import (
    CLI_REFERENCE,
    COMPARISON,
    DECISIONS,
    DISAGREEMENTS,
    GLOSSARY,
    GUIDE_HOUSE_RULE,
    GUIDE_PLAY,
    GUIDE_TEST,
    HOME,
    HOUSE_RULES_INDEX,
    PAIRS_INDEX,
    RULESETS_INDEX,
    SCHEMA_REFERENCE,
    house_rule_page,
    pair_page,
    ruleset_page,
)
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Citation, Ruleset
from schwimmen.spec.sources import Bibliography

EXAMPLE_ORIGIN = "pagat"

NavItem = str | dict[str, Any]


@dataclass(frozen=True)
class Page:
    """One generated page: its docs-relative path, its markdown, and whether the
    navigation lists it (the 45 pair pages are reached from the pairs grid instead)."""

    path: str
    markdown: str
    in_nav: bool = True


@dataclass(frozen=True)
class SiteInput:
    """Everything the generator reads, gathered by the hook."""

    catalog: Catalog
    example_text: str
    example: Ruleset
    cli_parser: argparse.ArgumentParser
    schema: Mapping[str, Any]
    house_rule_texts: Mapping[str, str] = field(default_factory=dict)
    matrix_text: str | None = None
    matrix_looked_for: str = ""


@dataclass(frozen=True)
class SiteOutput:
    pages: list[Page]
    nav: list[NavItem]
    site: Site


class DocsBuildError(Exception):
    """The site cannot be built truthfully (the spec or the example does not resolve, or a
    quote on a page is wrong); the message lists every problem."""


def resolve_example(catalog: Catalog, path: Path) -> Ruleset:
    """Resolve the guide's example house rule on its origin, or raise
    :class:`DocsBuildError` with the loader's messages.

    ``catalog`` should be a scratch catalog: resolving a file path registers the file.
    """
    name = f"{EXAMPLE_ORIGIN}{SEPARATOR}{path}"
    try:
        ruleset = catalog.resolve(name)
    except SpecErrors as exc:
        problems = "\n".join(str(e) for e in exc.errors) or "does not resolve"
        raise DocsBuildError(f"the guide's example {path} does not resolve:\n{problems}") from None
    overlay = catalog.house_rules.get(ruleset.overlays[0]) if ruleset.overlays else None
    if overlay is None or overlay.data.get("origin") != EXAMPLE_ORIGIN:
        raise DocsBuildError(f"the guide's example {path} must have origin {EXAMPLE_ORIGIN!r}")
    return ruleset


def page_citations() -> list[Citation]:
    """Quotes the generator itself places on pages (outside the spec files)."""
    quotes = list(home.INTRO_QUOTES)
    for term in glossary.TERMS:
        quotes.extend(term.quotes)
    return quotes


def check_citations(bib: Bibliography, citations: Iterable[Citation]) -> list[str]:
    """Every problem with the page quotes, checked like the spec's own quotes (skipped,
    with the loader's notice, when the source texts are not available)."""
    problems = []
    for citation in citations:
        if citation.source not in bib.sources:
            problems.append(f"unknown source {citation.source!r} for „{citation.quote}“")
            continue
        problem = bib.check_quote(citation)
        if problem:
            problems.append(f"„{citation.quote}“: {problem}")
    return problems


def build_site(given: SiteInput) -> SiteOutput:
    """Generate every page. Raises :class:`DocsBuildError` if the spec does not resolve."""
    catalog = given.catalog
    errors = catalog.check_all()
    if errors:
        raise DocsBuildError("the spec has errors:\n" + "\n".join(str(e) for e in errors))
    problems = check_citations(catalog.bibliography, page_citations())
    if problems:
        raise DocsBuildError("quotes on generated pages are wrong:\n" + "\n".join(problems))
    sections = (
        disagreements.parse_scenarios(given.matrix_text) if given.matrix_text is not None else None
    )
    titles = disagreements.decision_titles(given.matrix_text) if given.matrix_text else {}
    try:
        numbers = [sc.number for section in sections or () for sc in section.scenarios]
        site = build_context(catalog, titles, numbers)
    except SpecErrors as exc:
        raise DocsBuildError(str(exc)) from None

    commands = reference.subcommand_names(given.cli_parser)
    pages = [
        Page(HOME, home.home_markdown(site)),
        Page(RULESETS_INDEX, rulepages.rulesets_index_markdown(site)),
        Page(HOUSE_RULES_INDEX, rulepages.house_rules_index_markdown(site)),
        Page(COMPARISON, compare.comparison_markdown(site)),
        Page(PAIRS_INDEX, compare.pairs_index_markdown(site)),
        Page(
            DISAGREEMENTS,
            disagreements.disagreements_markdown(site, sections, given.matrix_looked_for),
        ),
        Page(
            GUIDE_HOUSE_RULE,
            guides.house_rule_guide_markdown(site, given.example_text, given.example),
        ),
        Page(GUIDE_TEST, guides.testing_guide_markdown(commands)),
        Page(GUIDE_PLAY, guides.play_guide_markdown(commands)),
        Page(GLOSSARY, reference.glossary_markdown(glossary.TERMS)),
        Page(DECISIONS, reference.decisions_markdown(site)),
        Page(CLI_REFERENCE, reference.cli_markdown(given.cli_parser)),
        Page(SCHEMA_REFERENCE, reference.schema_markdown(given.schema, site)),
    ]
    pages += [
        Page(ruleset_page(rid), rulepages.ruleset_markdown(site, rid)) for rid in site.rulesets
    ]
    pages += [
        Page(
            house_rule_page(hid),
            rulepages.house_rule_markdown(site, hid, given.house_rule_texts.get(hid)),
        )
        for hid in site.house_rules
    ]
    pages += [
        Page(pair_page(a, b), compare.pair_markdown(site, a, b), in_nav=False)
        for a, b in compare.pair_ids(site)
    ]
    return SiteOutput(pages, navigation(site), site)


def navigation(site: Site) -> list[NavItem]:
    """The site's navigation; rulesets and house rules are listed by id, as everywhere."""
    return [
        {"Home": HOME},
        {"Rulesets": [RULESETS_INDEX, *({rid: ruleset_page(rid)} for rid in site.rulesets)]},
        {
            "House rules": [
                HOUSE_RULES_INDEX,
                *({hid: house_rule_page(hid)} for hid in site.house_rules),
            ]
        },
        {
            "Compare": [
                COMPARISON,
                {"Compare two": PAIRS_INDEX},
                {"Disagreements": DISAGREEMENTS},
            ]
        },
        {
            "Guides": [
                {"Add a house rule": GUIDE_HOUSE_RULE},
                {"Test your implementation": GUIDE_TEST},
                {"Play and simulate": GUIDE_PLAY},
            ]
        },
        {
            "Reference": [
                {"Glossary": GLOSSARY},
                {"File format": SCHEMA_REFERENCE},
                {"Command line": CLI_REFERENCE},
                {"Decisions": DECISIONS},
            ]
        },
    ]
