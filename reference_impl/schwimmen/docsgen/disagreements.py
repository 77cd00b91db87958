"""The generated parts of the disagreements page (``docs/compare/disagreements.md``).

The scenarios are the project's own data (``spec/disagreements.yaml``): each says in words
what the position is and what it asks, and quotes the sources. The page draws the cards
of the fixtures a scenario ``shows``, runs each of those positions through the reference
engine under every ruleset of the default run (:mod:`schwimmen.conformance.outcomes`), and
tables the answers, so that no outcome on the page is typed by hand. The page's prose is
the Markdown file; here are only the tables, lists and figures it inserts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.outcomes import Answer, Engine, Group, grouped, step_pairs
from schwimmen.conformance.outcomes import answer as engine_answer
from schwimmen.conformance.plan import Suite, house_rule_of
from schwimmen.docsgen import fixturetext, memo
from schwimmen.docsgen.blocks import block
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.templates import kept, render
from schwimmen.spec.disagreements import Disagreements
from schwimmen.spec.loader import SEPARATOR
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import PARAMETERS

SUMMARY = "disagreements-summary"
TOPICS = "disagreements-topics"
SCENARIOS = "disagreements-scenarios"


@dataclass(frozen=True)
class Shown:
    """One fixture's position on the page and the engine's answers to it."""

    fixture: Fixture
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class Computed:
    """Every scenario's shown positions, with the answers, computed once per build."""

    shown: Mapping[str, tuple[Shown, ...]]


def compute(
    site: Site, suite: Suite, data: Disagreements, engine: Engine
) -> tuple[Computed, list[str]]:
    """Run the position of every fixture a scenario shows under every ruleset and house
    rule of the default run; the problems are fixtures the engine contradicts (or a
    fixture a scenario shows that the suite does not have)."""
    rulesets = [*site.rulesets.values(), *site.with_house_rule.values()]
    origins = {
        site.with_house_rule[hid].id: str(sf.data["origin"]) for hid, sf in site.house_rules.items()
    }
    fixtures = {f.id: f for f in suite.fixtures}
    settings = b"\0".join(r.id.encode() + b"=" + memo.settings_of(r) for r in rulesets)
    shown: dict[str, tuple[Shown, ...]] = {}
    problems: list[str] = []
    for scenario in data.scenarios:
        items: list[Shown] = []
        for fid in scenario.shows:
            fixture = fixtures.get(fid)
            if fixture is None:
                problems.append(f"{scenario.id} shows {fid}, which is not a fixture")
                continue
            found, wrong = _answers(fixture, rulesets, engine, settings)
            problems += wrong
            items.append(Shown(fixture, tuple(_ordered(grouped(found, origins)))))
        shown[scenario.id] = tuple(items)
    return Computed(shown), problems


def _answers(
    fixture: Fixture, rulesets: Sequence[Ruleset], engine: Engine, settings: bytes
) -> tuple[list[Answer], list[str]]:
    """The engine's answers under each ruleset, from the build cache while the fixture,
    the rulesets' values and the code that plays and cuts the answers are as they were.
    Answers found there are remembered in this process one by one as well, so that a
    later edit of one ruleset asks the engine again under that ruleset only."""

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "fixture", json.dumps(fixture.doc.data, sort_keys=True, default=str).encode()
        yield "rulesets", settings
        yield from memo.code("conformance/outcomes", "conformance/compare", "conformance/fixtures")

    def run() -> tuple[list[Answer], list[str]]:
        found = [_answer(fixture, r, engine) for r in rulesets]
        return [a for a, _ in found], [p for _, p in found if p is not None]

    kind = "answers-" + fixture.id.replace("/", "--")
    found, wrong = memo.kept(kind, inputs, run, tuple)
    if not wrong:
        for ruleset, got in zip(rulesets, found, strict=True):
            key = (id(fixture), ruleset.id, memo.settings_of(ruleset))
            _ANSWERS.setdefault(key, (fixture, got, None))
    return list(found), list(wrong)


# (fixture, ruleset id, ruleset's values) -> the engine's answer: ``mkdocs serve`` asks
# again after each edit of the spec, which changes a ruleset or two at most.
_ANSWERS: dict[tuple[int, str, bytes], tuple[Fixture, Answer, str | None]] = {}


def _answer(fixture: Fixture, ruleset: Ruleset, engine: Engine) -> tuple[Answer, str | None]:
    """:func:`schwimmen.conformance.outcomes.answer`, remembered in this process by the
    fixture (the loader's object) and the ruleset's id and values."""
    key = (id(fixture), ruleset.id, memo.settings_of(ruleset))
    found = _ANSWERS.get(key)
    if found is None or found[0] is not fixture:
        if len(_ANSWERS) > 100_000:
            _ANSWERS.clear()
        found = _ANSWERS[key] = (fixture, *engine_answer(fixture, ruleset, engine))
    return found[1], found[2]


def _ordered(groups: Sequence[Group]) -> list[Group]:
    """Answers first (in ruleset order), then positions whose steps do not fit, then the
    rulesets the position cannot be set up under."""

    def rank(group: Group) -> int:
        first = group.first
        if first.outcome is not None:
            return 0
        if first.stuck is not None:
            return 1
        if first.misfit is not None:
            return 2
        return 3

    return sorted(groups, key=rank)


Names = Mapping[str, Mapping[str, str]]
"""The words players know a ruleset or house rule by, per language, by its id."""


def inserts(
    site: Site, suite: Suite, data: Disagreements, computed: Computed, names: Names | None = None
) -> dict[str, Insert]:
    """The page's generated parts, by the name its Markdown inserts them under; the outcome
    tables name rulesets by ``names`` (by their ids where it has none)."""
    shown = distinct(names or {})
    return {
        SUMMARY: lambda language: summary(suite, data, language),
        TOPICS: lambda language: topics(data, language),
        SCENARIOS: lambda language: scenarios(site, suite, data, computed, language, shown),
    }


def distinct(names: Names) -> dict[str, dict[str, str]]:
    """``names`` with the ruleset's name after a dash where another house rule has the
    same title in that language (two house rules say „Drillinge zählen nichts“ of
    different rulesets; a table naming both must tell them apart)."""
    out = {name: dict(words) for name, words in names.items()}
    for name, words in out.items():
        house = house_rule_of(name)
        base = names.get(name.split(SEPARATOR, 1)[0], {})
        for language, title in words.items():
            shared = any(
                other != name and others.get(language) == title for other, others in names.items()
            )
            if house and shared and base.get(language):
                words[language] = f"{title} – {base[language]}"
    return out


# ----------------------------------------------------------------------------- summary


def summary(suite: Suite, data: Disagreements, language: str) -> str:
    """The counts, as ``schwimmen conformance coverage`` counts them: scenarios, topics,
    scenarios pinned by a fixture, and those fixtures (for the conformance pages; a
    player reading the disagreements wants the questions, not the counts)."""
    ids = data.ids
    pinned = [n for n in ids if suite.coverage.disagreements.get(n)]
    fixtures = {fid for n in ids for fid in suite.coverage.disagreements.get(n, ())}
    counts = (len(ids), len(data.topics), len(pinned), len(fixtures))
    return block(render("dis-summary.html", language, words=data.words(language), counts=counts))


def topics(data: Disagreements, language: str) -> str:
    """The topics as one line of links to their sections."""
    return block(render("dis-topics.html", language, topics=data.topics))


# ----------------------------------------------------------------------------- scenarios


def scenarios(
    site: Site,
    suite: Suite,
    data: Disagreements,
    computed: Computed,
    language: str,
    names: Names | None = None,
) -> str:
    """Every scenario under its topic, folded under its question in plain words (so that
    the page is a short list of questions a player can open): the position in words, each
    shown position with its cards and the engine's answers under every ruleset, the
    sources' words, and the fixtures, decisions and rules it concerns."""
    return block(
        kept(
            "disagreements.html",
            language,
            data=data,
            computed=computed,
            words=data.words(language),
            ft=fixturetext,
            steps=step_pairs,
            house_rule_of=house_rule_of,
            shown_names=names or {},
            site=SimpleNamespace(all_decisions=site.all_decisions, titles=site.decision_titles),
            suite=SimpleNamespace(pinned=suite.pinned, mentioned=suite.mentioned),
            by_id={f.id: f for f in suite.fixtures},
            rules_of=_params,
        )
    )


def _params(fixtures: Sequence[Fixture]) -> list[str]:
    """The rule parameters of the rules-matrix dimensions the fixtures name."""
    dims = {d.strip().rstrip(".") for f in fixtures for d in f.matrix.split(",") if d.strip()}
    return [
        p.path for p in PARAMETERS if {d.strip() for d in p.matrix.split(",") if d.strip()} & dims
    ]
