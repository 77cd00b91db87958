"""The stable codes of the conformance protocol: why an action is refused, which phase a
state is in, why a round ended.

A code never changes meaning once published; implementations under test report the same
codes, so a fixture can say "rejected: must-swap-after-pass" in any language. These tables
are the one source of the codes and their meanings: conformance/PROTOCOL.md, the protocol
schema and the engine API page are held to them by tests (tests/test_contract.py).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Reason(StrEnum):
    """Why an action is refused, declared in the order the reference checks: when an
    action breaks several rules, the code declared first is the one reported.

    The order runs from who may act, through whether the game has the action and whether
    it is asked for now, to the cards it names, the kind of move and last the knock that
    follows it. ``UNSUPPORTED`` stands apart: the reference never reports it."""

    MATCH_OVER = "match-over"
    NOT_YOUR_TURN = "not-your-turn"
    ROUND_OVER = "round-over"
    NO_MIDDLE = "no-middle"
    NO_DRAW = "no-draw"
    MUST_COMPLETE_SWAP = "must-complete-swap"
    WRONG_PHASE = "wrong-phase"
    MIDDLE_HIDDEN = "middle-hidden"
    MALFORMED = "malformed"
    NOT_IN_HAND = "not-in-hand"
    NOT_IN_MIDDLE = "not-in-middle"
    EMPTY_DISCARD = "empty-discard"
    REDISCARD = "rediscard"
    SWAP_ONE_NOT_ALLOWED = "swap-one-not-allowed"
    SWAP_ALL_NOT_ALLOWED = "swap-all-not-allowed"
    TWO_CARD_SWAP = "two-card-swap"
    NO_PASS = "no-pass"
    PASS_LIMIT = "pass-limit"
    MUST_SWAP_AFTER_PASS = "must-swap-after-pass"
    KNOCK_WITH_MOVE = "knock-with-move"
    SECOND_KNOCK = "second-knock"
    KNOCK_FIRST_TURN = "knock-first-turn"
    KNOCK_NEEDS_MAXIMUM = "knock-needs-maximum"
    UNSUPPORTED = "unsupported"


DESCRIPTION: dict[Reason, str] = {
    Reason.MATCH_OVER: "the match is over",
    Reason.NOT_YOUR_TURN: "it is another seat's turn",
    Reason.ROUND_OVER: "the round is over",
    Reason.NO_MIDDLE: "this game has no middle to swap with",
    Reason.NO_DRAW: "this game has no drawing",
    Reason.MUST_COMPLETE_SWAP: "the middle was turned up to swap: a swap must follow",
    Reason.WRONG_PHASE: "this kind of action is not asked for now",
    Reason.MIDDLE_HIDDEN: "the middle is face down: turn it up first",
    Reason.MALFORMED: "the action does not fit together (unequal or repeated cards)",
    Reason.NOT_IN_HAND: "a card to give is not in the hand",
    Reason.NOT_IN_MIDDLE: "a card to take is not in the middle",
    Reason.EMPTY_DISCARD: "the discard pile is empty",
    Reason.REDISCARD: "the card just taken from the discard pile may not be thrown again",
    Reason.SWAP_ONE_NOT_ALLOWED: "swapping a single card is not allowed",
    Reason.SWAP_ALL_NOT_ALLOWED: "swapping the whole hand is not allowed",
    Reason.TWO_CARD_SWAP: "only one card or the whole hand may be swapped",
    Reason.NO_PASS: "passing is not allowed",
    Reason.PASS_LIMIT: "this player has already passed in this deal",
    Reason.MUST_SWAP_AFTER_PASS: "after a pass this player must swap",
    Reason.KNOCK_WITH_MOVE: "knocking replaces the move here; it cannot follow one",
    Reason.SECOND_KNOCK: "somebody has already knocked (or this player has closed)",
    Reason.KNOCK_FIRST_TURN: "no knock on the first turn (or in the first cycle)",
    Reason.KNOCK_NEEDS_MAXIMUM: "only a player holding 31 may close",
    Reason.UNSUPPORTED: "the implementation has no such action (the reference never reports it)",
}


MATCH_OVER_PHASE = "match-over"
"""The phase of a state once the match has ended (a round's own end is never a phase:
after every step, a round that ended has been settled and the next one dealt)."""

PHASES: dict[str, str] = {
    "dealer-choice": "the dealer keeps his hand or takes the unseen extra hand (or other packet)",
    "reveal-offer": "a holder of a dealt 31 shows it or not, where showing is optional",
    "turn": "an ordinary turn: swap, pass or knock, or draw or knock in the draw game",
    "complete-swap": "the seat turned the hidden middle up and must now swap",
    "discard": "the seat drew a card and must now throw one (the draw game)",
    MATCH_OVER_PHASE: "the match has ended: nobody is to move",
}
"""The phase of a state, as the protocol and the observations report it: what the seat
to move is asked for. The round's ``Phase`` values, with ``over`` reported as
``match-over`` (the only time a state shows an ended round)."""


class Ending(NamedTuple):
    """Why a round ended, and which seat its record names as ``by``."""

    meaning: str
    by: str


ENDINGS: dict[str, Ending] = {
    "knock": Ending(
        "the last cycle after a knock (or close) has been played out",
        "the knocker",
    ),
    "maximum": Ending(
        "a 31 (in 41: a 41) was shown, at the deal or when a move made it",
        "the holder who shows it; at the deal the first of them from the dealer's left",
    ),
    "feuer": Ending(
        "three aces (Feuer) ended the round, at the deal or when a move made them",
        "the holder; at the deal the first of them from the dealer's left",
    ),
    "feuer-light": Ending(
        "three sevens (Feuer light) ended the round, at the deal or when a move made them",
        "the holder; at the deal the first of them from the dealer's left",
    ),
    "all-passed": Ending(
        "everybody passed in a row and the middle could not be replaced",
        "null",
    ),
    "stock-exhausted": Ending(
        "the draw game: a draw from an empty stock found fewer than two discards",
        "null",
    ),
    "two-open": Ending(
        "personal closing: a close left only two players open",
        "the seat whose close left two open (knocker: the first to close)",
    ),
    "one-open": Ending(
        "personal closing where the last two play on: a close left only one player open",
        "the seat whose close left one open (knocker: the first to close)",
    ),
}
"""Every way a round ends, by the ``reason`` of its record (``EndReason`` in rounds.py)."""


class IllegalAction(Exception):
    """An action the rules refuse, with a stable :class:`Reason` code."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail or DESCRIPTION[reason]
        super().__init__(f"{reason._value_}: {self.detail}")  # ``.value``: a slow property
