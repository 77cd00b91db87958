"""Nothing an implementation starts outlives the harness: not a grandchild that left the
process group and the session (setsid), not one that also cleared its environment (no
marker to find it by), not a daemon; and ``end_all`` ends whatever a command left."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from pids import alive, recorded

from schwimmen.conformance import process
from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.process import ProcessImplementation, become_subreaper, end_all
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
PATTERN = "thirty-one-by-a-swap"
RULESETS = ("pagat", "online", "rules-page")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def test_the_harness_is_a_child_subreaper() -> None:
    assert become_subreaper() is True
    assert become_subreaper() is True  # once per process, and the answer stays
    assert process._REAPER == [True]


@pytest.mark.parametrize("mode", ["leak-setsid", "leak-clean-env", "daemon"])
def test_no_process_of_the_implementation_outlives_the_run(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PIDS", str(pids))
    options = Options(impl=f"{sys.executable} {FAKE} {mode}", rulesets=RULESETS, pattern=PATTERN)
    suite = run_suite(catalog, options)
    assert len(suite.results) == len(RULESETS)
    started = recorded(pids)
    # the implementation, and a leaked grandchild per request (daemon: per start)
    assert len(started) > len(RULESETS)
    time.sleep(0.2)
    assert not [p for p in started if alive(p)]


def test_end_all_ends_what_a_command_left_running(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PIDS", str(pids))
    worker = ProcessImplementation(f"{sys.executable} {FAKE} leak-clean-env")
    pagat = catalog.resolve("pagat")
    case = {
        "kind": "setup",
        "fixture": "x",
        "seats": 3,
        "ruleset": {"id": "pagat", "parameters": pagat.values()},
    }
    assert worker.run(case).answer["status"] == "ok"
    time.sleep(0.3)  # the grandchild has left the group, the session and its environment
    leaked = recorded(pids)
    assert len(leaked) == 2 and all(alive(p) for p in leaked)
    assert process._marker(leaked[1]) is None
    assert end_all() >= 1  # the orphan; the implementation itself is stopped too
    time.sleep(0.2)
    assert not [p for p in leaked if alive(p)]
    assert worker.run(case).answer["status"] == "ok"  # it starts again when asked
    worker.close()
