"""How fast ``schwimmen fuzz`` runs, and how fast it finds and shrinks each house rule.

    python benchmarks/fuzz.py [--seconds 60] [--seeds 1 2 3] [--throughput-seconds 20]
                              [--only HOUSE ...] [--skip-throughput] [--skip-find]

1. Throughput: fuzzing ``schwimmen serve`` (the reference over the protocol, which never
   differs) under a few rulesets, with one and with two implementation processes: cases
   per second, each case generated, played by the reference and by serve; the processor
   time fuzz's own process spends on a case (ms/case, all its threads, the
   implementation's start and the catalog excluded), which a machine shared with other
   work disturbs far less than the wall clock; and the processor time of every process
   of the run on a case (fuzz, the worker processes that make its cases with two jobs,
   and serve), against which the cores the machine has bound what two jobs can gain.
2. Making cases alone, no implementation: cases per second made in this process (as
   one job makes them) and by two worker processes (as two jobs make them), alternately,
   and the ratio: how the fuzz side scales with cores, whatever the implementation.
3. Time to find and shrink: for every house rule in ``spec/house-rules/``, fuzzing
   ``schwimmen serve --play ORIGIN+HOUSE`` with ``--ruleset ORIGIN`` (an engine that
   plays the house rule while claiming its origin) until the first difference is found,
   shrunk and written as a fixture, or ``--seconds`` run out. One more row puts
   one-comparison-at-most-swimming over rules-page+knocker-loses-two, the only base on
   which it can show.

Each row is one ``fuzz`` run in this process (the implementation is a separate process
as always); times are from the start of the run, the implementation's start included.
"""

from __future__ import annotations

import argparse
import itertools
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from schwimmen.conformance.fuzz import FuzzOptions, FuzzReport, fuzz
from schwimmen.conformance.fuzz.supply import PooledSupply, Supply
from schwimmen.spec.loader import Catalog

SERVE = f"{sys.executable} -m schwimmen serve"
THROUGHPUT_RULESETS = ("pagat", "scat", "online")


def _run(
    catalog: Catalog, claimed: str, impl: str, seconds: float, seed: int, jobs: int, out: Path
) -> FuzzReport:
    options = FuzzOptions(impl, seconds=seconds, seed=seed, jobs=jobs, out=out, max_differences=1)
    return fuzz(catalog, catalog.resolve(claimed), options, lambda _: None)


def _all_cpu() -> float:
    """Processor seconds of this process and of its children that have ended (a run
    ends every process it starts before it returns)."""
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def throughput(catalog: Catalog, seconds: float, out: Path) -> None:
    print(f"Throughput against `schwimmen serve` ({seconds:g} s per run, seed 1)")
    print(
        f"{'ruleset':12s} {'jobs':>4s} {'cases':>7s} {'cases/s':>8s} {'fuzz ms/case':>12s} "
        f"{'all ms/case':>11s} {'findings':>8s}"
    )
    for name in THROUGHPUT_RULESETS:
        for jobs in (1, 2):
            cpu, everything = time.process_time(), _all_cpu()
            report = _run(catalog, name, SERVE, seconds, 1, jobs, out / f"{name}-{jobs}")
            cases = max(report.cases, 1)
            used = (time.process_time() - cpu) * 1000 / cases
            used_all = (_all_cpu() - everything) * 1000 / cases
            rate = report.cases / report.seconds
            print(
                f"{name:12s} {jobs:4d} {report.cases:7d} {rate:8.0f} {used:12.2f} "
                f"{used_all:11.2f} {len(report.found):8d}",
                flush=True,
            )
    print()


def _made_per_second(made: Supply, seconds: float, numbers: Iterator[int]) -> float:
    """Cases made per second in a run of ``seconds``, taking numbers one after another as
    a fuzzing run does (each source its own numbers: the same kind of random cases)."""
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < seconds:
        made.get(next(numbers))
        count += 1
    return count / (time.perf_counter() - start)


def making(catalog: Catalog, seconds: float, pairs: int = 3) -> None:
    print(f"Making cases alone ({seconds:g} s per run, seed 1, median of {pairs} pairs)")
    print(f"{'ruleset':12s} {'1 process':>10s} {'2 workers':>10s} {'ratio':>6s}")
    for name in THROUGHPUT_RULESETS:
        ruleset = catalog.resolve(name)
        here, pooled = Supply(ruleset, 1), PooledSupply(ruleset, 1, 2)
        try:
            mine, theirs = itertools.count(), itertools.count()
            pooled.get(next(theirs))  # started, as a run starts it before its first case
            ones, twos = [], []
            for _ in range(pairs):
                ones.append(_made_per_second(here, seconds, mine))
                twos.append(_made_per_second(pooled, seconds, theirs))
        finally:
            pooled.close()
        one, two = statistics.median(ones), statistics.median(twos)
        print(f"{name:12s} {one:10.0f} {two:10.0f} {two / one:6.2f}", flush=True)
    print()


def _rows(catalog: Catalog) -> list[tuple[str, str, str]]:
    """(label, claimed ruleset, the ruleset the implementation plays)."""
    rows = []
    for house, spec in sorted(catalog.house_rules.items()):
        origin = str(spec.data["origin"])
        rows.append((house, origin, f"{origin}+{house}"))
    base = "rules-page+knocker-loses-two"
    rows.append(
        (
            "(knocker-loses-two) + one-comparison-...",
            base,
            f"{base}+one-comparison-at-most-swimming",
        )
    )
    return rows


def time_to_find(
    catalog: Catalog, seconds: float, seeds: list[int], only: list[str], out: Path
) -> int:
    print(
        f"Time to find, shrink and write the difference of each house rule "
        f"(at most {seconds:g} s per run; seeds {', '.join(map(str, seeds))})"
    )
    header = (
        f"{'house rule':42s} {'claims':15s} {'found':>7s} {'written':>8s} {'field':18s} "
        f"{'generated -> shrunk (steps, seats, rounds)':44s} explained by"
    )
    print(header)
    missed = 0
    for label, claimed, played in _rows(catalog):
        if only and not any(o in label for o in only):
            continue
        found_at, written_at = [], []
        shown = None
        for seed in seeds:
            report = _run(
                catalog,
                claimed,
                f"{SERVE} --play {played}",
                seconds,
                seed,
                1,
                out / f"{slug(label)}-{seed}",
            )
            if report.found:
                entry = report.found[0]
                found_at.append(entry.found_after)
                written_at.append(entry.written_after)
                shown = shown or entry
                problems = entry.written.problems
                if problems:
                    print(f"  {label} seed {seed}: {len(problems)} problem(s): {problems[0]}")
        if shown is None:
            missed += 1
            print(
                f"{label:42s} {claimed:15s} {'-':>7s} {'-':>8s} not found within "
                f"{seconds:g} s in any of {len(seeds)} run(s)",
                flush=True,
            )
            continue
        found = statistics.median(found_at)
        written = statistics.median(written_at)
        misses = len(seeds) - len(found_at)
        note = f" (missed in {misses} of {len(seeds)} runs)" if misses else ""
        sizes = f"{shown.before} -> {shown.after}"
        explained = ", ".join(shown.explained) or "(no single change)"
        print(
            f"{label:42s} {claimed:15s} {found:6.1f}s {written:7.1f}s "
            f"{shown.difference.field:18s} {sizes:44s} {explained}{note}",
            flush=True,
        )
    return missed


def slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--throughput-seconds", type=float, default=20.0)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-find", action="store_true")
    parser.add_argument("--only", nargs="*", default=[], metavar="HOUSE")
    args = parser.parse_args(argv)
    catalog = Catalog.load()
    with tempfile.TemporaryDirectory(prefix="schwimmen-fuzz-bench-") as tmp:
        out = Path(tmp)
        if not args.skip_throughput:
            throughput(catalog, args.throughput_seconds, out)
            making(catalog, args.throughput_seconds / 4)
        if not args.skip_find:
            time_to_find(catalog, args.seconds, args.seeds, args.only, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
