"""Who deals the next round (rules-matrix 2.26, U31): pure, shared by the full engine and
the compiled simulation so that both pass the deal alike.

``clockwise`` gives the deal to the next player still in the match on the dealer's left,
after every round. ``loser`` gives it to the player who lost lives in the round; of
several, to the first clockwise from the dealer's left (the order the cards were dealt
in); when he is out of the match, to the next player still in it clockwise from him. A
round that cost nobody anything (a replayed round) passes the deal on clockwise.
"""

from __future__ import annotations

from collections.abc import Collection

from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import DealerRotation

_LOSER = DealerRotation.LOSER  # a module constant: asked after every round


def next_active(table_size: int, seat: int, out: Collection[int]) -> int:
    """The first seat clockwise after ``seat`` that is not ``out``."""
    if not out:
        return (seat + 1) % table_size
    probe = seat
    for _ in range(table_size):
        probe = (probe + 1) % table_size
        if probe not in out:
            return probe
    return seat


def next_dealer(
    rules: Rules, table_size: int, dealer: int, out: Collection[int], losers: Collection[int]
) -> int:
    """The dealer of the round after one dealt by ``dealer`` in which ``losers`` lost
    lives; ``out`` are the seats out of the match once those losses are applied."""
    if losers and rules.match.dealer_rotation is _LOSER:
        for step in range(1, table_size + 1):
            seat = (dealer + step) % table_size
            if seat in losers:
                return seat if seat not in out else next_active(table_size, seat, out)
    return next_active(table_size, dealer, out)
