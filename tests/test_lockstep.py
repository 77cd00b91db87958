"""The simulation in lockstep (numpy) and the match state machine that plays its rounds.

Differential testing as for the compiled round: every round of a traced batch is replayed
action by action through the full engine, which must accept each action from the same
seat and end the round with the same reason and losses. The state machine that turns
round outcomes into match figures is checked against the plain match loop (settle, next
dealer) on the same outcomes, and the figures of a run against the number of processes.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from schwimmen.conformance.harness import default_rulesets
from schwimmen.engine.invariants import check_batch
from schwimmen.engine.lives import settle
from schwimmen.engine.rotation import next_dealer
from schwimmen.engine.simulate import Simulator, Stats, choose_bot, lockstep_missing, simulate
from schwimmen.spec.loader import Catalog
from schwimmen.spec.rules import Rules

np = pytest.importorskip("numpy")
from schwimmen.engine.lockstep import Lockstep  # noqa: E402


@cache
def _catalog() -> Catalog:
    return Catalog.load()


NAMES = default_rulesets(_catalog())
PLAYED = [n for n in NAMES if not lockstep_missing(_catalog().resolve(n).rules)]

# parameters lockstep play switches on that no shipped ruleset of PLAYED may use
MUTANTS = [
    ("pagat", {"knocking.last_cycle": "until-dealer"}),
    ("pagat", {"knocking.first_turn": "not-on-first-turn-of-deal"}),
    ("pagat", {"penalties.complete_tie": "nobody-loses"}),
    ("pagat", {"penalties.knocker_tied": "ordinary", "penalties.knocker_lowest": 2}),
    ("scat", {"knocking.last_cycle": "until-dealer"}),
    ("scat", {"knocking.first_turn": "not-on-first-turn-of-deal"}),
    ("scat", {"penalties.knocker_tied": "ordinary"}),
    ("scat", {"draw.rediscard": "allowed"}),
]


def _replay_batch(rules: Rules, seed: int, per_table: int) -> int:
    kernel = Lockstep(rules)
    gen = np.random.default_rng(seed)
    checked = 0
    for n in range(rules.players.min, min(6, rules.players.max) + 1):
        batch = kernel.play(n, per_table, gen, trace=True)
        assert (batch.reason >= 0).all(), "a round of the batch did not end"
        check_batch(rules, n, batch, per_table)
        checked += per_table
    return checked


def test_lockstep_plays_the_games_the_benchmark_compares() -> None:
    assert "pagat" in PLAYED and "scat" in PLAYED


@pytest.mark.parametrize("name", PLAYED)
def test_lockstep_rounds_agree_with_the_full_engine(name: str) -> None:
    rules = _catalog().resolve(name).rules
    assert _replay_batch(rules, zlib.crc32(name.encode()), 40) >= 40


@pytest.mark.parametrize(("base", "changes"), MUTANTS)
def test_lockstep_rounds_agree_on_other_parameters(base: str, changes: dict[str, Any]) -> None:
    rules = _catalog().mutant(base, changes).rules
    assert not lockstep_missing(rules)
    _replay_batch(rules, zlib.crc32(repr(changes).encode()), 30)


def test_a_ruleset_lockstep_cannot_play_falls_back_to_the_compiled_round() -> None:
    others = [n for n in NAMES if n not in PLAYED]
    assert others
    for name in others:
        rules = _catalog().resolve(name).rules
        missing = lockstep_missing(rules)
        assert missing
        engine = Simulator(rules, rules.players.min).engine()
        assert engine.startswith("compiled round") and missing[0] in engine
        with pytest.raises(ValueError, match="lockstep play lacks"):
            Lockstep(rules)


class _Listed:
    """Round outcomes handed out in a fixed order (the pools' interface)."""

    def __init__(self, codes: list[int]) -> None:
        self._codes: Iterator[int] = iter(codes)

    def draw(self) -> int:
        return next(self._codes)


def _plain_matches(rules: Rules, seats: int, count: int, outcomes: dict[int, list[int]]) -> Stats:
    """The oracle: each round's losses settled and the deal passed on directly."""
    stats = Stats()
    at = dict.fromkeys(outcomes, 0)
    for _ in range(count):
        lives = [rules.lives.count] * seats
        out: set[int] = set()
        dealer = seats - 1
        rounds = 0
        while True:
            rounds += 1
            active = [s for s in range(seats) if s not in out]
            start = active.index(dealer) + 1
            order = active[start:] + active[:start]
            code = outcomes[len(order)][at[len(order)]]
            at[len(order)] += 1
            losses = {order[i]: code >> (4 * i) & 15 for i in range(len(order))}
            result = settle(rules, lives, active, {s: n for s, n in losses.items() if n})
            if result.shared_win:
                for s in active:
                    stats.wins_by_seat[s] += 1
                break
            stats.replays += result.replay
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
    return stats


@pytest.mark.parametrize(
    ("name", "changes"),
    [
        ("pagat", {}),
        ("scat", {}),
        ("pagat", {"match.everyone_out": "shared-win", "lives.count": 1}),
        ("pagat", {"match.everyone_out": "no-winner", "lives.count": 1}),
        ("scat", {"lives.multi_loss": "stop-at-swimming"}),
        ("pagat", {"match.dealer_rotation": "loser"}),
    ],
)
def test_the_match_state_machine_gives_the_plain_loops_figures(
    name: str, changes: dict[str, Any]
) -> None:
    rules = _catalog().mutant(name, changes).rules if changes else _catalog().resolve(name).rules
    seats = 4
    kernel = Lockstep(rules)
    gen = np.random.default_rng(5)
    outcomes = {
        n: kernel.loss_codes(kernel.play(n, 6000, gen)).tolist() for n in range(2, seats + 1)
    }
    simulator = Simulator(rules, seats)
    fast = Stats()
    pools: Any = {n: _Listed(codes) for n, codes in outcomes.items()}
    simulator._pooled_matches(300, pools, fast)
    plain = _plain_matches(rules, seats, 300, outcomes)
    assert fast.matches == plain.matches == 300
    assert (fast.rounds, fast.rounds_per_match) == (plain.rounds, plain.rounds_per_match)
    assert fast.losses_by_seat == plain.losses_by_seat
    assert fast.wins_by_seat == plain.wins_by_seat
    assert fast.replays == plain.replays


@pytest.mark.parametrize("name", ["pagat", "tri-palki"])
def test_the_figures_do_not_depend_on_the_number_of_processes(name: str) -> None:
    rules = _catalog().resolve(name).rules
    one = simulate(rules, 4, 240, 7, jobs=1, chunk=80).to_json(4)
    two = simulate(rules, 4, 240, 7, jobs=2, chunk=80).to_json(4)
    assert one == two
    assert one["matches"] == 240 and one["unfinished_matches"] == 0


def test_chunks_played_apart_add_up_to_the_run() -> None:
    """The seeds partition the work: chunks played by separate simulators (processes,
    machines) and merged give the figures of one run."""
    rules = _catalog().resolve("pagat").rules
    whole = simulate(rules, 4, 300, 11, jobs=1, chunk=100).to_json(4)
    merged = Stats()
    for first in (200, 0, 100):
        part = Stats()
        Simulator(rules, 4).play_chunk(11, first, 100, part)
        merged.merge(part)
    assert merged.to_json(4) == whole


def test_lockstep_and_compiled_rounds_end_alike_in_distribution() -> None:
    """The same random bot on both engines: the shares of round endings agree within a
    few standard errors (they are different random streams of the same game)."""
    rules = _catalog().resolve("pagat").rules
    kernel = Lockstep(rules)
    batch = kernel.play(4, 20_000, np.random.default_rng(2))
    simulator = Simulator(rules, 4)
    rng = random.Random(2)
    pack = simulator.evaluator.pack
    compiled = []
    for _ in range(20_000):
        deck = pack[:]
        rng.shuffle(deck)
        compiled.append(simulator.round(deck, 4, rng.random, None)[0])
    for reason in set(compiled):
        p = compiled.count(reason) / len(compiled)
        q = float((batch.reason == reason).mean())
        error = (p * (1 - p) / len(compiled) * 2) ** 0.5
        assert abs(p - q) < 5 * error + 1e-3, (reason, p, q)


# ------------------------------------------------------------------ the greedy bot
def test_auto_chooses_the_greedy_bot_where_a_knock_needs_a_31() -> None:
    catalog = _catalog()
    assert choose_bot(catalog.resolve("tri-palki+close-only-with-31").rules, "auto")[0] == "greedy"
    assert choose_bot(catalog.resolve("pagat").rules, "auto")[0] == "random"
    assert choose_bot(catalog.resolve("pagat").rules, "greedy") == ("greedy", "asked for")


def test_greedy_matches_of_a_ruleset_that_ends_only_on_a_31_finish() -> None:
    rules = _catalog().resolve("tri-palki+close-only-with-31").rules
    stats = simulate(rules, 4, 6, 3, jobs=1, bot="greedy")
    data = stats.to_json(4)
    assert data["matches"] == 6 and data["unfinished_matches"] == 0
    assert sum(stats.endings.values()) == stats.rounds == sum(stats.rounds_per_match.elements())
    # replay-round: a match ends with exactly one winner
    assert sum(stats.wins_by_seat.values()) == 6
    assert stats.showdowns > 0 and 0 < data["mean_lowest_points"] <= data["mean_showdown_points"]


def test_simulate_says_which_bot_and_engine_played(capsys: pytest.CaptureFixture[str]) -> None:
    from schwimmen.cli.main import main

    code = main(
        ["simulate", "tri-palki+close-only-with-31", "--matches", "2", "--jobs", "1", "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["bot"].startswith("greedy") and "--bot auto" in data["bot"]
    assert data["engine"].startswith("full engine")
    assert data["showdown_sample_rounds"] > 0
    code = main(["simulate", "pagat", "--matches", "2", "--jobs", "1", "--json", "--bot", "random"])
    data = json.loads(capsys.readouterr().out)
    assert data["bot"].startswith("random") and data["engine"] == "rounds in lockstep (numpy)"
