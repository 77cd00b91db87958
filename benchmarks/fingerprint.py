"""How often the fingerprint names exactly what an engine plays, and how long it takes.

    python benchmarks/fingerprint.py [--seed 1] [--ones 3] [--twos 3] [-j 2] [--cost-only]

Every house rule of the catalog on its origin, then, for each ruleset, ``--ones`` random
one-parameter and ``--twos`` two-parameter mutants (seeded; the mutation lint's space of
changes) are played by the reference whatever ruleset a case names, and fingerprinted
under the default bases (every ruleset, every house rule on its origin). A hit is the
exact ruleset: the base and exactly the changed parameter values. Counted apart, never
as hits: a trial the suite cannot see at all (it passes every fixture of its base), one
whose own play the suite contradicts (a case pinning the changed parameter but not
another one its outcome depends on), one found only in part (the suite cannot see its
other change once the first is made) and one the truth would not out-rank on the suite's
evidence; see ``schwimmen.conformance.fingerprint.trials``.

A trial whose changes no case shows (they only take failing cases out of judgement) is
counted as "cannot tell"; any value claimed on the trial's base that it does not play is
a false claim, printed and counted.

The trials are played in-process (the same engine ``serve --play`` runs, each position
answered once), ``-j`` at a time. Then the cost: for the four independent engines of
``tests/fakes/`` (as fixed-rules engines) and three ``serve --play --fixed-rules``
mutants, the two commands a user runs, ``schwimmen fingerprint --impl CMD -j 2`` and
``schwimmen conformance --impl CMD -j 2`` (every ruleset, the report to a pipe), each
timed as a whole process, in alternating order, ``--pairs`` times: wall and processor
time, and the fingerprint's as a multiple of the conformance run's (the issue asks at
most 1.5x). ``--cost-only`` skips the trials.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from schwimmen.conformance.fingerprint import fingerprint
from schwimmen.conformance.fingerprint.trials import (
    CANNOT_TELL,
    HIT,
    IN_PART,
    INCONSISTENT,
    INDISTINGUISHABLE,
    MISS,
    NOT_OBSERVABLE,
    Trial,
    false_claims,
    house_rule_trials,
    inconsistencies,
    mutant_trials,
    played_in_process,
    verdict,
)
from schwimmen.conformance.harness import Options
from schwimmen.spec.loader import Catalog


@dataclass(frozen=True)
class Outcome:
    """One trial's verdict, what it claimed wrongly, the lines to print, and its times."""

    result: str
    claimed: tuple[str, ...]
    lines: tuple[str, ...]
    seconds: float


_CATALOG: Catalog | None = None
_ARGS: argparse.Namespace | None = None


def trial_outcome(trial: Trial) -> Outcome:
    """Fingerprint one trial (in a worker process: the catalog and options are the
    parent's, inherited at the fork)."""
    catalog, args = _CATALOG, _ARGS
    assert catalog is not None and args is not None
    started = time.perf_counter()
    implementation = played_in_process(catalog, trial)
    found = fingerprint(catalog, Options(), implementation=implementation, fixed_rules=True)
    seconds = time.perf_counter() - started
    result = verdict(catalog, trial, found)
    claimed = tuple(false_claims(catalog, trial, found))
    lines = []
    if claimed:
        lines.append(f"  false claim on {trial.label}: {', '.join(claimed)}")
    if result != HIT or args.verbose:
        best = found.closest
        shown = f"{best.base} {best.changes}" if best else found.problem
        lines.append(f"  {result:18s} {trial.label}: found {shown} ({seconds:.1f} s)")
    if result == INCONSISTENT:
        lines += [f"      the reference fails {x}" for x in inconsistencies(catalog, trial, found)]
    return Outcome(result, claimed, tuple(lines), seconds)


def run(catalog: Catalog, group: str, trials: list[Trial], args: argparse.Namespace) -> None:
    global _CATALOG, _ARGS
    _CATALOG, _ARGS = catalog, args
    tally: Counter[str] = Counter()
    seconds: list[float] = []
    wrong = 0
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for outcome in pool.imap(trial_outcome, trials):
            tally[outcome.result] += 1
            seconds.append(outcome.seconds)
            wrong += bool(outcome.claimed)
            for line in outcome.lines:
                print(line, flush=True)
    fair = len(trials) - tally[NOT_OBSERVABLE] - tally[INCONSISTENT]
    rate = tally[HIT] / fair if fair else 0.0
    print(
        f"{group}: {tally[HIT]}/{len(trials)} exact hits, {tally[HIT]}/{fair} ({rate:.0%}) of "
        f"those the suite can see and agrees with; {tally[NOT_OBSERVABLE]} not observable by "
        f"the suite, {tally[INCONSISTENT]} with the suite inconsistent, {tally[IN_PART]} seen "
        f"in part, {tally[INDISTINGUISHABLE]} indistinguishable, {tally[CANNOT_TELL]} that "
        f"no case shows (cannot tell), {tally[MISS]} missed; {wrong} with a false claim; "
        f"{statistics.mean(seconds):.2f} s per fingerprint "
        f"(median {statistics.median(seconds):.2f}, max {max(seconds):.2f})",
        flush=True,
    )


FAKES = Path(__file__).resolve().parent.parent / "tests" / "fakes"
FIXED = {"WILD_START": json.dumps({"fixed_rules": True, "any_ruleset": False})}


def cost_engines(python: str) -> list[tuple[str, str]]:
    """The engines whose cost is measured: the independent doubles and a few mutants."""
    engines = [
        (name, f"{python} {FAKES / name / 'engine.py'}")
        for name in ("knack", "stammtisch", "nurgeben")
    ]
    if shutil.which("node"):
        engines.append(("blitz", f"node {FAKES / 'blitz' / 'engine.mjs'}"))
    serve = f"{python} -m schwimmen serve --fixed-rules --play"
    engines += [
        ("pagat, knocker pays 2", f"{serve} pagat --set penalties.knocker_lowest=2"),
        ("scat+knocker-tied-loses-one", f"{serve} scat+knocker-tied-loses-one"),
        ("dutch, all cards compared", f"{serve} dutch --set comparison.card_by_card=all-cards"),
    ]
    return engines


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and processor time (the process and its children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    env = {**os.environ, **FIXED}
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def cost(args: argparse.Namespace) -> None:
    python = sys.executable
    tool = [python, "-m", "schwimmen"]
    print(
        f"Cost: fingerprint against conformance, both -j 2, {args.pairs} pairs each, load "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        flush=True,
    )
    print(
        f"{'engine':30s} {'fingerprint wall/cpu':>21s} {'conformance wall/cpu':>21s} "
        f"{'ratio wall':>10s} {'ratio cpu':>9s}",
        flush=True,
    )
    walls, cpus = [], []
    for name, impl in cost_engines(python):
        fp: list[tuple[float, float]] = []
        cf: list[tuple[float, float]] = []
        for i in range(args.pairs):
            pair = [
                (fp, [*tool, "fingerprint", "--quiet", "--impl", impl, "-j", "2"]),
                (cf, [*tool, "conformance", "--impl", impl, "-j", "2"]),
            ]
            for sink, command in pair if i % 2 == 0 else pair[::-1]:
                sink.append(timed(command))
        f_wall = statistics.median(w for w, _ in fp)
        f_cpu = statistics.median(c for _, c in fp)
        c_wall = statistics.median(w for w, _ in cf)
        c_cpu = statistics.median(c for _, c in cf)
        walls.append(f_wall / c_wall)
        cpus.append(f_cpu / c_cpu)
        print(
            f"{name:30s} {f_wall:9.1f} s/{f_cpu:6.1f} s {c_wall:9.1f} s/{c_cpu:6.1f} s "
            f"{walls[-1]:9.2f}x {cpus[-1]:8.2f}x",
            flush=True,
        )
    print(
        f"fingerprint / conformance: wall {max(walls):.2f}x at most "
        f"(median {statistics.median(walls):.2f}x), processor {max(cpus):.2f}x at most "
        f"(median {statistics.median(cpus):.2f}x); load after "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ones", type=int, default=3, help="one-parameter mutants per ruleset")
    parser.add_argument("--twos", type=int, default=3, help="two-parameter mutants per ruleset")
    parser.add_argument("--cost-only", action="store_true", help="only the cost, no trials")
    parser.add_argument("--pairs", type=int, default=2, help="timed pairs of commands an engine")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="trials fingerprinted at once")
    parser.add_argument("-v", "--verbose", action="store_true", help="list hits too")
    parser.add_argument("--limit", type=int, help="only the first LIMIT trials of each group")
    args = parser.parse_args(argv)
    catalog = Catalog.load()
    if not args.cost_only:
        run(catalog, "house rules", house_rule_trials(catalog)[: args.limit], args)
        mutants = mutant_trials(catalog, args.seed, args.ones, 0)[: args.limit]
        run(catalog, "one-parameter mutants", mutants, args)
        mutants = mutant_trials(catalog, args.seed, 0, args.twos)[: args.limit]
        run(catalog, "two-parameter mutants", mutants, args)
    cost(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
