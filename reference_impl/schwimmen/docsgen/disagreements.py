"""The generated parts of the disagreements page (``docs/compare/disagreements.md``).

The scenarios are the project's own data (``spec/disagreements.yaml``): each says in words
what the position is and what it asks, and quotes the sources. The page draws the cards
of the fixtures a scenario ``shows``, runs each of those positions through the reference
engine under every ruleset of the default run (:mod:`schwimmen.docsgen.outcomes`), and
tables the answers, so that no outcome on the page is typed by hand. The page's prose is
the Markdown file; here are only the tables, lists and figures it inserts.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from schwimmen.conformance.fixtures import Fixture
from schwimmen.docsgen import memo
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.fixturetext import action, dealer_of, kind_badge, seats_of, step_pairs
from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    DECISIONS,
    DISAGREEMENTS,
    SCHEMA_REFERENCE,
    admonition,
    attr,
    cards_row,
    code,
    decision_anchor,
    esc,
    fixture_page,
    german,
    house_rule_page,
    link,
    param_anchor,
    rel,
    ruleset_page,
    source_link,
    table,
)
from schwimmen.docsgen.outcome_text import outcome_lines
from schwimmen.docsgen.outcomes import Answer, Engine, Group, answers, grouped
from schwimmen.docsgen.suite import Suite, house_rule_of
from schwimmen.spec.disagreements import Disagreements, Scenario
from schwimmen.spec.loader import SEPARATOR
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import PARAMETERS

HERE = DISAGREEMENTS
SUMMARY = "disagreements-summary"
TOPICS = "disagreements-topics"
SCENARIOS = "disagreements-scenarios"
UNPINNED_MARK = "°"


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
    """:func:`answers`, from the build cache while the fixture, the rulesets' values and
    the code that plays and cuts the answers are as they were."""

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "fixture", json.dumps(fixture.doc.data, sort_keys=True, default=str).encode()
        yield "rulesets", settings
        yield from memo.code("docsgen/outcomes", "conformance/compare", "conformance/fixtures")

    def run() -> tuple[list[Answer], list[str]]:
        return answers(fixture, rulesets, engine)

    kind = "answers-" + fixture.id.replace("/", "--")
    found, wrong = memo.kept(kind, inputs, run, tuple)
    return list(found), list(wrong)


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
        SUMMARY: lambda language: summary_md(suite, data, language),
        TOPICS: lambda language: topics_md(data, language),
        SCENARIOS: lambda language: scenarios_md(site, suite, data, computed, language, shown),
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


def summary_md(suite: Suite, data: Disagreements, language: str) -> str:
    """The counts, as ``schwimmen conformance coverage`` counts them: scenarios, topics,
    scenarios pinned by a fixture, and those fixtures (for the conformance pages; a
    player reading the disagreements wants the questions, not the counts)."""
    words = data.words(language)
    ids = data.ids
    pinned = [n for n in ids if suite.coverage.disagreements.get(n)]
    fixtures = {fid for n in ids for fid in suite.coverage.disagreements.get(n, ())}
    head = [words["scenarios"], words["topics"], words["pinned"], words["fixtures"]]
    row = [
        str(len(ids)),
        str(len(data.topics)),
        f"{len(pinned)} {words['of']} {len(ids)}",
        str(len(fixtures)),
    ]
    return '<div class="dis-summary" markdown>\n\n' + table(head, [row]) + "\n\n</div>\n"


def topics_md(data: Disagreements, language: str) -> str:
    """The topics as one line of links to their sections."""
    return " · ".join(f"[{esc(t.title_in(language))}](#{t.id})" for t in data.topics) + "\n"


# ----------------------------------------------------------------------------- scenarios


def scenarios_md(
    site: Site,
    suite: Suite,
    data: Disagreements,
    computed: Computed,
    language: str,
    names: Names | None = None,
) -> str:
    words = data.words(language)
    out: list[str] = []
    for topic in data.topics:
        out += [f"## {esc(topic.title_in(language))} {{#{topic.id}}}", ""]
        for scenario in topic.scenarios:
            shown = computed.shown[scenario.id]
            out += [scenario_md(site, suite, scenario, shown, words, language, names), ""]
    return "\n".join(out)


def scenario_md(
    site: Site,
    suite: Suite,
    scenario: Scenario,
    shown: Sequence[Shown],
    words: Mapping[str, str],
    language: str = "en",
    names: Names | None = None,
) -> str:
    """One scenario, folded under its question in plain words (so that the page is a
    short list of questions a player can open): the position in words, each shown
    position with its cards and the engine's answers under every ruleset, the sources'
    words, and the fixtures, decisions and rules it concerns."""
    text = partial(scenario.text, language=language)
    # the theme's fold takes its title as plain text between double quotes
    summary = " ".join(f"{scenario.id} · {text('asks')}".replace('"', "'").split())
    body = _scenario_body(site, suite, scenario, shown, words, language, names or {})
    return f'??? dis-scenario "{summary}"\n\n' + "\n".join(
        f"    {line}" if line else "" for line in body.splitlines()
    )


def _scenario_body(
    site: Site,
    suite: Suite,
    scenario: Scenario,
    shown: Sequence[Shown],
    words: Mapping[str, str],
    language: str,
    names: Names,
) -> str:
    text = partial(scenario.text, language=language)
    out = [f"### {scenario.id} — {esc(text('title'))} {{#{scenario.anchor}}}", ""]
    kinds = dict.fromkeys(item.fixture.kind for item in shown)
    if kinds:
        out += [" ".join(kind_badge(k, language) for k in kinds), "{: .fx-badges }", ""]
    out += [f"**{esc(words['asks'])}:** {esc(text('asks'))}", ""]
    out += [esc(text("position")), ""]
    if scenario.note:
        out += [esc(text("note")), ""]
    many = len(shown) > 1
    for index, item in enumerate(shown):
        out += _shown_md(item, index if many else None, words, language, names)
    body = "\n".join(
        f"- {german(c.quote)} <small>{source_link(HERE, c.source)} · {esc(c.section)}"
        + (f" · {c.line}" if c.line is not None else "")
        + "</small>"
        for c in scenario.cites
    )
    out += [admonition("cited", words["sources"], body)]
    out += [_facts(site, suite, scenario, words), ""]
    return "\n".join(out)


def _shown_md(
    item: Shown,
    index: int | None,
    words: Mapping[str, str],
    language: str = "en",
    names: Names | None = None,
) -> list[str]:
    """A shown position: its heading (the fixture's title in English; the fixtures are
    written in English, so another language names the position with its own word and
    keeps the fixture's id as the link's tooltip), the cards, the moves and the table
    of answers."""
    fixture = item.fixture
    target = rel(HERE, fixture_page(fixture.id))
    letter = f"({chr(ord('a') + index)})" if index is not None else ""
    if language == "en":
        heading = f"{letter} [{esc(fixture.title)}]({target})".strip()
    else:
        name = _fill(words["position"], letter=letter).strip()
        heading = f'[{name}]({target} "{attr(fixture.id)}")'
    out = [f"**{heading}**", "{: .dis-position-title }", ""]
    out += [_position(fixture, words), ""]
    steps = step_pairs(fixture)
    if steps:
        moves = " · ".join(  # "1\." so that the line is not read as a numbered list
            f"{i}\\. **{seat}** {action(act, language)}" for i, (seat, act) in enumerate(steps, 1)
        )
        out += [f'<div class="dis-steps" markdown>{moves}</div>', ""]
    rows = [
        [_names(group, words, names or {}, language), _cell(fixture, group.first, words, language)]
        for group in item.groups
    ]
    out += [
        f'<div class="dis-outcomes" data-fixture="{attr(fixture.id)}" markdown>',
        "",
        table([esc(words["rulesets"]), esc(words["outcome"])], rows),
        "",
        "</div>",
        "",
    ]
    return out


def _position(fixture: Fixture, words: Mapping[str, str]) -> str:
    """The cards as dealt, on as few lines as they fit: each seat's hand (with who deals,
    who is out, lives left, who knocked), then the middle and the other piles."""
    setup = fixture.setup
    dealer = dealer_of(fixture)
    hands: Mapping[str, Sequence[str]] = setup.get("hands", {})
    lives = setup.get("lives")
    out_seats = {str(s) for s in setup.get("eliminated", ())}
    seats = []
    for seat in seats_of(fixture):
        notes = []
        if seat == dealer:
            notes.append(esc(words["note_deals"]))
        if seat in out_seats:
            notes.append(esc(words["note_out"]))
        if isinstance(lives, Mapping) and seat in lives:
            notes.append(_fill(words["note_lives"], n=str(lives[seat])))
        elif isinstance(lives, int):
            notes.append(_fill(words["note_lives"], n=str(lives)))
        if seat == setup.get("knocker"):
            notes.append(esc(words["note_knocked"]))
        if seat not in hands and not notes:
            continue  # nothing dealt to show, nothing to say
        cards = f" {cards_row(hands[seat])}" if seat in hands else ""
        note = f" <small>{', '.join(notes)}</small>" if notes else ""
        seats.append(f"**{seat}**{cards}{note}")
    piles = [
        f"{esc(words['pile_' + key])} {cards_row(setup[key])}"
        for key in ("middle", "extra", "stock", "discard", "deck")
        if key in setup
    ]
    later = len(setup.get("decks", ())) + len(setup.get("deals", ()))
    if later:
        piles.append(f"<small>{_fill(words['later_rounds'], n=str(later))}</small>")
    lines = [" · ".join(seats)]
    if piles:
        lines.append(" · ".join(piles))
    return '<div class="dis-position" markdown>\n\n' + "  \n".join(lines) + "\n\n</div>"


def _name(name: str, names: Names, language: str) -> str:
    """A ruleset as players know it, linked to its page, with its id as the tooltip."""
    house = house_rule_of(name)
    target = house_rule_page(house) if house else ruleset_page(name)
    shown = names.get(name, {}).get(language) or name
    return f'[{esc(shown)}]({rel(HERE, target)} "{attr(name)}")'


def _names(group: Group, words: Mapping[str, str], names: Names, language: str) -> str:
    shown = []
    for answer in group.answers:
        text = _name(answer.name, names, language)
        if answer.outcome is not None and not answer.pinned:
            tip = attr(words["unpinned"])
            text += f'<sup class="dis-unpinned" title="{tip}">{UNPINNED_MARK}</sup>'
        shown.append(text)
    return ", ".join(shown)


def _cell(fixture: Fixture, answer: Answer, words: Mapping[str, str], language: str = "en") -> str:
    """What a ruleset makes of the position. The loader's and the engine's reasons are
    English: another language says what happened in its own words and keeps the reason
    as the cell's tooltip."""
    if answer.misfit is not None:
        return _reason(words["misfit"], answer.misfit, language)
    if answer.error is not None:
        return _reason(words["error"], answer.error, language)
    if answer.stuck is not None:
        number, reason = answer.stuck
        steps = step_pairs(fixture)
        step = str(number)
        if 0 < number <= len(steps):
            seat, act = steps[number - 1]
            step += f" ({seat}: {code(act)})"
        return "*" + _fill(words["stuck"], step=step, reason=code(reason)) + "*"
    lines = outcome_lines(answer.outcome or {}, step_pairs(fixture), words)
    return "<br>".join(lines)


def _reason(label: str, reason: str, language: str) -> str:
    if language == "en":
        return f"*{esc(label)}* {esc(reason)}"
    return f'<span title="{attr(reason)}">*{esc(label.rstrip(":"))}*</span>'


def _fill(label: str, **parts: str) -> str:
    """A label with ``{name}`` places, escaped, with markdown ``parts`` put in."""
    marks = {name: f"\x00{i}\x00" for i, name in enumerate(parts)}
    text = esc(label.format(**marks))
    for name, mark in marks.items():
        text = text.replace(mark, parts[name])
    return text


def _facts(site: Site, suite: Suite, scenario: Scenario, words: Mapping[str, str]) -> str:
    """The fixtures that pin the scenario, and the decisions and rules the positions shown
    rest on, as small print with links."""
    pinned = suite.pinned.get(scenario.id, ())
    also = suite.mentioned.get(scenario.id, ())
    by_id = {f.id: f for f in suite.fixtures}
    fixtures = [by_id[i] for i in pinned if i in by_id]
    shown = [by_id[i] for i in scenario.shows if i in by_id]
    links = [f'[{esc(f.id)}]({rel(HERE, fixture_page(f.id))} "{attr(f.title)}")' for f in fixtures]
    parts = [f"{esc(words['pinned_by'])}: " + ", ".join(links)]
    if also:
        refs = ", ".join(f"[{esc(i)}]({rel(HERE, fixture_page(i))})" for i in also)
        parts.append(f"{esc(words['also'])}: {refs}")
    decisions = sorted({d for f in shown for c in f.cases for d in c.defaults})
    if decisions:
        listed = ", ".join(_decision(site, d) for d in decisions)
        parts.append(f"{esc(words['decisions'])}: {listed}")
    params = _params(shown)
    if params:
        listed = ", ".join(
            link(HERE, f"{SCHEMA_REFERENCE}#{param_anchor(p)}", code(p)) for p in params
        )
        parts.append(f"{esc(words['rules'])}: {listed}")
    return '<div class="dis-facts" markdown>\n\n' + "  \n".join(parts) + "\n\n</div>"


def _decision(site: Site, number: str) -> str:
    if number not in site.all_decisions:
        return number
    title = site.decision_titles.get(number, "")
    tip = f' "{attr(title)}"' if title else ""
    return f"[{number}]({rel(HERE, DECISIONS + '#' + decision_anchor(number))}{tip})"


def _params(fixtures: Sequence[Fixture]) -> list[str]:
    """The rule parameters of the rules-matrix dimensions the fixtures name."""
    dims = {d.strip().rstrip(".") for f in fixtures for d in f.matrix.split(",") if d.strip()}
    return [
        p.path for p in PARAMETERS if {d.strip() for d in p.matrix.split(",") if d.strip()} & dims
    ]
