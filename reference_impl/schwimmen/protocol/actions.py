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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Any, cast

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

    def __str__(self) -> str:
        return self.text


# Actions are immutable values, and every action with at most one card each way is made
# once, here: the engine's legal lists and the text and JSON readers hand out the same
# objects, so that an action read from a step is recognised in a legal list by identity.
# Card numbers are below 64 (``suit * 16 + rank``); a row is filled for a pack's cards
# the first time a round of that pack asks for it (not at import: a command that plays
# nothing should not pay for 8,192 actions).
_CARD_IDS = 64
_SWAPS: list[list[Action | None]] = [[None] * _CARD_IDS for _ in range(_CARD_IDS)]
_KNOCK_SWAPS: list[list[Action | None]] = [[None] * _CARD_IDS for _ in range(_CARD_IDS)]
_DISCARDS: list[Action | None] = [None] * _CARD_IDS
_FILLED: set[tuple[tuple[Card, ...], bool]] = set()


def swap(give: Card, take: Card, knock: bool = False) -> Action:
    """The one-card swap of ``give`` for ``take`` (followed by a knock, with ``knock``)."""
    row = (_KNOCK_SWAPS if knock else _SWAPS)[give]
    found = row[take]
    if found is None:
        found = row[take] = Action(ActionKind.SWAP, (give,), (take,), knock)
    return found


def discard(card: Card) -> Action:
    found = _DISCARDS[card]
    if found is None:
        found = _DISCARDS[card] = Action(ActionKind.DISCARD, (card,))
    return found


def swap_table(cards: Sequence[Card], knock: bool = False) -> list[list[Action]]:
    """Every one-card swap among ``cards`` (a pack), as ``table[give][take]``: the
    engine lists a decision's swaps by indexing it. Only the rows and columns of
    ``cards`` are filled; the engine never asks for a card outside its pack."""
    key = (tuple(cards), knock)
    if key not in _FILLED:
        for give in cards:
            for take in cards:
                swap(give, take, knock)
        _FILLED.add(key)
    return cast(list[list[Action]], _KNOCK_SWAPS if knock else _SWAPS)


def discard_table(cards: Sequence[Card]) -> list[Action]:
    """The discard of each of ``cards``, as ``table[card]`` (filled for ``cards`` only)."""
    for card in cards:
        discard(card)
    return cast(list[Action], _DISCARDS)


def simple(kind: ActionKind, knock: bool = False) -> Action:
    """The one action of a kind that names no card (``knock``: a pass or a swap of the
    whole hand followed by a knock)."""
    found = _SIMPLE.get((kind, knock))
    if found is None:
        found = _SIMPLE[(kind, knock)] = Action(kind, knock=knock)
    return found


_SIMPLE: dict[tuple[ActionKind, bool], Action] = {}


def to_text(action: Action) -> str:
    """The canonical text of ``action`` (formatted once, when the action is made)."""
    return action.text


def _format(action: Action) -> str:
    kind, give = action.kind, action.give
    if kind is _SWAP and give:
        out = f"swap {'+'.join(map(text_or_mark, give))} {'+'.join(map(text_or_mark, action.take))}"
    elif kind is _DISCARD and give:
        out = f"discard {text_or_mark(give[0])}"
    else:
        out = _KIND_TEXT[kind]
    return out + " knock" if action.knock else out


_SWAP, _DISCARD = ActionKind.SWAP, ActionKind.DISCARD
_KIND_TEXT = {kind: kind.value for kind in ActionKind}
_SET = {name: getattr(Action, name).__set__ for name in ("kind", "give", "take", "knock", "text")}
_SET_KIND, _SET_GIVE, _SET_TAKE, _SET_KNOCK, _SET_TEXT = _SET.values()


def _init(
    self: Action,
    kind: ActionKind,
    give: tuple[Card, ...] = (),
    take: tuple[Card, ...] = (),
    knock: bool = False,
) -> None:
    """``Action.__init__``: each field stored straight through its slot, as
    :func:`~schwimmen.protocol.frozen.quick_init` does, then the text formatted from
    them (an action is still frozen from outside). The fuzzer's probes make a few
    swaps of several cards at every probe, which a frozen dataclass's own
    ``__init__`` made at twice the cost."""
    _SET_KIND(self, kind)
    _SET_GIVE(self, give)
    _SET_TAKE(self, take)
    _SET_KNOCK(self, knock)
    _SET_TEXT(self, _format(self))


_init.__qualname__ = "Action.__init__"
setattr(Action, "__init__", _init)  # noqa: B010 (mypy refuses assigning a method)


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
        give, take = _cards(tokens[1]), _cards(tokens[2])
        if len(give) == 1 and len(take) == 1:
            return swap(give[0], take[0], knock)
        return Action(kind, give, take, knock)
    if kind is ActionKind.DISCARD:
        if len(tokens) != 2 or "+" in tokens[1]:
            raise ActionSyntaxError("discard needs one card: discard QC")
        return discard(_cards(tokens[1])[0])
    if len(tokens) != 1:
        raise ActionSyntaxError(f"'{kind.value}' takes no cards")
    return simple(kind, knock)


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
            if len(give) == 1 and len(take) == 1:
                return swap(give[0], take[0], knock)
            return Action(kind, give, take, knock)
        if kind is ActionKind.DISCARD:
            return discard(parse(data["card"]))
    except (KeyError, TypeError, CardError) as exc:
        raise ActionSyntaxError(f"malformed {kind.value} action: {exc}") from None
    return simple(kind, knock)


def is_cardless(kind: ActionKind) -> bool:
    return kind in _CARDLESS
