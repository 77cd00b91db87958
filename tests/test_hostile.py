"""The harness against implementations that do everything wrong on purpose, through the
command line as an implementer runs it: forks that hold the pipes, a process that stops
reading, replies nested 100,000 deep, 5,000-digit numbers, wrong types, NaN, a stderr
flood, double answers, a program that cannot start.

For each, with one and with two processes: the run ends within a small multiple of the
timeout, every planned case is reported exactly once, none passes, the report is written
and is strict JSON, the exit status is non-zero, and no process of the fake is left.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from pids import alive, recorded

from schwimmen.cli.main import main
from schwimmen.conformance.harness import Options, run_suite
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
PATTERN = "thirty-one-by-a-swap"
RULESETS = ("pagat", "online", "rules-page")
TIMEOUT = 2.0


def _strict_json(text: str) -> Any:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in a report")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def planned_keys(catalog: Catalog) -> list[str]:
    suite = run_suite(catalog, Options(rulesets=RULESETS, pattern=PATTERN))
    keys = [r.key for r in suite.results]
    assert len(keys) == len(RULESETS)
    return keys


def _run_cli(
    mode: str, jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str
) -> tuple[int, float, dict[str, Any], list[int]]:
    pids = tmp_path / "pids"
    out = tmp_path / "report.json"
    monkeypatch.setenv("FAKE_PIDS", str(pids))
    args = ["conformance", "--impl", f"{sys.executable} {FAKE} {mode}", "-k", PATTERN]
    for name in RULESETS:
        args += ["--ruleset", name]
    args += ["--timeout", str(TIMEOUT), "-j", str(jobs), "--format", "json", "--output", str(out)]
    began = time.monotonic()
    code = main([*args, *extra])
    elapsed = time.monotonic() - began
    assert out.is_file(), "the report was not written"
    report = _strict_json(out.read_text(encoding="utf-8"))
    return code, elapsed, report, recorded(pids)


HOSTILE = {
    "fork": "exited",
    "daemon": "exited",
    "deaf": "",
    "deep": "nested deeper",
    "digits": "digits",
    "type:steps=5": "cannot be judged",
    "type:steps=[1]": "cannot be judged",
    "type:rounds={}": "cannot be judged",
    "nan": "NaN",
    "flood": "",
    "twice": "more than once",
    "omit:rounds": "",
    "declare:rounds,steps,to_move": "does not report",
    "skip": "not implemented here",
    "hang": "timed out",
    "garbage": "not JSON",
    "cannot-start": "could not start",
    "crash:1": "exited",
}


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("mode", list(HOSTILE))
def test_hostile_implementation_gets_a_whole_report_and_no_green(
    mode: str,
    jobs: int,
    planned_keys: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    code, elapsed, report, pids = _run_cli(mode, jobs, tmp_path, monkeypatch)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert code == 1
    assert elapsed < 8 * TIMEOUT, f"took {elapsed:.1f} s"
    keys = [f"{r['fixture']}[{r['ruleset']}]" for r in report["results"]]
    assert sorted(keys) == sorted(planned_keys), "every case exactly once"
    statuses = [r["status"] for r in report["results"]]
    assert "passed" not in statuses
    assert not report["verdict"]["ok"]
    if HOSTILE[mode]:
        assert any(HOSTILE[mode] in r["message"] for r in report["results"]), report["results"]
    assert pids, "the fake recorded its processes"
    deadline = time.monotonic() + 2
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids if alive(p)], "a process of the implementation outlived the run"
    assert grown_mib < 200, f"the harness grew by {grown_mib:.0f} MiB"


def test_a_stderr_flood_keeps_a_bounded_tail_and_says_what_was_dropped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, _, report, _ = _run_cli("flood", 1, tmp_path, monkeypatch)
    for result in report["results"]:
        assert 0 < len(result["stderr"].encode()) <= 64 * 1024
        assert result["stderr_dropped"] > 7 * 1024 * 1024
        assert all(m["actual"] == "not reported" for m in result["mismatches"])


def test_answering_twice_blames_the_case_that_answered_twice(catalog: Catalog) -> None:
    suite = run_suite(
        catalog,
        Options(impl=f"{sys.executable} {FAKE} twice", rulesets=RULESETS, pattern=PATTERN),
    )
    messages = [r.message for r in suite.results]
    assert messages == [f"answered request {n} more than once" for n in (1, 2, 3)]


def test_an_implementation_that_cannot_start_ends_quickly_with_one_message(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    began = time.monotonic()
    code = main(
        ["conformance", "--impl", f"{sys.executable} {FAKE} cannot-start", "--timeout", "2"]
    )
    elapsed = time.monotonic() - began
    out = capsys.readouterr().out
    assert code == 1
    assert elapsed < 30
    assert "No module named 'my_engine'" in out
    assert out.count("could not start") <= 3, "one grouped message, not one per case"
    assert len(out.splitlines()) < 200


def test_no_grandchild_outlives_an_interrupted_run(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C (or SIGTERM) in the middle of a case: the run reports what it had, marks the
    rest as not run, and ends the implementation's processes."""
    import signal
    import threading

    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PIDS", str(pids))
    stop = threading.Event()

    def press_ctrl_c() -> None:
        # once the implementation is in its first case (its child has recorded itself),
        # however long the loading took on a busy machine
        deadline = time.monotonic() + 60
        while not stop.is_set() and not recorded(pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not stop.is_set():
            os.kill(os.getpid(), signal.SIGINT)

    # Ctrl-C as a terminal delivers it, even when this process was started with SIGINT
    # ignored (a background job of a shell without job control): Python then installs no
    # handler of its own, and the signal would be lost.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser = threading.Thread(target=press_ctrl_c, daemon=True)
    presser.start()
    try:
        suite = run_suite(
            catalog,
            Options(
                impl=f"{sys.executable} {FAKE} daemon-slow",
                rulesets=RULESETS,
                pattern=PATTERN,
                timeout=30,
            ),
        )
    finally:
        stop.set()
        presser.join()
        signal.signal(signal.SIGINT, previous)
    assert suite.interrupted and not suite.ok
    assert len(suite.results) == len(RULESETS)
    assert "interrupted" in suite.verdict().line
    started = recorded(pids)
    assert started
    time.sleep(0.3)
    assert not [p for p in started if alive(p)]
