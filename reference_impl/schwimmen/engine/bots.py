"""Bots for the full engine: a random one (the benchmark workload) and a greedy one.

Both see only what their seat may see (the match's observation of the seat plus the legal
actions), never another player's cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from schwimmen.engine.fastpath import KNOCK_PROBABILITY
from schwimmen.engine.hands import FLAG_BITS, Evaluator
from schwimmen.engine.match import Match
from schwimmen.protocol.actions import Action, ActionKind

__all__ = ["KNOCK_PROBABILITY", "Bot", "GreedyBot", "RandomBot", "is_knock"]


class Bot(Protocol):
    def choose(self, match: Match) -> Action: ...


def is_knock(action: Action) -> bool:
    return action.kind is ActionKind.KNOCK or action.knock


class RandomBot:
    """Knocks with probability 0.1 where a knock is legal, otherwise a uniformly random
    legal action: the workload of the speed benchmark (and of the compiled simulation)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._random = rng.random

    def choose(self, match: Match) -> Action:
        # the decision generated for the match's rules counts the legal actions and makes
        # only the one picked (see engine.fastpath); an ended match's round offers nothing
        return match.pick(match.round, self._random)


class GreedyBot:
    """Takes the move that leaves the best hand now, and knocks once the hand is good.

    The threshold is in points (26 by default, a common table habit: s001's tactics
    mention knocking with 24–27), one point lower for every full cycle of turns the round
    has gone on: people settle for less as a round drags on, and where no swap helps
    anybody (two players left in altenburg, each passing and then made to swap, swapping
    the same cards back and forth) a fixed threshold never knocks and the round never
    ends. It keeps a dealt hand worth 20 or more, always shows a
    31 when showing is optional, closes where it may not pass and no swap improves its
    hand, and in the draw-and-discard game takes the discard only when it improves the
    hand.
    """

    def __init__(self, threshold: float = 26.0) -> None:
        self.threshold = threshold

    def _key(self, ev: Evaluator, hand: Sequence[int]) -> int:
        return ev.packed(hand) >> FLAG_BITS

    def _points(self, match: Match, hand: Sequence[int]) -> float:
        value = match.evaluator.value(hand)
        return 99.0 if value.points is None else float(value.points)

    def choose(self, match: Match) -> Action:
        legal = match.legal_actions()
        rnd = match.round
        seat = match.to_move()
        assert seat is not None
        hand = rnd.hands[seat]
        ev = match.evaluator
        kinds = {a.kind for a in legal}
        if ActionKind.KEEP in kinds:
            keep = self._points(match, hand) >= 20
            return Action(ActionKind.KEEP if keep else ActionKind.TAKE_EXTRA)
        if ActionKind.SHOW in kinds:
            return Action(ActionKind.SHOW)
        good = self._points(match, hand) >= self.threshold - rnd.moves // len(rnd.hands)
        knock_plain = [a for a in legal if a.kind is ActionKind.KNOCK]
        if good and knock_plain:
            return knock_plain[0]
        if ActionKind.DISCARD in kinds:
            return max(
                (a for a in legal if a.kind is ActionKind.DISCARD),
                key=lambda a: self._key(ev, [c for c in hand if c != a.give[0]]),
            )
        if ActionKind.DRAW_STOCK in kinds:
            if rnd.discard and ActionKind.DRAW_DISCARD in kinds:
                top = rnd.discard[-1]
                best = max(self._key(ev, [c for c in [*hand, top] if c != out]) for out in hand)
                if best > self._key(ev, hand):
                    return Action(ActionKind.DRAW_DISCARD)
            return Action(ActionKind.DRAW_STOCK)
        if ActionKind.TURN_UP in kinds and not good:
            return Action(ActionKind.TURN_UP)
        best_action: Action | None = None
        now = self._key(ev, hand)
        may_pass = any(a.kind is ActionKind.PASS for a in legal)
        best_key = now if may_pass else -1
        for action in legal:
            if action.knock or action.kind not in (ActionKind.SWAP, ActionKind.SWAP_ALL):
                continue
            if action.kind is ActionKind.SWAP_ALL:
                after = list(rnd.middle)
            else:
                after = [action.take[0] if c == action.give[0] else c for c in hand]
            key = self._key(ev, after)
            if key > best_key:
                best_key, best_action = key, action
        if not may_pass and knock_plain and best_key <= now:
            # Where every turn must swap (the Dutch game), a player whom no swap helps closes
            # rather than make his hand worse; two such players would otherwise swap the same
            # cards back and forth for ever.
            return knock_plain[0]
        if best_action is None:
            passes = [a for a in legal if a.kind is ActionKind.PASS and not a.knock]
            best_action = passes[0] if passes else legal[0]
        if good:
            closing = [
                a
                for a in legal
                if a.knock
                and a.kind is best_action.kind
                and a.give == best_action.give
                and a.take == best_action.take
            ]
            if closing:
                return closing[0]
        return best_action
