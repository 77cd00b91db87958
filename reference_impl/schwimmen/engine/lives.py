"""What the losses of a round do to the players' lives (rules-matrix 2.24–2.27).

Pure functions shared by the full engine and the compiled simulation: lives go one at a
time and a life lost while swimming eliminates (U24), or, by option, one round can at
most send a player swimming; without swimming the last life eliminates (s002); when the
losses would put out every player left, nobody loses and the round is replayed, or the
players left share the win (U27, U46), or, by option, the losses stand and the match ends
with nobody left to win it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from schwimmen.protocol.frozen import quick_init
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import AfterLast, EveryoneOut, MultiLoss


@quick_init
@dataclass(frozen=True, slots=True)
class Settlement:
    """The effect of one round's losses. ``lost`` lists (seat, lives lost, lives left)."""

    replay: bool
    shared_win: bool
    lost: tuple[tuple[int, int, int], ...]
    swimming: tuple[int, ...]
    eliminated: tuple[int, ...]


# Enum members as module constants: settling is done after every round (see
# engine.rounds on what reading a member off its class costs).
_SWIM = AfterLast.SWIM
_STOP_AT_SWIMMING = MultiLoss.STOP_AT_SWIMMING
_NO_WINNER = EveryoneOut.NO_WINNER
_SHARED_WIN = EveryoneOut.SHARED_WIN
_REPLAY = Settlement(True, False, (), (), ())
_SHARED = Settlement(False, True, (), (), ())


def lives_after(rules: Rules, lives: int, n: int) -> int | None:
    """Lives left after losing ``n`` of ``lives`` (0 = swimming), or None when out."""
    swim = rules.lives.after_last is _SWIM
    if rules.lives.multi_loss is _STOP_AT_SWIMMING:
        if lives == 0:
            return None
        left = max(0, lives - n)
        return left if (swim or left > 0) else None
    if n == 1:  # the common loss, one life
        if lives == 0 or (lives == 1 and not swim):
            return None
        return lives - 1
    for _ in range(n):
        if lives == 0:
            return None
        lives -= 1
        if lives == 0 and not swim:
            return None
    return lives


def settle(
    rules: Rules, lives: Sequence[int], active: Sequence[int], losses: Mapping[int, int]
) -> Settlement:
    """The settlement of ``losses`` for the ``active`` seats with ``lives`` left."""
    after: dict[int, int | None] = {}
    for s, n in losses.items():
        if n > 0:
            after[s] = lives_after(rules, lives[s], n)
    everyone_out = rules.match.everyone_out
    if (
        everyone_out is not _NO_WINNER
        and None in after.values()
        and all(after.get(s, 0) is None for s in active)
    ):
        return _SHARED if everyone_out is _SHARED_WIN else _REPLAY
    swim = rules.lives.after_last is _SWIM
    lost = []
    swimming = []
    eliminated = []
    for s, left in after.items():
        lost.append((s, losses[s], left or 0))
        if left is None:
            eliminated.append(s)
        elif left == 0 and lives[s] > 0 and swim:
            swimming.append(s)
    return Settlement(False, False, tuple(lost), tuple(swimming), tuple(eliminated))
