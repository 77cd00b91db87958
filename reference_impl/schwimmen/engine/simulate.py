"""Many bot matches of one ruleset, on the fastest engine that plays them, on several cores.

Two bots (:data:`BOTS`): the random bot of the speed benchmark, and the greedy bot of
:mod:`schwimmen.engine.bots`, which plays as people do (keeps the better hand, knocks on a
good one), so that rulesets whose rounds end only on a 31 finish. The random bot plays
on rounds in lockstep (:mod:`schwimmen.engine.lockstep`) where numpy is installed and the
ruleset needs nothing it lacks, otherwise on the compiled round; the greedy bot plays on
the full engine. :meth:`Simulator.engine` says which.

The matches are cut into chunks of :data:`CHUNK`, each with its own generators seeded by
(seed, number of its first match), whatever the number of worker processes: the same
command gives the same figures with ``--jobs 1`` and ``--jobs 2``, and chunks played on
different machines add up to the run of one.
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
from schwimmen.spec.vocabulary import KnockRequires

MAX_ROUNDS = 5_000
MAX_STEPS = 200_000  # decisions in one match on the full engine before it counts as unfinished
CHUNK = 2000  # matches played with one set of generators
BATCH = 4096  # rounds played in lockstep at once: a batch's fixed cost against waste
BOTS = {
    "greedy": "greedy (keeps the best hand, knocks at 26 points or more)",
    "random": "random (knock with probability 0.1, otherwise a uniformly random legal action)",
}


def choose_bot(rules: Rules, asked: str) -> tuple[str, str]:
    """The bot ``--bot`` names, and why: ``auto`` is the random bot (the fastest figures)
    unless a knock needs a 31 (``knocking.requires: maximum``), which random play seldom
    holds, so that its rounds would hardly ever end; there the greedy bot plays."""
    if asked != "auto":
        return asked, "asked for"
    if rules.knocking.requires is KnockRequires.MAXIMUM:
        return "greedy", "chosen by --bot auto: a knock needs a 31, which random play seldom holds"
    return "random", "chosen by --bot auto"


def lockstep_missing(rules: Rules) -> list[str]:
    """Why the random bot's rounds of ``rules`` cannot be played in lockstep (empty: they
    can)."""
    try:
        from schwimmen.engine.lockstep import unsupported
    except ImportError:
        return ["numpy is not installed"]
    return unsupported(rules)


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
    """Plays matches of one ruleset with one bot (a key of :data:`BOTS`)."""

    def __init__(self, rules: Rules, seats: int, bot: str = "random") -> None:
        if bot not in BOTS:
            raise ValueError(f"no bot {bot!r}: {', '.join(BOTS)}")
        self.rules = rules
        self.seats = seats
        self.bot = bot
        self.evaluator = evaluator_for(rules)
        self.round = compile_round(rules).play
        self.patterns = {p: deal_pattern(rules, p) for p in range(2, seats + 1)}
        self.three = rules.cards.hand_size == 3
        self.missing = lockstep_missing(rules) if bot == "random" else []
        # the match as a state machine between rounds, built as states are met
        self._states: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        self._state_ids: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self._moves: list[dict[int, int]] = []
        self._effects: list[_Effect] = []
        self._kernel: Any = None

    def engine(self) -> str:
        """Which engine plays the matches, in words."""
        if self.bot == "greedy":
            return "full engine (the greedy bot plays on the engine's legal actions)"
        if not self.missing:
            return "rounds in lockstep (numpy)"
        return "compiled round (lockstep lacks: " + ", ".join(self.missing) + ")"

    def _flags(self, hand: list[int]) -> int:
        return self.evaluator.packed(hand)

    def play_matches(self, seed: int, first: int, count: int, stats: Stats) -> None:
        """Matches ``first`` to ``first + count - 1`` of the run seeded by ``seed``, cut
        into chunks at the multiples of :data:`CHUNK` as :func:`simulate` cuts them."""
        end = first + count
        while first < end:
            size = min(end, (first // CHUNK + 1) * CHUNK) - first
            self.play_chunk(seed, first, size, stats)
            first += size

    def play_chunk(self, seed: int, first: int, count: int, stats: Stats) -> None:
        """Matches ``first`` to ``first + count - 1`` as one chunk: their figures depend on
        the seed, ``first`` and ``count`` only."""
        if self.bot == "random" and not self.missing:
            self._lockstep_chunk(seed, first, count, stats)
        else:
            for i in range(first, first + count):
                self.play_match(random.Random(seed * 1_000_003 + i), stats)

    def play_match(self, rng: random.Random, stats: Stats) -> None:
        """One match whose random numbers come from ``rng``, on the compiled round (the
        random bot) or the full engine (the greedy bot)."""
        if self.bot == "greedy":
            self._full_engine_match(rng, stats)
            return
        self._match(stats, rng)

    def _lockstep_chunk(self, seed: int, first: int, count: int, stats: Stats) -> None:
        import numpy as np

        from schwimmen.engine.lockstep import Lockstep

        gen = np.random.default_rng([seed % (1 << 64), first])
        if self._kernel is None:
            self._kernel = Lockstep(self.rules)
        # A first batch for about the rounds a match plays at each table size; the sizes
        # depend on ``count`` alone, so that the random stream does too.
        pools = {n: _Pool(self._kernel, n, gen, BATCH) for n in self.patterns}
        self._pooled_matches(count, pools, stats)
        for pool in pools.values():
            pool.tally(stats)

    def _pooled_matches(self, count: int, pools: dict[int, _Pool], stats: Stats) -> None:
        """``count`` matches on round outcomes from ``pools``. A round's effect on the
        match (settlement, next dealer) depends only on the seats in deal order, their
        lives and the round's outcome, so it is computed once per such state and
        outcome and remembered; the figures are added up from how often each effect
        happened."""
        states, moves, effects = self._states, self._moves, self._effects
        if not states:
            self._state(
                self._order(self.seats - 1, frozenset()), (self.rules.lives.count,) * self.seats
            )
        draws = [pools[len(order)].draw for order, _ in states]
        hits = [0] * len(effects)
        after = [e.state for e in effects]
        lengths = [0] * (MAX_ROUNDS + 1)
        total = 0
        for _ in range(count):
            state = 0
            rounds = 0
            while True:
                rounds += 1
                code = draws[state]()
                found = moves[state].get(code)
                if found is None:
                    found = moves[state][code] = self._effect(state, code)
                    draws += [pools[len(order)].draw for order, _ in states[len(draws) :]]
                    hits.append(0)
                    after.append(effects[found].state)
                hits[found] += 1
                state = after[found]
                if state < 0:
                    break
                if rounds >= MAX_ROUNDS:
                    stats.unfinished += 1
                    break
            lengths[rounds] += 1
            total += rounds
        stats.matches += count
        stats.rounds += total
        for rounds, times in enumerate(lengths):
            if times:
                stats.rounds_per_match[rounds] += times
        for found, times in enumerate(hits):
            if not times:
                continue
            effect = effects[found]
            stats.replays += effect.replay * times
            for seat, lost in effect.lost:
                stats.losses_by_seat[seat] += lost * times
            for seat in effect.winners:
                stats.wins_by_seat[seat] += times

    def _state(self, order: tuple[int, ...], lives: tuple[int, ...]) -> int:
        """The number of a match's state between rounds (seats in deal order, lives)."""
        key = (order, lives)
        found = self._state_ids.get(key)
        if found is None:
            found = self._state_ids[key] = len(self._states)
            self._states.append(key)
            self._moves.append({})
        return found

    def _order(self, dealer: int, out: frozenset[int]) -> tuple[int, ...]:
        """The seats still in, in deal order: from the dealer's left, the dealer last."""
        active = [s for s in range(self.seats) if s not in out]
        start = active.index(dealer) + 1
        return tuple(active[start:] + active[:start])

    def _effect(self, state: int, code: int) -> int:
        """What a round with losses ``code`` (see :meth:`Lockstep.loss_codes`) does to a match
        in ``state``, as :meth:`_match` plays it; returns the effect's number."""
        order, lives = self._states[state]
        losses = [code >> (4 * i) & 15 for i in range(len(order))]
        active = sorted(order)
        out = frozenset(s for s in range(self.seats) if lives[s] < 0)
        loss_map = {order[i]: n for i, n in enumerate(losses) if n}
        result = settle(self.rules, [max(x, 0) for x in lives], active, loss_map)
        lost = tuple((seat, n) for seat, n, _ in result.lost)
        after = list(lives)
        for seat, _, left in result.lost:
            after[seat] = left
        now_out = out | frozenset(result.eliminated)
        for seat in now_out:
            after[seat] = -1
        if result.shared_win:
            effect = _Effect(False, (), tuple(active), -1)
        elif len(active) - len(result.eliminated) <= 1:
            winners = tuple(s for s in range(self.seats) if s not in now_out)
            effect = _Effect(result.replay, lost, winners, -1)
        else:
            losers = [s for s, _, _ in result.lost]
            dealer = next_dealer(self.rules, self.seats, order[-1], now_out, losers)
            nxt = self._state(self._order(dealer, now_out), tuple(after))
            effect = _Effect(result.replay, lost, (), nxt)
        self._effects.append(effect)
        return len(self._effects) - 1

    def _match(self, stats: Stats, rng: random.Random) -> None:
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

    def _full_engine_match(self, rng: random.Random, stats: Stats) -> None:
        """One match of greedy bots on the full engine; the packs come from ``rng`` and are
        kept, so that the hands as dealt can be counted as on the compiled rounds."""
        from schwimmen.engine.bots import GreedyBot
        from schwimmen.engine.match import Match

        rules, seats = self.rules, self.seats
        packs: list[list[int]] = []

        def shuffled() -> list[int]:
            pack = list(self.evaluator.pack)
            rng.shuffle(pack)
            packs.append(pack)
            return pack

        spare = 8  # rounds that end at the deal start the next one within one action
        match = Match(rules, seats, decks=[shuffled() for _ in range(spare)], record=False)
        bot = GreedyBot()
        steps = 0
        while not match.over and steps < MAX_STEPS:
            while len(match.decks) < spare:
                match.decks.append(shuffled())
            match.apply(bot.choose(match))
            steps += 1
        if len(packs) - len(match.decks) != match.round_no:
            raise AssertionError("a round was dealt from a pack that was not counted")
        lives = [rules.lives.count] * seats
        for number, result in enumerate(match.results):
            deck = packs[number]
            for idx in self.patterns[len(result.hands)].hands:
                packed = self._flags([deck[i] for i in idx])
                stats.dealt_maximum += bool(packed & MAXIMUM)
                stats.dealt_feuer += bool(packed & FEUER)
            reason = result.reason.value
            stats.endings[reason] += 1
            if result.at_deal:
                stats.at_deal[reason] += 1
            points = [float(v.points) for v in result.values.values() if v.points is not None]
            if points:
                stats.showdown_points += sum(points)
                stats.showdown_hands += len(points)
                stats.lowest_points += min(points)
                stats.showdowns += 1
            # the match settles each result so; settling it again gives the figures
            outcome = settle(rules, lives, sorted(result.hands), result.losses)
            stats.replays += outcome.replay
            for seat, n, left in outcome.lost:
                stats.losses_by_seat[seat] += n
                lives[seat] = left
        rounds = len(match.results)
        if not match.over:
            stats.unfinished += 1
        else:
            for seat in match.winners:
                stats.wins_by_seat[seat] += 1
        stats.matches += 1
        stats.rounds += rounds
        stats.rounds_per_match[rounds] += 1


@dataclass(frozen=True)
class _Effect:
    """What one round does to a match (see :meth:`Simulator._pooled_matches`): (seat,
    lives lost) for the figures, the winners, and the next state (-1: the match is
    over)."""

    replay: bool
    lost: tuple[tuple[int, int], ...]
    winners: tuple[int, ...]
    state: int


class _Pool:
    """Round outcomes of ``n`` players, played in lockstep ``size`` at a time as they are
    needed (the size is fixed, so that the random stream does not depend on what was
    played before); counts what it hands out."""

    def __init__(self, kernel: Any, n: int, gen: Any, size: int) -> None:
        self.kernel, self.n, self.gen = kernel, n, gen
        self.size = max(256, min(size, 16_384))
        self.batches: list[Any] = []
        self._codes: Iterator[int] = iter(())
        self.handed = 0  # outcomes of the batches before the last

    def draw(self) -> int:
        for code in self._codes:
            return code
        if self.batches:
            self.handed += len(self.batches[-1].reason)
        batch = self.kernel.play(self.n, self.size, self.gen)
        self.batches.append(batch)
        self._codes = iter(self.kernel.loss_codes(batch).tolist())
        return next(self._codes)

    @property
    def used(self) -> int:
        """Outcomes handed out so far."""
        if not self.batches:
            return 0
        left = sum(1 for _ in self._copy_rest())
        return self.handed + len(self.batches[-1].reason) - left

    def _copy_rest(self) -> list[int]:
        rest = list(self._codes)
        self._codes = iter(rest)
        return rest

    def tally(self, stats: Stats) -> None:
        """Add the figures of the rounds handed out to ``stats``."""
        import numpy as np

        if not self.batches:
            return
        used = self.used
        reason = np.concatenate([b.reason for b in self.batches])[:used]
        at_deal = np.concatenate([b.at_deal for b in self.batches])[:used]
        dealt_max = np.concatenate([b.dealt_maximum for b in self.batches])[:used]
        dealt_feuer = np.concatenate([b.dealt_feuer for b in self.batches])[:used]
        ends = np.bincount(reason, minlength=len(REASONS)).tolist()
        early = np.bincount(reason[at_deal], minlength=len(REASONS)).tolist()
        for i, why in enumerate(REASONS):
            if ends[i]:
                stats.endings[why.value] += ends[i]
            if early[i]:
                stats.at_deal[why.value] += early[i]
        stats.dealt_maximum += int(dealt_max.sum())
        stats.dealt_feuer += int(dealt_feuer.sum())


def showdown_values(
    rules: Rules, seats: int, rounds: int, seed: int, bot: str = "random"
) -> tuple[float, float]:
    """Mean hand value and mean lowest value at showdowns, sampled with the full engine's
    view of hands (a separate, smaller run: the fast engines return only losses)."""
    mean, low, _ = showdown_sample(rules, seats, rounds, seed, bot)
    return mean, low


def showdown_sample(
    rules: Rules, seats: int, rounds: int, seed: int, bot: str = "random"
) -> tuple[float, float, int]:
    """:func:`showdown_values` and the number of showdowns they come from: ``rounds``, or
    fewer where :data:`MAX_STEPS` decisions did not reach so many."""
    from schwimmen.engine.bots import Bot, GreedyBot, RandomBot
    from schwimmen.engine.match import Match

    rng = random.Random(seed)
    total = lowest = 0.0
    hands = shows = 0
    match = Match(rules, seats, seed=seed, record=False)
    player: Bot = GreedyBot() if bot == "greedy" else RandomBot(rng)
    steps = 0
    while shows < rounds and steps < MAX_STEPS:
        steps += 1
        if match.over:
            match = Match(rules, seats, seed=rng.randrange(1 << 30), record=False)
        seen = len(match.results)
        match.apply(player.choose(match))
        for result in match.results[seen:]:
            points = [float(v.points) for v in result.values.values() if v.points is not None]
            if points:
                total += sum(points)
                hands += len(points)
                lowest += min(points)
                shows += 1
    return total / max(hands, 1), lowest / max(shows, 1), shows


_SIMULATORS: dict[tuple[str, int, str], Simulator] = {}


def _simulator(rules: Rules, seats: int, bot: str) -> Simulator:
    """One simulator per ruleset, table and bot in each process, so that the match's
    state machine it builds serves every chunk the process plays."""
    key = (repr(rules), seats, bot)
    found = _SIMULATORS.get(key)
    if found is None:
        if len(_SIMULATORS) > 8:
            _SIMULATORS.clear()
        found = _SIMULATORS[key] = Simulator(rules, seats, bot)
    return found


def _chunk(args: tuple[Rules, int, int, int, int, str]) -> Stats:
    rules, seats, seed, first, count, bot = args
    stats = Stats()
    _simulator(rules, seats, bot).play_chunk(seed, first, count, stats)
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
    bot: str = "random",
    chunk: int = CHUNK,
) -> Stats:
    """Play ``matches`` matches; ``progress`` is called with the matches just finished.
    The work is cut into chunks of ``chunk`` matches whatever ``jobs`` is, so the
    figures depend on the seed (and the chunk size) alone."""
    total = Stats()
    work = [(rules, seats, seed, first, count, bot) for first, count in chunks(matches, chunk)]
    if jobs <= 1 or len(work) == 1:  # one chunk: no worker process to start
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
