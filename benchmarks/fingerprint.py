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

By default the trials are played in-process (the same engine ``serve --play`` runs, each
position answered once), which measures the reasoning; ``--protocol`` runs each trial as
``schwimmen serve --play`` processes, which is what a user's engine costs (seconds per
trial: the suite is run under every base).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from schwimmen.conformance.fingerprint import fingerprint
from schwimmen.conformance.fingerprint.trials import (
    HIT,
    IN_PART,
    INCONSISTENT,
    INDISTINGUISHABLE,
    MISS,
    NOT_OBSERVABLE,
    Trial,
    house_rule_trials,
    inconsistencies,
    mutant_trials,
    played_in_process,
    verdict,
)
from schwimmen.conformance.harness import Options
from schwimmen.spec.loader import Catalog


def run(catalog: Catalog, group: str, trials: list[Trial], args: argparse.Namespace) -> None:
    tally: Counter[str] = Counter()
    seconds: list[float] = []
    for trial in trials:
        started = time.perf_counter()
        if args.protocol:
            options = Options(impl=trial.serve_command(), jobs=args.jobs, timeout=30.0)
            found = fingerprint(catalog, options)
        else:
            found = fingerprint(
                catalog, Options(), implementation=played_in_process(catalog, trial)
            )
        seconds.append(time.perf_counter() - started)
        result = verdict(catalog, trial, found)
        tally[result] += 1
        if result != HIT or args.verbose:
            best = found.closest
            shown = f"{best.base} {best.changes}" if best else found.problem
            print(f"  {result:18s} {trial.label}: found {shown} ({seconds[-1]:.1f} s)", flush=True)
        if result == INCONSISTENT:
            for line in inconsistencies(catalog, trial, found):
                print(f"      the reference fails {line}", flush=True)
    fair = len(trials) - tally[NOT_OBSERVABLE] - tally[INCONSISTENT]
    rate = tally[HIT] / fair if fair else 0.0
    print(
        f"{group}: {tally[HIT]}/{len(trials)} exact hits, {tally[HIT]}/{fair} ({rate:.0%}) of "
        f"those the suite can see and agrees with; {tally[NOT_OBSERVABLE]} not observable by "
        f"the suite, {tally[INCONSISTENT]} with the suite inconsistent, {tally[IN_PART]} seen "
        f"in part, {tally[INDISTINGUISHABLE]} indistinguishable, {tally[MISS]} missed; "
        f"{statistics.mean(seconds):.2f} s per fingerprint "
        f"(median {statistics.median(seconds):.2f}, max {max(seconds):.2f})",
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
    parser.add_argument("-j", "--jobs", type=int, default=2, help="processes with --protocol")
    parser.add_argument("-v", "--verbose", action="store_true", help="list hits too")
    args = parser.parse_args(argv)
    catalog = Catalog.load()
    run(catalog, "house rules", house_rule_trials(catalog), args)
    mutants = mutant_trials(catalog, args.seed, args.ones, 0)
    run(catalog, "one-parameter mutants", mutants, args)
    mutants = mutant_trials(catalog, args.seed, 0, args.twos)
    run(catalog, "two-parameter mutants", mutants, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
