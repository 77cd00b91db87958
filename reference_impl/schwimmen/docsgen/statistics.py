"""The generated parts of the statistics page (its prose is ``docs/compare/statistics.md``):
how the rulesets play, from the simulator, computed while the site builds.

Every figure comes from :func:`schwimmen.engine.simulate.simulate` with a fixed seed, on
one process (``jobs=1``; the figures do not depend on the number of jobs), and the mean
hand values from :func:`schwimmen.engine.simulate.showdown_values` on a small sample. So
the page is the output of ``schwimmen simulate RULESET --players N --matches M --seed S
--sample K`` for every ruleset, drawn as inline SVG charts; nothing is cached in the
repository and nothing is fetched by the reader's browser.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from schwimmen.docsgen.markup import (
    STATISTICS,
    code,
    esc,
    link,
    ruleset_page,
    table,
)
from schwimmen.docsgen.svgchart import Bar, Legend, Segment, column_chart, figure, grid, hbar_chart
from schwimmen.engine.simulate import showdown_values, simulate
from schwimmen.spec.model import Ruleset

MATCHES = 300
SEED = 1
SAMPLE = 300
PLAYERS = 4

REASONS: Mapping[str, str] = {
    "knock": "a knock",
    "maximum": "31 shown",
    "feuer": "Feuer",
    "feuer-light": "Feuer light",
    "all-passed": "all passed",
    "stock-exhausted": "stock used up",
    "two-open": "two left open",
    "one-open": "one left open",
}


@dataclass(frozen=True)
class Figures:
    """The simulator's figures for one ruleset."""

    rid: str
    ruleset: Ruleset
    seats: int
    matches: int
    seed: int
    sample: int
    data: Mapping[str, Any]
    rounds_per_match: Mapping[int, int]
    showdown_mean: float
    lowest_mean: float

    @property
    def command(self) -> str:
        return (
            f"schwimmen simulate {self.rid} --players {self.seats} --matches {self.matches} "
            f"--seed {self.seed} --sample {self.sample}"
        )

    def maximum_label(self) -> str:
        return f"{self.ruleset.rules.maximum.points} shown"


def table_size(ruleset: Ruleset, wanted: int = PLAYERS) -> int:
    """``wanted`` players where the ruleset allows it, else the nearest allowed number."""
    players = ruleset.rules.players
    return min(max(wanted, players.min), players.max)


def simulate_rulesets(
    rulesets: Mapping[str, Ruleset],
    *,
    matches: int = MATCHES,
    seed: int = SEED,
    sample: int = SAMPLE,
) -> list[Figures]:
    """Run the simulator for every ruleset (one process, fixed seed)."""
    out = []
    for rid, ruleset in rulesets.items():
        seats = table_size(ruleset)
        stats = simulate(ruleset.rules, seats, matches, seed, jobs=1)
        mean, lowest = showdown_values(ruleset.rules, seats, sample, seed) if sample else (0, 0)
        out.append(
            Figures(
                rid=rid,
                ruleset=ruleset,
                seats=seats,
                matches=matches,
                seed=seed,
                sample=sample,
                data=stats.to_json(seats),
                rounds_per_match=dict(stats.rounds_per_match),
                showdown_mean=mean,
                lowest_mean=lowest,
            )
        )
    return out


# ----------------------------------------------------------------------------- formatting


def pct(share: float) -> str:
    """A share as a percentage with sensible precision."""
    value = 100 * share
    if value == 0:
        return "0%"
    if value < 1:
        return f"{value:.2f}%"
    if value < 10:
        return f"{value:.1f}%"
    return f"{value:.0f}%"


def per100(share: float) -> str:
    return f"{100 * share:.1f}"


def _ending_bars(fig: Figures) -> list[Bar]:
    endings: Mapping[str, float] = fig.data["round_endings"]
    at_deal: Mapping[str, float] = fig.data["ended_at_deal"]
    bars = []
    for reason in REASONS:
        share = endings.get(reason, 0.0)
        if not share:
            continue
        deal = at_deal.get(reason, 0.0)
        label = fig.maximum_label() if reason == "maximum" else REASONS[reason]
        text = pct(share) + (f" ({pct(deal)} at deal)" if deal else "")
        bars.append(
            Bar(
                label,
                (
                    Segment(
                        share - deal,
                        f"sw-r sw-r-{reason}",
                        f"{label}: {pct(share - deal)} during play",
                    ),
                    Segment(
                        deal, f"sw-r sw-r-{reason} sw-deal", f"{label}: {pct(deal)} at the deal"
                    ),
                ),
                text,
            )
        )
    return bars


def ruleset_charts(fig: Figures) -> str:
    endings = hbar_chart(
        f"{fig.rid}: how rounds end (share of rounds)",
        _ending_bars(fig),
        maximum=1.0,
        text_width=112,
    )
    per_match = column_chart(f"{fig.rid}: rounds per match", fig.rounds_per_match)
    losses: Mapping[str, int] = fig.data["losses_by_seat"]
    wins: Mapping[str, int] = fig.data["wins_by_seat"]
    seat_bars = [
        Bar(
            seat,
            (Segment(float(n), "sw-bar", f"{seat}: {n} lives lost, {wins.get(seat, 0)} wins"),),
            f"{n} lost · {wins.get(seat, 0)} won",
        )
        for seat, n in losses.items()
    ]
    seats = hbar_chart(f"{fig.rid}: lives lost by seat", seat_bars, text_width=104)
    deal_legend = Legend((("sw-neutral", "during play"), ("sw-neutral sw-deal", "at the deal")))
    rpm = fig.data["rounds_per_match"]
    return grid(
        [
            key_figures(fig),
            figure("How rounds end", endings, legend=deal_legend),
            figure(
                "Rounds per match",
                per_match,
                note=f"mean {rpm['mean']:.1f}, median {rpm['median']}, longest {rpm['max']}",
            ),
            figure(
                "Lives lost and matches won, by seat",
                seats,
                note="P1 sits left of the first dealer and moves first in the first round",
            ),
        ]
    )


def has_feuer(ruleset: Ruleset) -> bool:
    return str(ruleset.values().get("three_aces.kind")) == "feuer"


def key_figures(fig: Figures) -> str:
    """The figures that are numbers rather than charts, as a small HTML table (it sits in
    the chart grid, which Markdown leaves alone)."""
    d = fig.data
    rpm = d["rounds_per_match"]
    rows = [
        ("Rounds played", f"{d['rounds']} in {d['matches']} matches"),
        (
            "Rounds per match",
            f"mean {rpm['mean']:.1f}, median {rpm['median']}, longest {rpm['max']}",
        ),
        (
            f"A {fig.ruleset.rules.maximum.points} dealt",
            f"{per100(d['dealt_31_rate'])} hands per 100 rounds",
        ),
        (
            "Feuer dealt",
            f"{per100(d['dealt_feuer_rate'])} hands per 100 rounds"
            if has_feuer(fig.ruleset)
            else "no Feuer in this ruleset",
        ),
        ("Rounds replayed", str(d["replayed_rounds"])),
    ]
    if fig.sample:
        rows.append(
            (
                "Hands at a showdown",
                f"mean {fig.showdown_mean:.1f}; the lowest {fig.lowest_mean:.1f} on average "
                f"({fig.sample} showdowns)",
            )
        )
    if d.get("unfinished_matches"):
        rows.append(("Matches stopped unfinished", str(d["unfinished_matches"])))
    body = "".join(f"<tr><th>{html.escape(a)}</th><td>{html.escape(b)}</td></tr>" for a, b in rows)
    return (
        '<div class="sw-chart sw-figures"><p class="sw-caption">Key figures</p>'
        f'<table class="sw-table"><tbody>{body}</tbody></table></div>'
    )


# ----------------------------------------------------------------------------- the page


def _overview(figures: Sequence[Figures], here: str) -> list[str]:
    rows = []
    for fig in figures:
        d = fig.data
        at_deal = sum(d["ended_at_deal"].values())
        rows.append(
            [
                f"[{code(fig.rid)}](#{fig.rid})",
                str(fig.seats),
                f"{d['rounds_per_match']['mean']:.1f}",
                pct(d["round_endings"].get("knock", 0.0)),
                pct(at_deal),
                per100(d["dealt_31_rate"]),
                f"{fig.lowest_mean:.1f}" if fig.sample else "",
            ]
        )
    head = [
        "ruleset",
        "players",
        "rounds per match",
        "ended by a knock",
        "ended at the deal",
        "maximum dealt per 100 rounds",
        "lowest hand at showdown",
    ]
    if len({f.seats for f in figures}) == 1:  # the same table everywhere: no column for it
        head.pop(1)
        for row in rows:
            row.pop(1)
    longest = max((f.data["rounds_per_match"]["mean"] for f in figures), default=1.0)
    mean_bars = [
        Bar(
            f.rid,
            (Segment(f.data["rounds_per_match"]["mean"], "sw-bar"),),
            f"{f.data['rounds_per_match']['mean']:.1f}",
            href=f"#{f.rid}",
        )
        for f in figures
    ]
    used = [r for r in REASONS if any(f.data["round_endings"].get(r) for f in figures)]
    stack_bars = [
        Bar(
            f.rid,
            tuple(
                Segment(
                    f.data["round_endings"].get(r, 0.0),
                    f"sw-r sw-r-{r}",
                    f"{f.rid}: {REASONS[r]} {pct(f.data['round_endings'].get(r, 0.0))}",
                )
                for r in used
            ),
            href=f"#{f.rid}",
        )
        for f in figures
    ]
    legend = Legend(tuple((f"sw-r sw-r-{r}", REASONS[r]) for r in used))
    charts = grid(
        [
            figure(
                "Rounds per match (mean)",
                hbar_chart(
                    "Mean rounds per match by ruleset", mean_bars, maximum=longest, text_width=40
                ),
            ),
            figure(
                "How rounds end",
                hbar_chart("How rounds end, by ruleset", stack_bars, maximum=1.0, text_width=6),
                legend=legend,
            ),
        ]
    )
    return [
        '<div class="sw-wide" markdown>',
        "",
        table(head, rows),
        "",
        "</div>",
        "",
        charts,
        "",
    ]


def statistics_parts(figures: Sequence[Figures]) -> dict[str, str]:
    """The generated parts of ``docs/compare/statistics.md``: the settings the simulator
    ran with, the overview of all rulesets and a section of charts per ruleset."""
    here = STATISTICS
    sections: list[str] = []
    for fig in figures:
        sections += [
            f"## {esc(fig.ruleset.title)} {{#{fig.rid}}}",
            "",
            f"{link(here, ruleset_page(fig.rid), code(fig.rid))}: {fig.seats} players, "
            f"{fig.matches} matches, seed {fig.seed}. Reproduce: {code(fig.command)}",
            "",
            ruleset_charts(fig),
            "",
        ]
    first = figures[0] if figures else None
    return {
        "statistics-matches": str(first.matches if first else MATCHES),
        "statistics-players": str(PLAYERS),
        "statistics-seed": str(first.seed if first else SEED),
        "statistics-sample": str(first.sample if first else SAMPLE),
        "statistics-overview": "\n".join(_overview(figures, here)),
        "statistics-rulesets": "\n".join(sections),
    }
