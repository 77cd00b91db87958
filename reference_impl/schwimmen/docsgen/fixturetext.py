"""What the templates need to say a conformance fixture in words.

The fixture files say what happens in the protocol's terms (``swap 9S 10H``,
``end: {reason: maximum, by: P1}``); a reader wants "P1 swaps 9♠ for 10♥" and "the round
ends after step 1: P1 shows the maximum". The phrases are the macros of
``templates/fixture-words.html`` (each a label of ``spec/words.yaml``, ``fixture.*``, in the
page's language), which the fixture pages and the disagreements page both import; this
module holds what they look up: the words a fixture may use (verbs, reasons, hands, piles,
kinds), the seats in order, and :func:`phrases` for a caller outside a template.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from markupsafe import Markup, escape

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.outcomes import step_pairs as step_pairs  # ft.step_pairs in templates
from schwimmen.docsgen.markup import SCHEMA_REFERENCE
from schwimmen.docsgen.markup import param_anchor as param_anchor  # ft.param_anchor in templates
from schwimmen.docsgen.tags import code, joined, link, say
from schwimmen.docsgen.templates import environment
from schwimmen.docsgen.values import short as short  # ft.short in templates
from schwimmen.engine.rounds import EndReason
from schwimmen.spec.pagedata import words
from schwimmen.spec.parameters import BY_PATH, PARAMETERS, Parameter

# The one-word actions; each is said by the label ``fixture.verb.<action>``.
VERBS = frozenset(
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
# Why a round ended (the ``reason`` of an expected end), each said by ``fixture.reason.<it>``.
REASONS = frozenset(reason.value for reason in EndReason)
# The kinds of hand an expected value names, each said by ``fixture.hand.<it>``.
HANDS = frozenset({"suit", "triple", "fixed", "feuer", "feuer-light"})
# Each pile of a position: its key in the setup and the label of its note (none: no note).
PILES = (
    ("middle", None),
    ("extra", "fixture.pile.extra.note"),
    ("stock", "fixture.pile.top-first"),
    ("discard", "fixture.pile.bottom-first"),
    ("deck", "fixture.pile.deck.note"),
)


# The kinds of fixture in the order the site lists them; what each pins is the label
# ``fixture-kind.<kind>.help`` of ``spec/words.yaml``.
KINDS: tuple[str, ...] = ("hand-evaluation", "showdown", "round", "match", "setup")


def kind_help(kind: str, language: str = "en") -> str:
    """What a fixture of ``kind`` pins, in ``language``; empty for an unknown kind."""
    return words()(f"fixture-kind.{kind}.help", language) if kind in KINDS else ""


def kind_badge(kind: str, language: str = "en") -> Markup:
    """A fixture kind's badge: its id on English pages (the word the fixture files use),
    the kind's name in another language."""
    tip = kind_help(kind, language) or kind
    key = f"fixture-kind.{kind}.one"
    shown = kind if language == "en" or key not in words().labels else say(key, language)
    return Markup('<span class="fxkind fxkind-{}" title="{}">{}</span>').format(kind, tip, shown)


def one_or_many(n: int) -> str:
    return "one" if n == 1 else "many"


def seat_key(seat: str) -> int:
    return int(seat[1:]) if seat[1:].isdigit() else 0


def by_seat(mapping: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return sorted(((str(k), v) for k, v in mapping.items()), key=lambda x: seat_key(x[0]))


def seats_of(fixture: Fixture) -> list[str]:
    return [f"P{i}" for i in range(1, int(fixture.setup.get("seats", 0)) + 1)]


def dealer_of(fixture: Fixture) -> str:
    seats = seats_of(fixture)
    return str(fixture.setup.get("dealer", seats[-1] if seats else "P1"))


def rule(param: str) -> Parameter | None:
    """The registry's entry of ``param``; None for a name it does not know."""
    return BY_PATH.get(param)


def dimensions(matrix: str) -> Markup:
    """The rules-matrix dimensions a fixture touches, with the parameters they name."""
    dims = {d.strip().rstrip(".") for d in matrix.split(",") if d.strip()}
    params = [p for p in PARAMETERS if {d.strip() for d in p.matrix.split(",")} & dims]
    listed = ", ".join(sorted(dims, key=lambda d: [int(x) for x in d.split(".") if x.isdigit()]))
    if not params:
        return escape(listed)
    links = joined(link(f"{SCHEMA_REFERENCE}#{param_anchor(p.path)}", code(p.path)) for p in params)
    return Markup("{}: {}").format(listed, links)


# ----------------------------------------------------------------------------- outcomes


def in_seat_order(seats: Iterable[Any]) -> list[str]:
    return sorted((str(s) for s in seats), key=seat_key)


def numbered(mapping: Mapping[Any, Any]) -> list[tuple[int, Any]]:
    """A mapping by step number (``"2": ...``) in the order of the steps."""
    return sorted(((int(n), v) for n, v in mapping.items()), key=lambda x: x[0])


def raw(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def phrases(language: str = "en") -> Any:
    """The macros of ``fixture-words.html`` (an expected outcome in words) in ``language``,
    as the fixture pages use them."""
    module = sys.modules[__name__]
    context = {"say": partial(say, language=language), "ft": module}
    return environment().get_template("fixture-words.html").make_module(context)
