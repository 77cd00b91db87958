"""Cards: one integer inside the engine, one canonical text outside (``QC``, ``10H``, ``AS``).

The integer is global, not per ruleset: ``suit * 16 + rank`` with ranks ``2``..``A`` as
0..12 and suits C, S, H, D as 0..3, so a card means the same in every ruleset and a
three-card hand indexes a flat table as ``a << 12 | b << 6 | c``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from schwimmen.spec.parameters import RANKS, SUITS

Card = int

SUIT_SYMBOL = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_TEXT = {s * 16 + r: RANKS[r] + SUITS[s] for s in range(len(SUITS)) for r in range(len(RANKS))}
CARD_TEXT: dict[Card, str] = _TEXT
"""Card number to canonical text, for loops that format many cards."""
_PARSE = {text: card for card, text in _TEXT.items()}


class CardError(ValueError):
    """A card text that is not canonical (``QC``, ``10H``, ``AS``)."""


def make(rank: str, suit: str) -> Card:
    return _SUIT_INDEX[suit] * 16 + _RANK_INDEX[rank]


def rank_of(card: Card) -> str:
    return RANKS[card & 15]


def suit_of(card: Card) -> str:
    return SUITS[card >> 4]


def text(card: Card) -> str:
    return _TEXT[card]


def text_or_mark(card: Card) -> str:
    """The text of ``card``, or ``?`` for a number that is no card (table padding)."""
    return _TEXT.get(card, "?")


def parse(value: str) -> Card:
    """Parse a canonical card text; lower case and ``T`` for ten are not canonical."""
    card = _PARSE.get(value)
    if card is None:
        raise CardError(f"{value!r} is not a card (write rank then suit: QC, 10H, AS, 7D)")
    return card


def parse_all(values: Iterable[str]) -> list[Card]:
    return [parse(v) for v in values]


def texts(cards: Sequence[Card]) -> list[str]:
    return [_TEXT[c] for c in cards]


def pretty(card: Card) -> str:
    """``A♥``: for people, never for machines."""
    return RANKS[card & 15] + SUIT_SYMBOL[SUITS[card >> 4]]


def deck(ranks: Sequence[str], suits: Sequence[str]) -> list[Card]:
    """The pack of a ruleset in canonical order: suit by suit, each from low to high."""
    return [make(r, s) for s in suits for r in ranks]


def seat_name(seat: int) -> str:
    """Seats are numbered clockwise from the dealer's left: P1 is seat 0."""
    return f"P{seat + 1}"


class _SeatNames(dict[int, str]):
    """Seat number to name, remembered as asked for (the adapter names every seat of
    every round record and state it writes)."""

    def __missing__(self, seat: int) -> str:
        name = self[seat] = seat_name(seat)
        return name


SEAT_NAME: dict[int, str] = _SeatNames()
"""Seat number to name (``SEAT_NAME[0] == "P1"``), for loops that name many seats."""

SEAT_DIGITS = 3
"""A seat's number has at most this many digits: ``P999`` is beyond any table already, and
reading a number of thousands of digits is slow (Python refuses them)."""


def parse_seat(value: str | int) -> int:
    if isinstance(value, int):
        return value
    digits = value[1:]
    if value[:1] == "P" and len(digits) <= SEAT_DIGITS and digits.isascii() and digits.isdigit():
        number = int(digits)
        if number >= 1:
            return number - 1
    shown = value if len(value) <= 20 else value[:19] + "…"
    raise ValueError(f"{shown!r} is not a seat (P1, P2, ...)")
