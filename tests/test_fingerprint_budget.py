"""fingerprint's total time budget holds in a process that ignores SIGINT.

The budget stops a run by a simulated Ctrl-C in the main thread, which Python drops where
SIGINT is ignored: as a shell without job control starts a command put in the background
(a script's ``schwimmen fingerprint ... &``, a CI job). Such a run went on long past its
budget; it must stop on time there too, and a real Ctrl-C the process was told to ignore
stays ignored.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from schwimmen.conformance.fingerprint.evidence import _Clock

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"


@pytest.fixture
def sigint_ignored() -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _wait(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.01)


def test_the_budget_stops_the_main_thread_where_sigint_is_ignored(sigint_ignored: None) -> None:
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), _Clock(0.3, None) as clock:
        _wait(10)
    assert clock.spent and time.monotonic() - started < 5
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_a_real_ctrl_c_the_process_ignores_stays_ignored(sigint_ignored: None) -> None:
    with _Clock(30, None) as clock:
        os.kill(os.getpid(), signal.SIGINT)
        _wait(0.3)
    assert not clock.spent
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


@pytest.mark.slow
def test_a_hanging_engine_is_stopped_by_the_budget_in_a_background_job() -> None:
    command = [sys.executable, "-m", "schwimmen", "fingerprint", "--quiet"]
    command += ["--impl", f"{sys.executable} {FAKE} hang-every:3"]
    command += ["--timeout", "0.3", "--timeout-total", "6"]
    started = time.monotonic()
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=180,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # as `cmd &` does
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 1, done.stdout + done.stderr
    assert elapsed < 40, elapsed
    assert "time budget of 6 s" in done.stdout, done.stdout


def test_an_interruption_lost_in_a_callback_is_given_again() -> None:
    """Python only reports an exception raised in a weakref callback: the budget's
    interruption landing there was lost, and a CI run went on for 725 s of a 6 s budget."""

    class Thing:
        pass

    def callback(_: object) -> None:
        _wait(1.0)  # the budget is spent in here

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), _Clock(0.2, None) as clock:
        thing = Thing()
        ref = weakref.ref(thing, callback)
        del thing
        _wait(10)
    assert ref() is None
    assert clock.spent and time.monotonic() - started < 5
