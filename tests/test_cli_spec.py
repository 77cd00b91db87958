"""The spec commands: list, show, diff, validate, with text and JSON output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from test_errors import HOUSE

from schwimmen.cli import main as cli_main
from schwimmen.cli.main import main
from schwimmen.resources import sources_dir, spec_dir
from schwimmen.spec import validate
from schwimmen.spec.loader import Catalog


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_list_names_every_ruleset_and_house_rule(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["list", "--format", "json"], capsys)
    assert code == 0
    entries = json.loads(out)
    assert {e["id"] for e in entries} == set(catalog.rulesets) | set(catalog.house_rules)
    code, text, _ = run(["list"], capsys)
    assert code == 0
    for rid in catalog.rulesets:
        assert rid in text


@pytest.mark.parametrize(
    "name",
    [
        "altenburg",
        "pagat",
        "dutch",
        "tri-palki",
        "forty-one",
        "hosa-aba",
        "rules-page",
        "beginner-guide",
        "online",
        "scat",
    ],
)
def test_show_every_ruleset(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["show", name], capsys)
    assert code == 0
    assert "CITED" in out and "DEFAULT" in out
    code, out, _ = run(["show", name, "--format", "json"], capsys)
    data = json.loads(out)
    assert data["id"] == name
    kinds = {p["provenance"]["kind"] for p in data["parameters"].values()}
    assert kinds <= {"cited", "interpreted", "default"}


@pytest.mark.slow
def test_show_every_house_rule_on_its_origin(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    for hid, sf in catalog.house_rules.items():
        code, out, err = run(["show", f"{sf.data['origin']}+{hid}", "--format", "json"], capsys)
        assert code == 0, err
        data = json.loads(out)
        assert any(p["set_by"] == hid for p in data["parameters"].values())


def test_show_marks_inheritance_and_house_rules(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["show", "dutch"], capsys)
    assert "inherited from pagat" in out
    _, out, _ = run(["show", "pagat+knocker-loses-two"], capsys)
    assert "set by house rule knocker-loses-two" in out


def test_diff_altenburg_pagat_shows_the_disagreements_with_quotes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    code, out, _ = run(["diff", "altenburg", "pagat", "--format", "json"], capsys)
    assert code == 0
    diff = {d["parameter"]: d for d in json.loads(out)["differences"]}
    for param in (
        "triples.ranks",
        "three_aces.kind",
        "dealing.procedure",
        "knocking.form",
        "turns.passing",
        "comparison.suit_order",
    ):
        assert param in diff, param
        for side in ("a", "b"):
            assert diff[param][side]["provenance"]["kind"] in ("cited", "interpreted", "default")
    for param in ("three_aces.kind", "dealing.procedure", "turns.passing"):
        for side in ("a", "b"):
            assert diff[param][side]["provenance"].get("quotes"), (param, side)
    code, text, _ = run(["diff", "altenburg", "pagat"], capsys)
    assert code == 0 and "Altenburg zählt als 31 auch drei Asse" in text


@pytest.mark.parametrize(
    ("house_rule", "expected"),
    [
        ("loser-deals", {"match.dealer_rotation": ("clockwise", "loser")}),
        ("nobody-wins-when-all-go-out", {"match.everyone_out": ("replay-round", "no-winner")}),
        (
            "thirty-one-on-own-move",
            {
                "maximum.at_deal": ("must-show", "on-own-move"),
                "maximum.penalty_at_deal": ({"kind": "showdown"}, None),
            },
        ),
        (
            "feuer-on-own-move",
            {
                "three_aces.at_deal": ("must-show", "on-own-move"),
                "three_aces.penalty_at_deal": ({"kind": "all-others", "lives": 1}, None),
            },
        ),
    ],
)
def test_diff_and_show_give_the_values_engines_in_the_wild_play(
    house_rule: str,
    expected: dict[str, tuple[object, object]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    name = f"pagat+{house_rule}"
    code, out, _ = run(["diff", "pagat", name, "--format", "json"], capsys)
    assert code == 0
    diff = {d["parameter"]: d for d in json.loads(out)["differences"]}
    assert set(diff) == set(expected)
    for param, (before, after) in expected.items():
        assert diff[param]["a"]["value"] == before
        if after is None:
            assert diff[param]["b"] is None or "value" not in diff[param]["b"], param
            continue
        assert diff[param]["b"]["value"] == after
        assert diff[param]["b"]["provenance"]["kind"] == "default"
        assert diff[param]["b"]["set_by"] == house_rule
    code, text, _ = run(["diff", "pagat", name], capsys)
    assert code == 0
    for _, after in expected.values():
        if isinstance(after, str):
            assert after in text
    code, out, _ = run(["show", name, "--format", "json"], capsys)
    assert code == 0
    shown = json.loads(out)["parameters"]
    for param, (_, after) in expected.items():
        if after is None:
            assert param not in shown
        else:
            assert shown[param]["value"] == after
    code, text, _ = run(["show", name], capsys)
    assert code == 0 and "Played by engines in the wild" in text


def test_diff_of_identical_rulesets_is_empty(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["diff", "pagat", "pagat", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["differences"] == []


def test_show_unknown_ruleset_fails_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["show", "pagat+no-such-rule"], capsys)
    assert code == 1 and "unknown house rule 'no-such-rule'" in err


def _quotes(texts_dir: Path | None) -> list[str]:
    """No options where the source texts are found; ``--no-quotes`` where they are not,
    lest the quotes that cannot be checked fail a test about something else."""
    return [] if texts_dir is not None else ["--no-quotes"]


def test_validate_the_shipped_spec(
    texts_dir: Path | None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["validate", *_quotes(texts_dir), str(spec_dir())], capsys)
    assert code == 0
    assert out.strip().splitlines()[-1].startswith("OK:")


def test_show_a_missing_house_rule_file_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["show", "pagat+./missing.yaml"], capsys)
    assert code == 1
    assert err.strip().endswith("no such file: ./missing.yaml"), err
    assert "unknown house rule" not in err


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "pagat+knocker-lose-two",
            "unknown house rule 'knocker-lose-two' "
            "(did you mean 'knocker-loses-two' or 'knocker-tied-loses-one'?)",
        ),
        ("pagatt", "unknown ruleset 'pagatt' (did you mean 'pagat'?)"),
    ],
)
def test_show_suggests_a_close_name(
    name: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["show", name], capsys)
    assert code == 1
    assert err.strip().endswith(expected), err


def _validate_in(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *paths: Path
) -> tuple[int, str, str]:
    """``schwimmen validate`` with ``scratch`` standing in for the project's ``spec/``."""
    monkeypatch.setattr(validate, "spec_dir", lambda: scratch)
    return run(["validate", *_quotes(sources_dir()), *map(str, paths)], capsys)


def test_validate_checks_a_file_under_spec_the_catalog_does_not_load(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = scratch / "junk.yaml"
    junk.write_text("foo: 1\n", encoding="utf-8")
    for target in (junk, scratch):
        code, out, _ = _validate_in(scratch, monkeypatch, capsys, target)
        assert code == 1
        assert f"{junk}:1:1: $: not a ruleset, house rule, bibliography, decisions," in out
        assert "OK" not in out


def test_validate_refuses_a_german_text_in_words_its_source_does_not_use(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The glossary's ``avoid`` check, which the site's build runs, is run by ``validate``
    too, so that a writer learns of it before building the site; its cached answer goes
    with the edit that makes or mends the word."""
    path = scratch / "rulesets" / "pagat.yaml"
    good = path.read_text(encoding="utf-8")
    text = "reading: Ein Skatblatt mit 32 Karten"
    assert good.count(text) == 1
    path.write_text(good.replace(text, "reading: Der Klopfer nimmt ein Skatblatt"), "utf-8")
    for _ in range(2):  # the second answer comes from the cache
        code, out, _ = _validate_in(scratch, monkeypatch, capsys, path)
        assert code == 1 and "OK" not in out
        line = good[: good.index(text)].count("\n") + 1
        assert f"rulesets/pagat.yaml:{line}:" in out
        assert "„Klopfer“ where the source says „schließen“" in out
    path.write_text(good, "utf-8")
    code, out, _ = _validate_in(scratch, monkeypatch, capsys, path)
    assert code == 0 and out.strip().splitlines()[-1].startswith("OK:")


def test_validate_checks_a_words_file_against_its_schema(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The widgets' words files (spec/widgets/) pass as they are shipped; a word without its
    German form is named with file and line."""
    words = scratch / "widgets" / "calculator.yaml"
    code, out, _ = _validate_in(scratch, monkeypatch, capsys, words)
    assert code == 0, out
    text = words.read_text(encoding="utf-8")
    lines = text.splitlines()
    german = next(i for i, line in enumerate(lines) if line.strip().startswith("de:"))
    del lines[german]
    words.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = _validate_in(scratch, monkeypatch, capsys, scratch)
    assert code == 1
    # named at the word's key, two lines above its German form (0-based ``german``)
    assert f"{words}:{german - 1}:" in out and "'de'" in out, out


def test_validate_checks_a_yml_file_in_a_catalog_folder_as_that_folder_says(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``spec/rulesets/*.yml`` is not loaded by the catalog (it globs ``*.yaml``)."""
    text = (scratch / "house-rules" / "no-triples.yaml").read_text(encoding="utf-8")
    extra = scratch / "rulesets" / "no-triples.yml"
    extra.write_text(text, encoding="utf-8")
    code, out, _ = _validate_in(scratch, monkeypatch, capsys, extra)
    assert code == 1
    assert "files in this folder must be of kind 'ruleset'" in out


def test_validate_still_passes_a_catalog_file(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _validate_in(scratch, monkeypatch, capsys, scratch / "rulesets" / "pagat.yaml")
    assert code == 0
    assert out.strip().splitlines()[-1].startswith("OK: 1 file(s) valid")


def test_validate_an_empty_folder_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README.txt").write_text("not yaml\n", encoding="utf-8")
    code, out, err = run(["validate", str(empty)], capsys)
    assert code == 1
    assert f"{empty}:1:1: $: no .yaml or .yml files in this folder" in out
    assert "OK" not in out and "1 error(s) in 0 file(s)" in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_validate_and_show_refuse_a_fifo_at_once(tmp_path: Path) -> None:
    """Run as a process with a timeout: a regression would block on open(), not fail."""
    fifo = tmp_path / "rule.yaml"
    os.mkfifo(fifo)
    for args, code in ((["validate", str(fifo)], 1), (["show", f"pagat+{fifo}"], 1)):
        done = subprocess.run(
            [sys.executable, "-m", "schwimmen", *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == code, done.stderr
        assert f"{fifo}:1:1: $: cannot read: not a regular file" in done.stdout + done.stderr
        assert "Traceback" not in done.stderr


def test_validate_a_huge_number_is_located_not_a_traceback(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    for digits in ("9" * 5000, "0x" + "f" * 5000):
        path = write("big/my-rule.yaml", HOUSE.replace("value: 2", f"value: {digits}"))
        code, out, err = run(["validate", str(path)], capsys)
        assert code == 1
        assert f"{path}:8:14: $.rules.penalties.knocker_lowest.value: number too large" in out
        assert "Traceback" not in err


EVIL = (
    HOUSE.replace("id: my-rule", "id: evil")
    .replace("title: My house rule", 'title: "Evil \\e]0;pwned\\a rule \\e[2J"')
    .replace("why: we like it", 'why: "we \\x7f like \\x9b2J it"')
)


def _no_control_characters(text: str) -> None:
    assert not any(c in text for c in "\x1b\x07\x7f\x9b"), repr(text)


def test_show_and_diff_neutralise_control_characters_from_a_file(
    write: Callable[[str, str], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    path = write("evil.yaml", EVIL)
    code, out, _ = run(["show", f"pagat+{path}"], capsys)
    assert code == 0
    _no_control_characters(out)
    assert "Evil \\u001b]0;pwned rule \\u001b[2J" in out
    assert "we \\u007f like \\u009b2J it" in out
    code, out, _ = run(["show", f"pagat+{path}", "--format", "json"], capsys)
    assert code == 0
    _no_control_characters(out)
    data = json.loads(out)
    assert data["title"].endswith("Evil \x1b]0;pwned\x07 rule \x1b[2J"), "JSON keeps the data"
    code, out, _ = run(["diff", "pagat", f"pagat+{path}"], capsys)
    assert code == 0
    _no_control_characters(out)
    assert "we \\u007f like \\u009b2J it" in out


def test_list_neutralises_control_characters_from_a_file(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    (scratch / "house-rules" / "evil.yaml").write_text(EVIL, encoding="utf-8")
    monkeypatch.setattr(cli_main, "_catalog", lambda: Catalog.load(scratch))
    code, out, _ = run(["list"], capsys)
    assert code == 0
    _no_control_characters(out)
    assert "Evil \\u001b]0;pwned rule \\u001b[2J" in out


def test_error_messages_neutralise_control_characters_from_a_file(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("evil\x1b[2J.yaml", EVIL)
    code, out, _ = run(["validate", str(path)], capsys)
    assert code == 1
    _no_control_characters(out)
    assert "evil\\u001b[2J.yaml:1:5: $.id: id 'evil' does not match the file name" in out


def test_serve_help_says_what_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "reference engine" in text
    assert "conformance/PROTOCOL.md" in text and "stdin" in text and "stdout" in text
    assert "claims any ruleset" in text
