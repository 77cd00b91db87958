"""The pytest plugin runs the adapter in a worker process: an adapter that exits or hangs
is an error with the reason and the session goes on; a session that judged nothing fails."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

_ADAPTERS = """
import os
import time

from schwimmen.engine.adapter import run_case as good



def skipping(case):
    return {"status": "skipped", "reason": "not my game"}


def exiting(case):
    if case["ruleset"]["id"] == "pagat":
        os._exit(0)
    return good(case)


def sleeping(case):
    if case["ruleset"]["id"] == "pagat":
        time.sleep(60)
    return good(case)


def unserialisable(case):
    return {"status": "ok", "outcome": {"values": object()}}
"""


@pytest.fixture
def adapters(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(adapters=_ADAPTERS)
    pytester.syspathinsert()
    return pytester


def _run(pytester: pytest.Pytester, adapter: str, *args: str) -> pytest.RunResult:
    return pytester.runpytest(
        f"--schwimmen-adapter=adapters:{adapter}",
        "--schwimmen-k",
        "three-sevens",
        "--schwimmen-ruleset",
        "pagat",
        "--schwimmen-ruleset",
        "online",
        *args,
    )


def test_a_session_that_judged_nothing_fails_with_one_line_why(adapters: pytest.Pytester) -> None:
    result = _run(adapters, "skipping")
    assert result.parseoutcomes().get("skipped", 0) >= 2
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["schwimmen: nothing was judged: of * cases, * skipped*not my game*"]
    )
    assert _run(adapters, "good").ret == pytest.ExitCode.OK


def test_an_adapter_that_exits_is_an_error_and_the_session_goes_on(
    adapters: pytest.Pytester,
) -> None:
    result = _run(adapters, "exiting", "-v")
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) >= 1 and outcomes.get("passed", 0) >= 1, outcomes
    result.stdout.fnmatch_lines(["*the adapter's process exited (exit code 0) during the case*"])
    result.stdout.fnmatch_lines(["*three-sevens*online* PASSED*"])


def test_an_adapter_that_hangs_times_out_per_case(adapters: pytest.Pytester) -> None:
    result = _run(adapters, "sleeping", "--schwimmen-timeout", "0.5", "-v")
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) >= 1 and outcomes.get("passed", 0) >= 1, outcomes
    result.stdout.fnmatch_lines(["*did not answer within 0.5 s (timed out*"])
    assert result.duration < 30


def test_an_answer_that_is_no_data_is_an_error(adapters: pytest.Pytester) -> None:
    result = _run(adapters, "unserialisable")
    assert result.parseoutcomes().get("errors", 0) >= 2
    result.stdout.fnmatch_lines(["*the adapter's answer is no JSON data*"])
