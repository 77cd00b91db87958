"""``schwimmen fuzz``: differential fuzzing finds where an implementation plays other rules,
shrinks the case and writes it as a fixture the suite accepts; it is reproducible from
its seed and survives implementations that crash, hang or never start."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from schwimmen.cli.main import main
from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.conformance.fuzz import FuzzOptions, fuzz
from schwimmen.conformance.fuzz.cases import case_rng, generate, play
from schwimmen.conformance.fuzz.diff import first_difference
from schwimmen.conformance.fuzz.shrink import ddmin
from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.lint import lint
from schwimmen.conformance.runner import Status
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog

SERVE = f"{sys.executable} -m schwimmen serve"
MUTANT = f"{SERVE} --play pagat+knocker-loses-two"
FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_mutant_is_found_shrunk_and_written_as_a_fixture_the_suite_accepts(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "found"
    args = ["fuzz", "--impl", MUTANT, "--ruleset", "pagat", "--seed", "1", "--seconds", "30"]
    code, stdout, _ = _run([*args, "--max-differences", "1", "--out", str(out)], capsys)
    assert code == 1, stdout
    assert f"fixtures written to {out}" in stdout
    assert "penalties.knocker_lowest=2" in stdout
    fixtures, errors = load_fixtures(out)
    assert not errors and len(fixtures) == 1
    fixture = fixtures[0]
    assert fixture.id.startswith("fuzz/pagat/rounds-losses")
    (case,) = fixture.cases
    assert case.where["penalties.knocker_lowest"] == [1]
    assert "pagat" in case.rulesets
    assert len(fixture.setup["steps"]) <= 6 and fixture.setup["seats"] <= 3
    problems, count = lint(catalog, out)
    assert (problems, count) == ([], 1)
    reference = run_suite(catalog, Options(fixtures_dir=out))
    assert reference.results and {r.status for r in reference.results} == {Status.PASSED}
    mutant = run_suite(catalog, Options(impl=MUTANT, fixtures_dir=out, rulesets=("pagat",)))
    assert [r.status for r in mutant.results] == [Status.FAILED]


def test_the_same_seed_makes_the_same_cases_and_the_same_fixture(
    catalog: Catalog, tmp_path: Path
) -> None:
    pagat = catalog.resolve("pagat")
    for number in range(20):
        one, two = generate(pagat, case_rng(5, number)), generate(pagat, case_rng(5, number))
        assert one.case == two.case
        again = play(pagat, one.plan)
        assert again is not None and again.case == one.case
    assert generate(pagat, case_rng(5, 0)).case != generate(pagat, case_rng(6, 0)).case
    texts = []
    for run in ("a", "b"):
        options = FuzzOptions(MUTANT, seconds=30, seed=3, out=tmp_path / run, max_differences=1)
        report = fuzz(catalog, pagat, options, lambda _: None)
        assert len(report.found) == 1
        texts.append(report.found[0].written.path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]


def test_the_reference_against_itself_shows_no_difference_and_says_it_proves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["fuzz", "--impl", SERVE, "--ruleset", "scat", "--seconds", "3", "--out", str(tmp_path)]
    code, stdout, stderr = _run([*args, "--seed", "2"], capsys)
    assert code == 0, stdout + stderr
    assert "0 distinct difference(s)" in stdout
    assert "no proof of conformance" in stdout
    assert not list(tmp_path.rglob("*.yaml"))


def test_probes_try_many_refusals_and_the_reference_refuses_each(catalog: Catalog) -> None:
    codes: dict[str, Counter[str]] = {}
    for name in ("pagat", "scat", "rules-page+pass-once-per-round"):
        ruleset = catalog.resolve(name)
        seen: Counter[str] = Counter()
        for number in range(150):
            done = generate(ruleset, case_rng(11, number))
            answer = run_case(done.case)
            assert answer["status"] == "ok", answer
            seen.update(s["reason"] for s in answer["outcome"]["steps"] if not s["accepted"])
        codes[name] = seen
    for code in ("not-your-turn", "not-in-hand", "not-in-middle", "two-card-swap", "malformed"):
        assert codes["pagat"][code], codes["pagat"]
    for code in ("wrong-phase", "not-in-hand", "no-middle", "rediscard"):
        assert codes["scat"][code], codes["scat"]
    assert codes["rules-page+pass-once-per-round"]["pass-limit"], codes


def test_the_first_difference_is_the_earliest_in_time(catalog: Catalog) -> None:
    pagat = catalog.resolve("pagat")
    done = generate(pagat, case_rng(1, 0))
    ref = run_case(done.case)["outcome"]
    assert first_difference(ref, ref, done.steps) is None
    changed = {**ref, "lives": {seat: n + 1 for seat, n in ref["lives"].items()}}
    later = first_difference(ref, changed, done.steps)
    assert later is not None and later.field == "lives" and later.time == done.steps + 1
    steps = [dict(s) for s in ref["steps"]]
    steps[0] = {"accepted": False, "reason": "not-your-turn"}
    earlier = first_difference(ref, {**changed, "steps": steps}, done.steps)
    assert earlier is not None and earlier.path == "steps.1"
    assert earlier.signature == "steps:accepted/refused"


def test_delta_debugging_keeps_exactly_what_the_test_needs() -> None:
    def test(items: list[int]) -> list[int] | None:
        return items if 3 in items and 7 in items else None

    assert ddmin(list(range(20)), test) == [3, 7]
    assert ddmin([5], lambda items: items) == []


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("crash:1", "exit code 3"),
        ("hang", "timed out"),
        ("cannot-start", "could not start"),
    ],
)
def test_a_broken_implementation_ends_the_run_with_a_clear_message(
    mode: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    impl = f"{sys.executable} {FAKE} {mode}"
    began = time.monotonic()
    args = ["fuzz", "--impl", impl, "--ruleset", "pagat", "--seconds", "30", "--timeout", "0.5"]
    code, stdout, stderr = _run([*args, "--seed", "1", "--out", str(tmp_path)], capsys)
    assert code == 1, stdout + stderr
    assert time.monotonic() - began < 20
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("schwimmen fuzz: ") and expected in last, stderr
    assert not list(tmp_path.rglob("*.yaml"))


def test_an_implementation_that_crashes_now_and_then_is_restarted_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    impl = f"{sys.executable} {FAKE} crash:3"
    args = ["fuzz", "--impl", impl, "--ruleset", "pagat", "--seconds", "4", "--seed", "1"]
    code, stdout, stderr = _run([*args, "--out", str(tmp_path)], capsys)
    assert code == 1, stdout + stderr
    assert "errored: case 2: the implementation exited (exit code 3)" in stdout
    assert "0 distinct difference(s)" in stdout


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--seconds", "0"], "argument --seconds: must be more than 0"),
        (["--ruleset", "no-such-ruleset"], "argument --ruleset:"),
        (["--impl", ""], "argument --impl: the command is empty"),
        (["--max-differences", "0"], "argument --max-differences: must be at least 1"),
        (["-j", "x"], "argument -j/--jobs: not a whole number"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(
    extra: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["fuzz", "--impl", SERVE, "--ruleset", "pagat", *extra]
    code, stdout, stderr = _run(args, capsys)
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and expected in stderr, stderr


def test_an_out_folder_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    args = ["fuzz", "--impl", SERVE, "--ruleset", "pagat", "--out", str(blocker / "sub")]
    code, _, stderr = _run(args, capsys)
    assert code == 2 and "argument --out: cannot write to" in stderr
