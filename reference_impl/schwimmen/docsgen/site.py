"""Assemble the whole site: every generated page, the generated parts of the pages
written by hand in ``docs/`` (see :mod:`schwimmen.docsgen.inserts`), and the navigation.

:func:`build_site` takes everything it needs as arguments (the catalog, the example's
text and resolved ruleset, the disagreements and decisions of ``spec/``, the CLI parser,
the schema),
so it does no I/O and can be tested without MkDocs; ``docs/hooks.py`` gathers the
inputs and hands the pages and parts to MkDocs.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from schwimmen.conformance.examples import make_examples
from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.plan import Suite, default_suite
from schwimmen.docsgen import (
    calculator,
    compare,
    disagreements,
    engineapi,
    finderpage,
    fixturepages,
    glossary,
    guides,
    home,
    markup,
    memo,
    playguide,
    reference,
    rulepages,
    searchrank,
    statistics,
    tags,
    testguide,
)
from schwimmen.docsgen.context import Fit, Site, build_context
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    conformance_doc,
    house_rule_page,
    pair_page,
    ruleset_page,
)
from schwimmen.docsgen.templates import render_markdown
from schwimmen.engine.handscore import ruleset_names
from schwimmen.resources import spec_dir
from schwimmen.spec import finder, pagedata, sourcewords, termination
from schwimmen.spec.decisions import Decisions
from schwimmen.spec.disagreements import Disagreements
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.glance import Glance, load_glance
from schwimmen.spec.glance import check as check_glance
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Ruleset
from schwimmen.spec.sources import quote_problems

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
    # the project's scenarios (spec/disagreements.yaml) and decisions (spec/decisions.yaml)
    disagreements: Disagreements | None = None
    decisions: Decisions | None = None
    # the conformance suite: the loaded fixtures, its documents (``PROTOCOL.md`` → text),
    # the adapter example's code, and files to publish as they are (path → text)
    fixtures: Sequence[Fixture] = ()
    conformance_docs: Mapping[str, str] = field(default_factory=dict)
    adapter_example: str | None = None
    static_files: Mapping[str, str] = field(default_factory=dict)
    # the simulator's figures and the real examples on the guides (off for quick tests)
    simulate: bool = True
    examples: bool = True
    # what the command line printed for the play guide (the hook runs it)
    played: playguide.PlayedExamples | None = None
    # the comparison's words (spec/at-a-glance.yaml); None: read the shipped file
    glance: Glance | None = None
    # the hand calculator's tables (about twenty seconds: every hand of every ruleset)
    calculator: bool = True
    # the variant finder's questions (docs/data/finder.yaml), for its page
    finder: finder.Finder | None = None


@dataclass(frozen=True)
class SiteOutput:
    """What the generator made: plain data (pages, navigation, the parts of the
    hand-written pages in every language, search entries), so that the build can keep it
    by the content it was made from (``docs/hooks.py``)."""

    pages: list[Page]
    nav: list[NavItem]
    # generated parts for the hand-written pages in docs/ (see docsgen.inserts): name →
    # language → markdown
    inserts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # entries of the search index for pages the theme does not index (the fixtures)
    search: tuple[fixturepages.SearchEntry, ...] = ()

    def insert(self, name: str) -> Insert:
        """The part ``name`` as :func:`schwimmen.docsgen.inserts.fill` asks for it."""
        return self.inserts[name].__getitem__


class DocsBuildError(Exception):
    """The site cannot be built truthfully (the spec or the example does not resolve, or a
    quote on a page is wrong); the message lists every problem."""


def resolve_example(catalog: Catalog, path: Path) -> Ruleset:
    """Resolve the guide's example house rule on its origin, or raise
    :class:`DocsBuildError` with the loader's messages.

    The example is resolved on a scratch catalog of the same files: resolving a file
    path registers the file, which must not show up among the spec's house rules.
    """
    catalog, files = Catalog(catalog.bibliography), catalog
    catalog.rulesets.update(files.rulesets)
    catalog.house_rules.update(files.house_rules)
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


def forget_data() -> None:
    """Read the site's data files (the words, the glossary, the quotes) again when next
    asked: ``mkdocs serve`` generates the site again in the same process after an edit."""
    pagedata.forget()
    tags.forget()


def build_site(given: SiteInput) -> SiteOutput:
    """Generate every page not written by hand, and the parts the hand-written pages
    insert. Raises :class:`DocsBuildError` if the spec does not resolve."""
    catalog = given.catalog
    errors = catalog.check_all()
    if errors:
        raise DocsBuildError("the spec has errors:\n" + "\n".join(str(e) for e in errors))
    try:
        glance = given.glance if given.glance is not None else load_glance()
    except SpecErrors as exc:
        raise DocsBuildError(f"the comparison's words do not load:\n{exc}") from None
    try:
        citations = pagedata.page_citations()
    except SpecErrors as exc:
        raise DocsBuildError(str(exc)) from None
    avoided = sourcewords.avoided_words(catalog, pagedata.glossary())
    if avoided:
        raise DocsBuildError(
            "a German text does not use its source's word:\n" + "\n".join(map(str, avoided))
        )
    problems = quote_problems(catalog.bibliography, citations)
    if problems:
        raise DocsBuildError("quotes on generated pages are wrong:\n" + "\n".join(problems))
    data = given.disagreements
    titles = dict(given.decisions.titles) if given.decisions is not None else {}
    numbers = data.ids if data is not None else None
    try:
        site = build_context(catalog, titles, numbers or ())
        suite = default_suite(catalog, given.fixtures, numbers) if given.fixtures else None
    except SpecErrors as exc:
        raise DocsBuildError(str(exc)) from None
    scenario_titles = {s.id: s.title for s in data.scenarios} if data is not None else {}
    site = dataclasses.replace(site, scenario_titles=scenario_titles)
    if suite is not None:
        site = dataclasses.replace(
            site, suite=suite, fixture_decisions=frozenset(suite.decisions()) - site.decisions
        )
    inserts: dict[str, Insert] = {}
    if suite is not None and data is not None:
        computed, wrong = disagreements.compute(site, suite, data, _reference_engine())
        if wrong:
            raise DocsBuildError(
                "the disagreements page would contradict its fixtures:\n" + "\n".join(wrong)
            )
        names = player_names(
            catalog,
            glance,
            [*site.rulesets, *(r.id for r in site.with_house_rule.values())],
        )
        inserts.update(disagreements.inserts(site, suite, data, computed, names))

    wording = check_glance(glance, site.rulesets)
    if wording:
        raise DocsBuildError(
            "the comparison's words do not fit the rulesets:\n" + "\n".join(map(str, wording))
        )
    fits = house_rule_fits(site)
    pages: list[Page] = []
    texts = given.house_rule_texts
    for language in pagedata.LANGUAGES:
        for rid in site.rulesets:
            text = rulepages.ruleset_markdown(site, rid, fits, language)
            pages.append(Page(translation(ruleset_page(rid), language), text))
        for hid in site.house_rules:
            text = rulepages.house_rule_markdown(site, hid, fits, texts.get(hid), language)
            pages.append(Page(translation(house_rule_page(hid), language), text))
    for a, b in compare.pair_ids(site):
        for language in pagedata.LANGUAGES:
            text = compare.pair_markdown(site, glance, a, b, language)
            pages.append(Page(translation(pair_page(a, b), language), text, in_nav=False))
    if suite is not None:
        areas = fixturepages.area_pages(site, suite)
        pages += [Page(path, text, in_nav=False) for path, text in areas.items()]
    search = fixturepages.search_entries(suite.areas()) if suite is not None else []
    for name, text in given.conformance_docs.items():
        text = render_markdown("conformance-doc.md", "en", document=name, text=text)
        pages.append(Page(conformance_doc(name), text + "\n"))
    pages = [
        dataclasses.replace(page, markdown=searchrank.with_rank(page.path, page.markdown))
        if page.path.endswith(".md")
        else page
        for page in pages
    ]
    pages += [Page(path, text, in_nav=False) for path, text in given.static_files.items()]
    if given.finder is not None:
        inserts.update(finder_inserts(given.finder, site))
    if given.calculator:
        pages += _calculator_files(catalog, inserts, glance)
    parts: list[Mapping[str, str | Insert]] = [
        inserts,
        compare.inserts(site, glance),
        suite_counts(suite),
        fixturepages.index_parts(site, suite) if suite is not None else {},
        _testing_guide_parts(site, suite, given),
        _play_guide_parts(site, given),
        engineapi.page_parts(catalog.resolve(given.example.base) if given.examples else None),
        reference.cli_parts(given.cli_parser),
        reference.schema_parts(given.schema, site),
        reference.decisions_parts(site),
        statistics.statistics_inserts(
            statistics.simulate_rulesets(site.rulesets),
            lambda rid, language: site.catalog.rulesets[rid].title_and_summary(language)[0],
        )
        if given.simulate
        else {},
        home.home_inserts(site),
        glossary.glossary_inserts(),
        guides.guide_inserts(site, given.example_text, given.example),
        {
            "provenance-legend": lambda language: rulepages.legend(site, language),
            "rulesets-table": lambda language: rulepages.rulesets_table(site, language),
            "house-rules-table": lambda language: rulepages.house_rules_table(site, fits, language),
        },
    ]
    nav = navigation(site, given, suite)
    made = {
        name: {language: part(language) for language in pagedata.LANGUAGES}
        for name, part in merge_parts(parts).items()
    }
    return SiteOutput(pages, nav, made, tuple(search))


def house_rule_fits(site: Site) -> dict[str, list[Fit]]:
    """Where each house rule fits (:meth:`Site.fits`: it is resolved on every ruleset).
    ``mkdocs serve`` generates the site again after each edit of the spec, which changes
    one file: a house rule's fits are taken from the last generation in this process
    while its file, every ruleset's file and the table of contradictions read the same
    (their data, and where each part of it stands, which errors quote)."""
    files = [site.catalog.rulesets[rid] for rid in sorted(site.catalog.rulesets)]
    table = spec_dir() / termination.FILE
    shared = repr(
        (
            [(sf.doc.data, sorted(sf.doc.positions.items())) for sf in files],
            table.read_bytes() if table.is_file() else b"",
        )
    )
    out = {}
    for hid, sf in site.house_rules.items():
        key = repr((shared, sf.doc.data, sorted(sf.doc.positions.items())))
        out[hid] = memo.remembered(f"fits-{hid}", key, partial(site.fits, hid))
    return out


def finder_inserts(questions: finder.Finder, site: Site) -> dict[str, Insert]:
    """The variant finder's widget with its data, and the list of rulesets its questions
    cannot tell apart."""
    titles = {
        rid: {lang: sf.title_and_summary(lang)[0] for lang in finder.LANGUAGES}
        for rid, sf in site.catalog.rulesets.items()
    }
    data = finder.export(questions, site.rulesets, titles)
    say = pagedata.words()
    return {
        "variant-finder": lambda language: finderpage.widget_markdown(data, language),
        "variant-finder-limits": lambda language: finderpage.limits_markdown(
            data, site.rulesets, language, say.param_title
        ),
    }


def _calculator_files(catalog: Catalog, inserts: dict[str, Insert], glance: Glance) -> list[Page]:
    """The hand calculator's tables, valued by the engine for every ruleset and house rule
    (as ``schwimmen score`` lists them), and its widget for the page. A row is named for
    players: a ruleset as the comparison names it, a house rule by its title."""
    try:
        words = calculator.load_words()
    except SpecErrors as exc:
        raise DocsBuildError(str(exc)) from None
    names = ruleset_names(catalog)
    shown = player_names(catalog, glance, names, hyphens=True)
    data = calculator.calculator_data(catalog, names, words, shown)
    inserts["calculator"] = lambda language: calculator.calculator_markup(words, language)
    return [Page(path, text, in_nav=False) for path, text in data.files().items()]


def player_names(
    catalog: Catalog, glance: Glance, names: Iterable[str], *, hyphens: bool = False
) -> dict[str, dict[str, str]]:
    """The words players know ``names`` by, per language: a ruleset as the comparison names
    it, a house rule (alone or on a ruleset) by its title. A name neither knows is left out
    (its id is then shown)."""
    shown: dict[str, dict[str, str]] = {}
    for name in names:
        house = name.rsplit(SEPARATOR, 1)[1] if SEPARATOR in name else None
        if house is None:
            shown[name] = {
                lang: glance.name(name, lang, hyphens=hyphens) for lang in pagedata.LANGUAGES
            }
        elif house in catalog.house_rules:
            sf = catalog.house_rules[house]
            shown[name] = {lang: sf.title_and_summary(lang)[0] for lang in pagedata.LANGUAGES}
    return shown


def translation(path: str, language: str) -> str:
    """Where a page's version in ``language`` lives: ``rulesets/pagat.md`` in German is
    ``rulesets/pagat.de.md`` (the languages plugin's suffix structure); the default
    language keeps the path."""
    if language == pagedata.DEFAULT_LANGUAGE:
        return path
    stem, dot, suffix = path.rpartition(".")
    return f"{stem}.{language}.{suffix}" if dot else f"{path}.{language}"


def suite_counts(suite: Suite | None) -> dict[str, str]:
    """The conformance suite's size, for the sentences of hand-written pages that give it."""
    if suite is None:
        return {}
    return {"fixture-count": str(len(suite.fixtures)), "case-count": str(suite.cases)}


def merge_parts(parts: Iterable[Mapping[str, str | Insert]]) -> dict[str, Insert]:
    """The generated parts of every page by name. A part given as text reads the same in
    every language (the reference pages are English only); a part given as a function
    makes its markdown for the page's language. A name two modules both produce is a bug."""
    merged: dict[str, Insert] = {}
    for group in parts:
        for name, part in group.items():
            if name in merged:
                raise DocsBuildError(f"two generated parts are named {name!r}")
            merged[name] = partial(_same, part) if isinstance(part, str) else part
    return merged


def _same(text: str, language: str) -> str:
    return text


def _reference_engine() -> Callable[[Mapping[str, Any]], Mapping[str, Any]]:
    from schwimmen.engine.adapter import run_case

    return run_case


def _testing_guide_parts(site: Site, suite: Suite | None, given: SiteInput) -> dict[str, str]:
    examples = None
    if suite is not None and given.examples:
        examples = make_examples(site.rulesets, suite, _reference_engine(), given.example.base)
    return testguide.guide_parts(suite, given.adapter_example, examples)


def _play_guide_parts(site: Site, given: SiteInput) -> dict[str, str]:
    played = given.played if given.examples else None
    return playguide.guide_parts(played, given.example.base)


def navigation(
    site: Site, given: SiteInput | None = None, suite: Suite | None = None
) -> list[NavItem]:
    """The site's navigation (the template ``nav.yaml``): a section is left out with its
    pages (no statistics when the simulator did not run, no fixtures without the suite)."""
    text = render_markdown(
        "nav.yaml",
        pagedata.DEFAULT_LANGUAGE,
        pages=markup,
        finder=finder.PAGE,
        calculator=given is None or given.calculator,
        simulate=given is None or given.simulate,
        rulesets=site.rulesets,
        house_rules=site.house_rules,
        fixtures=suite is not None,
        conformance_docs=given.conformance_docs if given is not None else {},
    )
    return list(yaml.safe_load(text))
