"""A finding in words: what makes two differences one (its key), its fixture's name and
its title.

Two differences are one finding when they have one cause. The best evidence of a cause
is the mutant of the ruleset that plays as the implementation did (``params``): all the
differences it explains are one. Where none explains it, a refusal is told apart by what
was refused, where and why (the reason code, the kind of action, the phase): a discard
of a card not held and a draw in the wrong phase are two faults, even though both are a
refused step the implementation accepts. Any other difference is told apart by its
field and the phase it shows in.

The name says the same in a few words, with a short hash of the key so that two findings
never share a name (``discard-not-in-hand-accepted-1a2b``,
``maximum-at-deal-round-missing-3c4d``); the title says it as a sentence for a reader
("pagat: a discard in the play phase must be refused (not-in-hand); the implementation
accepts it").
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from schwimmen.conformance.fuzz.diff import MISSING, Difference

MAX_NAME = 56

_KIND_WORDS = {
    "swap": "a swap",
    "swap-all": "a swap of all cards",
    "pass": "a pass",
    "knock": "a knock",
    "keep": "keeping the hand",
    "take-extra": "taking the extra hand",
    "show": "showing a hand",
    "decline": "declining",
    "turn-up": "turning up the middle",
    "draw-stock": "a draw from the stock",
    "draw-discard": "a draw from the discard pile",
    "discard": "a discard",
    "next-match": "starting the next match",
}

_FIELD_WORDS = {
    "rounds.reason": "why the round ends",
    "rounds.at_deal": "whether the round ends at the deal",
    "rounds.after_step": "the step that ends the round",
    "rounds.by": "who ends the round",
    "rounds.knocker": "the knocker of the round",
    "rounds.losses": "the lives lost in the round",
    "rounds.values": "the hand values at the end of the round",
    "to_move": "who moves next",
    "dealer": "the dealer",
    "middle": "the middle",
    "hands": "the hands",
    "knocker": "the knocker",
    "legal": "the legal actions",
    "lives": "the lives",
    "swimming": "who swims",
    "eliminated": "who is out",
    "match_over": "whether the match is over",
    "winners": "the winners",
    "points": "the points",
    "phase": "the phase",
}


@dataclass(frozen=True)
class Where:
    """What was going on at the difference: the kind of the differing step's action
    (for a step), the phase it was played in (or ``at-deal``/``in-play`` for a round)."""

    kind: str
    phase: str


def _reason(verdict: Any) -> str:
    if verdict == "accepted":
        return "accepted"
    if isinstance(verdict, Mapping):
        return str(verdict.get("rejected") or "refused")
    return str(verdict)


def key(difference: Difference, where: Where, explained: Sequence[str]) -> tuple[str, ...]:
    """What makes two differences one finding (see the module's docstring)."""
    if explained:
        return ("explained", *sorted(explained))
    if difference.field == "steps":
        return (
            "steps",
            _reason(difference.expected),
            _reason(difference.actual),
            where.kind,
            where.phase,
        )
    return (difference.field, where.phase)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _short_hash(parts: Sequence[str]) -> str:
    return hashlib.sha1(json.dumps(list(parts)).encode()).hexdigest()[:4]


def name(difference: Difference, where: Where, explained: Sequence[str]) -> str:
    """``<what>-<how>-<hash>``: a few words, then four hex digits of the finding's key."""
    if difference.field == "steps":
        words = [where.kind, _reason(difference.expected), _reason(difference.actual)]
        if _reason(difference.actual) not in ("accepted", "missing"):
            words.insert(2, "refused")
    else:
        field = difference.field.removeprefix("rounds.")
        words = ["round" if field in ("missing", "extra") else "", field, where.phase]
    if explained:
        path = explained[0].split("=")[0].removeprefix("+")
        words = [path, *(w for w in words if _slug(w) not in _slug(path))]
    text = _slug("-".join(w for w in words if w))
    if len(text) > MAX_NAME:
        text = text[:MAX_NAME].rstrip("-")
    return f"{text}-{_short_hash(key(difference, where, explained))}"


def _show(value: Any) -> str:
    if value is None:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 80 else text[:77] + "..."


def title(
    ruleset: str, difference: Difference, where: Where, explained_words: Sequence[str]
) -> str:
    """The finding as a sentence: the rule, then what the implementation does instead."""
    as_if = f" (it plays as the reference does {explained_words[0]})" if explained_words else ""
    field = difference.field
    if field == "steps":
        what = _KIND_WORDS.get(where.kind, f"the action {where.kind}")
        at = f"{what} in the {where.phase} phase"
        mine, theirs = _reason(difference.expected), _reason(difference.actual)
        if mine == "accepted":
            rule = f"{at} is allowed; the implementation "
            rule += "gives no verdict" if theirs == "missing" else f"refuses it ({theirs})"
        elif theirs == "accepted":
            rule = f"{at} must be refused ({mine}); the implementation accepts it"
        else:
            rule = f"{at} must be refused as {mine}; the implementation says {theirs}"
        return f"{ruleset}: {rule}{as_if}"
    number = difference.index + 1
    if field == "rounds.missing":
        ended = difference.expected[0] if isinstance(difference.expected, list) else None
        ended = ended if isinstance(ended, Mapping) else difference.expected
        why = ended.get("reason") if isinstance(ended, Mapping) else None
        step = ended.get("after_step") if isinstance(ended, Mapping) else None
        at = "at the deal" if where.phase == "at-deal" else f"after step {step}"
        rule = f"round {number} must end {at}" + (f" ({why})" if why else "")
        does = "reports no rounds" if difference.actual == MISSING else "plays on"
        return f"{ruleset}: {rule}; the implementation {does}{as_if}"
    if field == "rounds.extra":
        return f"{ruleset}: round {number} has not ended yet; the implementation ends it{as_if}"
    words = _FIELD_WORDS.get(field, field)
    if field.startswith("rounds."):
        words = words.replace("the round", f"round {number}")
    return (
        f"{ruleset}: {words} must be {_show(difference.expected)}; "
        f"the implementation gives {_show(difference.actual)}{as_if}"
    )
