"""Soak run: every shipped composition, many bot matches, every invariant.

    python benchmarks/soak.py [--matches 10000] [--checked 300] [--rounds 2000] [--jobs 2]
                              [--ruleset NAME ...] [--first 0] [--bot auto] [--budget 120]

For each ruleset and each house rule on the ruleset it comes from (every composition the
project ships), with the bot of ``--bot``:

1. ``--matches`` matches as ``schwimmen simulate`` plays them (rounds in lockstep or
   compiled for the random bot, the full engine for the greedy one): no exception, every
   round ends within the simulation's cap on turns and every match within its cap on
   rounds;
2. ``--checked`` matches on the full engine with every invariant checked after every
   action: each card in exactly one place, hand sizes, lives never coming back, a legal
   action for every seat to move, observations that hide what a seat may not see (a
   match still going after 20,000 actions is stopped there and counted as capped);
3. ``--rounds`` random-bot rounds of the compiled round, and as many in lockstep where
   lockstep plays the ruleset, replayed action by action through the full engine, with
   the same end, the same reason and the same losses (differential test).

``--bot auto`` (the default) is two choices. The matches of part 1 are played by the bot
``schwimmen simulate`` chooses: the random bot, whose figures come fastest and whose
rounds go where no person would (every player passing, the stock running out), and the
greedy bot where a knock needs a 31, which random play seldom holds so that its rounds
would hardly end. The checked matches of part 2 alternate the greedy bot, which plays as
people do (towards a 31, knocking on a good hand) and so reaches the positions a table
reaches (31s and Feuer in play, showdowns of strong hands), with the random bot, so that
every composition is checked under both kinds of play; where the greedy bot was chosen,
all of them are greedy. ``--bot greedy`` or ``--bot random`` plays every part with that
bot (the differential test of part 3 is random play by design).

Each part of a composition stops when a third of ``--budget`` seconds is spent and says
how far it got (``cut by the budget``), so the run covers every composition in bounded
time. ``--first`` numbers the matches from there (seeds and table sizes follow the
number), so a long run can be split over processes: ``--matches 5000`` and ``--matches
5000 --first 5000`` together are the run of 10,000. Exit status 1 if anything broke.
Takes minutes, not seconds: it is not part of the default test run.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from schwimmen.conformance.harness import default_rulesets
from schwimmen.engine.bots import Bot, GreedyBot, RandomBot
from schwimmen.engine.compiled import RoundTooLong, compile_round
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.invariants import (
    check_batch,
    check_cards,
    check_compiled_round,
    check_lives,
    check_secrecy,
)
from schwimmen.engine.match import Match
from schwimmen.engine.simulate import CHUNK, Simulator, Stats, choose_bot, lockstep_missing
from schwimmen.spec.loader import Catalog


def _seats(low: int, high: int, i: int) -> int:
    high = min(high, 6)
    return low + i % (high - low + 1)


CHECKED_CAP = 20_000


def _checked_bot(asked: str, chosen: str, i: int) -> Bot:
    """The bot of checked match ``i`` (see the module doc: ``auto`` alternates)."""
    if chosen == "greedy" or (asked == "auto" and i % 2 == 0):
        return GreedyBot()
    return RandomBot(random.Random(i))


def _bot_words(asked: str, chosen: str) -> str:
    if asked == "auto" and chosen == "random":
        return "random; checked: greedy and random"
    return chosen


def soak_one(
    name: str,
    matches: int,
    checked: int,
    rounds: int,
    first: int = 0,
    bot: str = "auto",
    budget: float = 120.0,
) -> dict[str, Any]:
    catalog = Catalog.load()
    rules = catalog.resolve(name).rules
    low, high = rules.players.min, rules.players.max
    chosen, _ = choose_bot(rules, bot)
    out: dict[str, Any] = {
        "ruleset": name,
        "problems": [],
        "bot": _bot_words(bot, chosen),
        "cut": [],
    }
    part = budget / 3
    start = time.perf_counter()
    try:
        stats = Stats()
        sizes = list(range(low, min(high, 6) + 1))
        sims = {n: Simulator(rules, n, chosen) for n in sizes}
        # matches of each table size, numbered per size so that split runs add up
        piece = 20 if chosen == "greedy" else CHUNK
        for n in sizes:
            mine = [i for i in range(first + matches) if _seats(low, high, i) == n]
            at = sum(1 for i in mine if i < first)
            while at < len(mine) and "matches" not in out["cut"]:
                if time.perf_counter() - start > part:
                    out["cut"].append("matches")
                    break
                step = min(piece - at % piece, len(mine) - at)
                sims[n].play_matches(n, at, step, stats)
                at += step
        out["matches"] = stats.matches
        out["rounds"] = stats.rounds
        out["engine"] = sims[sizes[0]].engine()
        if stats.unfinished:
            out["problems"].append(f"{stats.unfinished} matches did not end")
    except RoundTooLong as exc:
        out["problems"].append(f"simulation: {exc.named(name)}")
    except Exception:
        out["problems"].append("simulation: " + traceback.format_exc(limit=3))
    out["compiled_s"] = time.perf_counter() - start
    start = time.perf_counter()
    actions = 0
    capped = 0
    played = 0
    try:
        for i in range(first, first + checked):
            if time.perf_counter() - start > part:
                out["cut"].append("checked")
                break
            seats = _seats(low, high, i)
            match = Match(rules, seats, seed=i, lives=2)
            player = _checked_bot(bot, chosen, i)
            lives = list(match.lives)
            steps = 0
            seen = 0
            while not match.over and steps < CHECKED_CAP:
                seat = match.to_move()
                if seat is None or not match.legal_actions():
                    raise AssertionError("no legal action for the seat to move")
                match.apply(player.choose(match), seat)
                steps += 1
                check_cards(match)
                check_lives(lives, match.lives)
                lives = list(match.lives)
                if steps % 11 == 0:
                    seen = check_secrecy(match, seen)
            actions += steps
            capped += not match.over
            played += 1
        out["checked_matches"] = played
        out["checked_capped"] = capped
        out["checked_actions"] = actions
    except Exception:
        out["problems"].append("full engine: " + traceback.format_exc(limit=4))
    out["checked_s"] = time.perf_counter() - start
    start = time.perf_counter()
    replayed = 0
    try:
        compiled = compile_round(rules, trace=True)
        pack = evaluator_for(rules).pack
        rng = random.Random(99 + first)
        for _ in range(rounds):
            if time.perf_counter() - start > part / 2:
                out["cut"].append("differential")
                break
            deck = list(pack)
            rng.shuffle(deck)
            check_compiled_round(compiled, _seats(low, high, rng.randrange(100)), deck, rng.random)
            replayed += 1
        if not lockstep_missing(rules):
            replayed += _lockstep_replays(rules, rounds, 99 + first, start + part)
    except RoundTooLong as exc:
        out["problems"].append(f"differential: {exc.named(name)}")
    except Exception:
        out["problems"].append("differential: " + traceback.format_exc(limit=4))
    out["differential_rounds"] = replayed
    out["differential_s"] = time.perf_counter() - start
    return out


def _lockstep_replays(rules: Any, rounds: int, seed: int, deadline: float) -> int:
    """Rounds played in lockstep with their actions traced, each replayed through the full
    engine, table size by table size, until ``rounds`` or the deadline."""
    import numpy as np

    from schwimmen.engine.lockstep import Lockstep

    kernel = Lockstep(rules)
    gen = np.random.default_rng(seed)
    done = 0
    sizes = list(range(rules.players.min, min(rules.players.max, 6) + 1))
    while done < rounds and time.perf_counter() < deadline:
        n = sizes[done // 50 % len(sizes)]
        check_batch(rules, n, kernel.play(n, 50, gen, trace=True), 50)
        done += 50
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--matches", type=int, default=10_000, help="simulated matches (part 1; default 10000)"
    )
    parser.add_argument(
        "--checked", type=int, default=300, help="checked matches (part 2; default 300)"
    )
    parser.add_argument(
        "--rounds", type=int, default=2_000, help="differential rounds (part 3; default 2000)"
    )
    parser.add_argument(
        "--jobs", type=int, default=2, help="compositions soaked at once (default 2)"
    )
    parser.add_argument(
        "--ruleset",
        action="append",
        metavar="COMPOSITION",
        help="only this composition (repeatable; default every shipped one)",
    )
    parser.add_argument("--first", type=int, default=0, help="number of the first match")
    parser.add_argument(
        "--bot",
        choices=["auto", "greedy", "random"],
        default="auto",
        help="who plays (default auto: see above); each line names the bot",
    )
    parser.add_argument(
        "--budget", type=float, default=120.0, help="seconds per composition (default 120)"
    )
    args = parser.parse_args(argv)
    names = args.ruleset or default_rulesets(Catalog.load())
    bad = 0
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {
            pool.submit(
                soak_one,
                n,
                args.matches,
                args.checked,
                args.rounds,
                args.first,
                args.bot,
                args.budget,
            ): n
            for n in names
        }
        for future in as_completed(futures):
            r = future.result()
            status = "ok" if not r["problems"] else "BROKEN"
            bad += bool(r["problems"])
            cut = f" (cut by the budget: {', '.join(r['cut'])})" if r["cut"] else ""
            print(
                f"{status:6s} {r['ruleset']:42s} bot {r['bot']} | "
                f"{r.get('matches', 0):6d} matches "
                f"({r.get('rounds', 0):7d} rounds) {r['compiled_s']:6.1f}s | "
                f"{r.get('checked_matches', 0)} checked ({r.get('checked_actions', 0)} actions, "
                f"{r.get('checked_capped', 0)} capped) "
                f"{r['checked_s']:6.1f}s | {r.get('differential_rounds', 0)} differential "
                f"{r['differential_s']:5.1f}s{cut} | {r.get('engine', '?')}",
                flush=True,
            )
            for problem in r["problems"]:
                print("   ", problem.replace("\n", "\n    "))
    print(
        f"{len(names)} compositions, {bad} broken, {time.perf_counter() - start:.0f} s "
        f"(bot: {args.bot}; auto: the simulated matches random, greedy where a knock needs "
        "a 31; the checked matches greedy and random in turn)"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
