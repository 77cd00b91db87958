"""The rules at a glance and the search ranks: the comparison's words come from
``spec/at-a-glance.yaml``, fit every ruleset in both languages, and a broken file or a
rule no case words stops the build with the file and the line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from schwimmen.conformance.fixtures import Fixture
from schwimmen.docsgen.compare import glance_part
from schwimmen.docsgen.context import ruleset_order
from schwimmen.docsgen.fixturepages import SEARCH_BOOST
from schwimmen.docsgen.markup import pair_page, ruleset_page
from schwimmen.docsgen.searchrank import rank, with_rank
from schwimmen.resources import spec_dir
from schwimmen.spec import glance as g
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset


@pytest.fixture(scope="module")
def rulesets(catalog: Catalog) -> Mapping[str, Ruleset]:
    return {rid: catalog.resolve(rid) for rid in ruleset_order(catalog)}


@pytest.fixture(scope="module")
def words() -> g.Glance:
    return g.load_glance()


SHIPPED = (spec_dir() / g.FILE).read_text(encoding="utf-8")


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped file with one passage changed, to break on purpose."""
    assert old in SHIPPED, old
    path = tmp_path / g.FILE
    path.write_text(SHIPPED.replace(old, new, 1), encoding="utf-8")
    return path


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_the_shipped_words_fit_every_ruleset(
    words: g.Glance, rulesets: Mapping[str, Ruleset]
) -> None:
    assert g.check(words, rulesets) == []
    assert set(words.names) == set(rulesets)
    assert 10 <= len(words.rows) <= 14  # "the ten or so rules that decide most games"


def test_every_cell_is_worded_in_both_languages(
    words: g.Glance, rulesets: Mapping[str, Ruleset]
) -> None:
    for row in words.rows:
        for ruleset in rulesets.values():
            for language in g.LANGUAGES:
                text = g.cell_text(row, ruleset, language)
                assert text and "{" not in text and "}" not in text, (row.id, ruleset.id)
        english = {g.cell_text(row, r, "en") for r in rulesets.values()}
        german = {g.cell_text(row, r, "de") for r in rulesets.values()}
        # two rulesets that read alike in one language read alike in the other
        assert len(english) == len(german), row.id


def test_the_words_follow_the_resolved_values(rulesets: Mapping[str, Ruleset]) -> None:
    """A number in the words is the ruleset's own: lives, points of a triple, of Feuer."""
    words = g.load_glance()
    by_id = {row.id: row for row in words.rows}
    for ruleset in rulesets.values():
        lives = g.cell_text(by_id["lives"], ruleset)
        assert lives.startswith(str(ruleset.settings["lives.count"].value)) or "stick" in lives
        aces = ruleset.settings.get("three_aces.points")
        if aces is not None and aces.value != "none":
            assert f"Feuer ({aces.value:g})" in g.cell_text(by_id["three-aces"], ruleset)
    assert g.fill_numbers("{triples.points}", rulesets["pagat"]) == "30½"


@given(st.lists(st.sampled_from("abc"), max_size=12))
def test_neighbours_that_agree_share_one_cell(texts: list[str]) -> None:
    runs = g.runs(texts)
    assert [t for t, span in runs for _ in range(span)] == texts
    assert all(a[0] != b[0] for a, b in pairwise(runs))


def test_the_table_names_every_ruleset_and_merges_agreement(
    words: g.Glance, rulesets: Mapping[str, Ruleset], tmp_path: Path
) -> None:
    html = glance_part(words, rulesets, "de")
    for rid in rulesets:
        assert f"<code>{rid}</code>" in html and words.name(rid, "de", hyphens=True) in html
        assert "\u00ad" not in words.name(rid, "de")  # only a heading breaks the words
        assert f'href="md:{ruleset_page(rid)}"' in html
    assert html.count("<tr") == len(words.rows) + 1
    assert "Drei Asse" in html and "Regel" in html
    # a rule every ruleset plays alike is one cell across the table, marked as such
    path = _variant(
        tmp_path,
        "rows:\n",
        "rows:\n  - id: same\n    label: {en: Same, de: Gleich}\n    topic: turns\n"
        "    cases:\n      - when: {turns.direction: clockwise}\n"
        "        text: {en: Clockwise, de: Im Uhrzeigersinn}\n",
    )
    same = glance_part(g.load_glance(path), rulesets, "en")
    assert f'<td class="g-same" colspan="{len(rulesets)}"' in same
    assert f"the same in all {len(rulesets)}" in same


@pytest.mark.parametrize(
    ("old", "new", "at", "message"),
    [
        (
            "{three_aces.kind: counts-as-maximum}",
            "{three_aces.kind: counts-as-maximun}",
            "counts-as-maximun",
            "'counts-as-maximun' is not a value of three_aces.kind",
        ),
        (
            "{lives.counting: tokens-down, lives.after_last: out}",
            "{lives.counting: tokens-down, lives.after_lost: out}",
            "lives.after_lost",
            "unknown parameter 'lives.after_lost'",
        ),
        (
            'rule: {en: "Rule", de: "Regel"}',
            'rule: {en: "Rule"}',
            'rule: {en: "Rule"}',
            "missing required key 'de'",
        ),
        (
            "topic: three_aces",
            "topic: three-aces",
            "topic: three-aces",
            "does not have the expected form",
        ),
        (
            'en: "{lives.count} lives, then you are out (no swimming)"',
            'en: "{lives} lives, then you are out (no swimming)"',
            "{lives} lives",
            "{lives} names no parameter",
        ),
    ],
)
def test_a_broken_file_is_reported_at_its_line(
    tmp_path: Path, old: str, new: str, at: str, message: str
) -> None:
    path = _variant(tmp_path, old, new)
    with pytest.raises(SpecErrors) as caught:
        g.load_glance(path)
    text = str(caught.value)
    assert message in text
    assert f":{_line_of(path, at)}:" in text


def test_a_ruleset_no_case_words_stops_the_build(
    tmp_path: Path, rulesets: Mapping[str, Ruleset]
) -> None:
    path = _variant(
        tmp_path,
        "      - when: {lives.counting: tokens-down, lives.after_last: out}\n",
        "      - when: {lives.counting: tokens-down, lives.after_last: out, lives.count: 4}\n",
    )
    errors = [str(e) for e in g.check(g.load_glance(path), rulesets)]
    unworded = [r for r, s in rulesets.items() if s.settings["lives.after_last"].value == "out"]
    assert unworded
    assert len(errors) == len(unworded)
    assert f"no case words {unworded[0]!r}" in errors[0]
    assert "lives.after_last = 'out'" in errors[0]
    assert f":{_line_of(path, 'id: lives') + 3}:" in errors[0]  # the row's "cases:"


def test_a_name_for_every_ruleset_and_no_other(
    tmp_path: Path, rulesets: Mapping[str, Ruleset]
) -> None:
    path = _variant(tmp_path, "  scat: {", "  skat: {")
    errors = [str(e) for e in g.check(g.load_glance(path), rulesets)]
    assert any("no name for the ruleset 'scat'" in e for e in errors)
    assert any(f":{_line_of(path, 'skat:')}:" in e and "'skat' is no ruleset" in e for e in errors)


def test_a_number_that_is_none_is_an_error(tmp_path: Path, rulesets: Mapping[str, Ruleset]) -> None:
    """Feuer without points (the rules page) cannot be worded "Feuer ({points})"."""
    path = _variant(
        tmp_path,
        "      - when: {three_aces.kind: feuer, three_aces.points: none,",
        "      - when: {three_aces.kind: fixed-points, three_aces.points: none,",
    )
    errors = [str(e) for e in g.check(g.load_glance(path), rulesets)]
    assert errors and all("{three_aces.points} is not a number" in e for e in errors)


# ----------------------------------------------------------------------------- search ranks
def test_rule_pages_rank_first_fixtures_last_and_pairs_not_at_all() -> None:
    rules = rank(ruleset_page("pagat"))
    assert rules is not None
    assert rules.boost > 1 > SEARCH_BOOST
    assert rank("reference/glossary.md") == rules
    pairs = rank(pair_page("altenburg", "pagat"))
    assert pairs is not None and pairs.exclude
    index = rank("fixtures/index.md")
    assert index is not None and index.boost == 1 and not index.exclude
    assert rank("guides/play-and-simulate.md") is None


def test_the_rank_goes_into_the_front_matter() -> None:
    page = "---\nhide:\n  - toc\n---\n\n# Title\n"
    ranked = with_rank(ruleset_page("pagat"), page)
    assert re.match(r"---\nhide:\n  - toc\nsearch:\n  boost: 4\n---\n\n# Title\n$", ranked)
    bare = with_rank(pair_page("altenburg", "pagat"), "# A vs B\n")
    assert bare == "---\nsearch:\n  exclude: true\n---\n\n# A vs B\n"
    own = "---\nsearch:\n  boost: 9\n---\n# X\n"
    assert with_rank(ruleset_page("pagat"), own) == own
    assert with_rank("guides/play-and-simulate.md", page) == page


def test_the_search_index_is_split_by_language() -> None:
    """The German pages get an index of their own, located relative to ``de/``, which also
    finds the pages that have no German version, where they are (``../``); the root index
    keeps only the English entries."""
    from schwimmen.docsgen.searchrank import split_index

    merged = {
        "config": {"lang": ["en", "de"], "separator": "x"},
        "docs": [
            {"location": "rulesets/pagat/", "title": "Schwimmen after pagat.com", "text": "a"},
            {"location": "rulesets/pagat/#feuer", "title": "Feuer", "text": "b"},
            {"location": "fixtures/x/", "title": "A fixture", "text": "c"},
            {"location": "de/rulesets/pagat/", "title": "Schwimmen nach pagat.com", "text": "d"},
            {"location": "de/rulesets/pagat/#feuer", "title": "Feuer", "text": "e"},
        ],
    }
    split = split_index(merged, ["de"])
    assert set(split) == {"", "de"}
    assert split[""]["config"] == {"lang": ["en"], "separator": "x"}
    assert [d["location"] for d in split[""]["docs"]] == [
        "rulesets/pagat/",
        "rulesets/pagat/#feuer",
        "fixtures/x/",
    ]
    assert split["de"]["config"]["lang"] == ["de"]
    german = {d["location"]: d["text"] for d in split["de"]["docs"]}
    assert german == {"rulesets/pagat/": "d", "rulesets/pagat/#feuer": "e", "../fixtures/x/": "c"}


def test_a_fixture_is_found_by_its_title_and_first_words_only() -> None:
    """The area pages leave the theme's index (which would index every case of every
    fixture); each fixture gets one light entry at its heading instead."""
    from schwimmen.conformance.fixtures import load_fixtures
    from schwimmen.docsgen.fixturepages import SEARCH_TEXT, search_entries

    fixtures, problems = load_fixtures()
    assert not problems
    areas: dict[str, list[Fixture]] = {}
    for fixture in fixtures:
        areas.setdefault(fixture.id.split("/")[0], []).append(fixture)
    entries = search_entries(areas)
    by = {(e.page, e.anchor): e for e in entries}
    assert len(entries) == len(fixtures) + len(areas)
    for fixture in fixtures:
        area, name = fixture.id.split("/", 1)
        entry = by[(f"fixtures/{area}.md", name)]
        assert entry.title == fixture.title and entry.boost == SEARCH_BOOST
        assert len(entry.text) <= SEARCH_TEXT + 2
        assert " ".join(fixture.description.split()).startswith(entry.text.removesuffix(" …"))
