"""``schwimmen serve --play RULESET [--set P=V]``: a conforming engine with other rules
that claims the case's ruleset, the test double of fingerprint and fuzz."""

from __future__ import annotations

import subprocess
import sys

import pytest

from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.runner import Status
from schwimmen.spec.loader import Catalog

SERVE = f"{sys.executable} -m schwimmen serve"


def _failed(catalog: Catalog, impl: str) -> set[str]:
    suite = run_suite(catalog, Options(impl=impl, rulesets=("pagat",)))
    assert {r.status for r in suite.results} <= {Status.PASSED, Status.FAILED}
    return {r.fixture.id for r in suite.results if r.status is Status.FAILED}


@pytest.mark.slow
def test_playing_the_claimed_ruleset_passes_and_a_mutant_fails_where_it_differs(
    catalog: Catalog,
) -> None:
    assert _failed(catalog, f"{SERVE} --play pagat") == set()
    house = _failed(catalog, f"{SERVE} --play pagat+knocker-loses-two")
    changed = _failed(catalog, f"{SERVE} --play pagat --set penalties.knocker_lowest=2")
    assert house and house == changed
    knocker = catalog.resolve("pagat+knocker-loses-two")
    assert knocker.value("penalties.knocker_lowest") == 2


def test_bad_play_arguments_are_one_line_and_exit_2() -> None:
    for args in (["--set", "a=1"], ["--play", "pagat", "--set", "penalties.lowest=x"]):
        done = subprocess.run(
            [sys.executable, "-m", "schwimmen", "serve", *args],
            input="",
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        assert done.returncode == 2, done
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
