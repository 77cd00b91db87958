"""The harness against implementations that crash, hang, sleep, print garbage and answer
wrongly: each case is reported as what it is, and no case is ever lost."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from schwimmen.conformance import history, report
from schwimmen.conformance.harness import Options, SuiteResult, run_suite
from schwimmen.conformance.runner import Status
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
PATTERN = "thirty-one-by-a-swap"
RULESETS = ("pagat", "online", "rules-page")


def _run(catalog: Catalog, mode: str | None, **kw: object) -> SuiteResult:
    impl = None if mode is None else f"{sys.executable} {FAKE} {mode}"
    options = Options(impl=impl, rulesets=RULESETS, pattern=kw.pop("pattern", PATTERN), **kw)  # type: ignore[arg-type]
    return run_suite(catalog, options)


def _statuses(suite: SuiteResult) -> list[Status]:
    return [r.status for r in suite.results]


@pytest.fixture(scope="module")
def reference(catalog: Catalog) -> SuiteResult:
    return _run(catalog, None)


def test_the_reference_in_process_passes(reference: SuiteResult) -> None:
    assert reference.results and set(_statuses(reference)) == {Status.PASSED}
    assert reference.ok


def test_every_case_ends_in_exactly_one_status(catalog: Catalog, reference: SuiteResult) -> None:
    for mode in ("garbage", "wrong", "skip"):
        suite = _run(catalog, mode)
        assert [r.key for r in suite.results] == [r.key for r in reference.results]


def test_good_process_passes(catalog: Catalog) -> None:
    suite = _run(catalog, "good")
    assert set(_statuses(suite)) == {Status.PASSED}


def test_crash_is_errored_and_the_run_goes_on(catalog: Catalog) -> None:
    suite = _run(catalog, "crash:2")
    statuses = _statuses(suite)
    assert statuses[1] is Status.ERRORED
    assert "exited" in suite.results[1].message and "exit code 3" in suite.results[1].message
    assert "crashing now" in suite.results[1].message
    assert statuses.count(Status.PASSED) == len(statuses) - 1
    assert suite.implementation["restarts"] >= 1


def test_hang_times_out(catalog: Catalog) -> None:
    suite = _run(catalog, "hang", timeout=0.5, pattern=PATTERN, max_fail=None)
    assert set(_statuses(suite)) == {Status.ERRORED}
    assert "timed out" in suite.results[0].message


def test_slow_answer_within_the_timeout_passes_beyond_it_errors(catalog: Catalog) -> None:
    assert set(_statuses(_run(catalog, "slow:0.05", timeout=5))) == {Status.PASSED}
    late = _run(catalog, "slow:1", timeout=0.3)
    assert set(_statuses(late)) == {Status.ERRORED}


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("garbage", "not JSON"),
        ("partial", "partial reply"),
        ("oversized", "oversized"),
        ("sequence", "out of sequence"),
        ("refuse", "refused to start"),
    ],
)
def test_bad_replies_are_errored_not_failed(catalog: Catalog, mode: str, words: str) -> None:
    suite = _run(catalog, mode)
    assert suite.results
    assert set(_statuses(suite)) == {Status.ERRORED}, [r.message for r in suite.results]
    assert words in suite.results[0].message


def test_wrong_answers_fail_with_a_diff_and_the_sources(catalog: Catalog) -> None:
    suite = _run(catalog, "wrong")
    failed = [r for r in suite.results if r.status is Status.FAILED]
    assert failed and not suite.ok
    text = "\n".join(report.failure_text(failed[0]))
    assert "expected" in text and "actual" in text and "because:" in text


def test_skipped_cases_are_skipped_and_a_run_of_skips_is_not_green(catalog: Catalog) -> None:
    suite = _run(catalog, "skip")
    assert set(_statuses(suite)) == {Status.SKIPPED}
    verdict = suite.verdict()
    assert not verdict.ok
    assert "nothing was judged" in verdict.line and "not implemented here" in verdict.line


def test_protocol_validation_catches_a_missing_outcome(catalog: Catalog) -> None:
    plain = _run(catalog, "invalid")
    assert set(_statuses(plain)) == {Status.ERRORED}
    checked = _run(catalog, "invalid", validate_protocol=True)
    assert "protocol violation" in checked.results[0].message


def test_stderr_is_kept_with_its_case(catalog: Catalog) -> None:
    suite = _run(catalog, "stderr")
    assert set(_statuses(suite)) == {Status.PASSED}
    assert "working on" in suite.results[0].stderr
    assert "working on" in "\n".join(report.failure_text(suite.results[0]))


def test_parallel_processes_lose_nothing(catalog: Catalog, reference: SuiteResult) -> None:
    suite = _run(catalog, "crash:3", jobs=2)
    assert sorted(r.key for r in suite.results) == sorted(r.key for r in reference.results)


def test_max_fail_skips_the_rest(catalog: Catalog) -> None:
    suite = _run(catalog, "wrong", max_fail=1, pattern="")
    statuses = _statuses(suite)
    bad = [s for s in statuses if s in (Status.FAILED, Status.ERRORED)]
    assert len(bad) == 1
    assert statuses.count(Status.SKIPPED) >= 1


def test_reports_in_every_format(reference: SuiteResult, tmp_path: Path) -> None:
    data = report.to_json(reference)
    assert data["counts"]["passed"] == len(reference.results)
    assert "<testsuites" in report.to_junit(reference)
    assert "| ruleset |" in report.to_markdown(reference)
    track = tmp_path / "track.json"
    first = history.changes(history.load(track), reference)
    assert first["new"]
    history.save(track, reference, {})
    again = history.changes(history.load(track), reference)
    assert not any(again.values())


def test_cli_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    from schwimmen.cli.main import main

    ok = main(["conformance", "-k", PATTERN, "--ruleset", "pagat"])
    assert ok == 0
    bad = main(
        [
            "conformance",
            "-k",
            PATTERN,
            "--ruleset",
            "pagat",
            "--impl",
            f"{sys.executable} {FAKE} wrong",
        ]
    )
    assert bad == 1
    out = capsys.readouterr().out
    assert "failed" in out


def test_states_after_a_step_are_matched_like_the_final_state() -> None:
    from schwimmen.conformance.compare import compare

    expect = {"after_step": {"2": {"to_move": "P3", "swimming": ["P1", "P2"]}}}
    assert [m.path for m in compare(expect, {}).mismatches] == ["after_step.2"]
    wrong = {"states": {"2": {"to_move": "P1", "swimming": ["P2", "P1"]}}}
    assert [m.path for m in compare(expect, wrong).mismatches] == ["after_step.2.to_move"]
    right = {"states": {"2": {"to_move": "P3", "swimming": ["P2", "P1"]}}}
    verdict = compare(expect, right)
    assert verdict.mismatches == [] and verdict.judged == 2


def test_requests_ask_for_the_checkpoints_the_cases_check(catalog: Catalog) -> None:
    from schwimmen.conformance.fixtures import load_fixtures

    fixtures, errors = load_fixtures()
    assert not errors
    checked = [f for f in fixtures if f.checkpoints()]
    assert checked
    for fixture in checked:
        request = fixture.request(catalog.resolve("pagat"))
        assert request["checkpoints"] == fixture.checkpoints()
    unchecked = next(f for f in fixtures if not f.checkpoints())
    assert "checkpoints" not in unchecked.request(catalog.resolve("pagat"))
