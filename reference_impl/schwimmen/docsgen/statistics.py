"""The generated parts of the statistics page (its prose is ``docs/compare/statistics.md``):
how the rulesets play, from the simulator, computed while the site builds.

Every figure comes from :func:`schwimmen.engine.simulate.simulate` with a fixed seed, on
one process (``jobs=1``; the figures do not depend on the number of jobs), and the mean
hand values from :func:`schwimmen.engine.simulate.showdown_values` on a small sample. So
the page is the output of ``schwimmen simulate RULESET --players N --matches M --seed S
--sample K`` for every ruleset, drawn as inline SVG charts (the templates
``statistics.html`` and ``charts.html``); nothing is cached in the repository and
nothing is fetched by the reader's browser.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from schwimmen.docsgen import memo
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    STATISTICS,
)
from schwimmen.docsgen.templates import render, render_markdown
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


def has_feuer(ruleset: Ruleset) -> bool:
    return str(ruleset.values().get("three_aces.kind")) == "feuer"


def charts(part: str, language: str, **data: Any) -> str:
    """The charts of the page's ``part`` (``overview``, or ``ruleset`` for ``fig``), drawn
    by the template ``statistics.html`` with the numbers written in ``language``."""
    say = partial(words(), language=language)
    return render(
        "statistics.html",
        language,
        part=part,
        t=say,
        reason=lambda r: reason_label(r, language),
        rounds=lambda rpm: say(
            "stats.rounds-summary",
            mean=decimal(rpm["mean"], 1, language),
            median=rpm["median"],
            longest=rpm["max"],
        ),
        pct=partial(pct, language=language),
        decimal=partial(decimal, language=language),
        per100=partial(per100, language=language),
        has_feuer=has_feuer,
        reasons=REASONS,
        **data,
    )


# ----------------------------------------------------------------------------- the page


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
    used = [r for r in REASONS if any(f.data["round_endings"].get(r) for f in figures)]
    legend = [(f"sw-r sw-r-{r}", reason_label(r, language)) for r in used]
    data = {
        "figures": figures,
        "here": STATISTICS,
        "drawn": charts("overview", language, figures=figures, used=used, legend=legend),
        "charts": partial(charts, language=language),
        "title": lambda fig: titles(fig.rid, language) if titles else fig.ruleset.title,
        "decimal": partial(decimal, language=language),
        "pct": partial(pct, language=language),
        "per100": partial(per100, language=language),
    }
    first = figures[0] if figures else None
    return {
        "statistics-matches": str(first.matches if first else MATCHES),
        "statistics-players": str(PLAYERS),
        "statistics-seed": str(first.seed if first else SEED),
        "statistics-sample": str(first.sample if first else SAMPLE),
        "statistics-overview": render_markdown("statistics.md", language, part="overview", **data),
        "statistics-rulesets": render_markdown("statistics.md", language, part="rulesets", **data),
    }
