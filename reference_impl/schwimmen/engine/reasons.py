"""Why an action is refused: stable reason codes, part of the conformance protocol.

A code never changes meaning once published; implementations under test report the same
codes, so a fixture can say "rejected: must-swap-after-pass" in any language.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    NOT_YOUR_TURN = "not-your-turn"
    WRONG_PHASE = "wrong-phase"
    ROUND_OVER = "round-over"
    MATCH_OVER = "match-over"
    NOT_IN_HAND = "not-in-hand"
    NOT_IN_MIDDLE = "not-in-middle"
    MALFORMED = "malformed"
    NO_MIDDLE = "no-middle"
    NO_DRAW = "no-draw"
    TWO_CARD_SWAP = "two-card-swap"
    SWAP_ONE_NOT_ALLOWED = "swap-one-not-allowed"
    SWAP_ALL_NOT_ALLOWED = "swap-all-not-allowed"
    NO_PASS = "no-pass"
    PASS_LIMIT = "pass-limit"
    MUST_SWAP_AFTER_PASS = "must-swap-after-pass"
    SECOND_KNOCK = "second-knock"
    KNOCK_FIRST_TURN = "knock-first-turn"
    KNOCK_NEEDS_MAXIMUM = "knock-needs-maximum"
    KNOCK_WITH_MOVE = "knock-with-move"
    MIDDLE_HIDDEN = "middle-hidden"
    MUST_COMPLETE_SWAP = "must-complete-swap"
    EMPTY_DISCARD = "empty-discard"
    REDISCARD = "rediscard"


DESCRIPTION: dict[Reason, str] = {
    Reason.NOT_YOUR_TURN: "it is another seat's turn",
    Reason.WRONG_PHASE: "this kind of action is not asked for now",
    Reason.ROUND_OVER: "the round is over",
    Reason.MATCH_OVER: "the match is over",
    Reason.NOT_IN_HAND: "a card to give is not in the hand",
    Reason.NOT_IN_MIDDLE: "a card to take is not in the middle",
    Reason.MALFORMED: "the action does not fit together (unequal or repeated cards)",
    Reason.NO_MIDDLE: "this game has no middle to swap with",
    Reason.NO_DRAW: "this game has no drawing",
    Reason.TWO_CARD_SWAP: "only one card or the whole hand may be swapped",
    Reason.SWAP_ONE_NOT_ALLOWED: "swapping a single card is not allowed",
    Reason.SWAP_ALL_NOT_ALLOWED: "swapping the whole hand is not allowed",
    Reason.NO_PASS: "passing is not allowed",
    Reason.PASS_LIMIT: "this player has already passed in this deal",
    Reason.MUST_SWAP_AFTER_PASS: "after a pass this player must swap",
    Reason.SECOND_KNOCK: "somebody has already knocked (or this player has closed)",
    Reason.KNOCK_FIRST_TURN: "no knock on the very first turn",
    Reason.KNOCK_NEEDS_MAXIMUM: "only a player holding 31 may close",
    Reason.KNOCK_WITH_MOVE: "knocking replaces the move here; it cannot follow one",
    Reason.MIDDLE_HIDDEN: "the middle is face down: turn it up first",
    Reason.MUST_COMPLETE_SWAP: "the middle was turned up to swap: a swap must follow",
    Reason.EMPTY_DISCARD: "the discard pile is empty",
    Reason.REDISCARD: "the card just taken from the discard pile may not be thrown again",
}


class IllegalAction(Exception):
    """An action the rules refuse, with a stable :class:`Reason` code."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail or DESCRIPTION[reason]
        super().__init__(f"{reason.value}: {self.detail}")
