"""The hand-written loops of the speed benchmark play the game of their spec.

``benchmarks/handwritten/`` holds pagat and Scat written by hand, without engine code,
as the yardstick of the simulation's speed. A yardstick that played an easier game would
flatter nobody honestly, so its rounds and matches are compared with the engine's on
the same random-bot workload: the share of rounds in which one player loses, the lives a
round costs, and the rounds a match lasts agree within a few standard errors.
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest

from schwimmen.engine.simulate import Simulator, Stats
from schwimmen.spec.loader import Catalog

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from handwritten import pagat, scat

GAMES = {"pagat": pagat, "scat": scat}


def _close(a: list[float], b: list[float]) -> None:
    error = (statistics.variance(a) / len(a) + statistics.variance(b) / len(b)) ** 0.5
    assert abs(statistics.fmean(a) - statistics.fmean(b)) < 5 * error, (
        statistics.fmean(a),
        statistics.fmean(b),
    )


@pytest.mark.parametrize("name", sorted(GAMES))
def test_hand_written_rounds_cost_what_the_engines_cost(name: str, catalog: Catalog) -> None:
    module: ModuleType = GAMES[name]
    simulator = Simulator(catalog.resolve(name).rules, 4)
    rng = random.Random(4)
    pack = simulator.evaluator.pack
    hand, engine = [], []
    for _ in range(6000):
        hand.append(module.play_round(rng, 4))
        deck = pack[:]
        rng.shuffle(deck)
        engine.append(simulator.round(deck, 4, rng.random, None)[2])
    _close([float(sum(x)) for x in hand], [float(sum(x)) for x in engine])
    one = [float(sum(1 for v in x if v) == 1) for x in hand]
    _close(one, [float(sum(1 for v in x if v) == 1) for x in engine])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_hand_written_matches_last_as_long_as_the_engines(name: str, catalog: Catalog) -> None:
    module: ModuleType = GAMES[name]
    rng = random.Random(8)
    hand = [float(module.play_match(rng, 4)) for _ in range(1500)]
    stats = Stats()
    Simulator(catalog.resolve(name).rules, 4).play_matches(8, 0, 1500, stats)
    engine = [float(r) for r in stats.rounds_per_match.elements()]
    _close(hand, engine)
