"""The reference engine's Python API as a page, generated from the code it describes.

Signatures and summaries come from the engine's own docstrings; the reason codes, the
event types and the action forms from the tables the engine itself uses; the example is
run when the site is built and its output is printed as it came out. So the page cannot
describe an API that no longer exists.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from schwimmen.docsgen.markup import (
    CONFORMANCE_DOCS,
    ENGINE_API,
    GUIDE_PLAY,
    code,
    conformance_doc,
    esc,
    link,
    table,
)
from schwimmen.engine.match import Match
from schwimmen.engine.reasons import DESCRIPTION, PHASES
from schwimmen.protocol import actions as actions_module
from schwimmen.protocol import events as ev

HERE = ENGINE_API

# The methods a program drives a match with, in the order a reader meets them.
METHODS: Sequence[str] = (
    "to_move",
    "legal_actions",
    "legal_split",
    "why_illegal",
    "apply",
    "observation",
    "events_for",
    "clone",
    "next_match",
)

# What a program reads besides the methods; a test keeps this list true to ``Match``.
ATTRIBUTES: Mapping[str, str] = {
    "over": "True once the match has ended",
    "winners": "the seats that won, as 0-based indices (seat 0 is P1); two when the last two "
    "share the win",
    "lives": "lives left per seat, by 0-based index, counting down also where sticks count up "
    "(0: swimming or out)",
    "eliminated": "the seats that are out (0-based indices)",
    "dealer": "the seat that deals the current round (0-based index: 0 is P1)",
    "round_no": "the number of the current round, from 1",
    "round": "the current round's state (hands, middle, stock, knocker, phase)",
    "results": "one result per finished round: reason, losses, values, hands, and why",
    "events": "the full event log (every card), for the referee; seats use events_for",
    "points": "match points per seat in a series of matches",
    "rules": "the typed, resolved rules the match plays",
    "evaluator": "the hand table of these rules (value, packed key and flags of a hand)",
}

CONSTRUCTOR: Mapping[str, str] = {
    "ruleset": "a resolved ruleset (``Catalog.load().resolve('base+house-rule')``) or its rules",
    "seats": "the number of players at the table",
    "first_dealer": "the seat that deals first (default: the last seat, so P1 plays first)",
    "lives": "lives per seat: one number for all, or one per seat (default: the ruleset's)",
    "seed": "the seed of the shuffles; the same seed gives the same match",
    "decks": "explicit packs, top card first, one per round (then the seed takes over)",
    "position": "cards as dealt for the first round (fixtures start from a position)",
    "eliminated": "seats that are already out (their lives count as 0)",
    "record": "keep the event log (on by default; off only saves time)",
    "points": "match points per seat at the start, where the ruleset plays a series",
    "deals": "positions for the rounds after the first, dealt as given (instead of decks)",
}

# Each key of ``Match.observation``; a test keeps this list true to the engine.
OBSERVATION: Mapping[str, str] = {
    "seat": "whose view this is",
    "dealer": "the seat that dealt this round",
    "round": "the round number",
    "phase": "what is asked for: one of the phases below",
    "to_move": "the seat to act, or null",
    "hand": "this seat's own cards",
    "middle": "the middle cards, or null while they lie face down",
    "middle_hidden": "whether the middle is still face down",
    "stock": "how many cards the stock holds",
    "discard_top": "the top of the discard pile (draw-and-discard game), or null",
    "knocker": "the seat that knocked, or null",
    "closed": "seats that have closed (personal closing)",
    "lives": "lives per seat",
    "swimming": "seats that are swimming",
    "eliminated": "seats that are out",
    "match_over": "whether the match has ended",
    "winners": "the winners once it has",
    "extra_hand": "only for the dealer choosing blind: how many cards the extra hand has",
    "value": "the value of this seat's hand (left out while a drawn card makes it too long)",
    "legal_actions": "only for the seat to move: its legal actions, as text",
}

EXAMPLE = """\
import random

from schwimmen.engine.bots import RandomBot
from schwimmen.engine.match import Match
from schwimmen.engine.reasons import IllegalAction
from schwimmen.protocol.actions import parse_text
from schwimmen.spec.loader import Catalog

ruleset = Catalog.load().resolve("{ruleset}")
match = Match(ruleset, 4, seed=7)

seat = match.to_move()
view = match.observation(seat)
print(view["seat"], "to move, holding", view["hand"])
print("legal:", view["legal_actions"][:4])

try:  # another seat tries to move out of turn
    match.apply(parse_text("pass"), seat=(seat + 1) % 4)
except IllegalAction as refused:
    print("refused:", refused.reason.value, "-", refused.detail)

bot = RandomBot(random.Random(1))
while not match.over:
    match.apply(bot.choose(match))

print("rounds played:", match.round_no)
print("winners:", [f"P{s + 1}" for s in match.winners])
last = match.results[-1]
print("last round:", last.reason.value, "-", last.why)
"""


def run_example(ruleset: str) -> tuple[str, str, dict[str, Any]]:
    """The example's code, what it printed, and the first observation it took."""
    source = EXAMPLE.replace("{ruleset}", ruleset)
    namespace: dict[str, Any] = {"__name__": "example"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "engine-example.py", "exec"), namespace)
    return source, out.getvalue(), namespace["view"]


def _summary(obj: Callable[..., Any]) -> str:
    doc = inspect.getdoc(obj) or ""
    first = doc.split("\n\n")[0]
    return " ".join(first.split())


def _rst_to_md(text: str) -> str:
    """Docstring text as markdown: ``literals`` and ``:meth:`` roles become code, the
    rest is escaped."""
    text = re.sub(r":(?:meth|class|func|attr|mod):`~?([^`]+)`", r"``\1``", text)
    pieces = text.split("``")
    return "".join(code(p) if i % 2 else esc(p) for i, p in enumerate(pieces))


def _signature(name: str) -> str:
    sig = inspect.signature(getattr(Match, name))
    params = [p for p in sig.parameters.values() if p.name != "self"]
    shown = ", ".join(
        p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"
        for p in params
    )
    ret = sig.return_annotation
    ret_text = f" -> {ret}".replace("ev.", "") if ret is not inspect.Signature.empty else ""
    return f"{name}({shown}){ret_text}"


def method_rows() -> list[list[str]]:
    return [
        [code(_signature(name)), _rst_to_md(_summary(getattr(Match, name)))] for name in METHODS
    ]


def constructor_rows() -> list[list[str]]:
    sig = inspect.signature(Match.__init__)
    rows = []
    for p in sig.parameters.values():
        if p.name == "self":
            continue
        default = "" if p.default is inspect.Parameter.empty else code(repr(p.default))
        rows.append([code(p.name), default, _rst_to_md(CONSTRUCTOR[p.name])])
    return rows


def action_rows() -> list[list[str]]:
    """The action table of :mod:`schwimmen.protocol.actions`' docstring, as markdown."""
    doc = actions_module.__doc__ or ""
    lines = doc.splitlines()
    rule = [i for i, line in enumerate(lines) if line.startswith("=====")]
    if len(rule) < 2:
        raise ValueError("the action table in protocol/actions.py has lost its borders")
    width = lines[rule[0]].index(" ")
    rows: list[list[str]] = []
    for line in lines[rule[0] + 1 : rule[1]]:
        form, meaning = line[:width].strip(), line[width:].strip()
        if form:
            rows.append([_rst_to_md(form), _rst_to_md(meaning)])
        elif rows:
            rows[-1][1] += " " + _rst_to_md(meaning)
    return rows


def event_classes() -> list[type[ev.Event]]:
    found = [
        obj
        for obj in vars(ev).values()
        if isinstance(obj, type) and issubclass(obj, ev.Event) and obj is not ev.Event
    ]
    return found


def event_rows() -> list[list[str]]:
    rows = []
    for cls in event_classes():
        fields = ", ".join(code(f.name) for f in dataclasses.fields(cls))
        private = cls.for_seat is not ev.Event.for_seat
        seen = "partly private" if private else "everyone"
        rows.append([code(cls.type), fields, seen, _rst_to_md(_summary(cls))])
    return rows


def observation_rows() -> list[list[str]]:
    return [[code(key), esc(text)] for key, text in OBSERVATION.items()]


def engine_api_markdown(ruleset: str | None) -> str:
    """The page. ``ruleset`` names the ruleset the example plays (the site's example
    house rule's origin); None leaves the example unrun (quick test builds)."""
    parts = [
        "# Engine API (Python)",
        "",
        "The reference engine is a Python package. Programs in Python (a bot, an analysis, "
        "an app's back end) can drive a match directly; engines in any other language are "
        "tested through the "
        + link(HERE, conformance_doc("PROTOCOL.md"), CONFORMANCE_DOCS["PROTOCOL.md"].lower())
        + " instead. The shape follows OpenSpiel's game state: the seat to move, its legal "
        "actions, applying one, and what each seat may observe. Everything a ruleset does "
        "comes from its parameters, so the same calls play every ruleset and every house "
        "rule.",
        "",
        "## An example",
        "",
    ]
    if ruleset is not None:
        source, printed, view = run_example(ruleset)
        parts += [
            "```python",
            source.rstrip(),
            "```",
            "",
            "It printed, when this page was built:",
            "",
            "```text",
            printed.rstrip(),
            "```",
            "",
            "The observation it took of the first seat to move, in full:",
            "",
            "```json",
            "{\n"
            + ",\n".join(
                f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in view.items()
            )
            + "\n}",
            "```",
            "",
        ]
    else:
        parts += ["(The example is run when the full site is built.)", ""]
    parts += [
        "## Creating a match",
        "",
        code("Match(ruleset, seats, *, ...)") + " deals the first round at once. "
        "Wrong set-ups (too many players, a dealer who is out) raise " + code("SetupError") + ".",
        "",
        table(["parameter", "default", "meaning"], constructor_rows()),
        "",
        "## Playing",
        "",
        table(["method", "what it does"], method_rows()),
        "",
        "An action the rules refuse raises "
        + code("IllegalAction")
        + "; its "
        + code("reason")
        + " is one of the stable codes below and its "
        + code("detail")
        + " says it in words. Refused actions change nothing.",
        "",
        "## State to read",
        "",
        table(["attribute", "meaning"], [[code(k), esc(v)] for k, v in ATTRIBUTES.items()]),
        "",
        "## Actions",
        "",
        "One text form and one JSON form, shared with the conformance protocol; "
        + code("parse_text")
        + ", "
        + code("to_text")
        + ", "
        + code("from_json")
        + " and "
        + code("to_json")
        + " in "
        + code("schwimmen.protocol.actions")
        + " convert. Cards are written rank then suit: "
        + code("QC")
        + ", "
        + code("10H")
        + ", "
        + code("AS")
        + ".",
        "",
        table(["text", "meaning"], action_rows()),
        "",
        "## Reason codes",
        "",
        "In the order the engine checks them: when an action breaks several rules, the "
        "code listed first is the one reported ("
        + link(HERE, conformance_doc("PROTOCOL.md"), "the protocol")
        + " says when each applies).",
        "",
        table(["code", "meaning"], [[code(r.value), esc(t)] for r, t in DESCRIPTION.items()]),
        "",
        "## Events",
        "",
        "Every event has a "
        + code("type")
        + " and the fields below; "
        + code("to_json()")
        + " gives its JSON form with cards and seats as text. "
        + code("events_for(seat)")
        + " hides what that seat may not see: another player's dealt cards and a card "
        "drawn from the stock. Hands are shown to everyone when a round ends.",
        "",
        table(["type", "fields", "seen by", "what happened"], event_rows()),
        "",
        "## Observations",
        "",
        code("observation(seat)") + " is a JSON object with these keys:",
        "",
        table(["key", "meaning"], observation_rows()),
        "",
        "### Phases",
        "",
        "The same phases the "
        + link(HERE, conformance_doc("PROTOCOL.md"), "conformance protocol")
        + " reports:",
        "",
        table(["phase", "what is asked for"], [[code(p), esc(t)] for p, t in PHASES.items()]),
        "",
        "To play against the engine in a terminal, or to simulate thousands of matches, see "
        + link(HERE, GUIDE_PLAY, "Play and simulate")
        + ".",
        "",
    ]
    return "\n".join(parts)
