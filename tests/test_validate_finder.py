"""``schwimmen validate spec`` checks the variant finder's questions (docs/data/finder.yaml)
with the catalog: its answers are rule values and go stale with the rules. A problem is
named with the file and the line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from schwimmen.cli.main import main
from schwimmen.resources import spec_dir
from schwimmen.spec import validate

FINDER = spec_dir().parent / "docs" / "data" / "finder.yaml"


def _validate(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], target: Path
) -> tuple[int, str]:
    monkeypatch.setattr(validate, "spec_dir", lambda: scratch)
    code = main(["validate", "--no-quotes", str(target)])
    return code, capsys.readouterr().out


def _broken_finder(scratch: Path) -> tuple[Path, int]:
    """A copy of the finder beside ``scratch`` whose first answer sets a value no
    ruleset may have; and the line of that value."""
    finder = scratch.parent / "docs" / "data" / "finder.yaml"
    finder.parent.mkdir(parents=True)
    shutil.copy(FINDER, finder)
    lines = finder.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "values:") + 1
    key = lines[at].split(":")[0]
    lines[at] = f"{key}: no-such-value"
    finder.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return finder, at + 1


def test_the_shipped_finder_is_valid(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _validate(scratch, monkeypatch, capsys, FINDER)
    assert code == 0, out


def test_validating_the_spec_checks_the_finder_beside_it(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, line = _broken_finder(scratch)
    code, out = _validate(scratch, monkeypatch, capsys, scratch)
    assert code == 1
    assert f"docs/data/finder.yaml:{line}:" in out, out
    assert "no-such-value" in out


def test_the_finder_named_alone_is_checked_as_the_finder(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    finder, line = _broken_finder(scratch)
    code, out = _validate(scratch, monkeypatch, capsys, finder)
    assert code == 1
    assert f"{finder}:{line}:" in out, out
    assert "not a ruleset" not in out
