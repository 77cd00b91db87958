"""The variant finder's check, kept by ``validate`` between runs (``cache.checked_finder``):
an unchanged finder is not checked again, and an edit to it is seen by the next run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from schwimmen.cli.main import main
from schwimmen.resources import spec_dir
from schwimmen.spec import cache, validate
from schwimmen.spec import finder as finder_module

FINDER = spec_dir().parent / "docs" / "data" / "finder.yaml"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(folder))
    monkeypatch.delenv(cache.NO_CACHE_ENV, raising=False)
    return folder


def _validate(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    monkeypatch.setattr(validate, "spec_dir", lambda: scratch)
    code = main(["validate", "--no-quotes", str(scratch / "rulesets" / "pagat.yaml")])
    return code, capsys.readouterr().out


def _finder_beside(scratch: Path) -> Path:
    path = scratch.parent / "docs" / "data" / "finder.yaml"
    path.parent.mkdir(parents=True)
    shutil.copy(FINDER, path)
    return path


def test_an_unchanged_finder_is_not_checked_again(
    cache_dir: Path,
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _finder_beside(scratch)
    assert _validate(scratch, monkeypatch, capsys)[0] == 0
    assert len(list(cache_dir.glob("finder-*.pickle"))) == 1

    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("the finder was checked again although it is unchanged")

    monkeypatch.setattr(finder_module, "load_finder", refuse)
    code, out = _validate(scratch, monkeypatch, capsys)
    assert code == 0, out


def test_an_edited_finder_is_checked_afresh(
    cache_dir: Path,
    scratch: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _finder_beside(scratch)
    assert _validate(scratch, monkeypatch, capsys)[0] == 0
    good = path.read_text(encoding="utf-8")
    lines = good.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "values:") + 1
    lines[at] = f"{lines[at].split(':')[0]}: no-such-value"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = _validate(scratch, monkeypatch, capsys)
    assert code == 1
    assert f"docs/data/finder.yaml:{at + 1}:" in out, out
    path.write_text(good, encoding="utf-8")
    assert _validate(scratch, monkeypatch, capsys)[0] == 0
