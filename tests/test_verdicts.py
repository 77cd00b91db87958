"""No green that was not earned: what counts as judged, what a missing field means, and
the files and arguments of ``schwimmen conformance``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from schwimmen.cli.main import main
from schwimmen.conformance.compare import NOT_REPORTED, compare
from schwimmen.conformance.fields import FIELDS
from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.runner import Status
from schwimmen.resources import schema_dir
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
PATTERN = "thirty-one-by-a-swap"


def _fake(mode: str) -> str:
    return f"{sys.executable} {FAKE} {mode}"


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["conformance", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ---------------------------------------------------------------------- nothing judged
def test_no_case_selected_is_not_green(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(capsys, "-k", "no-such-case")
    assert code == 1
    line = "nothing was judged: 0 cases to run (no fixture matches -k 'no-such-case')"
    assert line in " ".join(out.split())


def test_claiming_only_rulesets_no_case_is_run_for_is_not_green(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _cli(capsys, "--impl", _fake("pagat-only"), "-k", PATTERN, "--ruleset", "online")
    assert code == 1
    out = " ".join(out.split())
    assert "nothing was judged" in out and "online is not among them" in out


def _hands_only(case: Any) -> Any:
    """An engine that evaluates hands and skips everything else."""
    from schwimmen.engine.adapter import run_case

    if case["kind"] == "hand-evaluation":
        return run_case(case)
    return {"status": "skipped", "reason": "hands only"}


@pytest.mark.parametrize("kinds", [(), ("hand-evaluation", "round")])
def test_a_kind_asked_for_but_never_judged_is_not_green(
    catalog: Catalog, kinds: tuple[str, ...]
) -> None:
    options = Options(rulesets=("pagat",), kinds=kinds)
    suite = run_suite(catalog, options, None, _hands_only)
    assert suite.by_kind()["hand-evaluation"]["judged"] > 0
    verdict = suite.verdict()
    assert not verdict.ok
    assert "nothing was judged for the kind(s) asked for:" in verdict.line
    assert "round (" in verdict.line
    assert "--kind" in verdict.line
    only_hands = Options(rulesets=("pagat",), kinds=("hand-evaluation",))
    assert run_suite(catalog, only_hands, None, _hands_only).verdict().ok


def test_the_summary_counts_each_kind(catalog: Catalog) -> None:
    suite = run_suite(catalog, Options(rulesets=("pagat",), pattern="card-values"))
    rows = suite.by_kind()
    assert set(rows) == {"hand-evaluation"}
    row = rows["hand-evaluation"]
    assert row["judged"] == row["passed"] == len(suite.results) > 0
    assert suite.verdict().ok


# ---------------------------------------------------------------------- missing fields
def test_a_missing_legal_list_does_not_pass_legal_excludes() -> None:
    verdict = compare({"legal_excludes": ["knock"]}, {})
    assert [(m.path, m.actual) for m in verdict.mismatches] == [("legal_excludes", NOT_REPORTED)]
    assert str(verdict.mismatches[0]).endswith("got not reported")


def test_missing_rounds_do_not_pass_round_over_false() -> None:
    assert compare({"round_over": False}, {}).mismatches
    assert not compare({"round_over": False}, {"rounds": []}).mismatches


@pytest.mark.parametrize(
    ("expect", "outcome"),
    [
        ({"swimming": []}, {}),
        ({"values": {"P1": {"points": 31, "suit": "C"}}}, {"values": {"P1": {"points": 31}}}),
        ({"steps": {"1": {"rejected": "no-pass"}}}, {}),
        ({"losses": {}}, {}),
        ({"after_step": {"2": {"to_move": "P1"}}}, {"states": {}}),
    ],
)
def test_every_checked_field_that_is_missing_fails(
    expect: dict[str, Any], outcome: dict[str, Any]
) -> None:
    verdict = compare(expect, outcome)
    assert verdict.mismatches and all(m.actual is NOT_REPORTED for m in verdict.mismatches)


def test_a_declared_field_is_not_judged_and_is_named() -> None:
    expect = {"legal_excludes": ["knock"], "to_move": "P2"}
    verdict = compare(expect, {"to_move": "P2"}, not_reported=frozenset({"legal"}))
    assert not verdict.mismatches
    assert verdict.judged == 1 and verdict.unjudged == {"legal"}
    suit = compare(
        {"rounds": [{"values": {"P1": {"points": 31, "suit": "C"}}}]},
        {"rounds": [{"values": {"P1": {"points": 31}}}]},
        not_reported=frozenset({"values.suit"}),
    )
    assert not suit.mismatches and suit.unjudged == {"values.suit"}


def test_a_refusal_is_judged_without_its_code_where_codes_are_not_reported() -> None:
    expect = {"steps": {"1": {"rejected": "no-pass"}}}
    declared = frozenset({"steps.reason"})
    without = compare(expect, {"steps": [{"accepted": False}]}, not_reported=declared)
    assert not without.mismatches and without.unjudged == {"steps.reason"}
    accepted = compare(expect, {"steps": [{"accepted": True}]}, not_reported=declared)
    assert accepted.mismatches


def test_declared_fields_over_the_protocol(catalog: Catalog) -> None:
    omitted = run_suite(
        catalog, Options(impl=_fake("omit:rounds"), rulesets=("pagat",), pattern=PATTERN)
    )
    assert [r.status for r in omitted.results] == [Status.FAILED]
    assert "not reported" in str(omitted.results[0].mismatches[0])
    declared = run_suite(
        catalog, Options(impl=_fake("declare:rounds"), rulesets=("pagat",), pattern=PATTERN)
    )
    assert [r.status for r in declared.results] == [Status.PASSED], "judged on its steps"
    assert declared.results[0].unjudged == ("rounds",)
    assert declared.not_reported == ("rounds",)
    nothing = run_suite(
        catalog,
        Options(impl=_fake("declare:rounds,steps"), rulesets=("pagat",), pattern=PATTERN),
    )
    assert [r.status for r in nothing.results] == [Status.SKIPPED]
    assert "does not report: rounds, steps" in nothing.results[0].message
    assert not nothing.verdict().ok


def test_an_unknown_declared_field_refuses_the_start(catalog: Catalog) -> None:
    suite = run_suite(
        catalog, Options(impl=_fake("declare:colour"), rulesets=("pagat",), pattern=PATTERN)
    )
    assert {r.status for r in suite.results} == {Status.ERRORED}
    assert "'colour'" in suite.results[0].message


def test_the_schema_and_the_harness_know_the_same_fields() -> None:
    schema = json.loads((schema_dir() / "protocol.schema.json").read_text(encoding="utf-8"))
    items = schema["$defs"]["started"]["properties"]["not_reported"]["items"]
    assert tuple(items["enum"]) == FIELDS
    outcome = set(schema["$defs"]["outcome"]["properties"])
    assert {f for f in FIELDS if "." not in f} <= outcome


def test_the_documents_name_every_field() -> None:
    protocol = (schema_dir().parent / "conformance" / "PROTOCOL.md").read_text(encoding="utf-8")
    for name in FIELDS:
        assert f"`{name}`" in protocol, name


# ---------------------------------------------------------------------- reports and files
@pytest.mark.parametrize("fmt", ["pretty", "json", "junit", "markdown"])
def test_output_is_written_for_every_format_alone_and_with_track(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / f"report.{fmt}"
    code, stdout, _ = _cli(
        capsys, "-k", PATTERN, "--ruleset", "pagat", "--format", fmt, "--output", str(out)
    )
    assert code == 0 and out.is_file() and out.stat().st_size > 0
    assert "all 1 judged cases pass" in stdout
    out.unlink()
    track = tmp_path / "history.json"
    args = ["-k", PATTERN, "--ruleset", "pagat", "--format", fmt, "--output", str(out)]
    code, stdout, _ = _cli(capsys, *args, "--track", str(track))
    assert code == 0 and out.is_file() and track.is_file()
    assert "new (1)" in stdout
    if fmt == "json":
        assert json.loads(out.read_text())["verdict"]["ok"] is True


@pytest.mark.parametrize("where", ["directory", "missing-folder"])
def test_an_unwritable_output_is_refused_before_the_run(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path if where == "directory" else tmp_path / "nope" / "report.json"
    code, out, err = _cli(capsys, "--impl", _fake("hang"), "--output", str(target))
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "--output" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '<?xml version="1.0"?><testsuites/>',
        '{"statuses": {"a[pagat]": "green"}}',
        '{"format": "schwimmen-conformance-history", "version": 9, "statuses": {}}',
    ],
)
def test_track_refuses_a_file_that_is_not_its_history(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = tmp_path / "results.json"
    track.write_text(content, encoding="utf-8")
    code, _, err = _cli(capsys, "-k", PATTERN, "--ruleset", "pagat", "--track", str(track))
    assert code == 2
    assert "--track" in err and len(err.strip().splitlines()) == 1
    assert track.read_text(encoding="utf-8") == content, "the file is left as it was"


def test_track_reads_its_earlier_format_and_leaves_no_temporary_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = tmp_path / "results.json"
    track.write_text('{"statuses": {"round/thirty-one-by-a-swap[pagat]": "failed"}}')
    code, out, _ = _cli(capsys, "-k", PATTERN, "--ruleset", "pagat", "--track", str(track))
    assert code == 0 and "fixed (1)" in out
    assert json.loads(track.read_text())["format"] == "schwimmen-conformance-history"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]


@pytest.mark.parametrize(
    "args",
    [
        ["--impl", ""],
        ["--impl", "python3 'x"],
        ["--timeout", "-1"],
        ["--timeout", "inf"],
        ["--timeout", "nan"],
        ["--start-timeout", "0"],
        ["-j", "0"],
        ["--max-fail", "-3"],
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["conformance", *args])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_reports_are_strict_json_whatever_the_outcome_holds(catalog: Catalog) -> None:
    from schwimmen.conformance import report

    def nan_engine(case: Any) -> dict[str, Any]:
        return {"status": "ok", "outcome": {"rounds": [{"reason": float("nan")}], "x": "\ud800"}}

    suite = run_suite(catalog, Options(rulesets=("pagat",), pattern=PATTERN), None, nan_engine)
    text = report.dumps(report.to_json(suite))
    json.loads(text, parse_constant=lambda name: pytest.fail(name))
    text.encode("utf-8")
    report.to_junit(suite).encode("utf-8")


def test_a_fixtures_folder_of_ones_own_runs_and_lints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--fixtures DIR``: fixtures written elsewhere (by schwimmen fuzz, say) run and lint
    without being copied into the suite."""
    from schwimmen.resources import conformance_dir

    source = conformance_dir() / "fixtures" / "round" / "thirty-one-by-a-swap.yaml"
    (tmp_path / "round").mkdir()
    (tmp_path / "round" / source.name).write_text(source.read_text(encoding="utf-8"))
    code, out, _ = _cli(capsys, "--fixtures", str(tmp_path), "--ruleset", "pagat")
    assert code == 0 and "from 1 fixtures" in " ".join(out.split())
    code, out, _ = _cli(capsys, "lint", "--fixtures", str(tmp_path), "--no-quotes")
    assert code == 0 and "1 fixtures lint clean" in out
    with pytest.raises(SystemExit):
        main(["conformance", "--fixtures", str(tmp_path / "missing")])
    assert "not a folder" in capsys.readouterr().err


def test_the_commands_in_the_conformance_documents_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``schwimmen ...`` line in a sh block of the suite's documents parses with the
    CLI's own parser, so a guide cannot show an option the command lacks."""
    import itertools
    import re
    import shlex

    from schwimmen.cli.main import build_parser
    from schwimmen.resources import conformance_dir

    parser = build_parser()
    seen = 0
    for doc in sorted(conformance_dir().glob("*.md")):
        for block in re.findall(r"```sh\n(.*?)```", doc.read_text(encoding="utf-8"), re.S):
            for line in block.splitlines():
                line = line.split("  #", 1)[0].strip()
                if not line.startswith("schwimmen "):
                    continue
                words = shlex.split(line)[1:]
                monkeypatch.chdir(tmp_path)
                for option, value in itertools.pairwise(words):
                    if option == "--fixtures":
                        (tmp_path / value).mkdir(exist_ok=True)
                parser.parse_args(words)
                seen += 1
    assert seen >= 5
