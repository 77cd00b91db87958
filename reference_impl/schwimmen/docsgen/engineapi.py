"""The generated parts of the Engine API page (its prose and the tables of what a
program passes and reads are ``docs/reference/engine.md``, held to the engine by tests).

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
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from schwimmen.docsgen import memo
from schwimmen.docsgen.markup import code, esc, table
from schwimmen.engine.match import Match
from schwimmen.engine.reasons import DESCRIPTION, PHASES
from schwimmen.protocol import actions as actions_module
from schwimmen.protocol import events as ev
from schwimmen.spec.model import Ruleset
from schwimmen.spec.pagedata import words

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


def run_example(ruleset: Ruleset) -> tuple[str, str, dict[str, Any]]:
    """The example's code, what it printed, and the first observation it took; from the
    build cache while the code, the ruleset's values and the engine are as they were."""
    source = EXAMPLE.replace("{ruleset}", ruleset.id)

    def run() -> tuple[str, dict[str, Any]]:
        namespace: dict[str, Any] = {"__name__": "example"}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(source, "engine-example.py", "exec"), namespace)
        return out.getvalue(), namespace["view"]

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "source", source.encode()
        yield "settings", memo.settings_of(ruleset)
        protocol = ("actions", "cards", "events", "frozen", "nesting")
        yield from memo.code("docsgen/engineapi", *(f"protocol/{name}" for name in protocol))

    printed, view = memo.kept("engine-example", inputs, run, tuple)
    return source, printed, view


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
        if line[width : width + 1].strip():
            raise ValueError(f"protocol/actions.py: {line.split('  ')[0]!r} overflows its column")
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
        seen = words()("engine.seen.partly-private" if private else "engine.seen.everyone")
        rows.append([code(cls.type), fields, seen, _rst_to_md(_summary(cls))])
    return rows


def page_parts(ruleset: Ruleset | None) -> dict[str, str]:
    """The generated parts of ``docs/reference/engine.md``. ``ruleset`` is the ruleset
    the example plays (the site's example house rule's origin); None leaves the example
    unrun and its parts out (quick builds)."""

    def head(*keys: str) -> list[str]:
        return [words()(f"engine.head.{k}") for k in keys]

    parts = {
        "engine-methods": table(head("method", "what-it-does"), method_rows()),
        "engine-actions": table(head("text", "meaning"), action_rows()),
        "engine-reasons": table(
            head("code", "meaning"), [[code(r.value), esc(t)] for r, t in DESCRIPTION.items()]
        ),
        "engine-events": table(head("type", "fields", "seen-by", "what-happened"), event_rows()),
        "engine-phases": table(
            head("phase", "asked-for"), [[code(p), esc(t)] for p, t in PHASES.items()]
        ),
    }
    if ruleset is not None:
        source, printed, view = run_example(ruleset)
        observed = ",\n".join(
            f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in view.items()
        )
        parts["engine-example-code"] = f"```python\n{source.rstrip()}\n```"
        parts["engine-example-output"] = f"```text\n{printed.rstrip()}\n```"
        parts["engine-example-observation"] = f"```json\n{{\n{observed}\n}}\n```"
    return parts
