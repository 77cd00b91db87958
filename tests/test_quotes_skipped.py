"""A quote check that could not happen is said plainly and fails, unless ``--no-quotes``
allows it; a file without quotes says nothing about source texts at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_errors import HOUSE

from schwimmen.cli.main import main
from schwimmen.resources import SOURCES_ENV, spec_dir
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Citation

CITED = HOUSE.replace(
    "      default:\n        why: we like it\n",
    "      cited:\n        - {source: s001, section: Leben, line: 23, quote: "
    '"Wer klopft und dann selbst die wenigsten Punkte hat"}\n',
)


@pytest.fixture
def no_texts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The source texts are looked for in an empty directory."""
    empty = tmp_path / "no-texts"
    empty.mkdir()
    monkeypatch.setenv(SOURCES_ENV, str(empty))
    return empty


@pytest.fixture
def with_texts(texts_dir: Path | None, monkeypatch: pytest.MonkeyPatch) -> Path:
    if texts_dir is None:
        pytest.skip("source texts not available")
    monkeypatch.setenv(SOURCES_ENV, str(texts_dir))
    return texts_dir


def _rule(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules" / "my-rule.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_file_without_quotes_says_nothing_about_texts(
    no_texts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _cli(["validate", str(_rule(tmp_path, HOUSE))], capsys)
    assert code == 0, err
    assert out.strip() == "OK: 1 file(s) valid"
    assert "NOT checked" not in err and "skipped" not in err, err


def test_unchecked_quotes_fail_validate_unless_no_quotes(
    no_texts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for target in (_rule(tmp_path, CITED), spec_dir()):
        code, out, err = _cli(["validate", str(target)], capsys)
        assert code == 1 and "OK" not in out
        assert "quotes of s001 were NOT checked" in err
        assert "quote check skipped:" in err and "--no-quotes" in err
        code, out, err = _cli(["validate", "--no-quotes", str(target)], capsys)
        assert code == 0, err
        assert out.startswith("OK: ") and "quote(s) NOT checked (--no-quotes)" in out


def test_validate_with_the_texts_checks_and_says_nothing_more(
    with_texts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _cli(["validate", str(_rule(tmp_path, CITED))], capsys)
    assert code == 0, err
    assert out.strip() == "OK: 1 file(s) valid" and not err
    wrong = CITED.replace("line: 23", "line: 22")
    code, out, _ = _cli(["validate", "--no-quotes", str(_rule(tmp_path, wrong))], capsys)
    assert code == 1, "--no-quotes still checks every quote it can"
    assert "quote stands on line 23 of s001, not on line 22" in out


@pytest.mark.slow
def test_lint_fails_when_it_could_not_check_the_quotes(
    no_texts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _cli(["conformance", "lint"], capsys)
    assert code == 1 and "lint clean" not in out
    assert "were NOT checked" in err and "quote check skipped:" in err
    code, out, err = _cli(["conformance", "lint", "--no-quotes"], capsys)
    assert code == 0, err
    assert "lint clean;" in out and "quote(s) NOT checked (--no-quotes)" in out


@pytest.mark.slow
def test_lint_with_the_texts_passes_clean(
    with_texts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _cli(["conformance", "lint"], capsys)
    assert code == 0, err
    assert out.strip().endswith("fixtures lint clean") and "NOT checked" not in err


def test_notices_and_counts_cover_only_the_quotes_looked_up_since_a_mark(
    tmp_path: Path,
) -> None:
    bibliography = Catalog.load(spec_dir(), tmp_path).bibliography
    mark = bibliography.quotes_looked_up
    assert mark > 0 and bibliography.unchecked_since(0) == mark
    assert bibliography.notices_since(mark) == [] and bibliography.unchecked_since(mark) == 0
    quote = Citation(source="s001", section="Leben", quote="Wer klopft", line=None)
    assert bibliography.check_quote(quote) is None, "no text: nothing to hold against it"
    assert bibliography.unchecked_since(mark) == 1
    assert [str(n) for n in bibliography.notices_since(mark)] == [
        f"note: {tmp_path / bibliography.sources['s001'].file} not found: "
        "quotes of s001 were NOT checked"
    ]
