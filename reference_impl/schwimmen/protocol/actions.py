"""Actions: the one text form and the one JSON form of every decision a player makes.

Text forms (tokens separated by spaces):

==========================  ==============================================================
``swap QC 10H``             give QC from the hand, take 10H from the middle
``swap QC+KD 10H+9S``       a multi-card exchange (only legal when it is the whole hand)
``swap-all``                the whole hand for the whole middle
``pass``                    pass (schieben)
``knock``                   knock or close; in rulesets that close at the end of a move it is
                            read as ``pass knock``
``swap QC 10H knock``       a move followed by a close (rulesets that close after a move)
``keep`` / ``take-extra``   the dealer keeps his hand or takes the unseen extra hand
``show`` / ``decline``      show a dealt 31 where showing is optional, or not
``turn-up``                 turn up a hidden middle to swap with it
``draw-stock``              draw the top card of the stock (draw-and-discard game)
``draw-discard``            take the top card of the discard pile
``discard QC``              throw QC onto the discard pile
==========================  ==============================================================

JSON: ``{"type": "swap", "give": ["QC"], "take": ["10H"], "knock": false}``,
``{"type": "discard", "car  d": "QC"}``, ``{"type": "pass"}`` and so on; ``knock`` may be
left out when false.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any

from schwimmen.protocol.cards import Card, CardError, parse, text, text_or_mark


class ActionKind(StrEnum):
    SWAP = "swap"
    SWAP_ALL = "swap-all"
    PASS = "pass"
    KNOCK = "knock"
    KEEP = "keep"
    TAKE_EXTRA = "take-extra"
    SHOW = "show"
    DECLINE = "decline"
    TURN_UP = "turn-up"
    DRAW_STOCK = "draw-stock"
    DRAW_DISCARD = "draw-discard"
    DISCARD = "discard"


_CARDLESS = {k for k in ActionKind if k not in (ActionKind.SWAP, ActionKind.DISCARD)}
_KNOCKABLE = {ActionKind.SWAP, ActionKind.SWAP_ALL, ActionKind.PASS}


class ActionSyntaxError(ValueError):
    """Text or JSON that is not an action at all (as opposed to an illegal action)."""


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    give: tuple[Card, ...] = ()
    take: tuple[Card, ...] = ()
    knock: bool = False
    text: str = field(init=False, compare=False, repr=False, default="")

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", _format(self))

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=1 << 14)
def swap(give: Card, take: Card, knock: bool = False) -> Action:
    """A one-card swap. Actions are immutable values, so each is made once (a pack has
    at most 52 cards: a few thousand swaps)."""
    return Action(ActionKind.SWAP, (give,), (take,), knock)


@lru_cache(maxsize=1 << 14)
def discard(card: Card) -> Action:
    return Action(ActionKind.DISCARD, (card,))


@lru_cache(maxsize=1 << 14)
def simple(kind: ActionKind, knock: bool = False) -> Action:
    return Action(kind, knock=knock)


def to_text(action: Action) -> str:
    """The canonical text of ``action`` (formatted once, when the action is made)."""
    return action.text


def _format(action: Action) -> str:
    parts: list[str] = [action.kind.value]
    if action.kind is ActionKind.SWAP and action.give:
        parts.append("+".join(text_or_mark(c) for c in action.give))
        parts.append("+".join(text_or_mark(c) for c in action.take))
    elif action.kind is ActionKind.DISCARD and action.give:
        parts.append(text_or_mark(action.give[0]))
    if action.knock:
        parts.append("knock")
    return " ".join(parts)


def _cards(token: str) -> tuple[Card, ...]:
    try:
        return tuple(parse(t) for t in token.split("+"))
    except CardError as exc:
        raise ActionSyntaxError(str(exc)) from None


def parse_text(value: str) -> Action:
    """Parse the text form; raise :class:`ActionSyntaxError` when it is not an action.

    Every step of every case is read with this, and a game has a few thousand distinct
    actions: each text is parsed once (the action is an immutable value; a text that is
    no action is not remembered, and raises each time)."""
    return _parse_text(value) if len(value) <= _REMEMBERED else _read_text(value)


_REMEMBERED = 64
"""The longest action text remembered: a four-card swap with a knock is shorter."""


@lru_cache(maxsize=1 << 14)
def _parse_text(value: str) -> Action:
    return _read_text(value)


def _read_text(value: str) -> Action:
    tokens = value.split()
    if not tokens:
        raise ActionSyntaxError("empty action")
    knock = False
    if len(tokens) > 1 and tokens[-1] == "knock":
        knock = True
        tokens = tokens[:-1]
    try:
        kind = ActionKind(tokens[0])
    except ValueError:
        known = ", ".join(k.value for k in ActionKind)
        raise ActionSyntaxError(f"unknown action {tokens[0]!r} (known: {known})") from None
    if knock and kind not in _KNOCKABLE:
        raise ActionSyntaxError(f"'{kind.value}' cannot be followed by 'knock'")
    if kind is ActionKind.SWAP:
        if len(tokens) != 3:
            raise ActionSyntaxError("swap needs the card(s) to give and to take: swap QC 10H")
        return Action(kind, _cards(tokens[1]), _cards(tokens[2]), knock)
    if kind is ActionKind.DISCARD:
        if len(tokens) != 2 or "+" in tokens[1]:
            raise ActionSyntaxError("discard needs one card: discard QC")
        return Action(kind, _cards(tokens[1]))
    if len(tokens) != 1:
        raise ActionSyntaxError(f"'{kind.value}' takes no cards")
    return Action(kind, knock=knock)


def to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": action.kind.value}
    if action.kind is ActionKind.SWAP:
        out["give"] = [text(c) for c in action.give]
        out["take"] = [text(c) for c in action.take]
    elif action.kind is ActionKind.DISCARD:
        out["card"] = text(action.give[0])
    if action.knock:
        out["knock"] = True
    return out


def from_json(data: Mapping[str, Any]) -> Action:
    if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
        raise ActionSyntaxError("an action is an object with a 'type'")
    try:
        kind = ActionKind(data["type"])
    except ValueError:
        raise ActionSyntaxError(f"unknown action type {data['type']!r}") from None
    knock = bool(data.get("knock", False))
    if knock and kind not in _KNOCKABLE:
        raise ActionSyntaxError(f"'{kind.value}' cannot carry 'knock'")
    try:
        if kind is ActionKind.SWAP:
            give = tuple(parse(c) for c in data["give"])
            take = tuple(parse(c) for c in data["take"])
            return Action(kind, give, take, knock)
        if kind is ActionKind.DISCARD:
            return Action(kind, (parse(data["card"]),))
    except (KeyError, TypeError, CardError) as exc:
        raise ActionSyntaxError(f"malformed {kind.value} action: {exc}") from None
    return Action(kind, knock=knock)


def is_cardless(kind: ActionKind) -> bool:
    return kind in _CARDLESS
