"""The documentation site builds with ``mkdocs build --strict`` and shows the whole spec.

The build runs once per module into a temporary directory (a few seconds) and is skipped
when mkdocs or its Material theme is not installed (``pip install -e '.[docs]'``). The
generator's pure functions are tested without MkDocs.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schwimmen.docsgen import disagreements
from schwimmen.docsgen.context import build_context
from schwimmen.docsgen.markup import card, cards_in, esc
from schwimmen.docsgen.site import check_citations, page_citations
from schwimmen.spec.loader import Catalog

ROOT = Path(__file__).resolve().parent.parent
HAVE_MKDOCS = all(importlib.util.find_spec(m) is not None for m in ("mkdocs", "material"))
needs_mkdocs = pytest.mark.skipif(
    not HAVE_MKDOCS, reason="mkdocs-material is not installed (pip install -e '.[docs]')"
)


def _build(config_dir: Path, out: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=config_dir,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = _build(ROOT, out)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def _page(site: Path, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


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
def test_every_pair_of_rulesets_has_a_page(site: Path, catalog: Catalog) -> None:
    pages = list((site / "compare" / "pairs").glob("*-vs-*/index.html"))
    n = len(catalog.rulesets)
    assert len(pages) == n * (n - 1) // 2


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
def test_the_build_fails_when_the_example_does_not_resolve(tmp_path: Path) -> None:
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    example = tmp_path / "docs" / "examples" / "house-rule-example.yaml"
    text = example.read_text(encoding="utf-8")
    assert "value: 4\n" in text
    example.write_text(text.replace("value: 4\n", "value: 40\n"), encoding="utf-8")
    result = _build(tmp_path, tmp_path / "site")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "house-rule-example" in output and "lives" in output, output


# ----------------------------------------------------------------------------- pure parts


def test_cards_are_drawn_as_cards() -> None:
    assert card("A", "♥") == '<span class="card hearts">A♥</span>'
    text = cards_in("P1 ♣10 ♠7 · ♦K (20 ♦)")
    assert '<span class="card clubs">10♣</span>' in text
    assert '<span class="card spades">7♠</span>' in text
    assert '<span class="card diamonds">K♦</span>' in text
    assert text.endswith("(20 ♦)")


def test_escaping_keeps_tables_and_emphasis_intact() -> None:
    assert esc("a|b *c* [d] <e>") == r"a\|b \*c\* \[d\] &lt;e&gt;"


MATRIX = """\
## 3. Disagreements

### 3.1 Hand evaluation

**F01 (E) — three sevens.** Dims 2.16, 2.18; U17.
Hands: P1 ♣7 ♠7 ♥7 · P2 ♦A ♦9 ♠8 (20 ♦).

| rulesets | loser |
|---|---|
| ALT | P1 −1 (U17) |
| PAG, R001.knock2, R001.knack | P2 −1, see F02 and [000:9] «Drei Buben» |

## 4. Decisions

**U17 — Altenburg gaps.** Triples …
"""


def test_scenarios_are_parsed_from_the_rules_matrix(catalog: Catalog) -> None:
    sections = disagreements.parse_scenarios(MATRIX)
    assert [s.number for s in sections] == ["3.1"]
    scenario = sections[0].scenarios[0]
    assert (scenario.number, scenario.kind, scenario.title) == ("F01", "E", "three sevens")
    assert scenario.dims == ("2.16", "2.18")
    assert disagreements.decision_titles(MATRIX) == {"U17": "Altenburg gaps"}

    site = build_context(catalog)
    page = disagreements.disagreements_markdown(site, sections, "rules-matrix.md")
    assert '<span class="card hearts">7♥</span>' in page
    assert "(../rulesets/altenburg.md)" in page
    assert "(../house-rules/knocker-loses-two.md)" in page
    assert "`R001.knack`" in page  # unknown options stay as they are
    assert "„Drei Buben“" in page
    assert "[F02](#f02)" in page
    assert "Fixtures pinning each disagreement will be listed here" in page


def test_without_the_matrix_the_page_says_where_the_scenarios_live(catalog: Catalog) -> None:
    site = build_context(catalog)
    page = disagreements.disagreements_markdown(site, None, "/nowhere/rules-matrix.md")
    assert "/nowhere/rules-matrix.md" in page
    assert "Fixtures pinning each disagreement will be listed here" in page


def test_quotes_on_generated_pages_are_verbatim(catalog: Catalog, texts_dir: Path | None) -> None:
    if texts_dir is None:
        pytest.skip("source texts not found: the page quotes cannot be checked")
    assert check_citations(catalog.bibliography, page_citations()) == []
