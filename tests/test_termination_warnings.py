"""What the search over small positions suspects but cannot prove is a warning, not an
error: a composition under which no round the search looked at ended (though the base and
each change alone end rounds) loads and plays, and ``validate`` and ``show`` say so with
the file, the line, both parameters and the evidence, exit 0, and ``validate --strict``
fails. The wording is a suspicion's ("this may never end"), never a finding's."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from schwimmen.cli.main import main
from schwimmen.engine.reachability import BUDGET
from schwimmen.resources import spec_dir
from schwimmen.spec import termination
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.validate import validate_paths


def _suspect() -> termination.Suspect:
    table = termination.suspects()
    assert table, "spec/contradictions.yaml suspects nothing"
    return table[0]


def _house_rule(suspect: termination.Suspect) -> tuple[str, dict[str, int]]:
    """A house rule on the suspect's base making its changes, and the line of each value."""
    lines = [
        "id: suspected-rule",
        "kind: house-rule",
        "title: A suspected composition",
        f"origin: {suspect.base}",
        "rules:",
    ]
    at: dict[str, int] = {}
    group = None
    for path, value in suspect.changes:
        head, name = path.split(".", 1)
        if head != group:
            lines.append(f"  {head}:")
            group = head
        lines.append(f"    {name}:")
        at[path] = len(lines) + 1
        lines += [f"      value: {json.dumps(value)}", "      default:", "        why: test"]
    return "\n".join(lines) + "\n", at


def test_a_suspect_matches_its_changes_and_says_it_is_a_suspicion() -> None:
    suspect = termination.Suspect(
        "forty-one",
        (("knocking.requires", "maximum"), ("turns.passing", "forbidden")),
        (),
        positions=240,
        checked=40,
        searched=1,
        budget=BUDGET,
    )
    base = {"knocking.requires": "nothing", "turns.passing": "free"}
    made = {"knocking.requires": "maximum", "turns.passing": "forbidden"}
    assert suspect.matches("forty-one", base, made)
    assert not suspect.matches("online", base, made)
    assert not suspect.matches("forty-one", base, {**made, "turns.passing": "free"})
    text = suspect.message(base)
    assert "knocking.requires maximum and turns.passing forbidden" in text
    assert "no round ended in 240 positions searched" in text
    assert f"up to {BUDGET:,} positions" in text
    assert "may never end" in text and "not a proof" in text
    assert suspect.parameters == ("knocking.requires", "turns.passing")


def test_the_table_writes_what_it_reads() -> None:
    suspect = _suspect()
    data = suspect.to_data()
    written = yaml.safe_load((spec_dir() / termination.FILE).read_text(encoding="utf-8"))
    assert written["search"]["budget"] == suspect.budget
    assert data in written["suspected"]


def test_a_suspected_composition_loads_with_a_warning_at_its_value(
    catalog: Catalog, tmp_path: Path
) -> None:
    suspect = _suspect()
    text, at = _house_rule(suspect)
    path = tmp_path / "suspected-rule.yaml"
    path.write_text(text, encoding="utf-8")
    report = validate_paths([path], Catalog.load())
    assert report.ok, report.errors
    assert len(report.warnings) == 1
    warning = report.warnings[0]
    first = suspect.changes[0][0]
    assert warning.file == str(path) and warning.line == at[first]
    assert set(suspect.parameters) <= set(warning.parameters)
    for param in suspect.parameters:
        assert param in warning.message
    assert "warning:" in str(warning) and str(warning).startswith(f"{path}:{at[first]}:")
    # the same composition as changes on the base carries it too, named by the changes
    ruleset = catalog.mutant(suspect.base, dict(suspect.changes))
    assert [w.message for w in ruleset.warnings] == [warning.message]
    assert ruleset.warnings[0].file.startswith("<changes ")


def test_where_two_files_make_the_pair_the_warning_says_where_the_second_is_set(
    tmp_path: Path,
) -> None:
    suspect = next(s for s in termination.suspects() if len(s.changes) == 2)
    text, _ = _house_rule(suspect)
    head = text.split("rules:\n")[0]
    files = []
    for i, (path, value) in enumerate(suspect.changes):
        group, name = path.split(".", 1)
        body = head.replace("id: suspected-rule", f"id: suspected-part-{i}") + (
            f"rules:\n  {group}:\n    {name}:\n      value: {json.dumps(value)}\n"
            "      default:\n        why: test\n"
        )
        file = tmp_path / f"suspected-part-{i}.yaml"
        file.write_text(body, encoding="utf-8")
        files.append(file)
    ruleset = Catalog.load().resolve("+".join([suspect.base, *map(str, files)]))
    assert len(ruleset.warnings) == 1
    warning = ruleset.warnings[0]
    assert warning.file == str(files[0])
    second = suspect.changes[1][0]
    assert f"({second} is set at {files[1]}:" in warning.message


def test_validate_and_show_print_the_warning_and_exit_0_strict_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suspect = _suspect()
    text, at = _house_rule(suspect)
    path = tmp_path / "suspected-rule.yaml"
    path.write_text(text, encoding="utf-8")
    first = suspect.changes[0][0]

    assert main(["validate", "--no-quotes", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}:{at[first]}:" in out and "warning:" in out and "may never end" in out
    assert "OK: 1 file(s) valid" in out and "1 warning(s)" in out

    assert main(["validate", "--no-quotes", "--strict", str(path)]) == 1
    captured = capsys.readouterr()
    assert "may never end" in captured.out and "--strict" in captured.err
    assert "OK" not in captured.out

    name = f"{suspect.base}+{path}"
    assert main(["show", name]) == 0
    err = capsys.readouterr().err
    assert f"{path}:{at[first]}:" in err and all(p in err for p in suspect.parameters)

    assert main(["show", name, "--format", "json"]) == 0
    shown: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert [w["line"] for w in shown["warnings"]] == [at[first]]
    assert set(suspect.parameters) <= set(shown["warnings"][0]["parameters"])


def test_serve_play_prints_the_warning_to_stderr_and_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve --play`` plays a suspected composition, whether given as a house rule or as
    ``--set`` changes, and says so on stderr as ``show`` does; stdout stays the protocol's.
    A composition nobody suspects gets no such line."""
    suspect = _suspect()
    text, at = _house_rule(suspect)
    path = tmp_path / "suspected-rule.yaml"
    path.write_text(text, encoding="utf-8")
    first = suspect.changes[0][0]
    sets = [a for p, v in suspect.changes for a in ("--set", f"{p}={json.dumps(v)}")]

    def serve(*args: str) -> tuple[str, str]:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
        assert main(["serve", "--play", *args]) == 0
        captured = capsys.readouterr()
        return captured.out, captured.err

    out, err = serve(f"{suspect.base}+{path}")
    assert out == ""
    assert main(["show", f"{suspect.base}+{path}"]) == 0
    assert err == capsys.readouterr().err
    assert err.startswith(f"{path}:{at[first]}:") and "warning:" in err
    assert all(p in err for p in suspect.parameters) and "may never end" in err

    out, err = serve(suspect.base, *sets)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("<changes ") and "warning:" in lines[0]
    assert all(p in lines[0] for p in suspect.parameters)

    assert serve(suspect.base) == ("", "")


def test_a_refusal_stays_an_error() -> None:
    found = termination.findings()[0]
    with pytest.raises(SpecErrors):
        Catalog.load().mutant(found.base, dict(found.changes))


def test_no_ruleset_or_house_rule_of_the_default_run_is_warned_about(catalog: Catalog) -> None:
    assert catalog.check_all_warnings() == []
