"""``fuzz -j N`` makes its cases in N worker processes (``conformance/fuzz/supply.py``):
the same cases and reference outcomes as one process makes, the same findings, and no
worker process left behind."""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path

import pytest
from pids import alive

from schwimmen.conformance.fixtures import parameter_values
from schwimmen.conformance.fuzz import FuzzOptions, fuzz, supply
from schwimmen.conformance.fuzz.supply import CHUNK, PooledSupply, Sent, Supply
from schwimmen.conformance.fuzz.wire import Wire
from schwimmen.conformance.lint import lint
from schwimmen.spec.loader import Catalog

SERVE = f"{sys.executable} -m schwimmen serve"
MUTANT = f"{SERVE} --play pagat+knocker-loses-two"


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_cases_made_in_worker_processes_are_the_cases_made_here(
    catalog: Catalog, start: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forked (the run's process has no other thread yet) or from the fork server."""
    context = multiprocessing.get_context(start)
    monkeypatch.setattr(supply, "_context", lambda: context)
    online = catalog.resolve("online")
    here = Supply(online, 5)
    wire = Wire(online)
    pooled = PooledSupply(online, 5, 2)
    try:
        # asked out of order, across chunks, as several threads ask
        # (and one far ahead, which makes the chunks in between only when they are asked)
        numbers = [3, 0, 2 * CHUNK + 1, 1, CHUNK, 10_000, *range(4, 3 * CHUNK)]
        for number in dict.fromkeys(numbers):
            made, ref = pooled.get(number)
            done, expected = here.get(number)
            assert isinstance(made, Sent) and made.case == done.case, number
            assert ref == expected and made.steps == done.steps, number
            # the run's own parameters object, by which the wire writes them once per run
            assert made.case["ruleset"]["parameters"] is parameter_values(online), number
            assert wire.request(made.case) == wire.request(done.case), number
        again = pooled.playthrough(7, pooled.get(7)[0])
        assert again.case == here.get(7)[0].case and again.plan == here.get(7)[0].plan
        workers = [p.pid for p in pooled.pool._processes.values()]
        assert len(workers) == 2
    finally:
        pooled.close()
    assert [pid for pid in workers if alive(pid)] == []


def test_the_reference_over_two_jobs_shows_no_difference(catalog: Catalog, tmp_path: Path) -> None:
    options = FuzzOptions(SERVE, seconds=4, seed=2, jobs=2, out=tmp_path)
    report = fuzz(catalog, catalog.resolve("scat"), options, lambda _: None)
    assert report.fatal is None and report.errors == []
    assert report.compared > 20 and report.found == [] and report.errored == 0


def test_two_jobs_find_and_write_what_one_finds(catalog: Catalog, tmp_path: Path) -> None:
    pagat = catalog.resolve("pagat")
    explained = []
    for jobs in (1, 2):
        out = tmp_path / f"jobs-{jobs}"
        options = FuzzOptions(MUTANT, seconds=30, seed=3, jobs=jobs, out=out, max_differences=1)
        report = fuzz(catalog, pagat, options, lambda _: None)
        (found,) = report.found
        assert found.written.path is not None and found.written.path.is_file()
        assert lint(catalog, out) == ([], 1)
        explained.append(found.explained)
    assert explained[0] == explained[1]
    assert any("penalties.knocker_lowest=2" in e for e in explained[0])
