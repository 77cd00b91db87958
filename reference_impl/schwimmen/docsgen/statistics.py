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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from schwimmen.docsgen import memo
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    STATISTICS,
    code,
    esc,
    link,
    ruleset_page,
    table,
)
from schwimmen.docsgen.svgchart import Bar, Legend, Segment, column_chart, figure, grid, hbar_chart
from schwimmen.engine.rounds import EndReason
from schwimmen.engine.simulate import showdown_values, simulate
from schwimmen.spec.model import Ruleset
from schwimmen.spec.pagedata import words

MATCHES = 300
SEED = 1
SAMPLE = 300
PLAYERS = 4

# How a round can end, in the engine's order (the charts'); each is labelled
# ``stats.reason.<it>``.
REASONS: tuple[str, ...] = tuple(reason.value for reason in EndReason)


def reason_label(reason: str, language: str = "en") -> str:
    """How the charts name one way a round can end."""
    return words()(f"stats.reason.{reason}", language)


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

    def maximum_label(self, language: str = "en") -> str:
        return words()("stats.maximum-shown", language, points=self.ruleset.rules.maximum.points)


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
    """Run the simulator for every ruleset (one process, fixed seed), or take its figures
    from the build cache where the ruleset's values and the engine are as they were."""
    out = []
    for rid, ruleset in rulesets.items():
        seats = table_size(ruleset)

        def run(ruleset: Ruleset = ruleset, seats: int = seats) -> tuple[Any, ...]:
            stats = simulate(ruleset.rules, seats, matches, seed, jobs=1)
            low: tuple[float, float] = (0, 0)
            if sample:
                low = showdown_values(ruleset.rules, seats, sample, seed)
            return stats.to_json(seats), dict(stats.rounds_per_match), *low

        def inputs(ruleset: Ruleset = ruleset, seats: int = seats) -> Iterator[tuple[str, bytes]]:
            yield "settings", memo.settings_of(ruleset)
            yield "run", f"{seats} {matches} {seed} {sample}".encode()
            yield from memo.code("docsgen/statistics")

        data, rounds, mean, lowest = memo.kept(f"statistics-{rid}", inputs, run, tuple)
        out.append(
            Figures(
                rid=rid,
                ruleset=ruleset,
                seats=seats,
                matches=matches,
                seed=seed,
                sample=sample,
                data=data,
                rounds_per_match=rounds,
                showdown_mean=mean,
                lowest_mean=lowest,
            )
        )
    return out


# ----------------------------------------------------------------------------- formatting


def decimal(value: float, places: int, language: str = "en") -> str:
    """``value`` with ``places`` decimals and the language's decimal mark (11,5 in German)."""
    return f"{value:.{places}f}".replace(".", words()("number.decimal-mark", language))


def pct(share: float, language: str = "en") -> str:
    """A share as a percentage with sensible precision."""
    value = 100 * share
    places = 0 if value == 0 or value >= 10 else 2 if value < 1 else 1
    return words()("number.percent", language, n=decimal(value, places, language))


def per100(share: float, language: str = "en") -> str:
    return decimal(100 * share, 1, language)


def _ending_bars(fig: Figures, language: str = "en") -> list[Bar]:
    say = words()
    endings: Mapping[str, float] = fig.data["round_endings"]
    at_deal: Mapping[str, float] = fig.data["ended_at_deal"]
    bars = []
    for reason in REASONS:
        share = endings.get(reason, 0.0)
        if not share:
            continue
        deal = at_deal.get(reason, 0.0)
        label = (
            fig.maximum_label(language) if reason == "maximum" else reason_label(reason, language)
        )
        text = (
            say(
                "stats.bar.with-deal",
                language,
                share=pct(share, language),
                deal=pct(deal, language),
            )
            if deal
            else pct(share, language)
        )
        bars.append(
            Bar(
                label,
                (
                    Segment(
                        share - deal,
                        f"sw-r sw-r-{reason}",
                        say(
                            "stats.tip.during-play",
                            language,
                            label=label,
                            share=pct(share - deal, language),
                        ),
                    ),
                    Segment(
                        deal,
                        f"sw-r sw-r-{reason} sw-deal",
                        say("stats.tip.at-deal", language, label=label, share=pct(deal, language)),
                    ),
                ),
                text,
            )
        )
    return bars


def _rounds_summary(rpm: Mapping[str, Any], language: str = "en") -> str:
    """``mean 5.2, median 5, longest 14``: the rounds a match lasts."""
    return words()(
        "stats.rounds-summary",
        language,
        mean=decimal(rpm["mean"], 1, language),
        median=rpm["median"],
        longest=rpm["max"],
    )


def ruleset_charts(fig: Figures, language: str = "en") -> str:
    say = words()
    endings = hbar_chart(
        say("stats.chart.endings", language, rid=fig.rid),
        _ending_bars(fig, language),
        maximum=1.0,
        text_width=112,
    )
    per_match = column_chart(
        say("stats.chart.per-match", language, rid=fig.rid), fig.rounds_per_match
    )
    losses: Mapping[str, int] = fig.data["losses_by_seat"]
    wins: Mapping[str, int] = fig.data["wins_by_seat"]
    seat_bars = [
        Bar(
            seat,
            (
                Segment(
                    float(n),
                    "sw-bar",
                    say("stats.tip.seat", language, seat=seat, lost=n, won=wins.get(seat, 0)),
                ),
            ),
            say("stats.bar.seat", language, lost=n, won=wins.get(seat, 0)),
        )
        for seat, n in losses.items()
    ]
    seats = hbar_chart(say("stats.chart.seats", language, rid=fig.rid), seat_bars, text_width=104)
    deal_legend = Legend(
        (
            ("sw-neutral", say("stats.legend.during-play", language)),
            ("sw-neutral sw-deal", say("stats.legend.at-deal", language)),
        )
    )
    return grid(
        [
            key_figures(fig, language),
            figure(say("stats.caption.endings", language), endings, legend=deal_legend),
            figure(
                say("stats.caption.per-match", language),
                per_match,
                note=_rounds_summary(fig.data["rounds_per_match"], language),
            ),
            figure(
                say("stats.caption.seats", language),
                seats,
                note=say("stats.note.seats", language),
            ),
        ]
    )


def has_feuer(ruleset: Ruleset) -> bool:
    return str(ruleset.values().get("three_aces.kind")) == "feuer"


def key_figures(fig: Figures, language: str = "en") -> str:
    """The figures that are numbers rather than charts, as a small HTML table (it sits in
    the chart grid, which Markdown leaves alone)."""
    say = words()
    d = fig.data
    rows = [
        (
            say("stats.key.rounds", language),
            say("stats.key.rounds-value", language, rounds=d["rounds"], matches=d["matches"]),
        ),
        (
            say("stats.caption.per-match", language),
            _rounds_summary(d["rounds_per_match"], language),
        ),
        (
            say("stats.key.dealt-maximum", language, points=fig.ruleset.rules.maximum.points),
            say("stats.key.per-100", language, n=per100(d["dealt_31_rate"], language)),
        ),
        (
            say("stats.key.feuer", language),
            say("stats.key.per-100", language, n=per100(d["dealt_feuer_rate"], language))
            if has_feuer(fig.ruleset)
            else say("stats.key.no-feuer", language),
        ),
        (say("stats.key.replayed", language), str(d["replayed_rounds"])),
    ]
    if fig.sample:
        rows.append(
            (
                say("stats.key.showdown", language),
                say(
                    "stats.key.showdown-value",
                    language,
                    mean=decimal(fig.showdown_mean, 1, language),
                    lowest=decimal(fig.lowest_mean, 1, language),
                    n=fig.sample,
                ),
            )
        )
    if d.get("unfinished_matches"):
        rows.append((say("stats.key.unfinished", language), str(d["unfinished_matches"])))
    body = "".join(f"<tr><th>{html.escape(a)}</th><td>{html.escape(b)}</td></tr>" for a, b in rows)
    caption = html.escape(say("stats.key.caption", language))
    return (
        f'<div class="sw-chart sw-figures"><p class="sw-caption">{caption}</p>'
        f'<table class="sw-table"><tbody>{body}</tbody></table></div>'
    )


# ----------------------------------------------------------------------------- the page


def _overview(figures: Sequence[Figures], here: str, language: str = "en") -> list[str]:
    say = words()
    rows = []
    for fig in figures:
        d = fig.data
        at_deal = sum(d["ended_at_deal"].values())
        rows.append(
            [
                f"[{code(fig.rid)}](#{fig.rid})",
                str(fig.seats),
                decimal(d["rounds_per_match"]["mean"], 1, language),
                pct(d["round_endings"].get("knock", 0.0), language),
                pct(at_deal, language),
                per100(d["dealt_31_rate"], language),
                decimal(fig.lowest_mean, 1, language) if fig.sample else "",
            ]
        )
    head = [
        say(f"stats.head.{column}", language)
        for column in (
            "ruleset",
            "players",
            "rounds-per-match",
            "ended-by-knock",
            "ended-at-deal",
            "maximum-dealt",
            "lowest-hand",
        )
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
            decimal(f.data["rounds_per_match"]["mean"], 1, language),
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
                    say(
                        "stats.tip.ending",
                        language,
                        rid=f.rid,
                        reason=reason_label(r, language),
                        share=pct(f.data["round_endings"].get(r, 0.0), language),
                    ),
                )
                for r in used
            ),
            href=f"#{f.rid}",
        )
        for f in figures
    ]
    legend = Legend(tuple((f"sw-r sw-r-{r}", reason_label(r, language)) for r in used))
    charts = grid(
        [
            figure(
                say("stats.caption.mean-per-match", language),
                hbar_chart(
                    say("stats.chart.mean-per-match", language),
                    mean_bars,
                    maximum=longest,
                    text_width=40,
                ),
            ),
            figure(
                say("stats.caption.endings", language),
                hbar_chart(
                    say("stats.chart.endings-by-ruleset", language),
                    stack_bars,
                    maximum=1.0,
                    text_width=6,
                ),
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


def statistics_inserts(
    figures: Sequence[Figures], titles: Callable[[str, str], str] | None = None
) -> dict[str, Insert]:
    """The parts of ``docs/compare/statistics.md`` and its German twin, each built once per
    language from one simulation (``titles(rid, language)`` names the rulesets)."""
    built = cache(lambda language: statistics_parts(figures, language, titles))
    return {key: partial(_part, built, key) for key in built("en")}


def _part(built: Callable[[str], Mapping[str, str]], key: str, language: str) -> str:
    return built(language)[key]


def statistics_parts(
    figures: Sequence[Figures],
    language: str = "en",
    titles: Callable[[str, str], str] | None = None,
) -> dict[str, str]:
    """The generated parts of ``docs/compare/statistics.md``: the settings the simulator
    ran with, the overview of all rulesets and a section of charts per ruleset."""
    say = words()
    here = STATISTICS
    sections: list[str] = []
    for fig in figures:
        line = say(
            "stats.ruleset-line",
            language,
            ruleset=link(here, ruleset_page(fig.rid), code(fig.rid)),
            players=fig.seats,
            matches=fig.matches,
            seed=fig.seed,
            command=code(fig.command),
        )
        sections += [
            f"## {esc(titles(fig.rid, language) if titles else fig.ruleset.title)} {{#{fig.rid}}}",
            "",
            line,
            "",
            ruleset_charts(fig, language),
            "",
        ]
    first = figures[0] if figures else None
    return {
        "statistics-matches": str(first.matches if first else MATCHES),
        "statistics-players": str(PLAYERS),
        "statistics-seed": str(first.seed if first else SEED),
        "statistics-sample": str(first.sample if first else SAMPLE),
        "statistics-overview": "\n".join(_overview(figures, here, language)),
        "statistics-rulesets": "\n".join(sections),
    }
