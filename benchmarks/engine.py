"""Engine speed, measured against the hard-coded baseline in the same run.

    python benchmarks/engine.py [--seconds 1.0] [--ruleset pagat ...] [--json]

For every ruleset, four seats, the random-bot workload (a knock with probability 0.1 where
legal, otherwise a uniformly random legal action):

* simulation mode: the compiled round function, no events (rounds/s, matches/s);
* full engine: the event log recorded, with and without an observation of the seat to
  move before every decision (rounds/s), and what one observation adds (microseconds,
  per decision: runs without and with observations alternate, each timed in the
  process's CPU time, and the median of the ``--pairs`` differences per decision is
  given, so that a busy machine moves both sides alike);
* hand evaluations per second (table lookups) and the time to build the hand table;

and the ratios against ``baseline_pagat.py``, a loop hard-coded for pagat alone, which
runs just before each timed run of the engine. Each figure and each ratio is the median of
three such pairs of runs. One core; nothing else should be running.

For the rulesets written by hand for speed (``handwritten/pagat.py`` and
``handwritten/scat.py``: plain Python, no engine code), the simulation is also compared
with them, in the same run and the same way (the hand-written loop just before the
simulation, median of ``--pairs`` pairs): rounds alone (``hand_round_ratio``) and
rounds played in whole matches as ``schwimmen simulate`` plays them
(``hand_match_ratio``, rounds/s of both). These are the ratios that matter to a user:
the simulation against the fastest loop one can write for one ruleset. The full engine
(event log recorded, no observation) is compared with the same loop's whole matches
(``full_hand_ratio``): what fuzzing and every conformance case replay pay.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_pagat
from handwritten import pagat as hand_pagat
from handwritten import scat as hand_scat

from schwimmen.engine.bots import RandomBot
from schwimmen.engine.compiled import compile_round
from schwimmen.engine.hands import Evaluator, evaluator_for
from schwimmen.engine.match import Match
from schwimmen.engine.simulate import CHUNK, Simulator, Stats, lockstep_missing
from schwimmen.spec.loader import Catalog
from schwimmen.spec.rules import Rules

SEATS = 4
HANDWRITTEN = {"pagat": hand_pagat, "scat": hand_scat}


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
    work: Callable[[], int],
    base: Callable[[], int],
    seconds: float,
    seen: list[float],
    pairs: int = 3,
) -> tuple[float, float]:
    """The engine's rate and its ratio to the baseline, each the median of ``pairs`` runs
    in which the baseline runs just before the engine: a machine that speeds up or slows
    down during the benchmark moves both sides of a ratio alike. The baseline's rates are
    added to ``seen``."""
    rates, ratios = [], []
    for _ in range(pairs):
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


def hand_rounds(module: Any, rng: random.Random) -> Callable[[], int]:
    play = module.play_round

    def work() -> int:
        for _ in range(200):
            play(rng, SEATS)
        return 200

    return work


def hand_matches(module: Any, rng: random.Random) -> Callable[[], int]:
    """Rounds played in whole matches by a hand-written loop."""
    play = module.play_match

    def work() -> int:
        return sum(play(rng, SEATS) for _ in range(50))

    return work


def sim_rounds(rules: Rules, rng: random.Random) -> Callable[[], int]:
    """The simulation's rounds alone: a batch in lockstep, or the compiled round where
    lockstep cannot play the ruleset."""
    if lockstep_missing(rules):
        return compiled_rounds(rules, rng)
    import numpy as np

    from schwimmen.engine.lockstep import Lockstep

    kernel = Lockstep(rules)
    gen = np.random.default_rng(rng.randrange(1 << 30))

    def work() -> int:
        kernel.play(SEATS, 4096, gen)
        return 4096

    return work


def sim_matches(rules: Rules, rng: random.Random, unit: str = "rounds") -> Callable[[], int]:
    """Whole matches as ``schwimmen simulate`` plays them, one chunk at a time on the
    engine it chooses, counted in ``unit`` ("rounds" or "matches") played."""
    sim = Simulator(rules, SEATS)
    seed = rng.randrange(1 << 30)
    first = [0]

    def work() -> int:
        stats = Stats()
        sim.play_matches(seed, first[0], CHUNK, stats)
        first[0] += CHUNK
        return int(getattr(stats, unit))

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


def observation_cost(rules: Rules, rng: random.Random, seconds: float, pairs: int) -> float:
    """What one observation of the seat to move adds to a decision of the full engine, in
    microseconds of CPU time: the median over ``pairs`` of the difference per decision
    between a run with observations and the run just before it without."""
    added = []
    for _ in range(pairs):
        per_decision = []
        for observe in (False, True):
            tally = [0, 0]
            work = full_rounds(rules, rng, observe, tally)
            start = time.process_time()
            while time.process_time() - start < seconds:
                work()
            per_decision.append((time.process_time() - start) / tally[1])
        added.append((per_decision[1] - per_decision[0]) * 1e6)
    return statistics.median(added)


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
    parser.add_argument(
        "--pairs", type=int, default=5, help="pairs of runs against a hand-written loop"
    )
    parser.add_argument(
        "--hand-only", action="store_true", help="only the comparison with the hand-written loops"
    )
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
        t = args.seconds
        row: dict[str, Any] = {"ruleset": name}
        module = HANDWRITTEN.get(name)
        if module is not None:
            seen_h: list[float] = []
            seen_hm: list[float] = []
            row["sim_engine"] = Simulator(rules, SEATS).engine()
            row["lockstep_rounds_per_s"], row["hand_round_ratio"] = paired(
                sim_rounds(rules, rng), hand_rounds(module, rng), t, seen_h, args.pairs
            )
            row["sim_match_rounds_per_s"], row["hand_match_ratio"] = paired(
                sim_matches(rules, rng), hand_matches(module, rng), t, seen_hm, args.pairs
            )
            seen_hf: list[float] = []
            row["full_hand_rounds_per_s"], row["full_hand_ratio"] = paired(
                full_rounds(rules, rng, False), hand_matches(module, rng), t, seen_hf, args.pairs
            )
            row["hand_rounds_per_s"] = statistics.median(seen_h)
            row["hand_match_rounds_per_s"] = statistics.median(seen_hm)
            if not args.json:
                print(
                    f"{name:15s} vs hand-written: rounds {row['lockstep_rounds_per_s']:9,.0f}"
                    f" r/s vs {row['hand_rounds_per_s']:8,.0f} ({row['hand_round_ratio']:.2f}x)"
                    f" | in matches {row['sim_match_rounds_per_s']:8,.0f} r/s vs"
                    f" {row['hand_match_rounds_per_s']:8,.0f} ({row['hand_match_ratio']:.2f}x)"
                    f" | {row['sim_engine']} | full engine {row['full_hand_rounds_per_s']:7,.0f}"
                    f" r/s in matches ({row['full_hand_ratio']:.3f}x)",
                    flush=True,
                )
        if args.hand_only:
            if module is not None:
                rows.append(row)
            continue
        tally = [0, 0]
        sim_r, sim_ratio = paired(sim_rounds(rules, rng), rounds_base, t, seen_r)
        sim_m, sim_m_ratio = paired(sim_matches(rules, rng, "matches"), matches_base, t, seen_m)
        full, full_ratio = paired(full_rounds(rules, rng, False), rounds_base, t, seen_r)
        observed, observed_ratio = paired(
            full_rounds(rules, rng, True, tally), rounds_base, t, seen_r
        )
        row |= {
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
        row["observation_us"] = observation_cost(rules, rng, t, args.pairs)
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
