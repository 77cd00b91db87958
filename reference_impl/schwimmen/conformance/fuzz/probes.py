"""Probes for the fuzzer: actions the reference refuses at a given point, with their code.

Random legal play never tests a refusal, and a refusal is half of the contract: the code
an engine reports when it refuses (PROTOCOL.md, Reason codes). At a random point of a
playthrough the fuzzer therefore tries one of the actions listed here that the reference
refuses (a second draw, a knock after drawing, a discard of a card not held, a move out
of turn, a swap with a card not in the middle, a second knock, a second pass, ...) and
expects that refusal, with its code, of the implementation too.

The candidates are built from the position alone, in a fixed order, so that a probe
replays the same way when a shrunk case is played again; only those the reference
refuses are kept, grouped by their code so that every code gets its turn, whatever the
number of candidates that lead to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from schwimmen.engine.match import Match
from schwimmen.engine.reasons import Reason
from schwimmen.protocol.actions import Action, ActionKind, discard, simple, swap
from schwimmen.protocol.cards import Card
from schwimmen.protocol.frozen import quick_init
from schwimmen.spec.vocabulary import Series

_CARDLESS = (
    simple(ActionKind.KNOCK),
    simple(ActionKind.PASS),
    simple(ActionKind.PASS, knock=True),
    simple(ActionKind.SWAP_ALL),
    simple(ActionKind.SWAP_ALL, knock=True),
    simple(ActionKind.TURN_UP),
    simple(ActionKind.KEEP),
    simple(ActionKind.TAKE_EXTRA),
    simple(ActionKind.SHOW),
    simple(ActionKind.DECLINE),
    simple(ActionKind.DRAW_STOCK),
    simple(ActionKind.DRAW_DISCARD),
)

_WRONG_PHASE, _NOT_YOUR_TURN = Reason.WRONG_PHASE, Reason.NOT_YOUR_TURN
"""Read once: a member read through its enum class takes some 15 times as long as a
module's name (Python 3.11), and every probe names these."""


@quick_init
@dataclass(frozen=True, slots=True)
class Probe:
    """A step the reference refuses: ``seat`` None with ``action`` None is the table
    starting the next match (``{"table": "next-match"}``)."""

    seat: int | None
    action: Action | None
    reason: Reason


def _foreign(match: Match, seat: int) -> Card | None:
    """A card in play that ``seat`` does not hold and that does not lie in the middle:
    the first card of the next seat that holds any (in seat order), else the top of the
    stock, else the top of the discard pile (None: there is none)."""
    rnd = match.round
    hands = rnd.hands
    for other in sorted(hands):
        if other != seat and hands[other]:
            return hands[other][0]
    if rnd.stock:
        return rnd.stock[-1]
    if rnd.discard:
        return rnd.discard[-1]
    return None


def _card_actions(match: Match, seat: int) -> list[Action]:
    """The candidates for ``seat`` built from the cards around it (after the cardless
    ones), each meant to break one rule (a card not held, not in the middle, two cards,
    a card named twice, a knock after a move, the card just taken)."""
    rnd = match.round
    hand = rnd.hands.get(seat, [])
    middle = [] if rnd.middle_hidden else rnd.middle
    foreign = _foreign(match, seat)
    actions = []
    if hand:
        actions += [discard(hand[0]), discard(hand[-1])]
    if rnd.took_from_discard is not None:
        actions.append(discard(rnd.took_from_discard))
    if foreign is not None:
        actions.append(discard(foreign))
    if hand and middle:
        actions.append(swap(hand[0], middle[0], knock=True))
        actions.append(swap(hand[-1], middle[-1]))
    if hand and foreign is not None:
        actions.append(swap(hand[0], foreign))
    if foreign is not None and middle:
        actions.append(swap(foreign, middle[0]))
    if hand and rnd.middle:
        actions.append(swap(hand[0], rnd.middle[0]))
    if len(hand) >= 2 and len(middle) >= 2:
        two = (hand[0], hand[1])
        actions.append(_swap_many(two, (middle[0], middle[1])))
        actions.append(_swap_many(two, (middle[0],)))
        actions.append(_swap_many((hand[0], hand[0]), (middle[0], middle[1])))
    return actions


@lru_cache(maxsize=1 << 14)
def _swap_many(give: tuple[Card, ...], take: tuple[Card, ...]) -> Action:
    """A swap of several cards, made once (actions are immutable values)."""
    return Action(ActionKind.SWAP, give, take)


def candidates(match: Match) -> list[Probe]:
    """Every probe the reference refuses now, in a fixed order."""
    return [Probe(*found) for found in _refused(match)]


def _refused(match: Match) -> list[tuple[int | None, Action | None, Reason]]:
    """:func:`candidates` as (seat, action, reason): a probe is made of the one chosen
    only (a step tries a probe one time in eight, each time asking about some twenty)."""
    if match.over:
        out: list[tuple[int | None, Action | None, Reason]] = [
            (0, simple(ActionKind.PASS), Reason.MATCH_OVER)
        ]
        if match.rules.match.series is not Series.POINT_AND_NEW_MATCH:
            out.append((None, None, Reason.MATCH_OVER))
        return out
    seat = match.to_move()
    assert seat is not None
    out = [(None, None, _WRONG_PHASE)]
    rnd = match.round
    why_illegal = rnd.why_illegal  # the seat to move in a match going on: the round's
    # Each candidate is asked about once. The cardless ones are distinct objects, and
    # distinct from any naming a card. A candidate naming at most one card each way is
    # the one object of its text (protocol.actions makes them once), and the swaps of
    # several cards differ from each other and from those, so the same object is the
    # same text: a repeat is found by identity.
    append = out.append
    for action in _CARDLESS:
        reason = why_illegal(action)
        if reason is not None:
            append((seat, action, reason))
    seen: set[int] = set()
    for action in _card_actions(match, seat):
        key = id(action)
        if key in seen:
            continue
        seen.add(key)
        reason = why_illegal(action)
        if reason is not None:
            append((seat, action, reason))
    others = [s for s in match.active() if s != seat]
    if others:
        other = others[0]  # another seat: none of its candidates can repeat one above
        hand = rnd.hands.get(other, [])
        for action in _CARDLESS[:3]:
            out.append((other, action, _NOT_YOUR_TURN))
        if hand and rnd.middle:
            out.append((other, swap(hand[0], rnd.middle[0]), _NOT_YOUR_TURN))
    return out


_REASON = itemgetter(2)
Refused = list[tuple[int | None, Action | None, Reason]]
"""What :func:`refusals` lists: every probe the reference refuses at a point, as (seat,
action, reason), in the fixed order of :func:`candidates`."""


def refusals(match: Match) -> Refused:
    """The probes refused now, for :func:`choose` (a point of play that a refused step
    left as it was offers the same ones: the caller may keep them for the next probe)."""
    return _refused(match)


def choose(match: Match, pick: int, found: Refused | None = None) -> Probe | None:
    """The probe ``pick`` selects: a reason code first (each as likely as the others),
    then one of the probes refused with it (of ``found``, the :func:`refusals` of
    this very point, when the caller has it)."""
    if found is None:
        found = _refused(match)
    if not found:
        return None
    codes = sorted(set(map(_REASON, found)))  # a Reason is its code (a str)
    code = codes[pick % len(codes)]
    group = [f for f in found if f[2] is code]
    return Probe(*group[(pick // len(codes)) % len(group)])
