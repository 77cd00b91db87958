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
    LETTER_SUIT,
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
    in_english,
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
    kind_help,
    name_of,
)
from schwimmen.docsgen.values import short
from schwimmen.engine.rounds import EndReason
from schwimmen.spec.parameters import BY_PATH, PARAMETERS
from schwimmen.spec.present import points as points_text

# ----------------------------------------------------------------------------- small parts


def kind_badge(kind: str, language: str = "en") -> str:
    """A fixture kind's badge: its id on English pages (the word the fixture files use),
    the kind's name in another language."""
    tip = kind_help(kind, language) or kind
    shown = kind if language == "en" else _kind_word(kind, language)
    return f'<span class="fxkind fxkind-{kind}" title="{attr(tip)}">{esc(shown)}</span>'


def _kind_word(kind: str, language: str) -> str:
    key = f"fixture-kind.{kind}.one"
    return words()(key, language) if key in words().labels else kind


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


def points_md(value: Any, language: str = "en") -> str:
    if value is None:
        return words()("fixture.no-number", language)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return points_text(value)
    return esc(str(value))


def seat_list(seats: Sequence[Any], language: str = "en") -> str:
    items = sorted((str(s) for s in seats), key=_seat_key)
    return ", ".join(f"**{s}**" for s in items) if items else words()("fixture.nobody", language)


# ----------------------------------------------------------------------------- actions

# The one-word actions; each is said by the label ``fixture.verb.<action>``.
_VERBS = frozenset(
    {
        "swap-all",
        "pass",
        "knock",
        "keep",
        "take-extra",
        "show",
        "decline",
        "turn-up",
        "draw-stock",
        "draw-discard",
    }
)


def _card_group(token: str) -> str:
    return "".join(card_text(t) for t in token.split("+"))


def action_md(text: str, language: str = "en") -> str:
    """An action in words with its cards drawn, followed by its canonical text."""
    say = words()
    tokens = str(text).split()
    phrase = ""
    knock = len(tokens) > 1 and tokens[-1] == "knock"
    core = tokens[:-1] if knock else tokens
    if len(core) == 3 and core[0] == "swap":
        phrase = say(
            "fixture.verb.swap",
            language,
            give=_card_group(core[1]),
            take=_card_group(core[2]),
        )
    elif len(core) == 2 and core[0] == "discard":
        phrase = say("fixture.verb.discard", language, cards=_card_group(core[1]))
    elif len(core) == 1 and core[0] in _VERBS:
        phrase = say(f"fixture.verb.{core[0]}", language)
    if not phrase:  # not a well-formed action (some fixtures test the refusal)
        return code(text)
    if knock:
        phrase = say("fixture.verb.then-knocks", language, action=phrase)
    return f'{phrase} <span class="canon">{code(text)}</span>'


def step_pairs(fixture: Fixture) -> list[tuple[str, str]]:
    out = []
    for step in fixture.setup.get("steps", ()):
        for seat, action in dict(step).items():
            out.append((str(seat), str(action)))
    return out


# ----------------------------------------------------------------------------- position


def _one_or_many(n: int) -> str:
    return "one" if n == 1 else "many"


def position_md(fixture: Fixture, language: str = "en") -> str:
    """The cards as dealt (or the stacked pack), with who deals and the match so far."""
    say = words()
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
        return say("fixture.position.table-only", language, n=len(seats)) + "\n"
    facts = [say("fixture.position.dealer", language, n=len(seats), dealer=f"**{dealer}**")]
    if isinstance(lives, int):
        facts.append(say(f"fixture.position.lives.{_one_or_many(lives)}", language, n=lives))
    if knocker:
        facts.append(say("fixture.has-knocked", language, seat=f"**{knocker}**"))
    points: Mapping[str, Any] = setup.get("points", {})
    if points:
        facts.append(say("fixture.position.match-points", language, points=_lives_md(points)))
    out += ["; ".join(facts) + ".", ""]
    rows = []
    for seat in seats:
        notes = []
        if seat == dealer:
            notes.append(say("fixture.seat.deals", language))
        if seat in eliminated:
            notes.append(say("fixture.seat.out", language))
        if isinstance(lives, Mapping) and seat in lives:
            left = lives[seat]
            notes.append(say(f"fixture.seat.lives.{_one_or_many(left)}", language, n=left))
        if seat == knocker:
            notes.append(say("fixture.seat.knocked", language))
        if seat in reached:
            step = reached[seat]
            notes.append(
                say("fixture.seat.as-dealt", language)
                if step == 0
                else say("fixture.seat.changed-at", language, n=step)
            )
        cards = cards_row(hands[seat]) if seat in hands else "—"
        rows.append([f"**{seat}**", cards, esc(", ".join(notes))])
    if hands or eliminated or isinstance(lives, Mapping):
        out += ['<div class="fx-position" markdown>', ""]
        head = [
            say("fixture.head.seat", language),
            say("fixture.head.hand", language) if hands else "",
        ]
        out += [table([*head, ""], rows), ""]
        out += ["</div>", ""]
    # each pile: its key in the setup and the label of its note (the middle has none)
    piles = [
        ("middle", ""),
        ("extra", "fixture.pile.extra.note"),
        ("stock", "fixture.pile.top-first"),
        ("discard", "fixture.pile.bottom-first"),
        ("deck", "fixture.pile.deck.note"),
    ]
    top_first = say("fixture.pile.top-first", language)
    lines = []
    for key, note in piles:
        if key in setup:
            label = say(f"fixture.pile.{key}.title", language)
            small = f" <small>({esc(say(note, language))})</small>" if note else ""
            lines.append(f"**{label}**{small}\n:   {cards_row(setup[key])}\n")
    for i, pack in enumerate(setup.get("decks", ()), start=2):
        label = say("fixture.pile.round-pack", language, n=i)
        lines.append(f"**{label}** <small>({top_first})</small>\n:   {cards_row(pack)}\n")
    for i, deal in enumerate(setup.get("deals", ()), start=2):
        dealt = [f"**{s}** {cards_row(c)}" for s, c in _by_seat(deal.get("hands", {}))]
        dealt += [
            f"{say(f'fixture.pile.{key}', language)} {cards_row(deal[key])}"
            for key, _ in piles
            if key in deal
        ]
        label = say("fixture.pile.round-dealt", language, n=i)
        lines.append(f"**{label}**\n:   {'; '.join(dealt)}\n")
    if lines:
        out += ['<div class="fx-piles" markdown>', "", *lines, "</div>", ""]
    return "\n".join(out)


def _step_md(seat: str, action: str, language: str = "en") -> str:
    if seat == "table":  # the one step that is no seat's action (FIXTURES.md)
        said = words()("fixture.step.table", language)
        return f'{said} <span class="canon">{code(action)}</span>'
    return f"**{seat}** {action_md(action, language)}"


def steps_md(fixture: Fixture, language: str = "en") -> str:
    pairs = step_pairs(fixture)
    if not pairs:
        return words()("fixture.steps.none", language) + "\n"
    lines = [
        f"{i}. " + _step_md(seat, action, language) for i, (seat, action) in enumerate(pairs, 1)
    ]
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


def predicate_md(param: str, predicate: Any, here: str, language: str = "en") -> str:
    """``turns.passing: [free]`` → "Passing (schieben) is `free`" with the parameter linked."""
    say = words()
    spec = BY_PATH.get(param)
    title = esc(spec.title) if spec else code(param)
    name = link(here, f"{SCHEMA_REFERENCE}#{param_anchor(param)}", title) if spec else title
    either = f" {say('fixture.where.or', language)} "
    if isinstance(predicate, Mapping):
        values = [_value_words(param, v) for v in predicate.get("not", ())]
        return say("fixture.where.is-not", language, name=name, values=either.join(values))
    values = [_value_words(param, v) for v in predicate]
    if len(values) > 1:
        values = [", ".join(values[:-1]), values[-1]]
    return say("fixture.where.is", language, name=name, values=either.join(values))


# ----------------------------------------------------------------------------- expectations

# Why a round ended (the ``reason`` of an expected end), each said by ``fixture.reason.<it>``.
_REASONS = frozenset(reason.value for reason in EndReason)
# The kinds of hand an expected value names, each said by ``fixture.hand.<it>``.
_HANDS = frozenset({"suit", "triple", "fixed", "feuer", "feuer-light"})


def losses_md(losses: Mapping[str, Any], language: str = "en") -> str:
    say = words()
    named = sorted(((str(s), n) for s, n in losses.items() if n), key=lambda x: _seat_key(x[0]))
    if not named:
        return say("fixture.loss.none", language)
    parts = [
        say(f"fixture.loss.{_one_or_many(n)}", language, seat=f"**{s}**", n=n) for s, n in named
    ]
    return say("fixture.loss.nobody-else", language, losses=", ".join(parts))


def value_md(value: Mapping[str, Any], language: str = "en") -> str:
    """One hand's expected worth in words: ``21 in ♥``, ``30½, a triple``, ``Feuer``."""
    say = words()
    parts = []
    if "points" in value:
        parts.append(f"**{points_md(value['points'], language)}**")
    hand = value.get("hand")
    suit = value.get("suit")
    if hand == "suit" or (hand is None and suit):
        if suit and str(suit) in LETTER_SUIT:
            parts.append(say("fixture.hand.in-suit", language, suit=LETTER_SUIT[str(suit)]))
        else:
            parts.append(say("fixture.hand.suit", language))
    elif hand:
        parts.append(
            say(f"fixture.hand.{hand}", language) if str(hand) in _HANDS else esc(str(hand))
        )
    if value.get("maximum") is True:
        parts.append(say("fixture.hand.maximum", language))
    return " ".join(parts[:1]) + (", " + ", ".join(parts[1:]) if parts[1:] else "")


def values_table(
    values: Mapping[str, Any], hands: Mapping[str, Sequence[str]], language: str = "en"
) -> str:
    say = words()
    rows = []
    for seat in sorted(values, key=_seat_key):
        v = values[seat]
        cards = cards_row(hands[seat]) if seat in hands else ""
        flag = v.get("maximum")
        maximum = ""
        if "maximum" in v and flag in (True, False):
            maximum = say("fixture.yes" if flag else "fixture.no", language)
        rows.append(
            [
                f"**{seat}**",
                cards,
                points_md(v["points"], language) if "points" in v else "",
                esc(str(v.get("hand", ""))),
                LETTER_SUIT.get(str(v.get("suit")), "—") if "suit" in v else "",
                maximum,
            ]
        )
    head = [
        say(f"fixture.head.{h}", language) if h != "hand" or hands else ""
        for h in ("seat", "hand", "points", "kind", "suit", "maximum")
    ]
    keep = [i for i in range(len(head)) if i == 0 or any(row[i] for row in rows)]
    head = [head[i] for i in keep]
    rows = [[row[i] for i in keep] for row in rows]
    return '<div class="fx-values" markdown>\n\n' + table(head, rows) + "\n\n</div>"


def _step_what(steps: list[tuple[str, str]], n: int) -> str:
    """`` (P2: `swap QC 7H`)`` for step ``n`` when the fixture has it, else nothing."""
    return f" ({steps[n - 1][0]}: {code(steps[n - 1][1])})" if 0 < n <= len(steps) else ""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def round_md(r: Mapping[str, Any], steps: list[tuple[str, str]], language: str = "en") -> str:
    """One ended round in words: when, why, who knocked, who loses."""
    say = words()
    if r.get("at_deal") is True or r.get("after_step") == 0:
        text = say("fixture.round.ends-at-deal", language)
    elif "after_step" in r:
        n = int(r["after_step"])
        text = say("fixture.round.ends-after-step", language, n=n, step=_step_what(steps, n))
    elif r.get("at_deal") is False:
        text = say("fixture.round.ends-during-play", language)
    else:
        text = say("fixture.round.ends", language)
    by = f"**{r['by']}**" if r.get("by") else say("fixture.round.a-player", language)
    if "reason" in r:
        reason = str(r["reason"])
        clause = (
            say(f"fixture.reason.{reason}", language, by=by)
            if reason in _REASONS
            else say("fixture.reason.other", language, reason=code(reason))
        )
        text += f": {clause}"
    elif r.get("by"):
        text += ", " + say("fixture.round.closed-by", language, by=by)
    if "knocker" in r:
        text += "; " + (
            say("fixture.round.nobody-knocked", language)
            if r["knocker"] is None
            else say("fixture.round.knocked", language, seat=f"**{r['knocker']}**")
        )
    text += "."
    if "losses" in r:
        text += " " + _capital(losses_md(r["losses"], language)) + "."
    if "lives_lost" in r:
        taken = [f"**{s}** {n}" for s, n in _by_seat(r["lives_lost"]) if n]
        lives = ", ".join(taken) if taken else say("fixture.none", language)
        text += " " + say("fixture.round.lives-taken", language, lives=lives)
    if "values" in r:
        worth = "; ".join(f"**{s}** {value_md(v, language)}" for s, v in _by_seat(r["values"]))
        text += " " + say("fixture.round.values", language, values=worth)
    if "hands" in r:
        shown = "; ".join(f"**{s}** {cards_row(c)}" for s, c in _by_seat(r["hands"]))
        text += " " + say("fixture.round.cards", language, cards=shown)
    return text


def _by_seat(mapping: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return sorted(((str(k), v) for k, v in mapping.items()), key=lambda x: _seat_key(x[0]))


def _lives_md(lives: Any) -> str:
    if isinstance(lives, Mapping):
        return ", ".join(f"**{s}** {n}" for s, n in _by_seat(lives))
    return esc(str(lives))


def expectation_lines(
    fixture: Fixture, expect: Mapping[str, Any], *, inline: bool = False, language: str = "en"
) -> list[str]:
    """The expected outcome as a list of sentences (markdown list items); ``inline`` for a
    state after a step, whose hand values are written out (no table follows them)."""
    say = words()
    steps = step_pairs(fixture)
    lines: list[str] = []
    for key, value in expect.items():
        if key == "after_step":
            for n, state in sorted(value.items(), key=lambda x: int(x[0])):
                inner = " ".join(
                    part if part.endswith(".") else part + "."
                    for part in expectation_lines(fixture, state, inline=True, language=language)
                )
                lines.append(say("fixture.expect.after-step", language, n=int(n), state=inner))
        elif key == "end":
            lines.append(round_md(value, steps, language))
        elif key == "rounds":
            for i, r in enumerate(value, 1):
                said = round_md(r, steps, language)
                lines.append(say("fixture.expect.round", language, n=i, round=said))
            if not value:
                lines.append(say("fixture.expect.no-round-ends", language))
        elif key == "round_over":
            over = "fixture.expect.no-round-yet" if value is False else "fixture.expect.round-ended"
            lines.append(say(over, language))
        elif key == "values" and inline:
            no_value = say("fixture.hand.no-value", language)
            worth = "; ".join(
                f"**{s}** {value_md(v, language) if v is not None else no_value}"
                for s, v in _by_seat(value)
            )
            lines.append(say("fixture.expect.worth", language, values=worth))
        elif key == "losses":
            lines.append(_capital(losses_md(value, language)) + ".")
        elif key == "values":
            lines.append(say("fixture.expect.worth-below", language))
        elif key == "steps":
            for n, verdict in sorted(value.items(), key=lambda x: int(x[0])):
                index = int(n)
                what = _step_what(steps, index)
                if isinstance(verdict, Mapping) and "rejected" in verdict:
                    reason = code(str(verdict["rejected"]))
                    lines.append(
                        say("fixture.expect.refused", language, n=index, step=what, reason=reason)
                    )
                else:
                    lines.append(say("fixture.expect.accepted", language, n=index, step=what))
            lines.append(say("fixture.expect.others-accepted", language))
        elif key == "to_move":
            lines.append(
                say("fixture.expect.to-move", language, seat=f"**{value}**")
                if value
                else say("fixture.expect.nobody-to-move", language)
            )
        elif key == "phase":
            lines.append(say("fixture.expect.phase", language, phase=code(str(value))))
        elif key == "middle":
            lines.append(
                say("fixture.expect.middle-down", language)
                if value is None
                else say("fixture.expect.middle", language, cards=cards_row(value))
            )
        elif key == "hands":
            shown = "; ".join(f"**{s}** {cards_row(c)}" for s, c in _by_seat(value))
            lines.append(say("fixture.expect.hands", language, hands=shown))
        elif key == "knocker":
            lines.append(
                say("fixture.expect.nobody-knocked", language)
                if value is None
                else say("fixture.has-knocked", language, seat=f"**{value}**") + "."
            )
        elif key == "dealer":
            lines.append(say("fixture.expect.deals", language, seat=f"**{value}**"))
        elif key in ("legal_includes", "legal_excludes"):
            may = "may-play" if key == "legal_includes" else "may-not-play"
            acts = ", ".join(code(str(a)) for a in value)
            lines.append(say(f"fixture.expect.{may}", language, actions=acts))
        elif key == "lives":
            lines.append(say("fixture.expect.lives", language, lives=_lives_md(value)))
        elif key in ("swimming", "eliminated", "winners"):
            label = {"swimming": "swimming", "eliminated": "out", "winners": "winners"}[key]
            seats = seat_list(value, language)
            lines.append(say(f"fixture.expect.{label}", language, seats=seats))
        elif key == "match_over":
            over = "fixture.expect.match-over" if value else "fixture.expect.match-not-over"
            lines.append(say(over, language))
        elif key == "points":
            lines.append(say("fixture.expect.points", language, points=_lives_md(value)))
        elif key == "accepted":
            allowed = "fixture.expect.allowed" if value else "fixture.expect.not-allowed"
            lines.append(say(allowed, language))
        elif key == "pack":
            lines.append(say("fixture.expect.pack", language, n=value))
        else:
            lines.append(f"{code(key)}: {code(json.dumps(value, ensure_ascii=False))}")
    return lines


# ----------------------------------------------------------------------------- a case


def case_md(
    fixture: Fixture,
    case: Case,
    runs: FixtureRuns,
    here: str,
    site: Site,
    total: int,
    language: str = "en",
) -> str:
    say = words()
    applies = runs.applies.get(case.index, ())
    out = [f"### {case.index + 1}. {esc(case.label())} {{#case-{case.index + 1}}}", ""]
    if applies:
        out += [
            say("fixture.case.applies", language, n=len(applies), total=total),
            "",
            applies_md(here, applies, language),
            "",
        ]
    else:
        out += [say("fixture.case.applies-to-none", language), ""]
    if case.where:
        out += [say("fixture.case.when", language), ""]
        out += [f"- {predicate_md(p, pred, here, language)}" for p, pred in case.where.items()]
        out += [""]
    expected = say("fixture.case.expected", language)
    out += ['<div class="fx-expect" markdown>', "", f"**{expected}**", ""]
    out += [f"- {line}" for line in expectation_lines(fixture, case.expect, language=language)]
    out += [""]
    values = case.expect.get("values")
    if isinstance(values, Mapping) and values:
        hands = (
            fixture.setup.get("hands", {})
            if fixture.kind in ("hand-evaluation", "showdown")
            else {}
        )
        out += [values_table(values, hands, language), ""]
    out += ["</div>", ""]
    if case.note:
        note = say("fixture.case.note", language)
        out += [f"**{note}** {link_refs(esc(case.note), here, site.refs)}", ""]
    if case.because:
        body = "\n\n".join(citation_md(c, here) for c in case.because)
        out += [f'!!! cited "{say("fixture.case.because", language)}"', "", _indent(body), ""]
    if case.defaults:
        items = []
        for decision in case.defaults:
            title = site.decision_titles.get(decision, "")
            items.append(
                f"- {decision_link(here, decision, site.refs)}"
                + (f": {esc(title)}" if title else "")
            )
        body = say("fixture.case.defaults-intro", language) + "\n\n" + "\n".join(items)
        out += [f'!!! default "{say("fixture.case.defaults", language)}"', "", _indent(body), ""]
    return "\n".join(out)


def _indent(block: str) -> str:
    return "\n".join("    " + line if line.strip() else "" for line in block.splitlines())


def applies_md(here: str, names: Sequence[str], language: str = "en") -> str:
    """The rulesets a case applies to, compactly: the rulesets, then each ruleset's house
    rules as ``+name`` after it."""
    base = [n for n in names if house_rule_of(n) is None]
    houses: dict[str, list[str]] = {}
    for name in names:
        house = house_rule_of(name)
        if house is not None:
            houses.setdefault(name.rsplit("+", 1)[0], []).append(house)
    say = words()
    lines = []
    if base:
        rulesets = say("fixture.case.rulesets", language)
        lines.append(f"- **{rulesets}** " + ", ".join(name_link(here, n) for n in base))
    if houses:
        lines.append(f"- **{say('fixture.case.house-rules', language)}**")
        for origin, hids in houses.items():
            links = " ".join(
                f'[{code("+" + h)}]({rel(here, house_rule_page(h))} "{attr(origin + "+" + h)}")'
                for h in hids
            )
            lines.append(f"    - {code(origin)} {links}")
    return '<div class="fx-applies" markdown>\n\n' + "\n".join(lines) + "\n\n</div>"


# ----------------------------------------------------------------------------- the page


def fixture_markdown(site: Site, suite: Suite, fixture: Fixture, language: str = "en") -> str:
    say = words()
    here = fixture_page(fixture.id)
    runs = suite.runs[fixture.id]
    total = len(suite.names)
    area = area_of(fixture.id)
    out = [f"# {esc(fixture.title)}", ""]
    head = [kind_badge(fixture.kind, language)]
    if fixture.disagreement:
        scenario = scenario_link(here, fixture.disagreement, site)
        said = say("fixture.badge.disagreement", language, scenario=scenario)
        head.append(f'<span class="fxdis">{said}</span>')
    out += [" ".join(head), "{: .fx-badges }", ""]
    facts = [
        (say("fixture.facts.id", language), code(fixture.id)),
        (
            say("fixture.facts.kind", language),
            f"{kind_badge(fixture.kind, language)} {esc(kind_help(fixture.kind, language))}",
        ),
    ]
    if fixture.disagreement:
        title = site.scenario_titles.get(fixture.disagreement, "")
        facts.append(
            (
                say("fixture.facts.disagreement", language),
                scenario_link(here, fixture.disagreement, site)
                + (f": {esc(title)}" if title else ""),
            )
        )
    if fixture.matrix:
        facts.append((say("fixture.facts.pins", language), dims_md(fixture.matrix, here)))
    count, stated = len(runs.names), len(fixture.cases)
    facts.append(
        (
            say("fixture.facts.runs", language),
            say(
                "fixture.facts.runs-value",
                language,
                cases=say(f"fixture.facts.cases.{_one_or_many(count)}", language, n=count),
                outcomes=say(f"fixture.facts.outcomes.{_one_or_many(stated)}", language, n=stated),
            ),
        )
    )
    facts.append(
        (say("fixture.facts.run-it", language), code(f"schwimmen conformance -k {fixture.id}"))
    )
    facts.append((say("fixture.facts.file", language), code(fixture.file)))
    out += [_facts(facts), ""]
    if fixture.description:
        out += [link_refs(esc(fixture.description), here, site.refs), ""]
    out += [f"## {say('fixture.heading.position', language)} {{#position}}", ""]
    out += [position_md(fixture, language)]
    if fixture.kind in ("round", "match") or step_pairs(fixture):
        out += [f"## {say('fixture.heading.steps', language)} {{#steps}}", ""]
        out += [steps_md(fixture, language)]
    outcomes = _one_or_many(len(fixture.cases)) if fixture.cases else "one"
    out += [
        f"## {say('fixture.heading.outcome', language)} {{#outcome}}",
        "",
        say(f"fixture.outcome.{outcomes}", language, n=len(fixture.cases)),
        "",
    ]
    for case in fixture.cases:
        out += [case_md(fixture, case, runs, here, site, total, language)]
    out += [_not_run(runs, here, language), ""]
    interpreting = link(
        here,
        conformance_doc("INTERPRETING.md"),
        say("fixture.footer.interpreting", language),
    )
    back = link(
        here,
        FIXTURES_INDEX + "#" + area,
        say("fixture.footer.area", language, area=esc(area)),
    )
    guide = link(here, GUIDE_TEST, say("fixture.footer.guide", language))
    footer = say("fixture.footer", language, area=back, guide=guide, interpreting=interpreting)
    out += ["---", "", f"<small>{footer}</small>", ""]
    return "\n".join(out)


def _facts(facts: list[tuple[str, str]]) -> str:
    items = [f"{key}\n:   {value}\n" for key, value in facts]
    return '<div class="facts" markdown>\n\n' + "\n".join(items) + "\n</div>\n"


def _not_run(runs: FixtureRuns, here: str, language: str = "en") -> str:
    say = words()
    heading = f"## {say('fixture.not-run.heading', language)} {{#not-run}}\n\n"
    unstated = say("fixture.not-run.unstated", language)
    rows = [[name_link(here, n), esc(why)] for n, why in runs.misfits.items()]
    rows += [[name_link(here, n), unstated] for n in runs.unstated]
    if not rows:
        return heading + say("fixture.not-run.nowhere", language) + "\n"
    body = table(
        [say("fixture.not-run.ruleset", language), say("fixture.not-run.why", language)], rows
    )
    title = say("fixture.not-run.title", language, n=len(rows))
    return heading + f'??? info "{title}"\n\n' + _indent(body) + "\n"


# ----------------------------------------------------------------------------- the index


def index_parts(site: Site, suite: Suite, language: str = "en") -> dict[str, str]:
    """The generated parts of ``docs/fixtures/index.md``: the fixtures by kind, and every
    fixture listed by area."""
    say = words()
    here = FIXTURES_INDEX
    kinds = Counter(f.kind for f in suite.fixtures)
    areas = suite.areas()
    rows = [
        [kind_badge(k, language), esc(kind_help(k, language)), str(kinds.get(k, 0))]
        for k in KINDS
        if kinds.get(k)
    ]
    jump = " · ".join(f"[{esc(a)}](#{a}) ({len(fs)})" for a, fs in areas.items())
    out = [f"**{say('fixtures.areas', language)}** {jump}", "{: .fx-jump }", ""]
    area_head = [
        say(f"fixtures.head.{h}", language) for h in ("fixture", "kind", "disagreement", "cases")
    ]
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
                    kind_badge(fixture.kind, language),
                    dis,
                    str(len(runs.names)),
                ]
            )
        out += ['<div class="fx-index" markdown>', ""]
        out += [table(area_head, area_rows), ""]
        out += ["</div>", ""]
    rulesets = [n for n in suite.names if house_rule_of(n) is None]
    kinds_head = [say(f"fixtures.head.{h}", language) for h in ("kind", "what-it-pins", "fixtures")]
    return {
        "run-ruleset-count": str(len(rulesets)),
        "run-house-rule-count": str(len(suite.names) - len(rulesets)),
        "fixtures-kinds": table(kinds_head, rows),
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
                    in_english(f"[{esc(fixture.title)}]({page})", language),
                    in_english(esc(before.label()), language) if before else absent,
                    in_english(f"[{esc(case.label())}]({page}#case-{case.index + 1})", language),
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


def decision_fixtures(suite: Suite, decision: str, here: str, language: str = "en") -> str:
    """For the decisions page: the fixtures whose cases rest on ``decision``."""
    ids = suite.decisions().get(decision, [])
    if not ids:
        return ""
    by_id = {f.id: f for f in suite.fixtures}
    links = ", ".join(
        f'[{code(i)}]({rel(here, fixture_page(i))} "{attr(by_id[i].title)}")' for i in ids
    )
    return words()("fixtures.resting-on", language, n=len(ids), links=links)
