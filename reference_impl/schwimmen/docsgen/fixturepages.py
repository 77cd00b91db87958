"""The conformance fixtures on the site: a page per area with every fixture of it, the
fixtures index, and the conformance sections of the ruleset and house-rule pages.

A fixture is read by someone whose engine failed a case, or by a player who wants to see
a disagreement played out: it shows the position with the cards drawn as cards, the steps
in words (with their canonical text), and for each case the expected outcome, the
rulesets of the default run it applies to (chosen by the loader's ``applicable_case``),
its ``where`` predicates in words and its evidence: the sources' quotes or the stated
defaults. The fixtures of one area (``round``, ``feuer``, ...) share a page, each under a
heading of its own (``fixtures/round/#thirty-one-by-a-swap``): 18 pages instead of 277
that repeated the site's frame around a few paragraphs each. The layout is the template
``fixture.html``; its phrases are the macros of ``fixture-words.html``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.plan import Suite, house_rule_of, name_of
from schwimmen.docsgen import fixturetext, markup, memo
from schwimmen.docsgen.blocks import block
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.fixturetext import KINDS, kind_help
from schwimmen.docsgen.markup import (
    area_page,
)
from schwimmen.docsgen.tags import reference
from schwimmen.docsgen.templates import render, render_markdown
from schwimmen.spec.pagedata import DEFAULT_LANGUAGE, words

# Found by a search, after every rule page: a fixture weighs little.
SEARCH_BOOST = 0.1
SEARCH_TEXT = 120  # characters of a fixture's description its search entry keeps


@dataclass(frozen=True)
class SearchEntry:
    """An entry of the search index the generator writes itself: the area pages are left
    out of the theme's index, which would index every case of every fixture."""

    page: str
    anchor: str
    title: str
    text: str
    boost: float = SEARCH_BOOST


def applying(names: Sequence[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The rulesets a case applies to, and the house rules it applies to, grouped by the
    ruleset each is put on."""
    bases = [n for n in names if house_rule_of(n) is None]
    houses: dict[str, list[str]] = {}
    for name in names:
        house = house_rule_of(name)
        if house is not None:
            houses.setdefault(name.rsplit("+", 1)[0], []).append(house)
    return bases, houses


def fixture_html(site: Site, suite: Suite, fixture: Fixture, language: str = "en") -> str:
    """One fixture's part of its area's page (below its heading)."""
    return render(
        "fixture.html",
        language,
        f=fixture,
        anchor=name_of(fixture.id),
        runs=suite.runs[fixture.id],
        total=len(suite.names),
        refs=site.refs,
        scenario_titles=site.scenario_titles,
        decision_titles=site.decision_titles,
        ft=fixturetext,
        kind_help=kind_help,
        applying=applying,
    )


def area_markdown(area: str, fixtures: Sequence[Fixture], html: Mapping[str, str]) -> str:
    """The page of one area's fixtures (``fixture-area.md``): each under its title, its
    part (``html``, by fixture id) as HTML past Markdown."""
    text = render_markdown(
        "fixture-area.md",
        DEFAULT_LANGUAGE,
        area=area,
        fixtures=fixtures,
        here=area_page(area),
        pages=markup,
        name_of=name_of,
        shown=lambda fixture: html[fixture.id],
    )
    return text + "\n"


def area_pages(site: Site, suite: Suite) -> dict[str, str]:
    """Every area's page by its path. ``mkdocs serve`` generates the site again after an
    edit of the spec; a fixture's part is made again only when what it shows has changed
    (:func:`schwimmen.docsgen.memo.remembered`): the fixture (the loader's object, the same
    while its file is), where its cases apply, the numbers and titles it links to, and the
    site's words."""
    shared = repr(
        (
            sorted(site.refs),
            sorted(site.scenario_titles.items()),
            sorted(site.decision_titles.items()),
            len(suite.names),
            memo.words_digest(),
        )
    )
    pages = {}
    for area, fixtures in suite.areas().items():
        html = {}
        for f in fixtures:
            r = suite.runs[f.id]
            key = repr(
                (shared, id(f), sorted(r.applies.items()), sorted(r.misfits.items()), r.unstated)
            )
            made = memo.remembered(f"fixture-{f.id}", key, partial(_part, site, suite, f))
            html[f.id] = made[1]
        pages[area_page(area)] = area_markdown(area, fixtures, html)
    return pages


def search_entries(areas: Mapping[str, Sequence[Fixture]]) -> list[SearchEntry]:
    """The area pages and their fixtures in the search index: each fixture by its title
    and the first words of its description (the cards and cases would be most of the
    index, and a player's words would find them before the rules)."""
    say = words()
    out = []
    for area, fixtures in areas.items():
        page = area_page(area)
        out.append(SearchEntry(page, "", say("fixtures.area.title", area=area), ""))
        for fixture in fixtures:
            text = " ".join(fixture.description.split())
            if len(text) > SEARCH_TEXT:
                text = text[:SEARCH_TEXT].rsplit(" ", 1)[0] + " …"
            out.append(SearchEntry(page, name_of(fixture.id), fixture.title, text))
    return out


# ----------------------------------------------------------------------------- the index


def index_parts(site: Site, suite: Suite, language: str = "en") -> dict[str, str]:
    """The generated parts of ``docs/fixtures/index.md``: the fixtures by kind, and every
    fixture listed by area."""
    counted = Counter(f.kind for f in suite.fixtures)
    kinds = [(k, counted[k]) for k in KINDS if counted.get(k)]
    areas = render(
        "fixtures-index.html",
        language,
        areas=suite.areas(),
        runs=suite.runs,
        refs=site.refs,
        scenario_titles=site.scenario_titles,
        kind_badge=fixturetext.kind_badge,
        reference=reference,
        name_of=name_of,
    )
    rulesets = [n for n in suite.names if house_rule_of(n) is None]
    return {
        "run-ruleset-count": str(len(rulesets)),
        "run-house-rule-count": str(len(suite.names) - len(rulesets)),
        "fixtures-kinds": render_markdown(
            "fixtures-kinds.md", language, kinds=kinds, ft=fixturetext
        ),
        "fixtures-areas": block(areas),
    }


def _part(site: Site, suite: Suite, fixture: Fixture) -> tuple[Fixture, str]:
    """A fixture's part of its area's page, with the fixture (kept alive while the part is
    remembered by its ``id``)."""
    return fixture, block(fixture_html(site, suite, fixture))
