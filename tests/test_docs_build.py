"""The documentation site builds with ``mkdocs build --strict`` and shows the whole spec,
every conformance fixture, the disagreements, the guides and the simulator's statistics.

The build runs once per test session (``clean_site`` in ``conftest.py``, shared with the
browser test), from a clean copy of the checkout in a
temporary directory with no ``../shared`` beside it and no ``SCHWIMMEN_SOURCES``: what a
fresh clone builds is what is tested, and nothing outside the repository can fill a page.
It is skipped when mkdocs or its Material theme is not installed (``pip install -e
'.[docs]'``). The generator's pure functions are tested without MkDocs.
"""

from __future__ import annotations

import html as htmllib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from markupsafe import Markup

from schwimmen.cli.main import main
from schwimmen.conformance.fixtures import Fixture, load_fixtures
from schwimmen.conformance.plan import Suite, default_suite
from schwimmen.docsgen import fixturetext, templates
from schwimmen.docsgen.markup import esc
from schwimmen.docsgen.tags import card, cards
from schwimmen.spec.decisions import load_decisions
from schwimmen.spec.disagreements import Disagreements, load_disagreements
from schwimmen.spec.loader import Catalog
from schwimmen.spec.pagedata import page_citations
from schwimmen.spec.sources import quote_problems

ROOT = Path(__file__).resolve().parent.parent
HAVE_MKDOCS = all(importlib.util.find_spec(m) is not None for m in ("mkdocs", "material"))
needs_mkdocs = pytest.mark.skipif(
    not HAVE_MKDOCS, reason="mkdocs-material is not installed (pip install -e '.[docs]')"
)


@pytest.fixture(scope="module")
def site(clean_site: Path) -> Path:
    return clean_site


@pytest.fixture(scope="module")
def disagreements() -> Disagreements:
    found, errors = load_disagreements()
    assert found is not None and not errors, errors
    return found


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def fixtures() -> list[Fixture]:
    found, errors = load_fixtures()
    assert not errors, errors
    return found


@pytest.fixture(scope="module")
def suite(catalog: Catalog, fixtures: list[Fixture]) -> Suite:
    return default_suite(catalog, fixtures)


@needs_mkdocs
def test_every_ruleset_and_house_rule_has_its_page(site: Path, catalog: Catalog) -> None:
    for rid in catalog.rulesets:
        html = _page(site, f"rulesets/{rid}")
        assert f"schwimmen show {rid}<" in html, rid
        assert "admonition cited" in html, rid
    for hid, sf in catalog.house_rules.items():
        html = _page(site, f"house-rules/{hid}")
        assert f"schwimmen show {sf.data['origin']}+{hid}<" in html, hid
        assert "What it changes on" in html, hid


@needs_mkdocs
def test_comparison_page_names_all_ten_rulesets(site: Path, catalog: Catalog) -> None:
    html = _page(site, "compare")
    assert len(catalog.rulesets) == 10
    for rid in catalog.rulesets:
        assert f"<code>{rid}</code>" in html, rid
    # every cell's evidence is a footnote; the theme shows it as a tooltip
    assert html.count('class="footnote-ref"') > 300


@needs_mkdocs
def test_the_comparison_starts_with_the_rules_at_a_glance(site: Path, catalog: Catalog) -> None:
    from schwimmen.spec.glance import load_glance

    words = load_glance()
    html = _page(site, "compare")
    article = html.split("<article", 1)[1]
    glance, full = article.split('<div class="cmp-table">', 1)
    assert 'class="glance-table"' in glance
    for row in words.rows:
        assert htmllib.escape(row.label.en, quote=False) in glance, row.id
        assert f'href="#{row.topic}"' in glance and f'id="{row.topic}"' in full, row.id
    for rid in catalog.rulesets:
        name = htmllib.escape(words.name(rid), quote=False)
        assert f"{name}</a><br><code>{rid}</code>" in glance, rid
        assert name in full, rid
    assert "extra-hand-blind-choice" not in glance  # plain words, not the spec's values
    # the evidence stays on the page (tooltips), folded and out of the search index
    assert '<details class="quote cmp-evidence"' in full
    assert full.index("cmp-evidence") < full.index('<div class="footnote">')


@needs_mkdocs
def test_every_pair_of_rulesets_has_a_page(site: Path, catalog: Catalog) -> None:
    from schwimmen.spec.glance import load_glance

    words = load_glance()
    pages = list((site / "compare" / "pairs").glob("*-vs-*/index.html"))
    n = len(catalog.rulesets)
    assert len(pages) == n * (n - 1) // 2
    page = _page(site, "compare/pairs/altenburg-vs-pagat")
    for rid in ("altenburg", "pagat"):
        assert htmllib.escape(words.name(rid), quote=False) in page
        assert f"<code>{rid}</code>" in page
    grid = _page(site, "compare/pairs")
    for rid in catalog.rulesets:
        assert htmllib.escape(words.name(rid), quote=False) in grid, rid
    assert grid.count('class="upright"') == n


@needs_mkdocs
def test_search_puts_the_rules_first(site: Path, catalog: Catalog) -> None:
    """Ruleset pages, the glossary and the comparison are boosted, fixture pages weigh
    little, pair pages and the comparison's folded evidence are not indexed."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    boost: dict[str, set[float]] = {}
    for doc in index["docs"]:
        page = doc["location"].split("#", 1)[0]
        boost.setdefault(page, set()).add(doc.get("boost", 1.0))
    assert "compare/pairs/" in boost  # the grid is found; the pairs it leads to are not
    assert not [p for p in boost if p.startswith("compare/pairs/") and p != "compare/pairs/"]
    rules = {p: b for p, b in boost.items() if p.startswith("rulesets/") and p != "rulesets/"}
    assert set(rules) == {f"rulesets/{rid}/" for rid in catalog.rulesets}
    top = min(min(b) for b in rules.values())
    assert top > 1 and boost["reference/glossary/"] == {top} and boost["compare/"] == {top}
    fixtures = [
        d.get("boost", 1.0)
        for d in index["docs"]
        if d["location"].startswith("fixtures/") and d["location"].split("#")[0] != "fixtures/"
    ]
    assert len(fixtures) > 200 and all(b < 1 for b in fixtures)
    from schwimmen.spec.parameters import GROUPS

    last = f"compare/#{list(GROUPS)[-1]}"
    section = next(d for d in index["docs"] if d["location"] == last)
    assert len(section["text"]) < 5000  # the notes under the last table are not indexed


@needs_mkdocs
def test_the_sitemap_holds_no_address_that_is_not_one(site: Path) -> None:
    """Built without ``SITE_URL`` (tests/test_docs_sitemap.py renders it with one)."""
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    root = ElementTree.fromstring(text.encode())
    assert "None" not in text and root.tag.endswith("urlset")
    assert all(
        loc.text and loc.text.startswith("http") for loc in root.iter() if loc.tag.endswith("loc")
    )


@needs_mkdocs
def test_each_language_has_its_own_search_index(site: Path, catalog: Catalog) -> None:
    """The German pages search the German index (below de/, with locations relative to
    it): the German ruleset pages and glossary by their German titles, and no entry of
    the root index is under de/."""
    root = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    german = json.loads((site / "de" / "search" / "search_index.json").read_text("utf-8"))
    assert root["config"]["lang"] == ["en"] and german["config"]["lang"] == ["de"]
    assert not [d for d in root["docs"] if d["location"].startswith("de/")]
    titles = {d["location"]: d["title"] for d in german["docs"]}
    for rid, sf in catalog.rulesets.items():
        assert titles[f"rulesets/{rid}/"] == sf.data["de"]["title"], rid
    assert titles["reference/glossary/"] == "Glossar"
    # a page only in English is found from German pages too, where it is (not under de/)
    assert "../fixtures/" in titles and not (site / "de" / "fixtures").exists()
    html = _page(site, "de/rulesets/pagat")
    assert "data.base = " in html and '/de/";' in html


@needs_mkdocs
def test_the_three_provenance_kinds_look_different(site: Path) -> None:
    html = _page(site, "rulesets/pagat")
    for kind in ("cited", "interpreted", "default"):
        assert f"admonition {kind}" in html
        assert f"prov prov-{kind}" in html
    assert "„pagat.com nennt 2 bis 8“" in html
    assert 'href="../../reference/decisions/#u01"' in html
    assert "inherited from" in _page(site, "rulesets/dutch")


@needs_mkdocs
def test_reference_pages_cover_cli_schema_and_glossary(site: Path, catalog: Catalog) -> None:
    cli = _page(site, "reference/cli")
    for command in ("list", "show", "diff", "validate"):
        assert f"schwimmen {command}" in cli
    schema = _page(site, "reference/schema")
    from schwimmen.spec.parameters import PARAMETERS

    for param in PARAMETERS:
        assert f'id="{param.path.replace(".", "-")}"' in schema, param.path
    glossary = _page(site, "reference/glossary")
    for word in ("schieben", "klopfen", "Feuer light", "Drilling", "ausgewaschen", "Stock"):
        assert word in glossary


@needs_mkdocs
def test_the_guide_shows_the_resolved_example(site: Path) -> None:
    html = _page(site, "guides/add-a-house-rule")
    assert "house-rule-example" in html
    assert "nobody-loses" in html
    assert (site / "examples" / "house-rule-example.yaml").is_file()


def _fixture_part(site: Path, fid: str) -> str:
    """A fixture's part of its area's page: from its heading to the next fixture's."""
    area, name = fid.split("/", 1)
    page = _page(site, f"fixtures/{area}")
    start = page.find(f'<h2 id="{name}"')
    assert start > 0, fid
    end = min(at for at in (page.find("<h2 ", start + 1), page.find("</article>")) if at > 0)
    return page[start:end]


@needs_mkdocs
def test_every_fixture_has_its_section(site: Path, fixtures: list[Fixture], suite: Suite) -> None:
    """One page per area, a section per fixture (not 277 pages of a few paragraphs)."""
    pages = list((site / "fixtures").glob("*/index.html"))
    assert len(pages) == len({f.id.split("/")[0] for f in fixtures}) < 30 < len(fixtures)
    assert not list((site / "fixtures").glob("*/*/index.html"))
    for fixture in fixtures:
        page = _fixture_part(site, fixture.id)
        assert htmllib.escape(fixture.title, quote=False) in page, fixture.id
        assert f"<code>{fixture.id}</code>" in page, fixture.id
        assert f"schwimmen conformance -k {fixture.id}" in page, fixture.id
        if fixture.setup.get("hands") or fixture.setup.get("deck"):
            assert 'class="card ' in page, fixture.id  # the cards are drawn as cards
        name = fixture.id.split("/", 1)[1]
        for case in fixture.cases:
            assert f'id="{name}--case-{case.index + 1}"' in page, (fixture.id, case.index)
            for decision in case.defaults:
                assert f"reference/decisions/#{decision.lower()}" in page, (fixture.id, decision)
        runs = suite.runs[fixture.id]
        for name in runs.names:
            assert name.rsplit("+", 1)[-1] in page, (fixture.id, name)
        if any(c.because for c in fixture.cases):
            assert "admonition cited" in page, fixture.id


@needs_mkdocs
def test_a_fixture_reads_like_the_table(site: Path) -> None:
    page = _fixture_part(site, "round/thirty-one-by-a-swap")
    assert '<span class="card hearts">10♥</span>' in page  # the middle
    assert "swaps" in page and "<code>swap 9S 10H</code>" in page  # the step, in words
    assert "Applies to" in page and "rulesets/pagat/" in page
    assert "31 reached during play" in page  # a where-predicate in words
    assert "„Wer 31 auf der Hand hat" in page  # a citation with its source
    assert "compare/disagreements/#f14" in page


@needs_mkdocs
def test_the_fixtures_index_groups_them_by_area(site: Path, fixtures: list[Fixture]) -> None:
    page = _page(site, "fixtures")
    areas = {f.id.split("/")[0] for f in fixtures}
    for area in areas:
        assert f'id="{area}"' in page, area
    for fixture in fixtures:
        area, name = fixture.id.split("/", 1)
        assert f'href="{area}/#{name}"' in page, fixture.id
    for kind in ("hand-evaluation", "showdown", "round", "match", "setup"):
        assert f"fxkind-{kind}" in page


@needs_mkdocs
def test_the_disagreements_page_links_the_fixtures(site: Path, suite: Suite) -> None:
    page = _page(site, "compare/disagreements")
    assert suite.pinned
    for number, ids in suite.pinned.items():
        assert f'id="{number.lower()}"' in page, number
        for fid in ids:
            area, name = fid.split("/", 1)
            assert f'href="../../fixtures/{area}/#{name}"' in page, (number, fid)


def _scenario_parts(page: str, disagreements: Disagreements) -> dict[str, str]:
    """Each scenario's part of the disagreements page, from its heading to the next."""
    starts = {s.id: page.find(f'<h3 id="{s.anchor}"') for s in disagreements.scenarios}
    assert all(at > 0 for at in starts.values()), [n for n, at in starts.items() if at < 0]
    order = sorted(starts.items(), key=lambda item: item[1])
    ends = [at for _, at in order[1:]] + [page.find("</article>")]
    return {number: page[at:end] for (number, at), end in zip(order, ends, strict=True)}


@needs_mkdocs
@pytest.mark.parametrize("language", ["en", "de"])
def test_every_scenario_shows_its_cards_and_every_rulesets_outcome(
    site: Path, catalog: Catalog, disagreements: Disagreements, language: str
) -> None:
    """Built from a clean checkout, the page (and its German version) has every scenario
    with its question, its cards, the sources' words and, in its outcome tables, each of the
    ten rulesets."""
    page = _page(site, "compare/disagreements" if language == "en" else "de/compare/disagreements")
    parts = _scenario_parts(page, disagreements)
    assert len(parts) == len(disagreements.scenarios) == 62
    for scenario in disagreements.scenarios:
        part = parts[scenario.id]
        asks = scenario.text("asks", language)
        assert language == "en" or asks != scenario.asks, f"{scenario.id} has no German"
        assert htmllib.escape(asks, quote=False) in part, scenario.id
        assert 'class="card ' in part or "setup" in scenario.shows[0], scenario.id
        assert part.count('class="dis-outcomes"') == len(scenario.shows), scenario.id
        assert "admonition cited" in part and 'class="de-quote"' in part, scenario.id
        tables = "".join(re.findall(r'class="dis-outcomes".*?</table>', part, flags=re.DOTALL))
        named = set(re.findall(r'href="../../rulesets/([a-z0-9-]+)/"', tables))
        assert named == set(catalog.rulesets), (scenario.id, set(catalog.rulesets) - named)
    assert "rules matrix not found" not in page and "shared/" not in page


@needs_mkdocs
def test_the_page_counts_the_disagreements_as_conformance_coverage_does(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["conformance", "coverage", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    pinned = sum(1 for ids in report["disagreements"].values() if ids)
    total = len(report["disagreements"])
    summary = _page(site, "fixtures").split('class="dis-summary"', 1)[1]
    summary = summary.split("</table>", 1)[0]
    assert f"<td>{pinned} of {total}</td>" in summary, summary
    assert (pinned, total) == (62, 62)


@needs_mkdocs
def test_rule_pages_have_a_conformance_section(site: Path, catalog: Catalog) -> None:
    for rid in catalog.rulesets:
        page = _page(site, f"rulesets/{rid}")
        assert 'id="conformance"' in page, rid
        assert f"schwimmen conformance --ruleset {rid}<" in page, rid
    page = _page(site, "house-rules/no-triples")
    assert 'id="conformance"' in page
    assert "Where the house rule changes the expected outcome" in page


@needs_mkdocs
def test_the_decisions_page_lists_the_fixtures_defaults(site: Path, suite: Suite) -> None:
    page = _page(site, "reference/decisions")
    decisions, _ = load_decisions()
    assert decisions is not None
    for decision, ids in suite.decisions().items():
        assert f'id="{decision.lower()}"' in page, decision
        area, name = ids[0].split("/", 1)
        assert f"fixtures/{area}/#{name}" in page, decision
        # titled from spec/decisions.yaml, which a clean checkout has
        assert htmllib.escape(decisions.title(decision), quote=False) in page, decision


@needs_mkdocs
def test_the_statistics_page_draws_svg_charts(site: Path, catalog: Catalog) -> None:
    page = _page(site, "compare/statistics")
    charts = re.findall(r"<svg class=\"sw-svg\".*?</svg>", page, flags=re.DOTALL)
    assert len(charts) >= 3 * len(catalog.rulesets) + 2
    for chart in charts:
        ElementTree.fromstring(chart)  # well-formed, drawn in Python, nothing to fetch
    for rid in catalog.rulesets:
        assert f'id="{rid}"' in page, rid
        assert f"schwimmen simulate {rid} --players" in page, rid
    assert "Rounds per match" in page and "How rounds end" in page
    assert "Lives lost and matches won, by seat" in page
    assert "<script" not in page.split("<article", 1)[1].split("</article>", 1)[0]


@needs_mkdocs
def test_the_guides_are_written(site: Path) -> None:
    test = _page(site, "guides/test-your-implementation")
    play = _page(site, "guides/play-and-simulate")
    for page in (test, play):
        assert "Arrives with" not in page
    for option in (
        "--impl",
        "--ruleset",
        "--kind",
        "--format",
        "--track",
        "--max-fail",
        "--timeout",
        "--validate-protocol",
        "-k",
        "-j",
    ):
        assert f"<code>{option}" in test, option
    assert "createInterface" in test  # the adapter example's own code
    assert "--schwimmen-adapter" in test and "my_engine.conformance:run_case" in test
    assert "expected" in test and "actual" in test  # a real failure report
    assert 'id="coverage"' in test and "parameter values pinned" in test
    for name in ("PROTOCOL", "FIXTURES", "INTERPRETING", "ADAPTERS"):
        assert f'href="../../conformance/{name}/"' in test, name
    for option in ("--players", "--seat", "--seed", "--bot", "--matches", "--jobs", "--sample"):
        assert f"<code>{option}" in play, option
    assert "Your move:" in play  # a real game, played while the site was built
    assert "3k" in play
    assert "rounds per match" in play


@needs_mkdocs
def test_the_conformance_documents_are_on_the_site(site: Path) -> None:
    for name in ("FIXTURES", "PROTOCOL", "INTERPRETING", "ADAPTERS"):
        assert (site / "conformance" / name / "index.html").is_file(), name
    protocol = _page(site, "conformance/PROTOCOL")
    assert 'href="../../schemas/protocol.schema.json"' in protocol
    assert (site / "schemas" / "protocol.schema.json").is_file()
    assert 'href="../FIXTURES/"' in protocol
    adapters = _page(site, "conformance/ADAPTERS")
    assert 'href="../examples/minimal-adapter.mjs"' in adapters
    assert (site / "conformance" / "examples" / "minimal-adapter.mjs").is_file()


_EXTERNAL = re.compile(
    r"<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", re.IGNORECASE
)


@needs_mkdocs
def test_the_site_fetches_nothing_from_elsewhere(site: Path) -> None:
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not _EXTERNAL.search(text), page
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text, page
    for sheet in site.rglob("*.css"):
        text = sheet.read_text(encoding="utf-8")
        assert not re.search(r"url\(\s*['\"]?(?:https?:)?//", text), sheet
        assert "@import" not in text or "http" not in text, sheet


@needs_mkdocs
def test_the_calculator_page_and_its_tables_are_published(site: Path, catalog: Catalog) -> None:
    """The page holds the widget, its script and style sheet lie where the widget loads
    them from, and the tables hold every hand of every ruleset's pack, compactly."""
    from math import comb

    from schwimmen.engine.handscore import ruleset_names

    html = _page(site, "tools/calculator")
    assert 'class="schwimmen-calculator"' in html and 'src="../calculator.js"' in html
    assert "Hand calculator" in _page(site, "")  # in the navigation
    tools = site / "tools"
    assert (tools / "calculator.js").is_file() and (tools / "calculator.css").is_file()
    meta_file = tools / "calculator.json"
    meta = json.loads(meta_file.read_text(encoding="utf-8"))
    assert [r["id"] for r in meta["rulesets"]] == ruleset_names(catalog)
    assert set(meta["words"]) == {"en", "de"}
    limits = {"3": 512 * 1024, "4": 2 * 1024 * 1024}
    for size, name in meta["hands"].items():
        hands_file = tools / name
        hands = json.loads(hands_file.read_text(encoding="utf-8"))["tables"]
        for number, encoded in hands.items():
            table = meta["tables"][int(number)]
            assert str(table["size"]) == size
            assert len(encoded) == comb(len(table["pack"]), table["size"]) * table["width"]
        assert hands_file.stat().st_size < limits[size], (name, hands_file.stat().st_size)
    assert meta_file.stat().st_size < 256 * 1024


def _copy_site_sources(target: Path) -> None:
    """What ``mkdocs build`` reads from the checkout: its configuration, the pages and the
    theme's overrides."""
    shutil.copy(ROOT / "mkdocs.yml", target / "mkdocs.yml")
    for folder in ("docs", "overrides"):
        shutil.copytree(
            ROOT / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__")
        )


@needs_mkdocs
def test_the_build_fails_when_the_example_does_not_resolve(
    tmp_path: Path, build_site: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    _copy_site_sources(tmp_path)
    example = tmp_path / "docs" / "examples" / "house-rule-example.yaml"
    text = example.read_text(encoding="utf-8")
    assert "value: 4\n" in text
    example.write_text(text.replace("value: 4\n", "value: 40\n"), encoding="utf-8")
    result = build_site(tmp_path, tmp_path / "site")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "house-rule-example" in output and "lives" in output, output


@needs_mkdocs
def test_the_finder_page_embeds_its_questions_and_every_ruleset(
    site: Path, catalog: Catalog
) -> None:
    page = _page(site, "tools/finder")
    found = re.search(r'<script type="application/json" id="sw-finder-data">(.*?)</script>', page)
    assert found is not None
    data = json.loads(found.group(1))
    assert sorted(r["id"] for r in data["rulesets"]) == sorted(catalog.rulesets)
    assert data["questions"] and all(q["answers"] for q in data["questions"])
    assert 'id="sw-finder"' in page and "javascripts/finder.js" in page
    assert (site / "javascripts" / "finder.js").is_file()
    # the generated part says whether the questions tell every ruleset apart
    assert "What the questions cannot tell apart" in page


@needs_mkdocs
def test_the_build_fails_when_a_finder_answer_names_no_rule(
    tmp_path: Path, build_site: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    _copy_site_sources(tmp_path)
    questions = tmp_path / "docs" / "data" / "finder.yaml"
    text = questions.read_text(encoding="utf-8")
    assert "{lives.after_last: out}" in text
    questions.write_text(text.replace("{lives.after_last: out}", "{lives.afterlast: out}"))
    result = build_site(tmp_path, tmp_path / "site")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "docs/data/finder.yaml:" in output and "lives.afterlast" in output, output


# ----------------------------------------------------------------------------- pure parts


def test_cards_are_drawn_as_cards() -> None:
    assert card("AH") == '<span class="card hearts">A♥</span>'
    text = cards(["10C", "7S", "KD"])
    assert text.startswith('<span class="cards"><span class="card clubs">10♣</span>')
    assert '<span class="card spades">7♠</span>' in text
    assert text.endswith('<span class="card diamonds">K♦</span></span>')
    assert cards([]) == "—"


def test_escaping_keeps_tables_and_emphasis_intact() -> None:
    assert esc("a|b *c* [d] <e>") == r"a\|b \*c\* \[d\] &lt;e&gt;"


def test_quotes_on_generated_pages_are_verbatim(
    catalog: Catalog, texts_dir: Path | None, disagreements: Disagreements
) -> None:
    if texts_dir is None:
        pytest.skip("source texts not found: the page quotes cannot be checked")
    assert quote_problems(catalog.bibliography, page_citations()) == []
    cites = [c for s in disagreements.scenarios for c in s.cites]
    assert quote_problems(catalog.bibliography, cites) == []


def test_canonical_cards_and_actions_are_drawn() -> None:
    assert card("10H") == '<span class="card hearts">10♥</span>'
    assert card("QC") == '<span class="card clubs">Q♣</span>'
    assert card("XX") == "XX"
    action = fixturetext.phrases("en").action
    text = action("swap QC+KD 10H+9S knock")
    assert text.startswith("swaps ") and ", then knocks" in text
    assert '<span class="card clubs">Q♣</span><span class="card diamonds">K♦</span>' in text
    assert "<code>swap QC+KD 10H+9S knock</code>" in text
    assert action("pass").startswith("passes")
    assert action("swap QC") == "<code>swap QC</code>"  # malformed: as it is


def test_where_predicates_read_as_words() -> None:
    predicate = fixturetext.phrases("en").predicate
    text = predicate("turns.passing", ["free", "once-per-deal"])
    assert text.startswith('<a href="md:reference/schema.md#turns-passing">Passing (schieben)</a>')
    assert ">free</code> or <code" in text
    negated = predicate("triples.points", {"not": ["none"]})
    assert " is not <code>none</code>" in negated
    assert "30½" in predicate("triples.points", [30.5])


def test_every_phrase_of_a_fixture_page_is_in_the_words_in_both_languages(
    fixtures: list[Fixture],
) -> None:
    """The fixture pages and the statistics charts build their phrases from label keys
    (``fixture.verb.<action>`` ...): each key they can form exists, in English and German,
    also for the branches no shipped fixture reaches."""
    from schwimmen.docsgen.fixturetext import KINDS, kind_help
    from schwimmen.docsgen.statistics import REASONS, reason_label
    from schwimmen.spec.pagedata import words

    fixture = next(f for f in fixtures if fixturetext.step_pairs(f))
    expect = {
        "after_step": {"1": {"values": {"P1": None, "P2": {"hand": "triple"}}}},
        "end": {"after_step": 1, "reason": "no-such", "knocker": None, "lives_lost": {}},
        "rounds": [
            {"at_deal": True, "by": "P1", "knocker": "P2", "losses": {"P1": 1, "P2": 2}},
            {"at_deal": False, "values": {"P1": {"points": None, "suit": "H", "maximum": True}}},
            {"hands": {"P1": ["QC"]}, "losses": {}},
        ],
        "round_over": False,
        "losses": {"P3": 1},
        "values": {"P1": {"points": 31, "maximum": False}},
        "steps": {"1": {"rejected": "not-your-turn"}, "2": "accepted"},
        "to_move": None,
        "phase": "play",
        "middle": None,
        "hands": {"P1": ["QC"]},
        "knocker": "P1",
        "dealer": "P2",
        "legal_includes": ["pass"],
        "legal_excludes": ["knock"],
        "lives": {"P1": 2},
        "swimming": [],
        "eliminated": ["P2"],
        "winners": ["P1"],
        "match_over": True,
        "points": {"P1": 1},
        "accepted": False,
        "pack": 32,
    }
    said = {}
    for language in ("en", "de"):
        lines: list[str] = []
        steps = fixturetext.step_pairs(fixture)
        fixturetext.phrases(language).sentences(lines, fixture, steps, expect)
        said[language] = "\n".join(lines)
    assert "The table is <strong>not</strong> allowed." in said["en"]
    assert "Grund <code>no-such</code>" in said["de"]
    assert said["en"] != said["de"]
    for language in ("en", "de"):
        assert "<td>" in fixturetext.phrases(language).values_table(expect["values"], {})
        assert fixturetext.phrases(language).position(fixture)
        for verb in fixturetext.VERBS:
            said_verb = fixturetext.phrases(language).action(verb)
            assert said_verb.startswith(words()(f"fixture.verb.{verb}", language))
        for reason in fixturetext.REASONS:
            assert fixturetext.phrases(language).round_end({"reason": reason, "by": "P1"}, [])
        for hand in fixturetext.HANDS:
            assert fixturetext.phrases(language).value({"hand": hand})
        assert all(kind_help(kind, language) for kind in KINDS)
        assert all(reason_label(reason, language) for reason in REASONS)
    assert fixturetext.phrases("de").action("knock") != fixturetext.phrases("en").action("knock")


def test_bar_charts_are_well_formed_svg() -> None:
    charts = templates.environment().get_template("charts.html").module

    def bar(label: str, segments: list[tuple[float, str, str]], text: str, href: Any) -> Any:
        shown = [{"value": v, "css": css, "tip": tip} for v, css, tip in segments]
        return {"label": label, "segments": shown, "text": text, "href": href}

    bars = [
        bar("knock <&>", [(0.7, "sw-bar", ""), (0.1, "x", "")], "80%", None),
        bar("31", [(0.2, "sw-bar", "tip")], "20%", "#pagat"),
    ]
    svg = str(charts.hbar("How rounds end", bars, maximum=1.0))
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg" and root.get("role") == "img"
    assert len(root.findall(f".//{ns}rect")) == 3
    assert "knock &lt;&amp;&gt;" in svg
    columns = ElementTree.fromstring(str(charts.columns("Rounds", {3: 5, 5: 10})))
    assert len(columns.findall(f".//{ns}rect")) == 2  # no column for the empty 4
    figure = str(charts.figure("Caption", note="a note", caller=lambda: Markup(svg)))
    assert "\n" not in figure and svg in figure  # one raw HTML block for Markdown


@needs_mkdocs
def test_the_engine_api_page_shows_the_example_run(site: Path) -> None:
    page = _page(site, "reference/engine")
    assert "rounds played:" in page and "refused: not-your-turn" in page
    for reason in ("must-swap-after-pass", "second-knock", "two-card-swap"):
        assert reason in page
    for event in ("round-ended", "table-replaced", "washed-out", "match-ended"):
        assert event in page


def test_the_engine_api_page_says_seats_count_from_0_where_texts_say_p1() -> None:
    """Match.winners and to_move() are indices from 0 while every text says P1..Pn: the
    page (built from the docstrings) says which is which."""
    from schwimmen.docsgen import engineapi

    rows = dict((name, text) for name, text in engineapi.method_rows())
    to_move = next(text for name, text in rows.items() if "to_move(" in name)
    observation = next(text for name, text in rows.items() if "observation(" in name)
    assert "0-based" in to_move and "`P1`" in to_move
    assert "0-based" in observation and "`P1` to `Pn`" in observation


def test_the_readme_python_example_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert blocks
    printed = []
    for block in blocks:
        result = subprocess.run(
            [sys.executable, "-c", block], capture_output=True, text=True, timeout=120, check=False
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip()
        printed.append(result.stdout)
    # The winners are named as every text names seats (P1..Pn), not as 0-based indices
    # a reader would take for P1, P2, ...
    assert any(re.match(r"won: P[1-9]", out) for out in printed), printed


def _reader_pages(catalog: Catalog) -> list[str]:
    """The pages a player reads, which exist in German as well as in English."""
    return [
        "",
        "reference/glossary",
        "guides/add-a-house-rule",
        "rulesets",
        "house-rules",
        "compare",
        "compare/disagreements",
        "compare/pairs",
        "compare/pairs/pagat-vs-scat",
        "compare/statistics",
        "tools/calculator",
        "tools/finder",
        *(f"rulesets/{rid}" for rid in catalog.rulesets),
        *(f"house-rules/{hid}" for hid in catalog.house_rules),
    ]


def _h1(html: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found is not None
    text = re.sub(r'<a class="headerlink".*?</a>|<[^>]+>', "", found.group(1))
    return htmllib.unescape(text).strip()


@needs_mkdocs
def test_every_reader_page_has_its_german_version(site: Path, catalog: Catalog) -> None:
    """Each reader page is served in German under /de/ (not the English fallback), and the
    language switch of the English page leads to it."""
    for path in _reader_pages(catalog):
        english, german = _page(site, path), _page(site, f"de/{path}")
        assert '<html lang="de"' in german, path
        assert _h1(german) != _h1(english), f"de/{path} is the English page"
        depth = "../" * (path.count("/") + 1) if path else ""
        assert f'<a href="{depth}de/{path + "/" if path else ""}" hreflang="de"' in english, path


@needs_mkdocs
def test_german_rule_pages_show_the_german_titles_and_names(site: Path, catalog: Catalog) -> None:
    from schwimmen.spec.pagedata import words

    say = words()
    for rid, sf in catalog.rulesets.items():
        html = _page(site, f"de/rulesets/{rid}")
        assert _h1(html) == sf.data["de"]["title"], rid
        text = htmllib.unescape(re.sub(r"<[^>]+>", "", html))
        for setting in catalog.resolve(rid).settings.values():
            assert htmllib.escape(say.param_title(setting.param, "de"), quote=False) in html
            prov = setting.provenance
            for german in (prov.reading_in("de"), prov.why_in("de"), setting.note_in("de")):
                assert german is None or german in text, (rid, setting.param, german)
        assert say("conformance.heading", "de") in text, rid
    for hid, sf in catalog.house_rules.items():
        assert _h1(_page(site, f"de/house-rules/{hid}")) == sf.data["de"]["title"], hid


def test_every_ruleset_house_rule_and_parameter_has_its_german_words(catalog: Catalog) -> None:
    """The German pages never fall back to English for a title, a summary, a parameter's
    name or a named value's meaning."""
    from schwimmen.spec.pagedata import glossary, words
    from schwimmen.spec.parameters import BY_PATH, GROUPS

    for name, sf in {**catalog.rulesets, **catalog.house_rules}.items():
        assert sf.data.get("de", {}).get("title") and sf.data["de"].get("summary"), name
        for cond in sf.data.get("requires", ()):
            assert cond.get("de", {}).get("why"), (name, cond["param"])
    for name in [
        *catalog.rulesets,
        *(f"{h.data['origin']}+{hid}" for hid, h in catalog.house_rules.items()),
    ]:
        ruleset = catalog.resolve(name)
        for setting in ruleset.settings.values():
            prov = setting.provenance
            for english, german in (
                (prov.reading, prov.reading_in("de")),
                (prov.why, prov.why_in("de")),
                (setting.note, setting.note_in("de")),
            ):
                assert english is None or german != english, (name, setting.param, english)
        for item in ruleset.unresolved:
            given = {(language, field) for language, field, _ in item.translations}
            assert {("de", "topic"), ("de", "why")} <= given, name
    say = words()
    assert set(say.groups) == set(GROUPS)
    assert set(say.parameters) == set(BY_PATH)
    for path, param in BY_PATH.items():
        assert set(say.parameters[path].get("choices", {})) == set(param.choices), path
    for key, entry in say.labels.items():
        assert set(entry) == {"en", "de"}, key
    assert all(term.meaning["de"] != term.meaning["en"] for term in glossary())


def _german_player_pages(catalog: Catalog) -> list[str]:
    """The German pages a player reads for the rules (their navigation included)."""
    return [
        "de/tools/calculator",
        "de/tools/finder",
        "de/compare",
        "de/compare/disagreements",
        "de/rulesets",
        "de/house-rules",
        *(f"de/rulesets/{rid}" for rid in catalog.rulesets),
        *(f"de/house-rules/{hid}" for hid in catalog.house_rules),
    ]


# What a reader does not read as the page's words: scripts, styles, code (ids, commands,
# the canonical text of a move) and the English page's name in the language switch.
_NOT_READ = re.compile(
    r"<(script|style|code|pre)\b.*?</\1>|<[^>]*\blang=\"en\"[^>]*>.*?</[^>]+>", re.S | re.I
)


def _read_text(html: str) -> str:
    text = _NOT_READ.sub(" ", html)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(htmllib.unescape(text).replace("\u00ad", "").split())


def _english_words() -> dict[str, str]:
    """Each English label of ``spec/words.yaml`` that is not also its German one, with the
    key it comes from; a label with ``{placeholders}`` stands for its longest fixed part.
    The parameters' English titles count too: the German page has its own for each."""
    from schwimmen.spec.pagedata import words
    from schwimmen.spec.parameters import BY_PATH

    say = words()
    out: dict[str, str] = {}
    for key, entry in say.labels.items():
        english, german = entry["en"].strip(), entry["de"].strip()
        if english == german:
            continue
        part = max(re.split(r"\{[^}]*\}", english), key=len).strip(" :.,;()*'\"")
        if len(part) >= 6 and " " in part and part not in german:
            out[part] = f"labels.{key}"
    for path, param in BY_PATH.items():
        if " " in param.title and param.title != say.param_title(path, "de"):
            out[param.title] = f"parameters.{path}"
    return out


@needs_mkdocs
def test_no_english_label_on_the_german_player_pages(site: Path, catalog: Catalog) -> None:
    """A German player reads German: none of the site's English labels (of two words or
    more) stands on the German calculator, finder, comparison, disagreements, ruleset and
    house-rule pages or in their navigation."""
    english = _english_words()
    assert len(english) > 50
    found: dict[str, list[str]] = {}
    for path in _german_player_pages(catalog):
        text = _read_text(_page(site, path))
        for words, key in english.items():
            if re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", text):
                found.setdefault(path, []).append(f"{words!r} ({key})")
    assert found == {}


@needs_mkdocs
def test_the_page_not_found_switches_to_each_language_home(site: Path) -> None:
    """The 404 page is served at any address: its language switch leads to the homes, not
    where the last page built happened to lead."""
    html = (site / "404.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]*)" hreflang="([^"]*)" class="md-select', html)
    switch = {lang: href for href, lang in links}
    assert switch == {"en": "/", "de": "/de/"}
