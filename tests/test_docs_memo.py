"""The build keeps its slow results by the content they were made from
(:mod:`schwimmen.docsgen.memo`): the same inputs give the kept value, changed ones a new
one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from schwimmen.conformance.fixtures import Fixture
from schwimmen.docsgen import calculator, disagreements, memo, statistics
from schwimmen.engine.hands import evaluator_for
from schwimmen.spec.cache import CACHE_DIR_ENV
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_ENV, str(folder))
    monkeypatch.delenv("SCHWIMMEN_NO_CACHE", raising=False)
    return folder


def _refuse(*_: object, **__: object) -> None:
    raise AssertionError("computed again although nothing it depends on changed")


def test_a_calculator_table_is_kept_by_its_way_of_scoring(
    cache: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    evaluator = evaluator_for(catalog.resolve("pagat").rules)
    first = calculator.kept_table(evaluator)
    assert first.values and len(first.encoded) == 4960 * first.width
    monkeypatch.setattr(calculator, "build_table", _refuse)
    again = calculator.kept_table(evaluator)
    assert (again.values, again.encoded) == (first.values, first.encoded)
    other = evaluator_for(catalog.resolve("tri-palki").rules)
    with pytest.raises(AssertionError, match="computed again"):
        calculator.kept_table(other)


def test_the_statistics_are_kept_by_the_rulesets_values(
    cache: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    rulesets = {"pagat": catalog.resolve("pagat")}
    first = statistics.simulate_rulesets(rulesets, matches=3, sample=3)
    monkeypatch.setattr(statistics, "simulate", _refuse)
    assert statistics.simulate_rulesets(rulesets, matches=3, sample=3) == first
    with pytest.raises(AssertionError, match="computed again"):
        statistics.simulate_rulesets(rulesets, matches=4, sample=3)
    with pytest.raises(AssertionError, match="computed again"):
        statistics.simulate_rulesets({"dutch": catalog.resolve("dutch")}, matches=3, sample=3)


def test_the_engines_answers_to_a_shown_position_are_kept_by_the_rulesets_values(
    cache: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from schwimmen.conformance.fixtures import load_fixtures
    from schwimmen.engine.adapter import run_case

    fixtures, _ = load_fixtures()
    fixture = next(f for f in fixtures if f.id == "round/thirty-one-by-a-swap")
    rulesets = [catalog.resolve("pagat"), catalog.resolve("dutch")]

    def values(of: list[Ruleset]) -> bytes:
        return b"".join(r.id.encode() + memo.settings_of(r) for r in of)

    first = disagreements._answers(fixture, rulesets, run_case, values(rulesets))
    assert [a.name for a in first[0]] == ["pagat", "dutch"]
    monkeypatch.setattr(disagreements, "engine_answer", _refuse)
    assert disagreements._answers(fixture, rulesets, run_case, values(rulesets)) == first
    other = [catalog.resolve("pagat"), catalog.resolve("scat")]
    with pytest.raises(AssertionError, match="computed again"):
        disagreements._answers(fixture, other, run_case, values(other))


def test_a_changed_ruleset_asks_the_engine_again_under_that_ruleset_only(
    cache: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mkdocs serve`` after an edit of one ruleset: the answers under the others are
    remembered one by one (also when the last build found them in the cache)."""
    from schwimmen.conformance.fixtures import load_fixtures
    from schwimmen.conformance.outcomes import answer
    from schwimmen.engine.adapter import run_case

    fixtures, _ = load_fixtures()
    fixture = next(f for f in fixtures if f.id == "round/thirty-one-by-a-swap")
    rulesets = [catalog.resolve("pagat"), catalog.resolve("dutch")]
    settings = b"".join(memo.settings_of(r) for r in rulesets)
    first, _ = disagreements._answers(fixture, rulesets, run_case, settings)
    # a new process: the answers are in the cache folder only
    monkeypatch.setattr(disagreements, "_ANSWERS", {})
    assert disagreements._answers(fixture, rulesets, run_case, settings)[0] == first
    asked: list[str] = []

    def recorded(fixture: Fixture, ruleset: Ruleset, engine: Any) -> Any:
        asked.append(ruleset.id)
        return answer(fixture, ruleset, engine)

    monkeypatch.setattr(disagreements, "engine_answer", recorded)
    other = [catalog.resolve("pagat"), catalog.resolve("scat")]
    again, _ = disagreements._answers(fixture, other, run_case, b"another set of rulesets")
    assert asked == ["scat"]
    assert again[0] == first[0] and again[1] == answer(fixture, other[1], run_case)[0]


def test_the_last_site_is_remembered_while_its_files_are_unchanged(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("a: 1\n", encoding="utf-8")
    made: list[int] = []

    def make() -> list[int]:
        made.append(len(made))
        return list(made)

    key = memo.digest([tmp_path])
    first = memo.remembered("test", key, make)
    assert memo.remembered("test", memo.digest([tmp_path]), make) is first
    (tmp_path / "a.yaml").write_text("a: 2\n", encoding="utf-8")
    changed = memo.digest([tmp_path])
    assert changed != key
    assert memo.remembered("test", changed, make) is not first
    assert made == [0, 1]
    (tmp_path / "b.yaml").write_text("", encoding="utf-8")
    assert memo.digest([tmp_path]) != changed
