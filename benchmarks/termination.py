"""What the search over small positions (schwimmen.engine.reachability) costs.

    python benchmarks/termination.py [--ruleset NAME ...]

For each ruleset and each house rule on the ruleset it comes from, the time of one
search (seeded deals at two and three seats, a walk, playouts, a breadth-first search
where the playouts find no end); then the time of the search on the issue's contradiction
("a knock counts as a pass" with "passing is forbidden"), where the breadth-first search
must see every reachable position to prove that a round cannot end. These are the numbers
behind the choice to run the search offline over every parameter pair
(spec/contradictions.yaml) rather than at every ``validate``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from schwimmen.engine.reachability import explore
from schwimmen.spec import termination
from schwimmen.spec.loader import load_catalog


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", help="only these (repeatable)")
    args = parser.parse_args()
    catalog = load_catalog()
    names = args.ruleset or catalog.standard_names()
    times = []
    for name in names:
        rules = catalog.resolve(name).rules
        explore(rules, deals=1)  # the hand table is built once per way of scoring
        start = time.perf_counter()
        outcome = explore(rules)
        took = time.perf_counter() - start
        times.append(took)
        print(f"{name:45} {took * 1000:7.0f} ms  {outcome.positions:4} positions  ok={outcome.ok}")
    print(
        f"{len(times)} compositions: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms, total {sum(times):.1f} s"
    )
    with termination.unchecked():
        broken = catalog.mutant(
            "pagat", {"knocking.form": "close-by-passing", "turns.passing": "forbidden"}
        )
    start = time.perf_counter()
    outcome = explore(broken.rules)
    print(
        f"proof that pagat+close-by-passing+passing-forbidden never ends: "
        f"{time.perf_counter() - start:.1f} s (found: {outcome.never_ends is not None})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
