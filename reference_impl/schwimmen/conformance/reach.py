"""Can a fixture's position come about in play under a ruleset?

A ``showdown`` case compares final hands as at the end of a round, with no special hand
ending anything. Under a ruleset that ends the round at once on a Feuer or a 31 (and
settles it by its own penalty, not by comparing the hands), such hands never meet at a
showdown: a case that puts them there tests the comparison alone and must say so
(``evaluation_only``), or it reads as a position a real game can reach. The rules of
when a hand ends the round are the engine's (``Round._check_deal``, ``_check_in_play``
and ``_end_special``); they are read here from the same parameters and hand flags.

A ``round`` or ``match`` position is dealt as given, and whatever follows a deal happens
as usual, so its cards are always reachable; its lives are not, where a seat starts with
more lives than the ruleset gives (lives only go down) or with none where the last life
puts a player out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schwimmen.engine.hands import FEUER, FEUER_LIGHT, MAXIMUM, evaluator_for
from schwimmen.protocol.cards import parse
from schwimmen.spec.rules import Penalty, Rules
from schwimmen.spec.vocabulary import AcesAtDeal, AfterLast, AtDeal, InPlay, PenaltyKind


def _compares(penalty: Penalty | None) -> bool:
    """A special hand whose penalty is a showdown still has the hands compared."""
    return penalty is None or penalty.kind is PenaltyKind.SHOWDOWN


def _ends_at_deal(flags: int, rules: Rules) -> tuple[bool, Penalty | None]:
    """Whether a hand dealt must end the round (a 31 that may be shown can be declined),
    and the penalty that then decides. A dealt hand that acts on its holder's own move
    (``on-own-move``) cannot be held to the end either: it ends the round at his first
    move, with the penalty of a hand made in play."""
    if flags & FEUER:
        if rules.three_aces.at_deal is AcesAtDeal.ON_OWN_MOVE:
            return True, rules.three_aces.penalty
        return True, rules.three_aces.penalty_at_deal
    if flags & FEUER_LIGHT:
        return True, rules.three_sevens.penalty
    if flags & MAXIMUM and rules.maximum.at_deal is AtDeal.ON_OWN_MOVE:
        return True, rules.maximum.penalty_in_play
    if flags & MAXIMUM and rules.maximum.at_deal is AtDeal.MUST_SHOW:
        return True, rules.maximum.penalty_at_deal
    return False, None


def _ends_in_play(flags: int, rules: Rules) -> tuple[bool, Penalty | None]:
    """Whether a hand reached by a move ends the round, and the penalty that decides."""
    if flags & FEUER:
        return True, rules.three_aces.penalty
    if flags & FEUER_LIGHT:
        return True, rules.three_sevens.penalty
    if flags & MAXIMUM and rules.maximum.in_play is InPlay.MUST_SHOW:
        return True, rules.maximum.penalty_in_play
    return False, None


def showdown_unreachable(
    hands: Mapping[str, Sequence[str]],
    rules: Rules,
    *,
    knocked: bool = False,
    moved: bool = False,
) -> str | None:
    """Why ``hands`` (seat to card texts) can never be compared at the end of a round
    under ``rules``, or None when they can.

    They can when every hand can be held to the end (dealt and kept, or reached by a move,
    without ending the round), or when the hand that ends the round at the deal (without a
    knock or a move before it) or by a move has the hands compared by its penalty."""
    evaluator = evaluator_for(rules)
    flags = {seat: evaluator.packed([parse(c) for c in hand]) for seat, hand in hands.items()}
    at_deal = {seat: _ends_at_deal(f, rules) for seat, f in flags.items()}
    in_play = {seat: _ends_in_play(f, rules) for seat, f in flags.items()}
    held = {seat: not at_deal[seat][0] or not in_play[seat][0] for seat in flags}
    if all(held.values()):
        return None
    # At the deal the engine ends the round on Feuer first, then Feuer light, then a 31.
    for flag in (FEUER, FEUER_LIGHT, MAXIMUM):
        enders = [s for s, f in flags.items() if f & flag and at_deal[s][0]]
        if enders:
            if not knocked and not moved and _compares(at_deal[enders[0]][1]):
                return None
            break
    for seat in flags:
        others_held = all(held[s] for s in flags if s != seat)
        if others_held and in_play[seat][0] and _compares(in_play[seat][1]):
            return None
    stuck = sorted(s for s in flags if not held[s])
    return (
        f"{' and '.join(stuck)} hold{'s' if len(stuck) == 1 else ''} a hand that ends the round "
        "at once, dealt or reached, without a showdown of these hands"
    )


def lives_unreachable(setup: Mapping[str, Any], rules: Rules) -> str | None:
    """Why the lives a match position starts with cannot come about under ``rules``."""
    raw = setup.get("lives")
    if raw is None:
        return None
    seats = [f"P{n + 1}" for n in range(int(setup["seats"]))]
    eliminated = set(setup.get("eliminated", ()))
    lives = raw if isinstance(raw, Mapping) else dict.fromkeys(seats, raw)
    for seat in seats:
        if seat in eliminated or seat not in lives:
            continue
        count = int(lives[seat])
        if count > rules.lives.count:
            return (
                f"{seat} starts with {count} lives; the ruleset gives {rules.lives.count}, "
                "and lives only go down"
            )
        if count == 0 and rules.lives.after_last is not AfterLast.SWIM:
            return f"{seat} starts with no life where the last life puts a player out"
    return None
