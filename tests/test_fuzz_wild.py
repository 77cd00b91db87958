"""Fuzz against the independent engines of ``tests/fakes`` (their rules in README.md and
truth.yaml), each announced as a fixed-rules engine: what fuzz reports is what it writes,
every fixture it writes lints clean, passes on the reference and fails on the engine, and
among its findings is a deviation the engine's truth lists: one the reference playing
the base with that deviation fails as the engine does (or a rule outside the registry
the truth names; for blitz, whose deviation a short run does not reach, a habit its truth
lists). Slow: a short fuzz run each."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from schwimmen.conformance.fixtures import load_fixtures

FAKES = Path(__file__).parent / "fakes"
FIXED = {"any_ruleset": False, "rulesets": [], "fixed_rules": True}
SECONDS = 30  # a short run, on a machine that may be busy: time for a finding or two
ENGINES = {
    "stammtisch": f"{sys.executable} {FAKES / 'stammtisch' / 'engine.py'}",
    "knack": f"{sys.executable} {FAKES / 'knack' / 'engine.py'}",
    "nurgeben": f"{sys.executable} {FAKES / 'nurgeben' / 'engine.py'}",
    "blitz": f"node {FAKES / 'blitz' / 'engine.mjs'}",
}
# A rule outside the registry that a fixture shows, by what the fixture expects (nurgeben
# plays nothing: a step the reference accepts is refused).
OUTSIDE = {
    "no-play": lambda expect: "accepted" in dict(expect.get("steps") or {}).values(),
}
# Blitz's one deviation (a whole table going out at once ends the match with no winner)
# takes a long match to reach, more than a short run finds: what a short run finds is a
# habit its truth lists, a refusal with no reason code; that is what is asserted there.
HABITS = {
    "blitz": lambda path, actual: (
        path.startswith("steps.") and "rejected" in str(actual) and "not reported" in str(actual)
    ),
}


def _schwimmen(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "schwimmen", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


def _truth(engine: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FAKES / engine / "truth.yaml").read_text("utf-8"))
    return data


def _mismatches(run: subprocess.CompletedProcess[str]) -> dict[str, list[Any]]:
    """Each failing fixture of a ``conformance --format json`` run: where and what the
    answer differs from its case."""
    results = json.loads(run.stdout)["results"]
    return {
        r["fixture"]: [(m["path"], m["actual"]) for m in r["mismatches"]]
        for r in results
        if r["status"] == "failed"
    }


def _shows(out: Path, truth: Mapping[str, Any], engine: dict[str, list[Any]]) -> set[str]:
    """The deviations of the truth that a written fixture shows: the reference playing
    the base with that one deviation fails it exactly as the engine does; and the rules
    outside the registry a fixture shows by what it expects."""
    shown: set[str] = set()
    for deviation in truth.get("deviations") or ():
        value = json.dumps(deviation["value"])
        play = f"{sys.executable} -m schwimmen serve --play {truth['base']} --fixed-rules"
        impl = f"{play} --set {deviation['parameter']}={shlex.quote(value)}"
        run = _schwimmen(
            "conformance", "--impl", impl, "--fixtures", str(out), "--ruleset", truth["base"],
            "--format", "json",
        )  # fmt: skip
        mutant = _mismatches(run)
        if any(mutant.get(f) == m for f, m in engine.items()):
            shown.add(deviation["parameter"])
    fixtures, errors = load_fixtures(out)
    assert not errors
    for rule in truth.get("outside") or ():
        expects = OUTSIDE.get(rule["rule"])
        if expects is not None and any(expects(c.expect) for f in fixtures for c in f.cases):
            shown.add(rule["rule"])
    return shown


@pytest.mark.slow
@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_fuzz_on_a_wild_engine_writes_what_it_reports(engine: str, tmp_path: Path) -> None:
    if engine == "blitz" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    truth = _truth(engine)
    impl = ENGINES[engine]
    out = tmp_path / "found"
    env = {**os.environ, "WILD_START": json.dumps(FIXED)}
    args = ["--impl", impl, "--ruleset", truth["base"], "--seconds", str(SECONDS)]
    run = _schwimmen("fuzz", *args, "--seed", "1", "--out", str(out), env=env)
    assert run.returncode == 1, run.stdout + run.stderr
    summary = re.search(
        r"(\d+) finding\(s\): (\d+) fixture\(s\) written, (\d+) kept apart.*?, (\d+) flaky",
        run.stdout + run.stderr,
    )
    assert summary, run.stdout + run.stderr
    found, written, apart, flaky = map(int, summary.groups())
    files = sorted(out.glob("fuzz/*/*.yaml"))
    assert written == len(files) >= 1
    # Every finding is accounted for; at most one, in hand when time was up, is reported
    # without a file.
    assert 0 <= found - (written + apart + flaky) <= 1
    lint = _schwimmen("conformance", "lint", "--no-quotes", "--fixtures", str(out))
    assert lint.returncode == 0, lint.stdout + lint.stderr
    reference = _schwimmen("conformance", "--fixtures", str(out), "--ruleset", truth["base"])
    assert reference.returncode == 0, reference.stdout
    engine_run = _schwimmen(
        "conformance", "--impl", impl, "--fixtures", str(out), "--ruleset", truth["base"],
        "--format", "json", env=env,
    )  # fmt: skip
    assert engine_run.returncode == 1, engine_run.stdout
    failed = _mismatches(engine_run)
    assert len(failed) == written, (failed, written)
    habit = HABITS.get(engine)
    if habit is not None:
        assert any(habit(p, a) for m in failed.values() for p, a in m), (failed, run.stdout)
    else:
        assert _shows(out, truth, failed), run.stdout
