"""The build keeps its slow results by the content they were made from
(:mod:`schwimmen.docsgen.memo`): the same inputs give the kept value, changed ones a new
one."""

from __future__ import annotations

from pathlib import Path

import pytest

from schwimmen.docsgen import calculator, memo, statistics
from schwimmen.engine.hands import evaluator_for
from schwimmen.spec.cache import CACHE_DIR_ENV
from schwimmen.spec.loader import Catalog


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
    assert first.values and len(first.hands) == 4960
    monkeypatch.setattr(calculator, "build_table", _refuse)
    again = calculator.kept_table(evaluator)
    assert (again.values, again.hands) == (first.values, first.hands)
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
