"""Many random-bot matches of one ruleset, on the compiled rounds, on several cores.

Each match ``i`` draws from its own generator seeded by (seed, i), so the figures do not
depend on how the matches are split between worker processes: the same command gives
the same numbers with ``--jobs 1`` and ``--jobs 2``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from schwimmen.engine.compiled import REASONS, compile_round
from schwimmen.engine.dealing import deal_pattern
from schwimmen.engine.hands import FEUER, MAXIMUM, evaluator_for
from schwimmen.engine.lives import settle
from schwimmen.engine.rotation import next_dealer
from schwimmen.spec.rules import Rules

MAX_ROUNDS = 5_000


@dataclass
class Stats:
    matches: int = 0
    rounds: int = 0
    unfinished: int = 0
    rounds_per_match: Counter[int] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    at_deal: Counter[str] = field(default_factory=Counter)
    dealt_maximum: int = 0
    dealt_feuer: int = 0
    losses_by_seat: Counter[int] = field(default_factory=Counter)
    wins_by_seat: Counter[int] = field(default_factory=Counter)
    replays: int = 0
    showdown_points: float = 0.0
    showdown_hands: int = 0
    lowest_points: float = 0.0
    showdowns: int = 0

    def merge(self, other: Stats) -> None:
        self.matches += other.matches
        self.rounds += other.rounds
        self.unfinished += other.unfinished
        self.rounds_per_match.update(other.rounds_per_match)
        self.endings.update(other.endings)
        self.at_deal.update(other.at_deal)
        self.dealt_maximum += other.dealt_maximum
        self.dealt_feuer += other.dealt_feuer
        self.losses_by_seat.update(other.losses_by_seat)
        self.wins_by_seat.update(other.wins_by_seat)
        self.replays += other.replays
        self.showdown_points += other.showdown_points
        self.showdown_hands += other.showdown_hands
        self.lowest_points += other.lowest_points
        self.showdowns += other.showdowns

    def to_json(self, seats: int) -> dict[str, Any]:
        rounds = max(self.rounds, 1)
        per_match = sorted(self.rounds_per_match.elements())
        return {
            "matches": self.matches,
            "rounds": self.rounds,
            "unfinished_matches": self.unfinished,
            "rounds_per_match": {
                "mean": self.rounds / max(self.matches, 1),
                "median": per_match[len(per_match) // 2] if per_match else 0,
                "max": per_match[-1] if per_match else 0,
            },
            "round_endings": {k: v / rounds for k, v in sorted(self.endings.items())},
            "ended_at_deal": {k: v / rounds for k, v in sorted(self.at_deal.items())},
            "dealt_31_rate": self.dealt_maximum / rounds,  # hands (all players) per round
            "dealt_feuer_rate": self.dealt_feuer / rounds,
            "replayed_rounds": self.replays,
            "losses_by_seat": {f"P{s + 1}": self.losses_by_seat[s] for s in range(seats)},
            "wins_by_seat": {f"P{s + 1}": self.wins_by_seat[s] for s in range(seats)},
            "mean_showdown_points": self.showdown_points / max(self.showdown_hands, 1),
            "mean_lowest_points": self.lowest_points / max(self.showdowns, 1),
        }


class Simulator:
    """Plays matches of one ruleset with the random bot on compiled rounds."""

    def __init__(self, rules: Rules, seats: int) -> None:
        self.rules = rules
        self.seats = seats
        self.evaluator = evaluator_for(rules)
        self.round = compile_round(rules).play
        self.patterns = {p: deal_pattern(rules, p) for p in range(2, seats + 1)}
        self.three = rules.cards.hand_size == 3

    def _flags(self, hand: list[int]) -> int:
        return self.evaluator.packed(hand)

    def play_match(self, rng: random.Random, stats: Stats) -> None:
        rules, seats = self.rules, self.seats
        lives = [rules.lives.count] * seats
        out: set[int] = set()
        dealer = seats - 1
        pack = self.evaluator.pack
        rounds = 0
        while True:
            if rounds >= MAX_ROUNDS:
                stats.unfinished += 1
                break
            rounds += 1
            active = [s for s in range(seats) if s not in out]
            start = active.index(dealer) + 1
            order = active[start:] + active[:start]
            deck = pack[:]
            rng.shuffle(deck)
            for idx in self.patterns[len(order)].hands:
                packed = self._flags([deck[i] for i in idx])
                if packed & MAXIMUM:
                    stats.dealt_maximum += 1
                if packed & FEUER:
                    stats.dealt_feuer += 1
            reason_i, at_deal, losses = self.round(deck, len(order), rng.random, None)
            reason = REASONS[reason_i].value
            stats.endings[reason] += 1
            if at_deal:
                stats.at_deal[reason] += 1
            loss_map = {order[i]: n for i, n in enumerate(losses) if n}
            result = settle(rules, lives, active, loss_map)
            if result.shared_win:
                for s in active:
                    stats.wins_by_seat[s] += 1
                break
            if result.replay:
                stats.replays += 1
            for seat, n, left in result.lost:
                stats.losses_by_seat[seat] += n
                lives[seat] = left
            out.update(result.eliminated)
            if len(active) - len(result.eliminated) <= 1:
                for s in range(seats):
                    if s not in out:
                        stats.wins_by_seat[s] += 1
                break
            dealer = next_dealer(rules, seats, dealer, out, [s for s, _, _ in result.lost])
        stats.matches += 1
        stats.rounds += rounds
        stats.rounds_per_match[rounds] += 1


def showdown_values(rules: Rules, seats: int, rounds: int, seed: int) -> tuple[float, float]:
    """Mean hand value and mean lowest value at showdowns, sampled with the full engine's
    view of hands (a separate, smaller run: the compiled round returns only losses)."""
    from schwimmen.engine.bots import RandomBot
    from schwimmen.engine.match import Match

    rng = random.Random(seed)
    total = lowest = 0.0
    hands = shows = 0
    match = Match(rules, seats, seed=seed, record=False)
    bot = RandomBot(rng)
    while shows < rounds:
        if match.over:
            match = Match(rules, seats, seed=rng.randrange(1 << 30), record=False)
        seen = len(match.results)
        match.apply(bot.choose(match))
        for result in match.results[seen:]:
            points = [float(v.points) for v in result.values.values() if v.points is not None]
            if points:
                total += sum(points)
                hands += len(points)
                lowest += min(points)
                shows += 1
    return total / max(hands, 1), lowest / max(shows, 1)


def _chunk(args: tuple[Rules, int, int, int, int]) -> Stats:
    rules, seats, seed, first, count = args
    sim = Simulator(rules, seats)
    stats = Stats()
    for i in range(first, first + count):
        sim.play_match(random.Random(seed * 1_000_003 + i), stats)
    return stats


def chunks(matches: int, size: int) -> Iterator[tuple[int, int]]:
    for first in range(0, matches, size):
        yield first, min(size, matches - first)


def simulate(
    rules: Rules,
    seats: int,
    matches: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Stats:
    """Play ``matches`` matches; ``progress`` is called with the matches just finished."""
    size = max(1, min(500, matches // max(jobs * 8, 1) or 1))
    total = Stats()
    work = [(rules, seats, seed, first, count) for first, count in chunks(matches, size)]
    if jobs <= 1:
        for item in work:
            part = _chunk(item)
            total.merge(part)
            if progress:
                progress(item[4])
        return total
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for item, part in zip(work, pool.map(_chunk, work), strict=True):
            total.merge(part)
            if progress:
                progress(item[4])
    return total
