"""Reading a case request field by field, with messages that name the field.

A case comes from outside: a fixture through the harness, or any line somebody sends to
``schwimmen serve``. Every field the adapter reads is checked here for its type and its
size before anything is built from it, so that a bad request is answered with a sentence
naming ``case.<field>`` rather than a Python exception, and an absurd one (two hundred
million seats, a deck of a million cards) is refused before memory is spent on it.

The checks are by hand rather than by the protocol schema: the harness runs thousands of
cases in-process, and a handful of ``isinstance`` tests cost nothing beside them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import chain
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from schwimmen.protocol.cards import CARD_TEXT, Card, parse_seat
from schwimmen.spec import consistency
from schwimmen.spec.parameters import PARAMETERS, applicable
from schwimmen.spec.validation import load_schema

MAX_SEATS = 64
"""The largest table a case may name. The rulesets seat two to twelve; a ``setup`` case
may still ask about a table they do not allow, up to this."""
MAX_CARDS = 52
"""The largest pack there is: a longer list of cards must hold one twice."""
MAX_DECKS = 1_000
"""The packs of the rounds after the first; a round takes one, and no case plays a
thousand rounds."""
MAX_STEPS = 10_000
"""A case's steps; the fixtures use a few dozen."""
MAX_CHECKPOINTS = 1_000
"""A checkpoint puts a whole state (up to a kilobyte) into the answer; a thousand of them
still fit in the 4 MiB of a protocol line."""
MAX_SEED = 2**64 - 1
"""A seed is any 64-bit number; larger ones seed no differently, only slower to read."""

_CARD = {CARD_TEXT[card]: card for card in CARD_TEXT}


class CaseError(ValueError):
    """A request the reference cannot run (bad cards, impossible position)."""


def show(value: Any, room: int = 40) -> str:
    """``value`` as JSON for a message, cut short: the value may be a megabyte long."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        shown = f"a {type(value).__name__}"
    return shown if len(shown) <= room else shown[: room - 1] + "…"


def clip(message: str, room: int = 500) -> str:
    """A message cut to a size a person reads (and a protocol line carries)."""
    return message if len(message) <= room else message[: room - 1] + "…"


def mapping(value: Any, where: str) -> Mapping[str, Any]:
    if type(value) is not dict and not isinstance(value, Mapping):
        raise CaseError(f"{where} must be an object, not {show(value)}")
    return value


def integer(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CaseError(f"{where} must be a whole number from {low} to {high}, not {show(value)}")
    return value


def listed(value: Any, where: str, most: int, what: str = "items", why: str = "") -> Sequence[Any]:
    """A list (a tuple, in-process) of at most ``most`` items, checked before they are."""
    if not isinstance(value, list | tuple):
        raise CaseError(f"{where} must be a list of {what}, not {show(value)}")
    if len(value) > most:
        why = why or f"a case may give at most {most}"
        raise CaseError(f"{where} holds {len(value)} {what}; {why}")
    return value


def cards(value: Any, where: str, pack: Mapping[Card, int]) -> list[Card]:
    """A list of card texts, each a card of ``pack`` (the ruleset's cards and values)."""
    items = listed(value, where, MAX_CARDS, "cards", f"no pack has more than {MAX_CARDS}")
    try:
        out = [_CARD[item] for item in items]
    except (KeyError, TypeError):
        out = []  # find the first bad one and say what it is
    if len(out) == len(items) and pack.keys() >= set(out):
        return out
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise CaseError(f"{where}[{i}] must be a card such as QC or 10H, not {show(item)}")
        if item not in _CARD:
            raise CaseError(
                f"{where}[{i}]: {show(item)} is not a card (rank then suit: QC, 10H, AS, 7D)"
            )
        if _CARD[item] not in pack:
            raise CaseError(f"{where}[{i}]: {item} is not in this ruleset's pack")
    raise AssertionError("unreachable: every card was read and is in the pack")


def seat(value: Any, where: str, seats: int) -> int:
    """A seat name (``P1``...) of a table of ``seats``."""
    if isinstance(value, str):
        try:
            number = parse_seat(value)
        except ValueError as exc:
            raise CaseError(f"{where}: {exc}") from None
        if number < seats:
            return number
        raise CaseError(f"{where}: there is no {value} at a table of {seats}")
    raise CaseError(f"{where} must be a seat (P1, P2, ...), not {show(value)}")


def seat_map(value: Any, where: str, seats: int) -> dict[int, Any]:
    """An object keyed by seat names: its values, by seat number."""
    return {seat(k, where, seats): v for k, v in mapping(value, where).items()}


def no_card_twice(groups: Iterable[tuple[str, Sequence[Card]]]) -> None:
    """Refuse a card that two places (or one place twice) hold: every position and every
    pack is part of one pack, where each card is there once."""
    places = list(groups)
    every = list(chain.from_iterable(group for _, group in places))
    if len(set(every)) == len(every):
        return
    seen: dict[Card, str] = {}
    for where, group in places:
        for card in group:
            before = seen.get(card)
            if before is not None:
                name = CARD_TEXT[card]
                if before == where:
                    raise CaseError(f"{where} holds {name} twice; a pack has each card once")
                raise CaseError(f"{name} is both in {before} and in {where}; a pack has one")
            seen[card] = where


def rule_parameters(request: Mapping[str, Any]) -> Mapping[str, Any]:
    ruleset = request.get("ruleset")
    if ruleset is None:
        raise CaseError("the case has no ruleset")
    parameters = mapping(ruleset, "case.ruleset").get("parameters")
    if parameters is None:
        raise CaseError("the case has no ruleset.parameters")
    return mapping(parameters, "case.ruleset.parameters")


def check_parameters(values: Mapping[str, Any]) -> None:
    """Refuse rule parameters that are not a ruleset's: each value as the ruleset schema
    has it, every parameter that applies given, and the checks across parameters that
    the catalog makes. The rules are built from them, so a hand size of a thousand would
    otherwise build a table of every such hand. Run once per distinct set of values."""
    where = "case.ruleset.parameters"
    error = best_match(_parameter_validator().iter_errors(values))
    if error is not None:
        path = "".join(f"[{json.dumps(p)}]" for p in error.absolute_path)
        raise CaseError(f"{where}{path}: {clip(error.message, 200)}")
    for param in PARAMETERS:
        if param.path not in values and applicable(param, values) is None:
            raise CaseError(f"{where} has no {param.path!r}, which this ruleset needs")
    for path, message in consistency.problems(values):
        raise CaseError(f"{where}[{json.dumps(path)}]: {message}")


@cache
def _parameter_validator() -> Draft202012Validator:
    """Every parameter's value schema, taken from the ruleset schema that the registry
    generates, so the values are held to exactly what a ruleset file may say."""
    defs = load_schema("ruleset.schema.json")["$defs"]
    properties = {p.path: {"$ref": f"#/$defs/param.{p.path}/properties/value"} for p in PARAMETERS}
    return Draft202012Validator({"type": "object", "properties": properties, "$defs": defs})
