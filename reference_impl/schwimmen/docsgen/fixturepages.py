"""A page per conformance fixture, the fixtures index, and the conformance sections of the
ruleset and house-rule pages.

A fixture page is read by someone whose engine failed a case, or by a player who wants
to see a disagreement played out: it shows the position with the cards drawn as cards,
the steps in words (with their canonical text), and for each case the expected outcome,
the rulesets of the default run it applies to (chosen by the loader's
``applicable_case``), its ``where`` predicates in plain words and its evidence: the
sources' quotes or the stated defaults (U numbers, linked to the decisions page).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.markup import (
    DISAGREEMENTS,
    FIXTURES_INDEX,
    GUIDE_TEST,
    SCHEMA_REFERENCE,
    attr,
    card_text,
    cards_row,
    citation_md,
    code,
    conformance_doc,
    decision_link,
    esc,
    fixture_page,
    house_rule_page,
    link,
    link_refs,
    param_anchor,
    rel,
    ruleset_page,
    table,
)
from schwimmen.docsgen.pagedata import words
from schwimmen.docsgen.suite import (
    KINDS,
    FixtureRuns,
    Suite,
    area_of,
    house_rule_of,
    name_of,
)
from schwimmen.docsgen.values import short
from schwimmen.spec.parameters import BY_PATH, PARAMETERS
from schwimmen.spec.present import points as points_text

# ----------------------------------------------------------------------------- small parts


def kind_badge(kind: str) -> str:
    return f'<span class="fxkind fxkind-{kind}" title="{attr(KINDS.get(kind, kind))}">{kind}</span>'


def name_link(here: str, name: str) -> str:
    """A ruleset (``pagat``) or composed name (``pagat+no-triples``) linked to its page."""
    house = house_rule_of(name)
    target = house_rule_page(house) if house else ruleset_page(name)
    return f"[{code(name)}]({rel(here, target)})"


def scenario_link(here: str, number: str, site: Site) -> str:
    if number not in site.scenarios:
        return number
    title = site.scenario_titles.get(number, "")
    tip = f' "{attr(title)}"' if title else ""
    return f"[{number}]({rel(here, DISAGREEMENTS + '#' + number.lower())}{tip})"


def dims_md(matrix: str, here: str) -> str:
    """The rules-matrix dimensions a fixture touches, as links to the parameters."""
    dims = {d.strip().rstrip(".") for d in matrix.split(",") if d.strip()}
    params = [p for p in PARAMETERS if {d.strip() for d in p.matrix.split(",")} & dims]
    listed = ", ".join(sorted(dims, key=lambda d: [int(x) for x in d.split(".") if x.isdigit()]))
    if not params:
        return esc(listed)
    links = ", ".join(
        link(here, f"{SCHEMA_REFERENCE}#{param_anchor(p.path)}", code(p.path)) for p in params
    )
    return f"{esc(listed)}: {links}"


def _seat_key(seat: str) -> int:
    return int(seat[1:]) if seat[1:].isdigit() else 0


def seats_of(fixture: Fixture) -> list[str]:
    return [f"P{i}" for i in range(1, int(fixture.setup.get("seats", 0)) + 1)]


def dealer_of(fixture: Fixture) -> str:
    seats = seats_of(fixture)
    return str(fixture.setup.get("dealer", seats[-1] if seats else "P1"))


def points_md(value: Any) -> str:
    if value is None:
        return "no number"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return points_text(value)
    return esc(str(value))


def seat_list(seats: Sequence[Any]) -> str:
    items = sorted((str(s) for s in seats), key=_seat_key)
    return ", ".join(f"**{s}**" for s in items) if items else "nobody"


# ----------------------------------------------------------------------------- actions

_VERB: Mapping[str, str] = {
    "swap-all": "swaps his whole hand for the middle",
    "pass": "passes",
    "knock": "knocks",
    "keep": "keeps his hand",
    "take-extra": "takes the unseen extra hand",
    "show": "shows his 31",
    "decline": "does not show his 31",
    "turn-up": "turns up the middle",
    "draw-stock": "draws from the stock",
    "draw-discard": "takes the top card of the discard pile",
}


def _card_group(token: str) -> str:
    return "".join(card_text(t) for t in token.split("+"))


def action_md(text: str) -> str:
    """An action in words with its cards drawn, followed by its canonical text."""
    words = str(text).split()
    phrase = ""
    knock = len(words) > 1 and words[-1] == "knock"
    core = words[:-1] if knock else words
    if len(core) == 3 and core[0] == "swap":
        phrase = f"swaps {_card_group(core[1])} for {_card_group(core[2])}"
    elif len(core) == 2 and core[0] == "discard":
        phrase = f"discards {_card_group(core[1])}"
    elif len(core) == 1 and core[0] in _VERB:
        phrase = _VERB[core[0]]
    if not phrase:  # not a well-formed action (some fixtures test the refusal)
        return code(text)
    if knock:
        phrase += ", then knocks"
    return f'{phrase} <span class="canon">{code(text)}</span>'


def step_pairs(fixture: Fixture) -> list[tuple[str, str]]:
    out = []
    for step in fixture.setup.get("steps", ()):
        for seat, action in dict(step).items():
            out.append((str(seat), str(action)))
    return out


# ----------------------------------------------------------------------------- position


def position_md(fixture: Fixture) -> str:
    """The cards as dealt (or the stacked pack), with who deals and the match so far."""
    setup = fixture.setup
    seats = seats_of(fixture)
    dealer = dealer_of(fixture)
    hands: Mapping[str, Sequence[str]] = setup.get("hands", {})
    lives = setup.get("lives")
    eliminated = {str(s) for s in setup.get("eliminated", ())}
    reached: Mapping[str, Any] = setup.get("reached", {})
    knocker = setup.get("knocker")
    out: list[str] = []
    if fixture.kind == "setup" and not hands and "deck" not in setup:
        return f"A table of {len(seats)} players; nothing is dealt yet.\n"
    facts = [f"{len(seats)} players, **{dealer}** deals"]
    if isinstance(lives, int):
        facts.append(f"every seat has {lives} {'life' if lives == 1 else 'lives'} left")
    if knocker:
        facts.append(f"**{knocker}** has knocked")
    points: Mapping[str, Any] = setup.get("points", {})
    if points:
        facts.append(f"match points so far: {_lives_md(points)}")
    out += ["; ".join(facts) + ".", ""]
    rows = []
    for seat in seats:
        notes = []
        if seat == dealer:
            notes.append("deals")
        if seat in eliminated:
            notes.append("out of the match")
        if isinstance(lives, Mapping) and seat in lives:
            left = lives[seat]
            notes.append(f"{left} {'life' if left == 1 else 'lives'} left")
        if seat == knocker:
            notes.append("knocked")
        if seat in reached:
            step = reached[seat]
            notes.append("hand as dealt" if step == 0 else f"last changed his hand at step {step}")
        cards = cards_row(hands[seat]) if seat in hands else "—"
        rows.append([f"**{seat}**", cards, esc(", ".join(notes))])
    if hands or eliminated or isinstance(lives, Mapping):
        out += ['<div class="fx-position" markdown>', ""]
        out += [table(["seat", "hand" if hands else "", ""], rows), ""]
        out += ["</div>", ""]
    piles = [
        ("middle", "Middle", "face up" if "middle" in setup else ""),
        ("extra", "Extra hand", "the dealer's unseen extra cards; his choice is the first step"),
        ("stock", "Stock", "top card first"),
        ("discard", "Discard pile", "bottom card first"),
        ("deck", "Stacked pack", "top card first, dealt by the ruleset's own procedure"),
    ]
    lines = []
    for key, label, note in piles:
        if key in setup:
            small = f" <small>({esc(note)})</small>" if note and key != "middle" else ""
            lines.append(f"**{label}**{small}\n:   {cards_row(setup[key])}\n")
    for i, pack in enumerate(setup.get("decks", ()), start=2):
        lines.append(
            f"**Pack of round {i}** <small>(top card first)</small>\n:   {cards_row(pack)}\n"
        )
    for i, deal in enumerate(setup.get("deals", ()), start=2):
        dealt = [f"**{s}** {cards_row(c)}" for s, c in _by_seat(deal.get("hands", {}))]
        dealt += [
            f"{label.lower()} {cards_row(deal[key])}" for key, label, _ in piles if key in deal
        ]
        lines.append(f"**Round {i} as dealt**\n:   {'; '.join(dealt)}\n")
    if lines:
        out += ['<div class="fx-piles" markdown>', "", *lines, "</div>", ""]
    return "\n".join(out)


def _step_md(seat: str, action: str) -> str:
    if seat == "table":  # the one step that is no seat's action (FIXTURES.md)
        return f'The table starts the next match <span class="canon">{code(action)}</span>'
    return f"**{seat}** {action_md(action)}"


def steps_md(fixture: Fixture) -> str:
    pairs = step_pairs(fixture)
    if not pairs:
        return "No steps: the outcome follows from the position itself.\n"
    lines = [f"{i}. " + _step_md(seat, action) for i, (seat, action) in enumerate(pairs, 1)]
    return '<div class="fx-steps" markdown>\n\n' + "\n".join(lines) + "\n\n</div>\n"


# ----------------------------------------------------------------------------- predicates


def _value_words(param: str, value: Any) -> str:
    """One allowed value in words, with the registry's meaning as its tooltip."""
    text = short(param, value)
    spec = BY_PATH.get(param)
    meaning = ""
    if spec is not None and spec.choices and isinstance(value, str):
        meaning = spec.choices.get(value, "")
    tip = f' title="{attr(meaning)}"' if meaning else ""
    return f"<code{tip}>{esc(text)}</code>"


def predicate_md(param: str, predicate: Any, here: str) -> str:
    """``turns.passing: [free]`` → "Passing (schieben) is `free`" with the parameter linked."""
    spec = BY_PATH.get(param)
    title = esc(spec.title) if spec else code(param)
    name = link(here, f"{SCHEMA_REFERENCE}#{param_anchor(param)}", title) if spec else title
    if isinstance(predicate, Mapping):
        values = [_value_words(param, v) for v in predicate.get("not", ())]
        return f"{name} is not {' or '.join(values)}"
    values = [_value_words(param, v) for v in predicate]
    if len(values) == 1:
        return f"{name} is {values[0]}"
    return f"{name} is {', '.join(values[:-1])} or {values[-1]}"


# ----------------------------------------------------------------------------- expectations

_REASON: Mapping[str, str] = {
    "knock": "the last cycle after a knock is over",
    "maximum": "{by} shows the maximum (31, or 41 in the four-card game)",
    "feuer": "{by} shows Feuer",
    "feuer-light": "{by} shows Feuer light",
    "all-passed": "everybody passed",
    "stock-exhausted": "the stock ran out",
    "two-open": "only two players have not closed",
    "one-open": "only one player has not closed",
}
_HAND: Mapping[str, str] = {
    "suit": "in one suit",
    "triple": "a triple",
    "fixed": "a fixed-value hand",
    "feuer": "Feuer",
    "feuer-light": "Feuer light",
}
_SUIT = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def losses_md(losses: Mapping[str, Any]) -> str:
    named = sorted(((str(s), n) for s, n in losses.items() if n), key=lambda x: _seat_key(x[0]))
    if not named:
        return "nobody loses a life"
    parts = [f"**{s}** loses {n} {'life' if n == 1 else 'lives'}" for s, n in named]
    return ", ".join(parts) + " (nobody else loses)"


def value_md(value: Mapping[str, Any]) -> str:
    """One hand's expected worth in words: ``21 in ♥``, ``30½, a triple``, ``Feuer``."""
    parts = []
    if "points" in value:
        parts.append(f"**{points_md(value['points'])}**")
    hand = value.get("hand")
    suit = value.get("suit")
    if hand == "suit" or (hand is None and suit):
        parts.append("in " + _SUIT.get(str(suit), "one suit") if suit else _HAND["suit"])
    elif hand:
        parts.append(_HAND.get(str(hand), esc(str(hand))))
    if value.get("maximum") is True:
        parts.append("the maximum")
    return " ".join(parts[:1]) + (", " + ", ".join(parts[1:]) if parts[1:] else "")


def values_table(values: Mapping[str, Any], hands: Mapping[str, Sequence[str]]) -> str:
    rows = []
    for seat in sorted(values, key=_seat_key):
        v = values[seat]
        cards = cards_row(hands[seat]) if seat in hands else ""
        maximum = {True: "yes", False: "no"}.get(v.get("maximum")) if "maximum" in v else ""
        rows.append(
            [
                f"**{seat}**",
                cards,
                points_md(v["points"]) if "points" in v else "",
                esc(str(v.get("hand", ""))),
                _SUIT.get(str(v.get("suit")), "—") if "suit" in v else "",
                maximum or "",
            ]
        )
    head = ["seat", "hand" if hands else "", "points", "kind", "suit", "maximum"]
    keep = [i for i in range(len(head)) if i == 0 or any(row[i] for row in rows)]
    head = [head[i] for i in keep]
    rows = [[row[i] for i in keep] for row in rows]
    return '<div class="fx-values" markdown>\n\n' + table(head, rows) + "\n\n</div>"


def round_md(r: Mapping[str, Any], steps: list[tuple[str, str]]) -> str:
    """One ended round in words: when, why, who knocked, who loses."""
    text = "The round ends"
    if r.get("at_deal") is True or r.get("after_step") == 0:
        text += " at the deal"
    elif "after_step" in r:
        n = int(r["after_step"])
        what = f" ({steps[n - 1][0]}: {code(steps[n - 1][1])})" if 0 < n <= len(steps) else ""
        text += f" after step {n}{what}"
    elif r.get("at_deal") is False:
        text += " during play"
    by = f"**{r['by']}**" if r.get("by") else "a player"
    if "reason" in r:
        reason = str(r["reason"])
        clause = _REASON.get(reason, "reason " + code(reason)).format(by=by)
        text += f": {clause}"
    elif r.get("by"):
        text += f", closed by {by}"
    if "knocker" in r:
        text += "; nobody had knocked" if r["knocker"] is None else f"; **{r['knocker']}** knocked"
    text += "."
    if "losses" in r:
        losses = losses_md(r["losses"])
        text += " " + losses[:1].upper() + losses[1:] + "."
    if "lives_lost" in r:
        taken = [f"**{s}** {n}" for s, n in _by_seat(r["lives_lost"]) if n]
        text += f" Lives taken: {', '.join(taken) if taken else 'none'}."
    if "values" in r:
        worth = "; ".join(f"**{s}** {value_md(v)}" for s, v in _by_seat(r["values"]))
        text += f" Hands: {worth}."
    if "hands" in r:
        shown = "; ".join(f"**{s}** {cards_row(c)}" for s, c in _by_seat(r["hands"]))
        text += f" Cards: {shown}."
    return text


def _by_seat(mapping: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return sorted(((str(k), v) for k, v in mapping.items()), key=lambda x: _seat_key(x[0]))


def _lives_md(lives: Any) -> str:
    if isinstance(lives, Mapping):
        return ", ".join(f"**{s}** {n}" for s, n in _by_seat(lives))
    return esc(str(lives))


def expectation_lines(
    fixture: Fixture, expect: Mapping[str, Any], *, inline: bool = False
) -> list[str]:
    """The expected outcome as a list of sentences (markdown list items); ``inline`` for a
    state after a step, whose hand values are written out (no table follows them)."""
    steps = step_pairs(fixture)
    lines: list[str] = []
    for key, value in expect.items():
        if key == "after_step":
            for n, state in sorted(value.items(), key=lambda x: int(x[0])):
                inner = " ".join(
                    part if part.endswith(".") else part + "."
                    for part in expectation_lines(fixture, state, inline=True)
                )
                lines.append(f"After step {int(n)}: {inner}")
        elif key == "end":
            lines.append(round_md(value, steps))
        elif key == "rounds":
            for i, r in enumerate(value, 1):
                lines.append(f"Round {i}: " + round_md(r, steps))
            if not value:
                lines.append("No round ends.")
        elif key == "round_over":
            lines.append("No round has ended yet." if value is False else "A round has ended.")
        elif key == "values" and inline:
            worth = "; ".join(
                f"**{s}** {value_md(v) if v is not None else 'no value (a card too many)'}"
                for s, v in _by_seat(value)
            )
            lines.append(f"The hands are worth: {worth}.")
        elif key == "losses":
            text = losses_md(value)
            lines.append(text[:1].upper() + text[1:] + ".")
        elif key == "values":
            lines.append("The hands are worth:")
        elif key == "steps":
            for n, verdict in sorted(value.items(), key=lambda x: int(x[0])):
                index = int(n)
                what = (
                    f" ({steps[index - 1][0]}: {code(steps[index - 1][1])})"
                    if 0 < index <= len(steps)
                    else ""
                )
                if isinstance(verdict, Mapping) and "rejected" in verdict:
                    lines.append(
                        f"Step {index}{what} is refused: {code(str(verdict['rejected']))}."
                    )
                else:
                    lines.append(f"Step {index}{what} is accepted.")
            lines.append("Every other step is accepted.")
        elif key == "to_move":
            lines.append(f"**{value}** is to move." if value else "Nobody is to move.")
        elif key == "phase":
            lines.append(f"The phase is {code(str(value))}.")
        elif key == "middle":
            lines.append(
                "The middle is face down." if value is None else f"The middle: {cards_row(value)}"
            )
        elif key == "hands":
            lines.append(
                "Hands: " + "; ".join(f"**{s}** {cards_row(c)}" for s, c in _by_seat(value))
            )
        elif key == "knocker":
            lines.append("Nobody has knocked." if value is None else f"**{value}** has knocked.")
        elif key == "dealer":
            lines.append(f"**{value}** deals.")
        elif key in ("legal_includes", "legal_excludes"):
            word = "may" if key == "legal_includes" else "may not"
            acts = ", ".join(code(str(a)) for a in value)
            lines.append(f"The seat to move {word} play: {acts}.")
        elif key == "lives":
            lines.append(f"Lives left: {_lives_md(value)}.")
        elif key == "swimming":
            lines.append(f"Swimming: {seat_list(value)}.")
        elif key == "eliminated":
            lines.append(f"Out of the match: {seat_list(value)}.")
        elif key == "winners":
            lines.append(f"Winners: {seat_list(value)}.")
        elif key == "match_over":
            lines.append("The match is over." if value else "The match is not over.")
        elif key == "points":
            lines.append(f"Points for won matches: {_lives_md(value)}.")
        elif key == "accepted":
            lines.append("The table is allowed." if value else "The table is **not** allowed.")
        elif key == "pack":
            lines.append(f"The pack has {value} cards.")
        else:
            lines.append(f"{code(key)}: {code(json.dumps(value, ensure_ascii=False))}")
    return lines


# ----------------------------------------------------------------------------- a case


def case_md(
    fixture: Fixture, case: Case, runs: FixtureRuns, here: str, site: Site, total: int
) -> str:
    applies = runs.applies.get(case.index, ())
    out = [f"### {case.index + 1}. {esc(case.label())} {{#case-{case.index + 1}}}", ""]
    if applies:
        out += [
            f"**Applies to** {len(applies)} of the {total} rulesets run by default:",
            "",
            applies_md(here, applies),
            "",
        ]
    else:
        out += [
            "**Applies to** none of the rulesets run by default; it is there for a ruleset or "
            "house rule that meets its conditions.",
            "",
        ]
    if case.where:
        out += ["**When** the ruleset's rules are:", ""]
        out += [f"- {predicate_md(p, pred, here)}" for p, pred in case.where.items()]
        out += [""]
    out += ['<div class="fx-expect" markdown>', "", "**Expected**", ""]
    out += [f"- {line}" for line in expectation_lines(fixture, case.expect)]
    out += [""]
    values = case.expect.get("values")
    if isinstance(values, Mapping) and values:
        hands = (
            fixture.setup.get("hands", {})
            if fixture.kind in ("hand-evaluation", "showdown")
            else {}
        )
        out += [values_table(values, hands), ""]
    out += ["</div>", ""]
    if case.note:
        out += [f"**Note:** {link_refs(esc(case.note), here, site.refs)}", ""]
    if case.because:
        body = "\n\n".join(citation_md(c, here) for c in case.because)
        out += ['!!! cited "Because the sources say"', "", _indent(body), ""]
    if case.defaults:
        items = []
        for decision in case.defaults:
            title = site.decision_titles.get(decision, "")
            items.append(
                f"- {decision_link(here, decision, site.refs)}"
                + (f": {esc(title)}" if title else "")
            )
        body = (
            "Where the sources are silent, the outcome rests on these stated defaults "
            "(the project's decisions):\n\n" + "\n".join(items)
        )
        out += ['!!! default "Stated defaults"', "", _indent(body), ""]
    return "\n".join(out)


def _indent(block: str) -> str:
    return "\n".join("    " + line if line.strip() else "" for line in block.splitlines())


def applies_md(here: str, names: Sequence[str]) -> str:
    """The rulesets a case applies to, compactly: the rulesets, then each ruleset's house
    rules as ``+name`` after it."""
    base = [n for n in names if house_rule_of(n) is None]
    houses: dict[str, list[str]] = {}
    for name in names:
        house = house_rule_of(name)
        if house is not None:
            houses.setdefault(name.rsplit("+", 1)[0], []).append(house)
    lines = []
    if base:
        lines.append("- **Rulesets:** " + ", ".join(name_link(here, n) for n in base))
    if houses:
        lines.append("- **With house rules:**")
        for origin, hids in houses.items():
            links = " ".join(
                f'[{code("+" + h)}]({rel(here, house_rule_page(h))} "{attr(origin + "+" + h)}")'
                for h in hids
            )
            lines.append(f"    - {code(origin)} {links}")
    return '<div class="fx-applies" markdown>\n\n' + "\n".join(lines) + "\n\n</div>"


# ----------------------------------------------------------------------------- the page


def fixture_markdown(site: Site, suite: Suite, fixture: Fixture) -> str:
    here = fixture_page(fixture.id)
    runs = suite.runs[fixture.id]
    total = len(suite.names)
    area = area_of(fixture.id)
    out = [f"# {esc(fixture.title)}", ""]
    head = [kind_badge(fixture.kind)]
    if fixture.disagreement:
        head.append(
            f'<span class="fxdis">disagreement {scenario_link(here, fixture.disagreement, site)}'
            "</span>"
        )
    out += [" ".join(head), "{: .fx-badges }", ""]
    facts = [
        ("Id", code(fixture.id)),
        ("Kind", f"{kind_badge(fixture.kind)} {esc(KINDS.get(fixture.kind, ''))}"),
    ]
    if fixture.disagreement:
        title = site.scenario_titles.get(fixture.disagreement, "")
        facts.append(
            (
                "Disagreement",
                scenario_link(here, fixture.disagreement, site)
                + (f": {esc(title)}" if title else ""),
            )
        )
    if fixture.matrix:
        facts.append(("Rules it pins", dims_md(fixture.matrix, here)))
    count = len(runs.names)
    facts.append(
        (
            "Runs",
            f"{count} {'case' if count == 1 else 'cases'} in the default run "
            f"({len(fixture.cases)} stated outcome{'s' if len(fixture.cases) != 1 else ''})",
        )
    )
    facts.append(("Run it", code(f"schwimmen conformance -k {fixture.id}")))
    facts.append(("File", code(fixture.file)))
    out += [_facts(facts), ""]
    if fixture.description:
        out += [link_refs(esc(fixture.description), here, site.refs), ""]
    out += ["## The position {#position}", "", position_md(fixture)]
    if fixture.kind in ("round", "match") or step_pairs(fixture):
        out += ["## The steps {#steps}", "", steps_md(fixture)]
    many = len(fixture.cases) > 1
    out += [
        "## Expected outcome {#outcome}",
        "",
        (
            f"{len(fixture.cases)} outcomes, one for each answer the rulesets give. A ruleset "
            "gets the first case whose rules it meets."
            if many
            else "One outcome for every ruleset whose rules meet the case's conditions."
        ),
        "",
    ]
    for case in fixture.cases:
        out += [case_md(fixture, case, runs, here, site, total)]
    out += [_not_run(runs, here), ""]
    interpreting = link(here, conformance_doc("INTERPRETING.md"), "Interpreting the suite")
    out += [
        "---",
        "",
        f"<small>Back to the {link(here, FIXTURES_INDEX + '#' + area, f'{esc(area)} fixtures')}"
        f" · how to run the suite: {link(here, GUIDE_TEST, 'Test your implementation')} · "
        f"what each field obliges: {interpreting}</small>",
        "",
    ]
    return "\n".join(out)


def _facts(facts: list[tuple[str, str]]) -> str:
    items = [f"{key}\n:   {value}\n" for key, value in facts]
    return '<div class="facts" markdown>\n\n' + "\n".join(items) + "\n</div>\n"


def _not_run(runs: FixtureRuns, here: str) -> str:
    rows = [[name_link(here, n), esc(why)] for n, why in runs.misfits.items()]
    rows += [[name_link(here, n), "no case states an outcome for its rules"] for n in runs.unstated]
    if not rows:
        return (
            "## Where it does not run {#not-run}\n\n"
            "It runs under every ruleset of the default run.\n"
        )
    body = table(["ruleset", "why not"], rows)
    return (
        "## Where it does not run {#not-run}\n\n"
        f'??? info "{len(rows)} of the default run\'s rulesets do not run it"\n\n'
        + _indent(body)
        + "\n"
    )


# ----------------------------------------------------------------------------- the index


def index_parts(site: Site, suite: Suite) -> dict[str, str]:
    """The generated parts of ``docs/fixtures/index.md``: the fixtures by kind, and every
    fixture listed by area."""
    here = FIXTURES_INDEX
    kinds = Counter(f.kind for f in suite.fixtures)
    areas = suite.areas()
    rows = [[kind_badge(k), esc(KINDS[k]), str(kinds.get(k, 0))] for k in KINDS if kinds.get(k)]
    jump = " · ".join(f"[{esc(a)}](#{a}) ({len(fs)})" for a, fs in areas.items())
    out = [f"**Areas:** {jump}", "{: .fx-jump }", ""]
    for area, fixtures in areas.items():
        out += [f"## {esc(area)} {{#{area}}}", ""]
        area_rows = []
        for fixture in fixtures:
            runs = suite.runs[fixture.id]
            dis = scenario_link(here, fixture.disagreement, site) if fixture.disagreement else ""
            area_rows.append(
                [
                    f"{link(here, fixture_page(fixture.id), esc(fixture.title))}<br>"
                    f"<small>{code(name_of(fixture.id))}</small>",
                    kind_badge(fixture.kind),
                    dis,
                    str(len(runs.names)),
                ]
            )
        out += ['<div class="fx-index" markdown>', ""]
        out += [table(["fixture", "kind", "F", "cases"], area_rows), ""]
        out += ["</div>", ""]
    rulesets = [n for n in suite.names if house_rule_of(n) is None]
    return {
        "run-ruleset-count": str(len(rulesets)),
        "run-house-rule-count": str(len(suite.names) - len(rulesets)),
        "fixtures-kinds": table(["kind", "what it pins", "fixtures"], rows),
        "fixtures-areas": "\n".join(out),
    }


# ----------------------------------------------------------------------------- rule pages


def _compact(here: str, pairs: Sequence[tuple[Fixture, Case]]) -> str:
    """Fixtures grouped by area, one line per area, each fixture linked by its name."""
    by_area: dict[str, list[Fixture]] = {}
    for fixture, _ in pairs:
        by_area.setdefault(area_of(fixture.id), []).append(fixture)
    lines = []
    for area, fixtures in by_area.items():
        links = " · ".join(
            f'[{esc(name_of(f.id))}]({rel(here, fixture_page(f.id))} "{attr(f.title)}")'
            for f in fixtures
        )
        lines.append(f"- **{esc(area)}** ({len(fixtures)}): {links}")
    return "\n".join(lines)


def _kind_counts(pairs: Sequence[tuple[Fixture, Case]], language: str) -> str:
    say = words()
    counts = Counter(f.kind for f, _ in pairs)
    return ", ".join(
        f"{counts[k]} {say(f'fixture-kind.{k}.' + ('one' if counts[k] == 1 else 'many'), language)}"
        for k in KINDS
        if counts.get(k)
    )


def _runs_sentence(
    here: str, name: str, pairs: Sequence[tuple[Fixture, Case]], language: str
) -> str:
    """How many fixtures run under ``name``, by kind, and the command that runs them."""
    say = words()
    return say(
        "conformance.runs",
        language,
        n=len(pairs),
        suite=link(here, FIXTURES_INDEX, say("conformance.suite", language)),
        name=code(name),
        kinds=_kind_counts(pairs, language) or say("conformance.no-kinds", language),
        command=code(f"schwimmen conformance --ruleset {name}"),
    )


def _heading(language: str) -> list[str]:
    return [f"## {words()('conformance.heading', language)} {{#conformance}}", ""]


def _folded(here: str, pairs: Sequence[tuple[Fixture, Case]], key: str, language: str) -> list[str]:
    title = words()(key, language, n=len(pairs))
    return [f'??? fixtures "{title}"', "", _indent(_compact(here, pairs)), ""]


def conformance_section(
    site: Site, suite: Suite, name: str, here: str, language: str = "en"
) -> str:
    """The "Conformance" section of a ruleset page (``name`` = ruleset id)."""
    pairs = suite.applying_to(name)
    out = _heading(language)
    if not pairs:
        out += [words()("conformance.none", language, name=code(name)), ""]
        return "\n".join(out)
    out += [_runs_sentence(here, name, pairs, language), ""]
    out += _folded(here, pairs, "conformance.by-area", language)
    return "\n".join(out)


def house_rule_conformance_section(
    site: Site, suite: Suite, hid: str, origin: str, here: str, language: str = "en"
) -> str:
    """The "Conformance" section of a house-rule page: what runs under ``origin+hid`` and
    where its expected outcome differs from the origin's."""
    say = words()
    name = f"{origin}+{hid}"
    pairs = suite.applying_to(name)
    out = _heading(language)
    if name not in suite.names:
        out += [say("conformance.not-in-run", language, name=code(name)), ""]
        return "\n".join(out)
    out += [_runs_sentence(here, name, pairs, language), ""]
    differs = []
    for fixture, case in pairs:
        before = suite.runs[fixture.id].case_for(origin)
        if before is None or before.index != case.index:
            differs.append((fixture, case, before))
    if differs:
        out += [say("conformance.changes", language, origin=code(origin)), ""]
        absent = f"<span class='na'>{say('conformance.does-not-run', language)}</span>"
        rows = []
        for fixture, case, before in differs:
            page = rel(here, fixture_page(fixture.id))
            rows.append(
                [
                    f"[{esc(fixture.title)}]({page})",
                    esc(before.label()) if before else absent,
                    f"[{esc(case.label())}]({page}#case-{case.index + 1})",
                ]
            )
        header = [
            say("conformance.fixture", language),
            code(origin),
            say("conformance.with", language, name=code(hid)),
        ]
        out += [table(header, rows), ""]
    if pairs:
        out += _folded(here, pairs, "conformance.all-by-area", language)
    return "\n".join(out)


def decision_fixtures(suite: Suite, decision: str, here: str) -> str:
    """For the decisions page: the fixtures whose cases rest on ``decision``."""
    ids = suite.decisions().get(decision, [])
    if not ids:
        return ""
    by_id = {f.id: f for f in suite.fixtures}
    links = ", ".join(
        f'[{code(i)}]({rel(here, fixture_page(i))} "{attr(by_id[i].title)}")' for i in ids
    )
    return f"Fixtures resting on it ({len(ids)}): {links}."
