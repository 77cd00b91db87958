"""How often the fingerprint names exactly what an engine plays, and how long it takes.

    python benchmarks/fingerprint.py [--seed 1] [--ones 3] [--twos 3] [--protocol] [-j 2]

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

By default the trials are played in-process (the same engine ``serve --play`` runs, each
position answered once), which measures the reasoning; ``--protocol`` runs each trial as
``schwimmen serve --play ... --fixed-rules`` processes, which is what a user's engine
costs, and times one ``schwimmen conformance`` run of the same engine under the trial's
base beside it (the fingerprint of a fixed-rules engine asks each position once, so it
should cost little more than that one run).
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass

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
from schwimmen.conformance.harness import Options, run_suite
from schwimmen.spec.loader import Catalog


@dataclass(frozen=True)
class Outcome:
    """One trial's verdict, what it claimed wrongly, the lines to print, and its times."""

    result: str
    claimed: tuple[str, ...]
    lines: tuple[str, ...]
    seconds: float
    ratio: float | None


_CATALOG: Catalog | None = None
_ARGS: argparse.Namespace | None = None


def trial_outcome(trial: Trial) -> Outcome:
    """Fingerprint one trial (in a worker process: the catalog and options are the
    parent's, inherited at the fork)."""
    catalog, args = _CATALOG, _ARGS
    assert catalog is not None and args is not None
    started = time.perf_counter()
    ratio = None
    if args.protocol:
        command = trial.serve_command() + " --fixed-rules"
        options = Options(impl=command, jobs=args.jobs, timeout=30.0)
        found = fingerprint(catalog, options)
        took = time.perf_counter() - started
        begun = time.perf_counter()
        run_suite(catalog, Options(impl=command, rulesets=[trial.base], jobs=args.jobs))
        ratio = took / (time.perf_counter() - begun)
        started += time.perf_counter() - begun
    else:
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
    return Outcome(result, claimed, tuple(lines), seconds, ratio)


def run(catalog: Catalog, group: str, trials: list[Trial], args: argparse.Namespace) -> None:
    global _CATALOG, _ARGS
    _CATALOG, _ARGS = catalog, args
    tally: Counter[str] = Counter()
    seconds: list[float] = []
    ratios: list[float] = []
    wrong = 0
    workers = 1 if args.protocol else args.jobs
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for outcome in pool.imap(trial_outcome, trials):
            tally[outcome.result] += 1
            seconds.append(outcome.seconds)
            if outcome.ratio is not None:
                ratios.append(outcome.ratio)
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
    if ratios:
        print(
            f"  a fingerprint costs {statistics.median(ratios):.2f}x a conformance run of the "
            f"same engine (median; max {max(ratios):.2f}x)",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ones", type=int, default=3, help="one-parameter mutants per ruleset")
    parser.add_argument("--twos", type=int, default=3, help="two-parameter mutants per ruleset")
    parser.add_argument(
        "--protocol", action="store_true", help="play each trial as serve --play processes"
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=2,
        help="trials fingerprinted at once (in-process), or the harness's processes (--protocol)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="list hits too")
    parser.add_argument("--limit", type=int, help="only the first LIMIT trials of each group")
    args = parser.parse_args(argv)
    catalog = Catalog.load()
    run(catalog, "house rules", house_rule_trials(catalog)[: args.limit], args)
    mutants = mutant_trials(catalog, args.seed, args.ones, 0)[: args.limit]
    run(catalog, "one-parameter mutants", mutants, args)
    mutants = mutant_trials(catalog, args.seed, 0, args.twos)[: args.limit]
    run(catalog, "two-parameter mutants", mutants, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
