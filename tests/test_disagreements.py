"""The disagreements (``spec/disagreements.yaml``) and the decisions (``spec/decisions.yaml``)
are the project's own data: each loads through its schema with errors at their line, the
scenarios' quotes are checked like every other quote, and the lint keeps the scenarios and
the fixtures that pin them in agreement."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.conformance.lint import _scenarios, lint
from schwimmen.resources import conformance_dir, spec_dir
from schwimmen.spec.decisions import load_decisions
from schwimmen.spec.disagreements import load_disagreements
from schwimmen.spec.loader import Catalog
from schwimmen.spec.sources import load_bibliography

SHIPPED = spec_dir() / "disagreements.yaml"
FIXTURES = conformance_dir() / "fixtures"


def _copy(tmp_path: Path, name: str, edit: Callable[[str], str]) -> tuple[Path, str]:
    text = (spec_dir() / name).read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text, "the edit changed nothing"
    path = tmp_path / name
    path.write_text(changed, encoding="utf-8")
    return path, changed


def _line(text: str, needle: str, start: int = 0) -> int:
    return text[: text.index(needle, start)].count("\n") + 1


def test_the_shipped_files_load_clean(texts_dir: Path | None) -> None:
    bibliography = load_bibliography(texts_dir=texts_dir)
    found, errors = load_disagreements(bibliography=bibliography)
    assert errors == [] and found is not None
    assert found.ids == [f"F{i:02d}" for i in range(1, 63)]
    assert all(s.cites and s.shows and s.asks for s in found.scenarios)
    assert (
        set(found.labels) == {"en", "de"} and found.labels["en"].keys() == found.labels["de"].keys()
    )
    decisions, problems = load_decisions()
    assert problems == [] and decisions is not None
    assert "U17" in decisions.titles


def test_every_decision_the_spec_names_has_a_title(catalog: Catalog) -> None:
    from schwimmen.docsgen.context import build_context

    decisions, _ = load_decisions()
    assert decisions is not None
    assert build_context(catalog).decisions <= set(decisions.titles)


def test_every_default_of_the_catalog_names_a_decision(catalog: Catalog) -> None:
    """A value chosen where the sources are silent is traceable to a numbered decision,
    "this game has no such rule" included (U54), so the site can say why it stands."""
    from schwimmen.spec.loader import provenance_of
    from schwimmen.spec.model import ProvenanceKind

    decisions, _ = load_decisions()
    assert decisions is not None
    files = [*catalog.rulesets.values(), *catalog.house_rules.values()]
    defaults = [
        (sf.id, path, provenance_of(entry).decision)
        for sf in files
        for path, entry, _ in sf.entries()
        if provenance_of(entry).kind is ProvenanceKind.DEFAULT
    ]
    assert len(defaults) > 100
    assert [d for d in defaults if d[2] not in decisions.titles] == []


def test_a_scenario_listed_twice_is_reported_at_its_line(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "disagreements.yaml", lambda t: t.replace("id: F02", "id: F01"))
    _, errors = load_disagreements(path)
    (error,) = errors
    assert error.file == str(path)
    assert error.line == _line(text, "id: F01", text.index("id: F01") + 1)
    assert "F01 is listed twice" in error.message


def test_a_misquoted_source_is_reported_at_its_quote(
    tmp_path: Path, texts_dir: Path | None
) -> None:
    if texts_dir is None:
        pytest.skip("source texts not found: quotes cannot be checked")
    quote = "Pagat.com gibt jedem Drilling 30,5 Punkte"
    path, text = _copy(tmp_path, "disagreements.yaml", lambda t: t.replace(quote, quote + "!", 1))
    _, errors = load_disagreements(path, load_bibliography(texts_dir=texts_dir))
    (error,) = errors
    assert error.line == _line(text, quote)
    assert error.path.endswith(".quote") and "not found verbatim" in error.message


def test_a_scenario_without_its_question_breaks_the_schema(tmp_path: Path) -> None:
    path, text = _copy(
        tmp_path,
        "disagreements.yaml",
        lambda t: t.replace('        asks: "What are three sevens worth, and who loses?"\n', ""),
    )
    found, errors = load_disagreements(path)
    assert found is None and errors
    assert "asks" in errors[0].message
    assert errors[0].line == _line(text, "id: F01")


def test_a_decision_with_a_bad_number_is_reported(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "decisions.yaml", lambda t: t.replace("id: U05", "id: U5"))
    found, errors = load_decisions(path)
    assert found is None
    (error,) = errors
    assert error.line == _line(text, "id: U5,")
    assert "U and two digits" in error.message


def test_a_fixture_naming_an_unknown_scenario_fails_the_lint(
    catalog: Catalog, tmp_path: Path
) -> None:
    name = "round/thirty-one-by-a-swap"
    text = (FIXTURES / f"{name}.yaml").read_text(encoding="utf-8")
    target = tmp_path / f"{name}.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(
        text.replace("disagreement: F14", "disagreement: F99").replace("[U07]", "[U97]"),
        encoding="utf-8",
    )
    errors, _ = lint(catalog, tmp_path)
    messages = {e.line: e.message for e in errors}
    assert messages[_line(text, "disagreement: F14")] == (
        "F99 is not a scenario of spec/disagreements.yaml"
    )
    assert messages[_line(text, "default: [U07]")] == "U97 is not a decision of spec/decisions.yaml"


def test_the_scenarios_and_their_fixtures_agree(catalog: Catalog) -> None:
    """Every scenario is pinned by a fixture and shows only fixtures that pin it; a scenario
    left without its fixtures, or a shown fixture that pins another, is a lint error at the
    scenario's line in spec/disagreements.yaml."""
    fixtures, _ = load_fixtures()
    assert _scenarios(fixtures, catalog, whole=True) == []
    text = SHIPPED.read_text(encoding="utf-8")
    without = [f for f in fixtures if f.disagreement != "F05"]
    moved = [
        dataclasses.replace(f, disagreement="F07") if f.id == "showdown/three-sevens" else f
        for f in without
    ]
    errors = _scenarios(moved, catalog, whole=True)
    found = {(e.line, e.message) for e in errors}
    assert (
        _line(text, "id: F05"),
        "no fixture pins F05 (none names it as its 'disagreement')",
    ) in found
    assert (
        _line(text, "shows: [showdown/three-sevens]"),
        "showdown/three-sevens pins F07, not F01",
    ) in found
    assert all(e.file == "spec/disagreements.yaml" for e in errors)


def test_the_page_runs_the_engine_and_refuses_to_contradict_a_fixture(catalog: Catalog) -> None:
    """Each ruleset's outcome comes from the engine; an engine whose answer differs from a
    fixture's case (here: the losses moved to another seat) is a problem for the build."""
    from schwimmen.conformance.outcomes import answers
    from schwimmen.docsgen.context import build_context
    from schwimmen.engine.adapter import run_case

    site = build_context(catalog)
    rulesets = [*site.rulesets.values(), *site.with_house_rule.values()]
    fixtures, _ = load_fixtures()
    fixture = next(f for f in fixtures if f.id == "showdown/three-sevens")
    found, problems = answers(fixture, rulesets, run_case)
    assert problems == []
    assert {a.name for a in found} == {r.id for r in rulesets}
    for answer in found:
        case = fixture.applicable_case(catalog.resolve(answer.name))
        if case is not None and "losses" in case.expect:
            assert answer.pinned and answer.outcome is not None
            assert answer.outcome["losses"] == case.expect["losses"], answer.name

    def wrong(request: Mapping[str, Any]) -> Mapping[str, Any]:
        reply = run_case(request)
        outcome = dict(reply["outcome"])
        outcome["losses"] = {"P3": 1}
        return {**reply, "outcome": outcome}

    _, problems = answers(fixture, rulesets, wrong)
    assert problems and all("differs from case" in p for p in problems)


def test_the_outcome_tables_name_rulesets_as_players_know_them(catalog: Catalog) -> None:
    """An outcome table names each ruleset by the comparison's name for it and each house
    rule by its title, in the page's language, with the id only as the link's tooltip; two
    house rules of one title are told apart by their rulesets' names."""
    import html
    import re

    from schwimmen.conformance.outcomes import answers, grouped
    from schwimmen.conformance.plan import house_rule_of
    from schwimmen.docsgen import disagreements as page
    from schwimmen.docsgen.context import build_context
    from schwimmen.docsgen.site import player_names
    from schwimmen.docsgen.templates import render
    from schwimmen.engine.adapter import run_case
    from schwimmen.spec.glance import load_glance

    site = build_context(catalog)
    rulesets = [*site.rulesets.values(), *site.with_house_rule.values()]
    glance = load_glance()
    names = page.distinct(player_names(catalog, glance, [r.id for r in rulesets]))
    fixtures, _ = load_fixtures()
    fixture = next(f for f in fixtures if f.id == "showdown/three-sevens")
    found, _ = answers(fixture, rulesets, run_case)
    origins = {r.id: r.id.split("+", 1)[0] for r in site.with_house_rule.values()}
    shown = page.Shown(fixture, tuple(grouped(found, origins)))
    data, _ = load_disagreements(bibliography=catalog.bibliography)
    for language in ("en", "de"):
        table = render(
            "dis-names.html",
            language,
            groups=shown.groups,
            words=data.words(language),
            shown_names=names,
            house_rule_of=house_rule_of,
        )
        links = {
            tip: html.unescape(text)
            for tip, text in re.findall(r'<a href="[^"]+" title="([^"]+)">([^<]+)</a>', table)
        }
        assert {a.name for g in shown.groups for a in g.answers} == set(links), language
        assert set(site.rulesets) <= set(links), language
        for rid in site.rulesets:
            assert links[rid] == glance.name(rid, language), (rid, language)
        for hid, sf in site.house_rules.items():
            composed = site.with_house_rule[hid].id
            if composed in links:
                assert links[composed].startswith(sf.title_and_summary(language)[0]), composed
        assert len(set(links.values())) == len(links), f"two rows read alike in {language}"
