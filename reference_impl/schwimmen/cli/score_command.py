"""``schwimmen score``: what a hand is worth under every ruleset, and who loses a showdown.

Settling an argument at the table takes one line: ``schwimmen score AC KC 10C`` shows the
hand's value under each ruleset and each house rule (as ``origin+house-rule``, the names
``schwimmen conformance`` uses); hands separated by ``/`` are compared as at a showdown.
The values and the losers come from the engine (:mod:`schwimmen.engine.handscore`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from schwimmen.cli import grid, lang
from schwimmen.engine.hands import HandKind, HandValue, value_forms
from schwimmen.engine.handscore import Score, ruleset_names, score
from schwimmen.protocol.cards import SUIT_SYMBOL, Card, CardError, seat_name, text
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.printable import printable

HAND_SEPARATOR = "/"
NOT_A_HAND = "not a hand in this ruleset"


class ScoreError(ValueError):
    """Cards on the command line that make no hands: a wrong card, one card twice."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help="the cards of a hand (QC, 10H, AS, 7D; German rank letters too: DC, BH for Dame, "
        "Bube; suits C S H D or ♣ ♠ ♥ ♦); hands separated by / are compared as at a "
        "showdown: AC KC 10C / 7H 8H 9D",
    )
    p.add_argument(
        "--ruleset",
        action="append",
        default=[],
        metavar="RULESET[+HOUSE...]",
        help="only these rulesets (repeatable); the default is every ruleset and every "
        "house rule on its own ruleset",
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )
    lang.add_option(p)


def parse_hands(words: Sequence[str]) -> list[list[Card]]:
    """The hands written on the command line, or :class:`ScoreError` saying what is wrong.

    ``/`` separates hands, on its own or glued to a card (``10C/7H``)."""
    hands: list[list[Card]] = [[]]
    seen: set[Card] = set()
    for word in words:
        for i, part in enumerate(word.split(HAND_SEPARATOR)):
            if i:
                hands.append([])
            if not part:
                continue
            try:
                card = lang.parse_card(part)
            except CardError as exc:
                raise ScoreError(str(exc)) from None
            if card in seen:
                raise ScoreError(f"{part} is given twice (a pack holds each card once)")
            seen.add(card)
            hands[-1].append(card)
    if any(not hand for hand in hands):
        raise ScoreError(f"a hand without cards: write CARD... {HAND_SEPARATOR} CARD...")
    return hands


ENGLISH = lang.Words(lang.ENGLISH)


def value_text(value: HandValue, w: lang.Words = ENGLISH) -> str:
    """A hand's value for people: ``31 ♣``, ``30½ triple``, ``Feuer``, with ``maximum``,
    ``protected`` or ``punishes`` where the hand is one (in German the calculator's
    words: ``30½ Drilling``, ``Höchstwert``)."""
    shown = value_forms(value)[2]
    if value.kind is HandKind.SUIT and value.suit is not None:
        words = f"{shown} {SUIT_SYMBOL[value.suit]}"
    elif value.kind is HandKind.FEUER:
        words = "Feuer" if value.points is None else f"Feuer ({shown})"
    elif value.kind is HandKind.FEUER_LIGHT:
        words = "Feuer light"
    else:
        words = f"{shown} {w.calc(f'kind-{value.kind.value}', value.kind.value)}"
    marks = [
        word
        for word, present in (
            (w.calc("mark-maximum", "maximum"), value.is_maximum),
            (w.calc("mark-protected", "protected"), value.is_protected),
            (w.calc("mark-punishes", "punishes"), value.punishes),
        )
        if present
    ]
    return " ".join([words, *marks])


def _value_json(value: HandValue | None, problem: str | None) -> dict[str, Any]:
    if value is None:
        return {"hand": None, "not_a_hand": problem}
    form = value.json()
    form.update(
        counting=[text(c) for c in value.counting],
        maximum=value.is_maximum,
        feuer=value.is_feuer,
        protected=value.is_protected,
        punishes=value.punishes,
    )
    return form


def _losers_text(result: Score, w: lang.Words = ENGLISH) -> str:
    decided = result.showdown
    if decided is None:
        return "-"
    if not decided.losses:
        return w.calc("nobody", "nobody")
    return ", ".join(
        w.calc("lives-one", "{seat} (1 life)", seat=seat_name(s))
        if lives == 1
        else w.calc("lives-more", "{seat} ({lives} lives)", seat=seat_name(s), lives=lives)
        for s, lives in sorted(decided.losses.items())
    )


def report(
    names: Sequence[str], results: Sequence[Score], hands: Sequence[Sequence[Card]]
) -> dict[str, Any]:
    """The JSON form: the hands, and per ruleset each hand's value and the showdown."""
    rows = []
    for name, result in zip(names, results, strict=True):
        row: dict[str, Any] = {
            "ruleset": name,
            "values": [
                _value_json(v, p) for v, p in zip(result.values, result.problems, strict=True)
            ],
        }
        if len(hands) > 1:
            decided = result.showdown
            row["showdown"] = (
                None
                if decided is None
                else {
                    "losses": {seat_name(s): n for s, n in sorted(decided.losses.items())},
                    "why": decided.why,
                }
            )
        rows.append(row)
    return {
        "hands": {seat_name(i): [text(c) for c in hand] for i, hand in enumerate(hands)},
        "rulesets": rows,
    }


def print_text(
    console: Console,
    names: Sequence[str],
    results: Sequence[Score],
    hands: Sequence[Sequence[Card]],
    w: lang.Words = ENGLISH,
) -> None:
    """The table; the ruleset names whole even where the output is no terminal."""
    several = len(hands) > 1
    columns = [grid.Column(w.calc("ruleset", "ruleset"), style="cyan", no_wrap=True)]
    for i, hand in enumerate(hands):
        cards = " ".join(lang.pretty(c, w.language) for c in hand)
        columns.append(grid.Column(f"{seat_name(i)} {cards}" if several else cards))
    if several:
        columns.append(grid.Column(w.calc("loses", "loses")))
    not_a_hand = w.calc("not-a-hand", NOT_A_HAND)
    rows = []
    for name, result in zip(names, results, strict=True):
        cells = [not_a_hand if v is None else value_text(v, w) for v in result.values]
        if several:
            cells.append(_losers_text(result, w))
        rows.append([name, *cells])
    grid.print_grid(console, columns, rows)


def run(args: argparse.Namespace, console: Console, catalog: Catalog) -> int:
    """Exit 0 with the table; 2 for cards that make no hands or an unknown ruleset."""
    try:
        hands = parse_hands(args.cards)
    except ScoreError as exc:
        print(printable(f"schwimmen score: error: {exc}"), file=sys.stderr)
        return 2
    names = list(args.ruleset) or ruleset_names(catalog)
    try:
        rulesets = [catalog.resolve(name) for name in names]
    except SpecErrors as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        return 2
    results = [score(r.rules, hands) for r in rulesets]
    if args.format == "json":
        print(json.dumps(report(names, results, hands), ensure_ascii=False, indent=2))
    else:
        print_text(console, names, results, hands, lang.words(lang.chosen(args)))
    return 0
