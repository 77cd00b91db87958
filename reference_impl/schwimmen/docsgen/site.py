"""Assemble the whole site: every generated page and the navigation.

:func:`build_site` takes everything it needs as arguments (the catalog, the example's
text and resolved ruleset, the rules matrix text if found, the CLI parser, the schema),
so it does no I/O and can be tested without MkDocs; ``docs/hooks.py`` gathers the
inputs and hands the pages to MkDocs.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.harness import default_rulesets, resolve_all
from schwimmen.docsgen import (
    compare,
    disagreements,
    engineapi,
    finder,
    fixturepages,
    glossary,
    guides,
    home,
    playguide,
    reference,
    rulepages,
    statistics,
    testguide,
)
from schwimmen.docsgen.context import Site, build_context
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    CLI_REFERENCE,
    COMPARISON,
    CONFORMANCE_DOCS,
    DECISIONS,
    DISAGREEMENTS,
    ENGINE_API,
    FIXTURES_INDEX,
    GLOSSARY,
    GUIDE_HOUSE_RULE,
    GUIDE_PLAY,
    GUIDE_TEST,
    HOME,
    HOUSE_RULES_INDEX,
    PAIRS_INDEX,
    RULESETS_INDEX,
    SCHEMA_REFERENCE,
    STATISTICS,
    conformance_doc,
    fixture_page,
    house_rule_page,
    pair_page,
    ruleset_page,
)
from schwimmen.docsgen.suite import Suite, build_suite, scenario_numbers
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Citation, Ruleset
from schwimmen.spec.sources import Bibliography

NavItem = str | dict[str, Any]


@dataclass(frozen=True)
class Page:
    """One generated page: its docs-relative path, its markdown, and whether the
    navigation lists it (the 45 pair pages are reached from the pairs grid, the fixture
    pages from the fixtures index). A path not ending in ``.md`` is a file copied as it is
    (the adapter example, a JSON Schema)."""

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
    # the conformance suite: the loaded fixtures, its documents (``PROTOCOL.md`` → text),
    # the adapter example's code, and files to publish as they are (path → text)
    fixtures: Sequence[Fixture] = ()
    conformance_docs: Mapping[str, str] = field(default_factory=dict)
    adapter_example: str | None = None
    static_files: Mapping[str, str] = field(default_factory=dict)
    # the simulator's figures and the real examples on the guides (off for quick tests)
    simulate: bool = True
    examples: bool = True
    # the variant finder's questions (docs/data/finder.yaml), for its page
    finder: finder.Finder | None = None


@dataclass(frozen=True)
class SiteOutput:
    pages: list[Page]
    nav: list[NavItem]
    site: Site
    suite: Suite | None = None
    # generated parts for the hand-written pages in docs/ (see docsgen.inserts)
    inserts: Mapping[str, Insert] = field(default_factory=dict)


class DocsBuildError(Exception):
    """The site cannot be built truthfully (the spec or the example does not resolve, or a
    quote on a page is wrong); the message lists every problem."""


def resolve_example(catalog: Catalog, path: Path) -> Ruleset:
    """Resolve the guide's example house rule on its origin, or raise
    :class:`DocsBuildError` with the loader's messages.

    ``catalog`` should be a scratch catalog: resolving a file path registers the file.
    """
    example = catalog.add(path)
    problems = [str(e) for e in catalog.file_errors_for_path(str(path))]
    if example is None or problems or example.kind != "house-rule":
        detail = "\n".join(problems) or "it is not a house rule"
        raise DocsBuildError(f"the guide's example {path} does not load:\n{detail}")
    name = f"{example.data['origin']}{SEPARATOR}{path}"
    try:
        return catalog.resolve(name)
    except SpecErrors as exc:
        detail = "\n".join(str(e) for e in exc.errors) or "does not resolve"
        raise DocsBuildError(f"the guide's example {path} does not resolve:\n{detail}") from None


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
        suite = plan_suite(catalog, given.fixtures) if given.fixtures else None
    except SpecErrors as exc:
        raise DocsBuildError(str(exc)) from None
    scenario_titles = {
        sc.number: sc.title for section in sections or () for sc in section.scenarios
    }
    if suite is not None:
        site = dataclasses.replace(
            site,
            suite=suite,
            scenarios=site.scenarios | scenario_numbers(suite),
            scenario_titles=scenario_titles,
            fixture_decisions=frozenset(suite.decisions()) - site.decisions,
        )
    else:
        site = dataclasses.replace(site, scenario_titles=scenario_titles)

    pages = [
        Page(HOME, home.home_markdown(site)),
        Page(RULESETS_INDEX, rulepages.rulesets_index_markdown(site)),
        Page(HOUSE_RULES_INDEX, rulepages.house_rules_index_markdown(site)),
        Page(COMPARISON, compare.comparison_markdown(site)),
        Page(PAIRS_INDEX, compare.pairs_index_markdown(site)),
        Page(
            DISAGREEMENTS,
            disagreements.disagreements_markdown(site, sections, given.matrix_looked_for, suite),
        ),
        Page(
            GUIDE_HOUSE_RULE,
            guides.house_rule_guide_markdown(site, given.example_text, given.example),
        ),
        Page(GUIDE_TEST, _testing_guide(site, suite, given)),
        Page(GUIDE_PLAY, _play_guide(site, given)),
        Page(GLOSSARY, reference.glossary_markdown(glossary.TERMS)),
        Page(DECISIONS, reference.decisions_markdown(site)),
        Page(CLI_REFERENCE, reference.cli_markdown(given.cli_parser)),
        Page(
            ENGINE_API,
            engineapi.engine_api_markdown(given.example.base if given.examples else None),
        ),
        Page(SCHEMA_REFERENCE, reference.schema_markdown(given.schema, site)),
    ]
    if given.simulate:
        figures = statistics.simulate_rulesets(site.rulesets)
        pages.append(Page(STATISTICS, statistics.statistics_markdown(site, figures)))
    pages += [
        Page(
            ruleset_page(rid),
            rulepages.ruleset_markdown(
                site,
                rid,
                fixturepages.conformance_section(site, suite, rid, ruleset_page(rid))
                if suite
                else None,
            ),
        )
        for rid in site.rulesets
    ]
    pages += [
        Page(
            house_rule_page(hid),
            rulepages.house_rule_markdown(
                site,
                hid,
                given.house_rule_texts.get(hid),
                fixturepages.house_rule_conformance_section(
                    site, suite, hid, str(sf.data["origin"]), house_rule_page(hid)
                )
                if suite
                else None,
            ),
        )
        for hid, sf in site.house_rules.items()
    ]
    pages += [
        Page(pair_page(a, b), compare.pair_markdown(site, a, b), in_nav=False)
        for a, b in compare.pair_ids(site)
    ]
    if suite is not None:
        pages.append(Page(FIXTURES_INDEX, fixturepages.fixtures_index_markdown(site, suite)))
        pages += [
            Page(fixture_page(f.id), fixturepages.fixture_markdown(site, suite, f), in_nav=False)
            for f in suite.fixtures
        ]
    pages += [
        Page(conformance_doc(name), conformance_doc_markdown(name, text))
        for name, text in given.conformance_docs.items()
    ]
    pages += [Page(path, text, in_nav=False) for path, text in given.static_files.items()]
    inserts = finder_inserts(given.finder, site) if given.finder is not None else {}
    return SiteOutput(pages, navigation(site, given, suite), site, suite, inserts)


def finder_inserts(questions: finder.Finder, site: Site) -> dict[str, Insert]:
    """The variant finder's widget with its data, and the list of rulesets its questions
    cannot tell apart."""
    data = finder.export(questions, site.rulesets)
    return {
        "variant-finder": lambda language: finder.widget_markdown(data, language),
        "variant-finder-limits": lambda language: finder.limits_markdown(
            data, site.rulesets, language
        ),
    }


def plan_suite(catalog: Catalog, fixtures: Sequence[Fixture]) -> Suite:
    """Every fixture against the rulesets of the default run (the ten rulesets and each
    house rule on its origin), as ``schwimmen conformance`` runs them."""
    return build_suite(fixtures, resolve_all(catalog, default_rulesets(catalog)))


def _reference_engine() -> Callable[[Mapping[str, Any]], Mapping[str, Any]]:
    from schwimmen.engine.adapter import run_case

    return run_case


def _testing_guide(site: Site, suite: Suite | None, given: SiteInput) -> str:
    examples = None
    if suite is not None and given.examples:
        examples = testguide.make_examples(site, suite, _reference_engine(), given.example.base)
    return testguide.testing_guide_markdown(
        site, suite, given.cli_parser, given.adapter_example, examples
    )


def _play_guide(site: Site, given: SiteInput) -> str:
    transcript = simulated = None
    game = given.example.base
    ruleset = site.rulesets.get(game)
    if given.examples and ruleset is not None:
        transcript = playguide.play_transcript(ruleset)
        simulated = playguide.simulate_output(ruleset)
    return playguide.play_guide_markdown(given.cli_parser, transcript, simulated, game)


def conformance_doc_markdown(name: str, text: str) -> str:
    """One of the suite's documents as it stands in the repository, with a note saying so."""
    return (
        text.rstrip()
        + "\n\n---\n\n"
        + f"<small>This page is `conformance/{name}` of the repository, rendered when the site "
        "was built.</small>\n"
    )


def navigation(
    site: Site, given: SiteInput | None = None, suite: Suite | None = None
) -> list[NavItem]:
    """The site's navigation; rulesets and house rules are listed by id, as everywhere."""
    compare_items: list[NavItem] = [
        COMPARISON,
        {"Compare two": PAIRS_INDEX},
        {"Disagreements": DISAGREEMENTS},
    ]
    if given is None or given.simulate:
        compare_items.append({"Statistics": STATISTICS})
    nav: list[NavItem] = [
        {"Home": HOME},
        {"For the table": [finder.PAGE]},
        {"Rulesets": [RULESETS_INDEX, *({rid: ruleset_page(rid)} for rid in site.rulesets)]},
        {
            "House rules": [
                HOUSE_RULES_INDEX,
                *({hid: house_rule_page(hid)} for hid in site.house_rules),
            ]
        },
        {"Compare": compare_items},
    ]
    conformance: list[NavItem] = []
    if suite is not None:
        conformance.append(FIXTURES_INDEX)
    docs = given.conformance_docs if given is not None else {}
    conformance += [
        {title: conformance_doc(n)} for n, title in CONFORMANCE_DOCS.items() if n in docs
    ]
    if conformance:
        nav.append({"Conformance": conformance})
    nav += [
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
                {"Engine API (Python)": ENGINE_API},
                {"Decisions": DECISIONS},
            ]
        },
    ]
    return nav
