"""The cached catalog (``schwimmen.spec.cache``): the same answers as a fresh load, never
stale after an edit, and a broken or foreign cache is ignored, never trusted."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from schwimmen.cli.main import main
from schwimmen.resources import sources_dir
from schwimmen.spec import cache
from schwimmen.spec.loader import Catalog

RULE = "spec/house-rules/knocker-loses-two.yaml"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(folder))
    monkeypatch.delenv(cache.NO_CACHE_ENV, raising=False)
    return folder


def _pickles(folder: Path) -> list[Path]:
    return sorted(folder.glob("catalog-*.pickle"))


def _no_load(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> Catalog:
        raise AssertionError("the catalog was loaded although the cache holds it")

    monkeypatch.setattr(Catalog, "load", classmethod(refuse))


def _key(root: Path) -> str:
    return cache.catalog_key(root, sources_dir())


def _knocker_lowest(catalog: Catalog) -> object:
    return catalog.resolve("rules-page+knocker-loses-two").value("penalties.knocker_lowest")


def test_a_cached_catalog_resolves_every_name_as_a_fresh_load(
    cache_dir: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = Catalog.load(scratch)
    cache.cached_catalog(scratch)
    assert len(_pickles(cache_dir)) == 1
    _no_load(monkeypatch)
    again = cache.cached_catalog(scratch)
    assert again.names() == fresh.names()
    assert again.file_errors == fresh.file_errors
    assert again.bibliography.quotes_looked_up == fresh.bibliography.quotes_looked_up
    for name in fresh.standard_names():
        assert again.resolve(name) == fresh.resolve(name), name


def test_an_edited_house_rule_is_seen_by_the_next_load(
    cache_dir: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _knocker_lowest(cache.cached_catalog(scratch)) == 2
    path = scratch / "house-rules" / "knocker-loses-two.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("value: 2", "value: 3"), "utf-8")
    assert _knocker_lowest(cache.cached_catalog(scratch)) == 3
    assert len(_pickles(cache_dir)) == 2
    _no_load(monkeypatch)
    assert _knocker_lowest(cache.cached_catalog(scratch)) == 3


def test_a_broken_edit_is_reported_not_hidden_by_the_cache(cache_dir: Path, scratch: Path) -> None:
    assert not cache.cached_catalog(scratch).file_errors
    path = scratch / "house-rules" / "knocker-loses-two.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("value: 2", "value: two"), "utf-8")
    errors = cache.cached_catalog(scratch).file_errors
    assert errors and "knocker-loses-two.yaml" in errors[0].file
    assert cache.cached_catalog(scratch).file_errors == errors


def test_a_new_file_or_another_source_text_is_another_key(scratch: Path, tmp_path: Path) -> None:
    key = cache.catalog_key(scratch, None)
    assert cache.catalog_key(scratch, None) == key
    texts = tmp_path / "texts"
    texts.mkdir()
    assert cache.catalog_key(scratch, texts) != key
    with_text = cache.catalog_key(scratch, texts)
    (texts / "000.txt").write_text("Schwimmen", encoding="utf-8")
    assert cache.catalog_key(scratch, texts) != with_text
    copy = scratch / "house-rules" / "my-rule.yaml"
    copy.write_bytes((scratch / "house-rules" / "no-triples.yaml").read_bytes())
    assert cache.catalog_key(scratch, None) != key


def test_the_command_line_sees_an_edit_at_once(
    cache_dir: Path,
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(cache, "spec_dir", lambda: scratch)

    def shown() -> object:
        assert main(["show", "rules-page+knocker-loses-two", "--format", "json"]) == 0
        data = json.loads(capsys.readouterr().out)
        return data["parameters"]["penalties.knocker_lowest"]["value"]

    assert shown() == 2
    assert shown() == 2
    path = scratch / "house-rules" / "knocker-loses-two.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("value: 2", "value: 4"), "utf-8")
    assert shown() == 4


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: data[: len(data) // 2],
        lambda data: data[:-40] + b"\x00" * 40,
        lambda data: data.replace(b"catalog-cache", b"catalog-cachX", 1),
    ],
    ids=["empty", "truncated", "overwritten", "other-format"],
)
def test_a_corrupt_cache_is_ignored_and_rebuilt(
    cache_dir: Path, scratch: Path, damage: object
) -> None:
    expected = _knocker_lowest(cache.cached_catalog(scratch))
    (path,) = _pickles(cache_dir)
    assert callable(damage)
    path.write_bytes(damage(path.read_bytes()))
    assert _knocker_lowest(cache.cached_catalog(scratch)) == expected
    assert cache._read(path, _key(scratch)) is not None


def test_a_folder_others_may_write_to_is_not_trusted(cache_dir: Path, scratch: Path) -> None:
    if not hasattr(os, "getuid"):
        pytest.skip("POSIX permissions")
    cache.cached_catalog(scratch)
    (path,) = _pickles(cache_dir)
    key = _key(scratch)
    assert cache._read(path, key) is not None
    cache_dir.chmod(0o777)
    assert cache._read(path, key) is None
    cache_dir.chmod(0o700)


def test_the_cache_can_be_turned_off(
    cache_dir: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
    assert cache.cache_dir() is None
    assert _knocker_lowest(cache.cached_catalog(scratch)) == 2
    assert not cache_dir.exists()


def test_a_cache_folder_that_cannot_be_made_costs_only_time(
    tmp_path: Path, scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(blocker / "cache"))
    assert _knocker_lowest(cache.cached_catalog(scratch)) == 2


def test_old_entries_are_pruned(cache_dir: Path, scratch: Path) -> None:
    cache_dir.mkdir(mode=0o700)
    for i in range(cache.KEEP + 3):
        old = cache_dir / f"catalog-{i:064x}.pickle"
        old.write_bytes(b"old")
        os.utime(old, (1000 + i, 1000 + i))
    cache.cached_catalog(scratch)
    kept = _pickles(cache_dir)
    assert len(kept) == cache.KEEP
    assert cache_dir / f"catalog-{0:064x}.pickle" not in kept
    assert any(_key(scratch) in p.name for p in kept)


def test_commands_writing_at_once_leave_one_whole_entry(cache_dir: Path) -> None:
    """Each writer writes a temporary file and renames it: a reader sees a whole entry or
    none, and no temporary file stays behind."""
    import threading

    start = threading.Barrier(8)
    results: list[object] = []

    def build() -> dict[str, list[int]]:
        start.wait()
        return {"numbers": list(range(50_000))}

    def one() -> None:
        results.append(cache.cached("race", lambda: [("a", b"same")], build, dict))

    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [{"numbers": list(range(50_000))}] * 8
    assert len(list(cache_dir.glob("race-*.pickle"))) == 1
    assert not list(cache_dir.glob(".*.tmp"))
    assert cache.cached("race", lambda: [("a", b"same")], dict, dict) == results[0]


def test_an_input_edited_while_building_is_not_cached(cache_dir: Path) -> None:
    versions = iter([b"before", b"after", b"after", b"after"])
    built: list[int] = []

    def inputs() -> list[tuple[str, bytes]]:
        return [("file", next(versions))]

    def build() -> dict[str, int]:
        built.append(1)
        return {"n": len(built)}

    assert cache.cached("edited", inputs, build, dict) == {"n": 1}
    assert not list(cache_dir.glob("edited-*.pickle"))
    assert cache.cached("edited", inputs, build, dict) == {"n": 2}
    assert len(list(cache_dir.glob("edited-*.pickle"))) == 1
