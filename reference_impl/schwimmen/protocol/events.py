"""Events: what happened, in order, as typed values with one JSON form.

Every event knows who may see it. ``Dealt`` is private to its seat; ``Drew`` from the
stock shows the card only to the drawer; everything else is public (the middle lies face
up, hands are shown when the round ends: rules-matrix U43). ``for_seat`` returns the
event as that seat may see it, or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, ClassVar

from schwimmen.protocol.cards import Card, seat_name, text
from schwimmen.protocol.frozen import quick_init

Seat = int


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"
    private: ClassVar[bool] = False
    card_fields: ClassVar[tuple[str, ...]] = ()
    seat_fields: ClassVar[tuple[str, ...]] = ()

    def for_seat(self, seat: Seat | None) -> Event | None:
        return self

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.card_fields:
                value = _cards_json(value)
            elif f.name in self.seat_fields:
                value = _seats_json(value)
            out[f.name] = value
        return out


def _cards_json(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, int):
        return text(value)
    if isinstance(value, dict):
        return {seat_name(k): _cards_json(v) for k, v in value.items()}
    return [text(c) for c in value]


def _seats_json(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, int):
        return seat_name(value)
    if isinstance(value, dict):
        return {seat_name(k): v for k, v in value.items()}
    return [seat_name(s) for s in value]


@quick_init
@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """A round begins: its number, the dealer, and the seats dealt in, in dealing order."""

    type: ClassVar[str] = "round-started"
    seat_fields: ClassVar[tuple[str, ...]] = ("dealer", "seats")
    round: int
    dealer: Seat
    seats: tuple[Seat, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """A seat's cards (private). For the dealer's blind choice it is his first hand."""

    type: ClassVar[str] = "dealt"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    cards: tuple[Card, ...] | None

    def for_seat(self, seat: Seat | None) -> Event | None:
        if seat is None or seat == self.seat:
            return self
        return replace(self, cards=None)


@quick_init
@dataclass(frozen=True, slots=True)
class MiddleDealt(Event):
    """The middle is dealt, face up or face down (then its cards are not shown)."""

    type: ClassVar[str] = "middle-dealt"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    cards: tuple[Card, ...] | None
    face_up: bool

    def for_seat(self, seat: Seat | None) -> Event | None:
        if seat is None or self.face_up:
            return self
        return replace(self, cards=None)


@quick_init
@dataclass(frozen=True, slots=True)
class ExtraDealt(Event):
    """The dealer's unseen extra hand or second packet (its cards are nobody's to see)."""

    type: ClassVar[str] = "extra-dealt"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    cards: tuple[Card, ...] | None

    def for_seat(self, seat: Seat | None) -> Event | None:
        return self if seat is None else replace(self, cards=None)


@quick_init
@dataclass(frozen=True, slots=True)
class UpcardDealt(Event):
    """The first card of the discard pile is turned up (draw-and-discard game)."""

    type: ClassVar[str] = "upcard"
    card_fields: ClassVar[tuple[str, ...]] = ("card",)
    card: Card


@quick_init
@dataclass(frozen=True, slots=True)
class DealerChose(Event):
    """The dealer keeps his hand or takes the extra one; the middle that results."""

    type: ClassVar[str] = "dealer-chose"
    card_fields: ClassVar[tuple[str, ...]] = ("middle",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    choice: str
    middle: tuple[Card, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A hand shown during the round: a 31, Feuer or Feuer light."""

    type: ClassVar[str] = "revealed"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    cards: tuple[Card, ...]
    hand: str


@quick_init
@dataclass(frozen=True, slots=True)
class RevealDeclined(Event):
    """A player with a dealt 31 chooses not to show it, where showing is optional."""

    type: ClassVar[str] = "reveal-declined"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@quick_init
@dataclass(frozen=True, slots=True)
class Swapped(Event):
    """A player gives cards from the hand for cards of the middle."""

    type: ClassVar[str] = "swapped"
    card_fields: ClassVar[tuple[str, ...]] = ("gave", "took")
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    gave: tuple[Card, ...]
    took: tuple[Card, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A player passes (schiebt)."""

    type: ClassVar[str] = "passed"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@quick_init
@dataclass(frozen=True, slots=True)
class Knocked(Event):
    """A player knocks or closes; the last cycle (or personal closing) begins."""

    type: ClassVar[str] = "knocked"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@quick_init
@dataclass(frozen=True, slots=True)
class MiddleTurnedUp(Event):
    """A face-down middle is turned up by the player about to swap with it."""

    type: ClassVar[str] = "middle-turned-up"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    cards: tuple[Card, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class MiddleReplaced(Event):
    """Everybody passed: the middle is replaced from the stock."""

    type: ClassVar[str] = "table-replaced"
    card_fields: ClassVar[tuple[str, ...]] = ("old", "new")
    old: tuple[Card, ...]
    new: tuple[Card, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class WashedOut(Event):
    """A middle of one suit is washed out and replaced; the mover may get an extra turn."""

    type: ClassVar[str] = "washed-out"
    card_fields: ClassVar[tuple[str, ...]] = ("old", "new")
    seat_fields: ClassVar[tuple[str, ...]] = ("extra_turn",)
    old: tuple[Card, ...]
    new: tuple[Card, ...]
    extra_turn: Seat | None


@quick_init
@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A player draws from the stock (only the drawer sees the card) or the discard pile."""

    type: ClassVar[str] = "drew"
    card_fields: ClassVar[tuple[str, ...]] = ("card",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    source: str
    card: Card | None

    def for_seat(self, seat: Seat | None) -> Event | None:
        if seat is None or seat == self.seat or self.source == "discard":
            return self
        return replace(self, card=None)


@quick_init
@dataclass(frozen=True, slots=True)
class Discarded(Event):
    """A player throws a card onto the discard pile."""

    type: ClassVar[str] = "discarded"
    card_fields: ClassVar[tuple[str, ...]] = ("card",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    card: Card


@quick_init
@dataclass(frozen=True, slots=True)
class StockRenewed(Event):
    """The stock ran out and the discard pile, but its top card, becomes the stock."""

    type: ClassVar[str] = "stock-renewed"
    count: int


@quick_init
@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The end of a round: why, the hands shown, their values, and who loses how much.

    ``values`` maps each seat to ``{"points": 30.5 | null, "hand": kind, "suit": "H" |
    null}``; ``losses`` maps each losing seat to the lives it loses; ``reason`` is one of
    knock, maximum, feuer, feuer-light, all-passed, stock-exhausted, two-open, one-open.
    """

    type: ClassVar[str] = "round-ended"
    card_fields: ClassVar[tuple[str, ...]] = ("hands",)
    seat_fields: ClassVar[tuple[str, ...]] = ("by", "knocker", "values", "losses", "exempt")
    reason: str
    at_deal: bool
    by: Seat | None
    knocker: Seat | None
    hands: dict[Seat, tuple[Card, ...]]
    values: dict[Seat, dict[str, Any]]
    losses: dict[Seat, int]
    exempt: tuple[Seat, ...]
    why: str


@quick_init
@dataclass(frozen=True, slots=True)
class LivesLost(Event):
    """A seat loses lives (or takes sticks) at the end of a round; how many are left."""

    type: ClassVar[str] = "lives-lost"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    lives: int
    left: int


@quick_init
@dataclass(frozen=True, slots=True)
class Swimming(Event):
    """A seat has lost its last life and swims."""

    type: ClassVar[str] = "swimming"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@quick_init
@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """A seat is out of the match."""

    type: ClassVar[str] = "eliminated"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@quick_init
@dataclass(frozen=True, slots=True)
class RoundReplayed(Event):
    """The showdown would put out every player left, so nobody loses and the round is dealt
    again.
    """

    type: ClassVar[str] = "round-replayed"
    why: str


@quick_init
@dataclass(frozen=True, slots=True)
class NextDealer(Event):
    """The deal passes to this seat."""

    type: ClassVar[str] = "next-dealer"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@quick_init
@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over: its winners, whether they share the win, and series points."""

    type: ClassVar[str] = "match-ended"
    seat_fields: ClassVar[tuple[str, ...]] = ("winners", "points")
    winners: tuple[Seat, ...]
    shared: bool
    points: dict[Seat, int]


@quick_init
@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    """A match begins: its number in a series, the table size, the first dealer, the lives."""

    type: ClassVar[str] = "match-started"
    seat_fields: ClassVar[tuple[str, ...]] = ("dealer",)
    match: int
    seats: int
    dealer: Seat
    lives: int


# Events are immutable values, and the ones made at every decision come from a few
# thousand distinct values at most (a seat, a card, a swap of one card for one): each is
# made once and shared, as actions are, rather than built again at every move.
_INTERNED = 1 << 16


@lru_cache(maxsize=_INTERNED)
def passed(seat: Seat) -> Passed:
    return Passed(seat)


@lru_cache(maxsize=_INTERNED)
def knocked(seat: Seat) -> Knocked:
    return Knocked(seat)


@lru_cache(maxsize=_INTERNED)
def swapped(seat: Seat, gave: tuple[Card, ...], took: tuple[Card, ...]) -> Swapped:
    return Swapped(seat, gave, took)


@lru_cache(maxsize=_INTERNED)
def drew(seat: Seat, source: str, card: Card | None) -> Drew:
    return Drew(seat, source, card)


@lru_cache(maxsize=_INTERNED)
def discarded(seat: Seat, card: Card) -> Discarded:
    return Discarded(seat, card)


@lru_cache(maxsize=_INTERNED)
def lives_lost(seat: Seat, lives: int, left: int) -> LivesLost:
    return LivesLost(seat, lives, left)


@lru_cache(maxsize=_INTERNED)
def next_dealer(seat: Seat) -> NextDealer:
    return NextDealer(seat)


Record = tuple[Any, ...]
"""An event as the engine records it while it plays: the event's class (or a function
that makes it) followed by its arguments, all of them values that no later move changes.
Making the event object costs several times what the record does, and most logs are never
read (a bot match, a replayed case that asks for no events), so the match makes the events
from their records when its log is first read (:func:`build`)."""


def build(record: Record) -> Event:
    """The event a record stands for."""
    make: Callable[..., Event] = record[0]
    return make(*record[1:])


def log_json(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]
