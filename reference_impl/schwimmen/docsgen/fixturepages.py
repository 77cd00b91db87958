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
``fixture.html``; the words are :mod:`schwimmen.docsgen.fixturetext`'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.docsgen import fixturetext
from schwimmen.docsgen.blocks import block
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.markup import (
    FIXTURES_INDEX,
    GUIDE_TEST,
    area_page,
    attr,
    code,
    conformance_doc,
    esc,
    fixture_page,
    in_english,
    link,
    rel,
    table,
)
from schwimmen.docsgen.pagedata import words
from schwimmen.docsgen.suite import KINDS, Suite, area_of, house_rule_of, kind_help, name_of
from schwimmen.docsgen.tags import reference
from schwimmen.docsgen.templates import render

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
    """The rulesets a case applies to, and the house rules it applies to by the ruleset
    each is put on (``{"pagat": ["no-triples", ...]}``)."""
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


def area_markdown(site: Site, suite: Suite, area: str, fixtures: Sequence[Fixture]) -> str:
    """The page of one area's fixtures: each under its title, as HTML past Markdown."""
    say = words()
    here = area_page(area)
    out = ["---", "search:", "  exclude: true", "---", ""]
    out += [f"# {esc(say('fixtures.area.title', area=area))}", ""]
    suite_link = link(here, FIXTURES_INDEX, say("conformance.suite"))
    out += [say("fixtures.area.intro", n=len(fixtures), suite=suite_link), ""]
    for fixture in fixtures:
        out += [f"## {esc(fixture.title)} {{#{name_of(fixture.id)}}}", ""]
        out += [block(fixture_html(site, suite, fixture)), ""]
    back = link(here, f"{FIXTURES_INDEX}#{area}", say("fixture.footer.area", area=esc(area)))
    guide = link(here, GUIDE_TEST, say("fixture.footer.guide"))
    interpreting = link(
        here, conformance_doc("INTERPRETING.md"), say("fixture.footer.interpreting")
    )
    footer = say("fixture.footer", area=back, guide=guide, interpreting=interpreting)
    out += ["---", "", f"<small>{footer}</small>", ""]
    return "\n".join(out)


def area_pages(site: Site, suite: Suite) -> dict[str, str]:
    """Every area's page by its path."""
    return {
        area_page(area): area_markdown(site, suite, area, fixtures)
        for area, fixtures in suite.areas().items()
    }


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
    say = words()
    kinds = Counter(f.kind for f in suite.fixtures)
    rows = [
        [fixturetext.kind_badge(k, language), esc(kind_help(k, language)), str(kinds[k])]
        for k in KINDS
        if kinds.get(k)
    ]
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
    kinds_head = [say(f"fixtures.head.{h}", language) for h in ("kind", "what-it-pins", "fixtures")]
    return {
        "run-ruleset-count": str(len(rulesets)),
        "run-house-rule-count": str(len(suite.names) - len(rulesets)),
        "fixtures-kinds": table(kinds_head, rows),
        "fixtures-areas": block(areas),
    }


# ----------------------------------------------------------------------------- rule pages


def _indent(block_text: str) -> str:
    return "\n".join("    " + line if line.strip() else "" for line in block_text.splitlines())


def _compact(here: str, pairs: Sequence[tuple[Fixture, Case]]) -> str:
    """Fixtures grouped by area, one line per area, each fixture linked by its name."""
    by_area: dict[str, list[Fixture]] = {}
    for fixture, _ in pairs:
        by_area.setdefault(area_of(fixture.id), []).append(fixture)
    lines = []
    for area, fixtures in by_area.items():
        links = " · ".join(
            f'[{esc(name_of(f.id))}]({rel(here, fixture_page(f.id))} "{attr(f.title)}")'
            for f in fixtures
        )
        lines.append(f"- **{esc(area)}** ({len(fixtures)}): {links}")
    return "\n".join(lines)


def _kind_counts(pairs: Sequence[tuple[Fixture, Case]], language: str) -> str:
    say = words()
    counts = Counter(f.kind for f, _ in pairs)
    return ", ".join(
        f"{counts[k]} {say(f'fixture-kind.{k}.' + ('one' if counts[k] == 1 else 'many'), language)}"
        for k in KINDS
        if counts.get(k)
    )


def _runs_sentence(
    here: str, name: str, pairs: Sequence[tuple[Fixture, Case]], language: str
) -> str:
    """How many fixtures run under ``name``, by kind, and the command that runs them."""
    say = words()
    return say(
        "conformance.runs",
        language,
        n=len(pairs),
        suite=link(here, FIXTURES_INDEX, say("conformance.suite", language)),
        name=code(name),
        kinds=_kind_counts(pairs, language) or say("conformance.no-kinds", language),
        command=code(f"schwimmen conformance --ruleset {name}"),
    )


def _heading(language: str) -> list[str]:
    return [f"## {words()('conformance.heading', language)} {{#conformance}}", ""]


def _folded(here: str, pairs: Sequence[tuple[Fixture, Case]], key: str, language: str) -> list[str]:
    title = words()(key, language, n=len(pairs))
    return [f'??? fixtures "{title}"', "", _indent(_compact(here, pairs)), ""]


def conformance_section(
    site: Site, suite: Suite, name: str, here: str, language: str = "en"
) -> str:
    """The "Conformance" section of a ruleset page (``name`` = ruleset id)."""
    pairs = suite.applying_to(name)
    out = _heading(language)
    if not pairs:
        out += [words()("conformance.none", language, name=code(name)), ""]
        return "\n".join(out)
    out += [_runs_sentence(here, name, pairs, language), ""]
    out += _folded(here, pairs, "conformance.by-area", language)
    return "\n".join(out)


def house_rule_conformance_section(
    site: Site, suite: Suite, hid: str, origin: str, here: str, language: str = "en"
) -> str:
    """The "Conformance" section of a house-rule page: what runs under ``origin+hid`` and
    where its expected outcome differs from the origin's."""
    say = words()
    name = f"{origin}+{hid}"
    pairs = suite.applying_to(name)
    out = _heading(language)
    if name not in suite.names:
        out += [say("conformance.not-in-run", language, name=code(name)), ""]
        return "\n".join(out)
    out += [_runs_sentence(here, name, pairs, language), ""]
    differs = []
    for fixture, case in pairs:
        before = suite.runs[fixture.id].case_for(origin)
        if before is None or before.index != case.index:
            differs.append((fixture, case, before))
    if differs:
        out += [say("conformance.changes", language, origin=code(origin)), ""]
        absent = f"<span class='na'>{say('conformance.does-not-run', language)}</span>"
        rows = []
        for fixture, case, before in differs:
            page = rel(here, fixture_page(fixture.id))
            at_case = rel(here, fixture_page(fixture.id, case.index + 1))
            rows.append(
                [
                    in_english(f"[{esc(fixture.title)}]({page})", language),
                    in_english(esc(before.label()), language) if before else absent,
                    in_english(f"[{esc(case.label())}]({at_case})", language),
                ]
            )
        header = [
            say("conformance.fixture", language),
            code(origin),
            say("conformance.with", language, name=code(hid)),
        ]
        out += [table(header, rows), ""]
    if pairs:
        out += _folded(here, pairs, "conformance.all-by-area", language)
    return "\n".join(out)


def decision_fixtures(suite: Suite, decision: str, here: str, language: str = "en") -> str:
    """For the decisions page: the fixtures whose cases rest on ``decision``."""
    ids = suite.decisions().get(decision, [])
    if not ids:
        return ""
    by_id = {f.id: f for f in suite.fixtures}
    links = ", ".join(
        f'[{code(i)}]({rel(here, fixture_page(i))} "{attr(by_id[i].title)}")' for i in ids
    )
    return words()("fixtures.resting-on", language, n=len(ids), links=links)
