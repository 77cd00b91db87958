"""Engine speed, measured against the hard-coded baseline in the same run.

    python benchmarks/engine.py [--seconds 1.0] [--ruleset pagat ...] [--json]

For every ruleset, four seats, the random-bot workload (a knock with probability 0.1 where
legal, otherwise a uniformly random legal action):

* simulation mode: the compiled round function, no events (rounds/s, matches/s);
* full engine: the event log recorded, with and without an observation of the seat to
  move before every decision (rounds/s), and from the two what one observation adds
  (microseconds, per decision);
* hand evaluations per second (table lookups) and the time to build the hand table;

and the ratios against ``baseline_pagat.py``, a loop hard-coded for pagat alone, which
runs just before each timed run of the engine. Each figure and each ratio is the median of
three such pairs of runs. One core; nothing else should be running.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_pagat

from schwimmen.engine.bots import RandomBot
from schwimmen.engine.compiled import compile_round
from schwimmen.engine.hands import Evaluator, evaluator_for
from schwimmen.engine.match import Match
from schwimmen.engine.simulate import Simulator, Stats
from schwimmen.spec.loader import Catalog
from schwimmen.spec.rules import Rules

SEATS = 4


def once(work: Callable[[], int], seconds: float) -> float:
    """Units of work per second over one run of about ``seconds``."""
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += work()
    return done / (time.perf_counter() - start)


def rate(work: Callable[[], int], seconds: float) -> float:
    """Units of work per second: the median of three runs of about ``seconds`` each."""
    return statistics.median(once(work, seconds) for _ in range(3))


def paired(
    work: Callable[[], int], base: Callable[[], int], seconds: float, seen: list[float]
) -> tuple[float, float]:
    """The engine's rate and its ratio to the baseline, each the median of three runs in
    which the baseline runs just before the engine: a machine that speeds up or slows
    down during the benchmark moves both sides of a ratio alike. The baseline's rates are
    added to ``seen``."""
    rates, ratios = [], []
    for _ in range(3):
        reference = once(base, seconds)
        measured = once(work, seconds)
        seen.append(reference)
        rates.append(measured)
        ratios.append(measured / reference)
    return statistics.median(rates), statistics.median(ratios)


def baseline_rounds(rng: random.Random) -> Callable[[], int]:
    def work() -> int:
        for _ in range(200):
            baseline_pagat.play_round(rng, SEATS)
        return 200

    return work


def baseline_matches(rng: random.Random) -> Callable[[], int]:
    def work() -> int:
        for _ in range(10):
            baseline_pagat.play_match(rng, SEATS)
        return 10

    return work


def compiled_rounds(rules: Rules, rng: random.Random) -> Callable[[], int]:
    play = compile_round(rules).play
    pack = evaluator_for(rules).pack
    shuffle, rand = rng.shuffle, rng.random

    def work() -> int:
        for _ in range(200):
            deck = pack[:]
            shuffle(deck)
            play(deck, SEATS, rand, None)
        return 200

    return work


def compiled_matches(rules: Rules, rng: random.Random) -> Callable[[], int]:
    sim = Simulator(rules, SEATS)
    stats = Stats()

    def work() -> int:
        for _ in range(10):
            sim.play_match(rng, stats)
        return 10

    return work


def full_rounds(
    rules: Rules, rng: random.Random, observe: bool, tally: list[int] | None = None
) -> Callable[[], int]:
    """Whole matches through the full engine; ``tally`` counts [rounds, decisions]."""
    bot = RandomBot(rng)
    counts = [0, 0] if tally is None else tally

    def work() -> int:
        match = Match(rules, SEATS, seed=rng.randrange(1 << 30))
        decisions = 0
        while not match.over:
            if observe:
                seat = match.to_move()
                assert seat is not None
                match.observation(seat)
            match.apply(bot.choose(match))
            decisions += 1
        counts[0] += match.round_no
        counts[1] += decisions
        return match.round_no

    return work


def evaluations(evaluator: Evaluator, rng: random.Random) -> Callable[[], int]:
    pack = evaluator.pack
    size = evaluator.hand_size
    hands = [rng.sample(pack, size) for _ in range(1000)]
    packed = evaluator.packed
    flat = evaluator.flat

    if size == 3:

        def work() -> int:
            for h in hands:
                flat[h[0] << 12 | h[1] << 6 | h[2]]
            return len(hands)

        return work

    def work4() -> int:
        for h in hands:
            packed(h)
        return len(hands)

    return work4


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    parser.add_argument("--ruleset", action="append", help="only these rulesets")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    catalog = Catalog.load()
    names = args.ruleset or sorted(catalog.rulesets)
    rng = random.Random(1)
    rounds_base, matches_base = baseline_rounds(rng), baseline_matches(rng)
    seen_r: list[float] = []
    seen_m: list[float] = []
    rows = []
    for name in names:
        rules = catalog.resolve(name).rules
        start = time.perf_counter()
        evaluator = Evaluator(rules)
        build = time.perf_counter() - start
        seats_ok = rules.players.min <= SEATS <= rules.players.max
        if not seats_ok:
            continue
        tally = [0, 0]
        t = args.seconds
        sim_r, sim_ratio = paired(compiled_rounds(rules, rng), rounds_base, t, seen_r)
        sim_m, sim_m_ratio = paired(compiled_matches(rules, rng), matches_base, t, seen_m)
        full, full_ratio = paired(full_rounds(rules, rng, False), rounds_base, t, seen_r)
        observed, observed_ratio = paired(
            full_rounds(rules, rng, True, tally), rounds_base, t, seen_r
        )
        row = {
            "ruleset": name,
            "table_build_s": build,
            "evaluations_per_s": rate(evaluations(evaluator, rng), t),
            "sim_rounds_per_s": sim_r,
            "sim_matches_per_s": sim_m,
            "full_rounds_per_s": full,
            "full_observed_rounds_per_s": observed,
            "sim_ratio": sim_ratio,
            "sim_match_ratio": sim_m_ratio,
            "full_ratio": full_ratio,
            "full_observed_ratio": observed_ratio,
        }
        row["decisions_per_round"] = tally[1] / tally[0]
        # what one observation adds: the difference of the two full-engine rates, per decision
        row["observation_us"] = (1 / observed - 1 / full) * 1e6 / row["decisions_per_round"]
        rows.append(row)
        if not args.json:
            print(
                f"{name:15s} sim {row['sim_rounds_per_s']:9,.0f} r/s ({row['sim_ratio']:.2f}x)"
                f" {row['sim_matches_per_s']:7,.0f} m/s ({row['sim_match_ratio']:.2f}x) | full"
                f" {row['full_rounds_per_s']:7,.0f} r/s ({row['full_ratio']:.3f}x), observed"
                f" {row['full_observed_rounds_per_s']:7,.0f} ({row['full_observed_ratio']:.3f}x,"
                f" {row['observation_us']:.1f} µs an observation)"
                f" | {row['evaluations_per_s'] / 1e6:5.1f}M evals/s,"
                f" table {row['table_build_s'] * 1000:6.0f} ms",
                flush=True,
            )
    base_r = statistics.median(seen_r) if seen_r else 0.0
    base_m = statistics.median(seen_m) if seen_m else 0.0
    summary = {
        "seats": SEATS,
        "baseline_rounds_per_s": base_r,
        "baseline_matches_per_s": base_m,
        "rulesets": rows,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"baseline (hard-coded pagat): {base_r:,.0f} rounds/s, {base_m:,.0f} matches/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
