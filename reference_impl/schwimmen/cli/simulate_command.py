"""``schwimmen simulate``: many bot matches, the figures a reader wants."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from schwimmen.engine.simulate import BOTS, Simulator, choose_bot, showdown_sample, simulate
from schwimmen.spec.model import Ruleset


def run_simulation(
    ruleset: Ruleset,
    players: int,
    matches: int,
    seed: int,
    jobs: int,
    sample: int,
    quiet: bool,
    bot: str = "auto",
) -> dict[str, Any]:
    rules = ruleset.rules
    err = Console(stderr=True)
    bot, why = choose_bot(rules, bot)
    if quiet or not sys.stderr.isatty():
        stats = simulate(rules, players, matches, seed, jobs, bot=bot)
    else:
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=err,
        ) as progress:
            task = progress.add_task(f"{ruleset.id} matches", total=matches)
            stats = simulate(
                rules, players, matches, seed, jobs, lambda n: progress.advance(task, n), bot
            )
    data = stats.to_json(players)
    if bot == "greedy":
        # the full engine saw every showdown of the run: no separate sample is needed
        data["showdown_sample_rounds"] = stats.showdowns
    elif sample:
        mean, low, shows = showdown_sample(rules, players, sample, seed, bot)
        data["mean_showdown_points"] = mean
        data["mean_lowest_points"] = low
        data["showdown_sample_rounds"] = shows
    return {
        "ruleset": ruleset.id,
        "players": players,
        "matches": matches,
        "seed": seed,
        "jobs": jobs,
        "bot": f"{BOTS[bot]}; {why}",
        "engine": Simulator(rules, players, bot).engine(),
        **data,
    }


def print_simulation(console: Console, data: dict[str, Any], fmt: str) -> None:
    if fmt == "json":
        console.print_json(json.dumps(data))
        return
    t = Table(
        title=f"{data['ruleset']}: {data['matches']} matches, "
        f"{data['players']} players, seed {data['seed']}",
        caption=f"bot: {data['bot']}\nengine: {data['engine']}",
    )
    t.add_column("figure", style="bold")
    t.add_column("value", justify="right")
    rpm = data["rounds_per_match"]
    t.add_row(
        "rounds per match (mean / median / max)",
        f"{rpm['mean']:.1f} / {rpm['median']} / {rpm['max']}",
    )
    for reason, share in data["round_endings"].items():
        t.add_row(f"rounds ending by {reason}", f"{share:.1%}")
    for reason, share in data["ended_at_deal"].items():
        t.add_row(f"  of them at the deal ({reason})", f"{share:.1%}")
    t.add_row("hands dealt with 31, per 100 rounds", f"{100 * data['dealt_31_rate']:.2f}")
    t.add_row("hands dealt with Feuer, per 100 rounds", f"{100 * data['dealt_feuer_rate']:.2f}")
    t.add_row("replayed rounds", str(data["replayed_rounds"]))
    t.add_row(
        "lives lost by seat", "  ".join(f"{k} {v}" for k, v in data["losses_by_seat"].items())
    )
    t.add_row("wins by seat", "  ".join(f"{k} {v}" for k, v in data["wins_by_seat"].items()))
    if data.get("showdown_sample_rounds"):
        t.add_row("mean hand value at showdown", f"{data['mean_showdown_points']:.2f}")
        t.add_row("mean lowest hand at showdown", f"{data['mean_lowest_points']:.2f}")
    if data["unfinished_matches"]:
        t.add_row("matches stopped unfinished", str(data["unfinished_matches"]))
    console.print(t)


def default_jobs() -> int:
    return max(1, os.cpu_count() or 1)
