"""What the contract lets vary: answers that no rule decides, so that any of them passes.

A hand's ``suit`` names the suit whose cards count (PROTOCOL.md, Hand values). When two
suits of a hand count the same best sum and the ruleset orders no suits
(``comparison.suit_order: none``), no rule says which of them is "the" suit: an engine
that names either is right. The harness and the fuzzer both accept any of them, so that a
field no rule decides is never reported as a deviation. The sums are worked out from the
ruleset's own card values (``cards.values``), not by the engine under test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def suits_that_may_count(cards: Sequence[str], parameters: Mapping[str, Any]) -> frozenset[str]:
    """The suits a correct engine may name for ``cards``: every suit whose cards sum to the
    best sum where the ruleset orders no suits; otherwise none is left open (empty set)."""
    if parameters.get("comparison.suit_order", "none") != "none":
        return frozenset()
    values = parameters.get("cards.values")
    if not isinstance(values, Mapping):
        return frozenset()
    sums: dict[str, float] = {}
    for card in cards:
        if not isinstance(card, str) or len(card) < 2:
            return frozenset()
        rank, suit = card[:-1], card[-1]
        worth = values.get(rank)
        if not isinstance(worth, int | float):
            return frozenset()
        sums[suit] = sums.get(suit, 0) + worth
    if not sums:
        return frozenset()
    best = max(sums.values())
    tied = frozenset(s for s, total in sums.items() if total == best)
    return tied if len(tied) > 1 else frozenset()
