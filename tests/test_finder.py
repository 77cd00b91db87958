"""The variant finder: its questions load with located errors, every ruleset is reached by
the answers a table playing it would give, and every house rule the page can offer is one
``schwimmen validate`` accepts and plays as answered.

The logic tested here is the Python half (``schwimmen.spec.finder``) over the very data
the page embeds; ``tests/test_docs_browser.py`` checks that the page's script gives the
same answers.
"""

from __future__ import annotations

import itertools
import json
import posixpath
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schwimmen.docsgen import finderpage
from schwimmen.spec import finder, termination
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.parameters import PARAMETERS
from schwimmen.spec.validate import validate_paths

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / finder.DATA


@pytest.fixture(scope="module")
def questions() -> finder.Finder:
    return finder.load_finder(DATA)


@pytest.fixture(scope="module")
def data(questions: finder.Finder, catalog: Catalog) -> dict[str, Any]:
    return finder.export(questions, {rid: catalog.resolve(rid) for rid in sorted(catalog.rulesets)})


class HouseRules:
    """Writes the page's house rules to files and validates them on one catalog (each
    under an id of its own, since the catalog remembers every file it was given)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.catalog = Catalog.load()
        self.count = 0
        self.warned = 0

    def check(
        self, text: str, language: str, data: dict[str, Any], rid: str, answers: dict[str, str]
    ) -> tuple[str, Path]:
        """Validate ``text`` as the file the page names (the page's house rule on ``rid``
        for ``answers``); return its resolved name. Every file the page offers validates:
        a combination the contradiction table refuses is never offered; one it suspects
        is offered, and ``validate`` warns about it exactly where the page does."""
        self.count += 1
        own_id = data["words"]["file-id"][language]
        fresh = f"finder-{self.count}"
        assert f"\nid: {own_id}\n" in text
        path = self.folder / f"{fresh}.yaml"
        path.write_text(text.replace(f"\nid: {own_id}\n", f"\nid: {fresh}\n"), encoding="utf-8")
        report = validate_paths([path], self.catalog)
        assert report.ok, text + "\n" + "\n".join(str(e) for e in report.errors)
        found = finder.clash(data, rid, answers)
        assert bool(report.warnings) == (found is not None and found.kind == "suspected"), (
            text,
            report.warnings,
        )
        self.warned += bool(report.warnings)
        origin = yaml.safe_load(text)["origin"]
        return f"{origin}{SEPARATOR}{path}", path


@pytest.fixture(scope="module")
def house_rules(tmp_path_factory: pytest.TempPathFactory) -> HouseRules:
    return HouseRules(tmp_path_factory.mktemp("house-rules"))


def _plays_as_answered(
    house_rules: HouseRules, data: dict[str, Any], name: str, rid: str, answers: dict[str, str]
) -> None:
    """The resolved house rule agrees with every answer it could carry."""
    values = house_rules.catalog.resolve(name).values()
    _, dropped = finder.house_rule_changes(data, rid, answers)
    for q, a in finder.counted(data, answers):
        if not q["decides_game"] and q["id"] not in dropped:
            assert finder.agrees(values, a), (rid, q["id"], a["id"])


# --------------------------------------------------------------------- reaching every ruleset
def test_every_ruleset_is_reached_by_its_own_answers(data: dict[str, Any]) -> None:
    for ruleset in data["rulesets"]:
        answers = finder.own_answers(data, ruleset["id"])
        assert finder.nearest(data, answers) == [ruleset["id"]], answers
        assert finder.differences(data, ruleset["id"], answers) == []
        assert finder.house_rule_yaml(data, ruleset["id"], answers, "en") is None


def test_every_ruleset_has_an_answer_to_every_question_that_arises_for_it(
    data: dict[str, Any],
) -> None:
    """So the list of differences can always say what the ruleset does instead."""
    for ruleset in data["rulesets"]:
        own = finder.own_answers(data, ruleset["id"])
        arising = {q["id"] for q in data["questions"] if finder.arises(q, ruleset["values"])}
        assert set(own) == arising, ruleset["id"]


def test_the_page_says_which_rulesets_the_questions_cannot_split(
    questions: finder.Finder, catalog: Catalog
) -> None:
    rulesets = {rid: catalog.resolve(rid) for rid in sorted(catalog.rulesets)}
    full = finder.export(questions, rulesets)
    if not finder.inseparable(full):
        expected = finder.fill_in(full["words"]["all-apart"]["en"], {"n": str(len(rulesets))})
        assert finderpage.limits_markdown(full, rulesets, "en").strip() == expected
    # With one question only, most rulesets stay together: the page names them and the
    # rules they differ in.
    one = finder.Finder(questions.words, questions.questions[-1:])
    few = finder.export(one, rulesets)
    groups = finder.inseparable(few)
    assert groups and all(len(g) > 1 for g in groups)
    text = finderpage.limits_markdown(few, rulesets, "de")
    for group in groups:
        line = next(li for li in text.splitlines() if rulesets[group[0]].title in li)
        for rid in group:
            assert f"({posixpath.relpath(f'rulesets/{rid}.md', 'tools')})" in line
        values = [rulesets[rid].values() for rid in group]
        differ = [p.title for p in PARAMETERS if len({repr(v.get(p.path)) for v in values}) > 1]
        assert differ and all(title in line for title in differ)


def test_answers_on_the_game_come_first(data: dict[str, Any]) -> None:
    """A ruleset of another game never beats one of the game answered, however many other
    answers it shares."""
    game_ids = {q["id"] for q in data["questions"] if q["decides_game"]}

    def game_of(rid: str) -> dict[str, str]:
        return {q: a for q, a in finder.own_answers(data, rid).items() if q in game_ids}

    ids = [r["id"] for r in data["rulesets"]]
    for game_from, rest_from in itertools.product(ids, repeat=2):
        answers = {**finder.own_answers(data, rest_from), **game_of(game_from)}
        same_game = {rid for rid in ids if game_of(rid) == game_of(game_from)}
        assert set(finder.nearest(data, answers)) <= same_game, (game_from, rest_from)


# --------------------------------------------------------------------- the house rule
def _differing_answers(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, str]]]:
    for ruleset in data["rulesets"]:
        for q in data["questions"]:
            if q["decides_game"]:
                continue
            for a in q["answers"]:
                if not finder.agrees(ruleset["values"], a):
                    yield ruleset["id"], {q["id"]: a["id"]}


def test_every_single_answer_makes_a_valid_house_rule_on_every_ruleset(
    data: dict[str, Any], house_rules: HouseRules
) -> None:
    written = 0
    for rid, answers in _differing_answers(data):
        text = finder.house_rule_yaml(data, rid, answers, "en")
        _, dropped = finder.house_rule_changes(data, rid, answers)
        if text is None:
            # nothing to write only where the question does not arise, or where the
            # contradiction table refuses the house rule (the page says why instead)
            found = finder.clash(data, rid, answers)
            assert dropped or (found is not None and found.kind == "refused")
            continue
        checked = house_rules.check(text, "en", data, rid, answers)
        _plays_as_answered(house_rules, data, checked[0], rid, answers)
        written += 1
    assert written > 100


def _answer_sets(data: dict[str, Any]) -> st.SearchStrategy[dict[str, str]]:
    per_question = {
        q["id"]: st.one_of(st.none(), st.sampled_from([a["id"] for a in q["answers"]]))
        for q in data["questions"]
    }
    return st.fixed_dictionaries(per_question).map(
        lambda chosen: {q: a for q, a in chosen.items() if a is not None}
    )


@pytest.mark.slow
def test_any_answers_make_a_valid_house_rule(data: dict[str, Any], house_rules: HouseRules) -> None:
    """Whatever a table answers, the house rule offered on the nearest ruleset, and on any
    other one picked from the list, validates and plays as answered."""
    rulesets = [r["id"] for r in data["rulesets"]]

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        answers=_answer_sets(data),
        other=st.sampled_from(rulesets),
        language=st.sampled_from(finder.LANGUAGES),
    )
    def check(answers: dict[str, str], other: str, language: str) -> None:
        for rid in {finder.nearest(data, answers)[0], other}:
            text = finder.house_rule_yaml(data, rid, answers, language)
            if text is not None:
                checked = house_rules.check(text, language, data, rid, answers)
                _plays_as_answered(house_rules, data, checked[0], rid, answers)

    check()


def test_answers_no_ruleset_gives_are_offered_as_a_house_rule(
    data: dict[str, Any], house_rules: HouseRules
) -> None:
    """Answers that differ from every ruleset (four lives, passing once a round) still
    lead somewhere, and the file says so in German too."""
    unmatched = {
        q["id"]: a["id"]
        for q in data["questions"]
        for a in q["answers"]
        if not any(finder.agrees(r["values"], a) for r in data["rulesets"])
    }
    assert unmatched
    for rid in finder.nearest(data, unmatched):
        text = finder.house_rule_yaml(data, rid, unmatched, "de")
        assert text is not None and "Im Variantenfinder gewählt" in text
        checked = house_rules.check(text, "de", data, rid, unmatched)
        _plays_as_answered(house_rules, data, checked[0], rid, unmatched)


def test_a_question_that_does_not_arise_is_not_asked_and_not_written(
    data: dict[str, Any],
) -> None:
    """Where the game answered has no such rule (passing where you draw from the stock),
    the question is left out; on a ruleset without it, the answer is listed, not written."""
    for ruleset in data["rulesets"]:
        answers = finder.own_answers(data, ruleset["id"])
        shown = {q["id"] for q in finder.shown_questions(data, answers)}
        for q in data["questions"]:
            if q["id"] not in shown:
                assert not finder.arises(q, ruleset["values"])
                for a in q["answers"]:
                    with_it = {**answers, q["id"]: a["id"]}
                    assert finder.nearest(data, with_it) == [ruleset["id"]]
                    assert finder.house_rule_yaml(data, ruleset["id"], with_it, "en") is None


def test_yaml_values_read_back_as_the_values(data: dict[str, Any]) -> None:
    values = [v for q in data["questions"] for a in q["answers"] for v in a["values"].values()]
    values += ['Feuer: „drei Asse“ \\ "32"', 30.5, None, [], {}]
    for value in values:
        assert yaml.safe_load(f"value: {finder.yaml_value(value)}") == {"value": value}


# --------------------------------------------------------------------- the data file
def test_the_export_holds_each_rulesets_values_of_the_asked_parameters(
    data: dict[str, Any], catalog: Catalog
) -> None:
    asked = {p for q in data["questions"] for a in q["answers"] for p in a["values"]}
    assert asked <= set(data["order"])
    for ruleset in data["rulesets"]:
        resolved = catalog.resolve(ruleset["id"]).values()
        assert ruleset["values"] == {p: resolved.get(p) for p in data["order"]}
        assert ruleset["url"] == f"../../rulesets/{ruleset['id']}/"


def test_page_links_follow_directory_urls() -> None:
    assert finder.page_url("rulesets/pagat.md") == "../../rulesets/pagat/"
    assert finder.page_url("index.md") == "../../"
    assert finder.page_url("compare/index.md", "tools/finder.md") == "../../compare/"


BROKEN: list[tuple[str, Callable[[str], str], str]] = [
    (
        "unknown parameter",
        lambda t: t.replace("three_aces.kind: ordinary", "three_aces.knid: ordinary"),
        "unknown rule parameter 'three_aces.knid'",
    ),
    (
        "value the parameter does not take",
        lambda t: t.replace("lives.after_last: out", "lives.after_last: drown"),
        '"drown" is not allowed; choose one of: "swim", "out"',
    ),
    (
        "answers that do not exclude each other",
        lambda t: t.replace("{lives.count: 4}", "{lives.count: 3}"),
        "answers 'three' and 'four' do not exclude each other",
    ),
    (
        "missing German",
        lambda t: t.replace("      de: Mit wie vielen Leben fängt jeder an?\n", ""),
        "give the words in English (en) and in German (de)",
    ),
    (
        "gaps that differ between the languages",
        lambda t: t.replace('de: "{n} von {m} Antworten', 'de: "{n} von {mm} Antworten'),
        "the German words have the gaps ['mm', 'n'], the English ones ['m', 'n']",
    ),
    (
        "a parameter asked by two questions",
        lambda t: t.replace("{penalties.knocker_lowest: 2}", "{lives.count: 2}"),
        "lives.count is asked already by question 'lives'",
    ),
    (
        "a word the page does not know",
        lambda t: t.replace("  skip:\n", "  skipp:\n"),
        "missing word 'skip'",
    ),
]


@pytest.mark.parametrize(("what", "breaks", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_data_file_is_refused_with_file_and_line(
    tmp_path: Path, what: str, breaks: Callable[[str], str], message: str
) -> None:
    original = DATA.read_text(encoding="utf-8")
    broken = breaks(original)
    assert broken != original, what
    path = tmp_path / "finder.yaml"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(SpecErrors) as caught:
        finder.load_finder(path, "docs/data/finder.yaml")
    shown = [str(e) for e in caught.value.errors]
    hit = [s for s in shown if message in s]
    assert hit, shown
    line = int(hit[0].split(":")[1])
    changed = next(
        i
        for i, (a, b) in enumerate(
            itertools.zip_longest(original.splitlines(), broken.splitlines()), 1
        )
        if a != b
    )
    assert hit[0].startswith("docs/data/finder.yaml:")
    assert abs(line - changed) <= 12, (hit[0], changed)


def test_the_german_result_and_file_name_the_ruleset_in_german(
    questions: finder.Finder, catalog: Catalog, house_rules: HouseRules
) -> None:
    """A German table reads the ruleset's German name (its ``de:`` title) in the result
    and in the house rule the page writes, as on the ruleset's own German page."""

    rulesets = {rid: catalog.resolve(rid) for rid in sorted(catalog.rulesets)}
    titles = {
        rid: {lang: sf.title_and_summary(lang)[0] for lang in finder.LANGUAGES}
        for rid, sf in catalog.rulesets.items()
    }
    data = finder.export(questions, rulesets, titles)
    answers = {q["id"]: q["answers"][0]["id"] for q in data["questions"]}
    written = 0
    for rid in finder.nearest(data, answers):
        german = str(catalog.rulesets[rid].data["de"]["title"])
        assert german != rulesets[rid].title
        text = finder.house_rule_yaml(data, rid, answers, "de")
        if text is None:
            continue
        summary = yaml.safe_load(text)["summary"]
        assert german in summary and rulesets[rid].title not in summary, summary
        house_rules.check(text, "de", data, rid, answers)
        written += 1
    assert written
    one = finder.Finder(questions.words, questions.questions[-1:])
    text = finderpage.limits_markdown(finder.export(one, rulesets, titles), rulesets, "de")
    named = [rid for rid in rulesets if f"[{titles[rid]['de']}](" in text]
    assert named and not [rid for rid in rulesets if f"[{rulesets[rid].title}](" in text]


# --------------------------------------------------------------------- the contradiction table
def _one_or_two_answers(data: dict[str, Any]) -> Iterator[dict[str, str]]:
    """Every answer to a question that does not decide the game, alone and with every
    answer to another such question."""
    options = [
        (q["id"], a["id"]) for q in data["questions"] if not q["decides_game"] for a in q["answers"]
    ]
    for option in options:
        yield dict([option])
    for a, b in itertools.combinations(options, 2):
        if a[0] != b[0]:
            yield dict([a, b])


def _table_says(catalog: Catalog, rid: str, changes: list[finder.Change]) -> str | None:
    """What the loader's table says of ``rid`` with these changes: refused, suspected or
    nothing."""
    base = catalog.resolve(rid).values()
    values = {**base, **{c.param: c.value for c in changes}}
    if any(True for _ in termination.problems(rid, base, values)):
        return "refused"
    if any(True for _ in termination.suspicions(rid, base, values)):
        return "suspected"
    return None


def test_the_page_finds_a_clash_exactly_where_the_loaders_table_does(
    data: dict[str, Any], catalog: Catalog
) -> None:
    """On every ruleset, for every one or two answers, the page refuses (offers no file and
    says why, naming the questions) or warns exactly where the loader would, so a refused
    combination can no longer be produced."""
    seen: dict[str | None, int] = {}
    for ruleset in data["rulesets"]:
        rid = ruleset["id"]
        for answers in _one_or_two_answers(data):
            changes, _ = finder.house_rule_changes(data, rid, answers)
            says = _table_says(catalog, rid, changes)
            found = finder.clash(data, rid, answers)
            assert (found.kind if found else None) == says, (rid, answers)
            seen[says] = seen.get(says, 0) + 1
            if found is None:
                continue
            text = finder.clash_text(data, rid, found, "de")
            questions = [q for q in data["questions"] if q["id"] in found.questions]
            assert questions and all(q["text"]["de"] in text for q in questions)
            if found.kind == "refused":
                assert finder.house_rule_yaml(data, rid, answers, "en") is None
                assert finder.house_rule_yaml(data, rid, answers, "de") is None
    assert seen.get("refused"), "no answers make a combination the table refuses"


def test_what_the_page_refuses_the_loader_refuses_naming_both_parameters(
    data: dict[str, Any], catalog: Catalog
) -> None:
    """The page hides no combination the loader would accept: each one it refuses, written
    anyway, is refused by the loader with both parameters named."""
    refused: dict[str, tuple[str, dict[str, Any]]] = {}
    for ruleset in data["rulesets"]:
        for answers in _one_or_two_answers(data):
            found = finder.clash(data, ruleset["id"], answers)
            if found is not None and found.kind == "refused":
                made, _ = finder.house_rule_changes(data, ruleset["id"], answers)
                changes = {c.param: c.value for c in made}
                key = json.dumps([ruleset["id"], changes], sort_keys=True)
                refused[key] = (ruleset["id"], changes)
    assert refused
    for rid, changes in refused.values():
        with pytest.raises(SpecErrors) as caught:
            catalog.mutant(rid, changes)
        text = str(caught.value)
        assert "spec/contradictions.yaml" in text
        entry = next(
            e for e in data["refused"] if e["base"] == rid and set(e["set"]) <= set(changes)
        )
        for param in [*entry["set"], *entry["with"]]:
            assert param in text, (rid, param, text)


def test_what_the_page_suspects_it_offers_and_validate_warns_about(
    data: dict[str, Any], house_rules: HouseRules
) -> None:
    """A suspicion is no refusal: the page offers the file, with its warning, and
    ``validate`` accepts it with a warning (``HouseRules.check`` requires both)."""
    cases = [
        (ruleset["id"], answers)
        for ruleset in data["rulesets"]
        for answers in _one_or_two_answers(data)
        if (found := finder.clash(data, ruleset["id"], answers)) is not None
        and found.kind == "suspected"
    ]
    if not cases:
        pytest.skip("the contradiction table suspects nothing the finder's answers make")
    before = house_rules.warned
    for rid, answers in cases:
        text = finder.house_rule_yaml(data, rid, answers, "en")
        assert text is not None
        house_rules.check(text, "en", data, rid, answers)
    assert house_rules.warned - before == len(cases)
