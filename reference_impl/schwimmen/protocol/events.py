"""Events: what happened, in order, as typed values with one JSON form.

Every event knows who may see it. ``Dealt`` is private to its seat; ``Drew`` from the
stock shows the card only to the drawer; everything else is public (the middle lies face
up, hands are shown when the round ends: rules-matrix U43). ``for_seat`` returns the
event as that seat may see it, or None.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from schwimmen.protocol.cards import Card, seat_name, text

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


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round-started"
    seat_fields: ClassVar[tuple[str, ...]] = ("dealer", "seats")
    round: int
    dealer: Seat
    seats: tuple[Seat, ...]


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


@dataclass(frozen=True, slots=True)
class MiddleDealt(Event):
    type: ClassVar[str] = "middle-dealt"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    cards: tuple[Card, ...] | None
    face_up: bool

    def for_seat(self, seat: Seat | None) -> Event | None:
        if seat is None or self.face_up:
            return self
        return replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class ExtraDealt(Event):
    """The dealer's unseen extra hand or second packet (its cards are nobody's to see)."""

    type: ClassVar[str] = "extra-dealt"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    cards: tuple[Card, ...] | None

    def for_seat(self, seat: Seat | None) -> Event | None:
        return self if seat is None else replace(self, cards=None)


@dataclass(frozen=True, slots=True)
class UpcardDealt(Event):
    type: ClassVar[str] = "upcard"
    card_fields: ClassVar[tuple[str, ...]] = ("card",)
    card: Card


@dataclass(frozen=True, slots=True)
class DealerChose(Event):
    type: ClassVar[str] = "dealer-chose"
    card_fields: ClassVar[tuple[str, ...]] = ("middle",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    choice: str
    middle: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A hand shown during the round: a 31, Feuer or Feuer light."""

    type: ClassVar[str] = "revealed"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    cards: tuple[Card, ...]
    hand: str


@dataclass(frozen=True, slots=True)
class RevealDeclined(Event):
    type: ClassVar[str] = "reveal-declined"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@dataclass(frozen=True, slots=True)
class Swapped(Event):
    type: ClassVar[str] = "swapped"
    card_fields: ClassVar[tuple[str, ...]] = ("gave", "took")
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    gave: tuple[Card, ...]
    took: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@dataclass(frozen=True, slots=True)
class Knocked(Event):
    type: ClassVar[str] = "knocked"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@dataclass(frozen=True, slots=True)
class MiddleTurnedUp(Event):
    type: ClassVar[str] = "middle-turned-up"
    card_fields: ClassVar[tuple[str, ...]] = ("cards",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class MiddleReplaced(Event):
    type: ClassVar[str] = "table-replaced"
    card_fields: ClassVar[tuple[str, ...]] = ("old", "new")
    old: tuple[Card, ...]
    new: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class WashedOut(Event):
    type: ClassVar[str] = "washed-out"
    card_fields: ClassVar[tuple[str, ...]] = ("old", "new")
    seat_fields: ClassVar[tuple[str, ...]] = ("extra_turn",)
    old: tuple[Card, ...]
    new: tuple[Card, ...]
    extra_turn: Seat | None


@dataclass(frozen=True, slots=True)
class Drew(Event):
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


@dataclass(frozen=True, slots=True)
class Discarded(Event):
    type: ClassVar[str] = "discarded"
    card_fields: ClassVar[tuple[str, ...]] = ("card",)
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class StockRenewed(Event):
    type: ClassVar[str] = "stock-renewed"
    count: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    """The end of a round: why, the hands shown, their values, and who loses how much.

    ``values`` maps each seat to ``{"points": 30.5 | null, "hand": kind, "suit": "H" |
    null}``; ``losses`` maps each losing seat to the lives it loses; ``reason`` is one of
    knock, maximum, feuer, feuer-light, all-passed, stock-exhausted, two-open.
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


@dataclass(frozen=True, slots=True)
class LivesLost(Event):
    type: ClassVar[str] = "lives-lost"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat
    lives: int
    left: int


@dataclass(frozen=True, slots=True)
class Swimming(Event):
    type: ClassVar[str] = "swimming"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    type: ClassVar[str] = "eliminated"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@dataclass(frozen=True, slots=True)
class RoundReplayed(Event):
    type: ClassVar[str] = "round-replayed"
    why: str


@dataclass(frozen=True, slots=True)
class NextDealer(Event):
    type: ClassVar[str] = "next-dealer"
    seat_fields: ClassVar[tuple[str, ...]] = ("seat",)
    seat: Seat


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    type: ClassVar[str] = "match-ended"
    seat_fields: ClassVar[tuple[str, ...]] = ("winners", "points")
    winners: tuple[Seat, ...]
    shared: bool
    points: dict[Seat, int]


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    type: ClassVar[str] = "match-started"
    seat_fields: ClassVar[tuple[str, ...]] = ("dealer",)
    match: int
    seats: int
    dealer: Seat
    lives: int


def log_json(events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_json() for e in events]
