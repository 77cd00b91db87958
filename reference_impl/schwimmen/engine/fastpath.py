"""The full engine's hot paths, generated per rules object: the random bot's pick, the
commonest moves applied, the end of a round, the deal and the shuffle, with only the
branches the rules need.

A decision of the full engine asks its rules a dozen questions (may this seat pass, may it
knock after a move, can a swap wash out the middle, can anybody have closed) before it does
anything; the answers never change for a rules object. As :mod:`schwimmen.engine.compiled`
does for the simulation, the functions here are written from a template whose ``#if``
guards are the rules' parameter values, and compiled once per set of answers:

* ``pick(round, random)``: the action :class:`~schwimmen.engine.bots.RandomBot` takes (a
  knock with probability :data:`KNOCK_PROBABILITY` where one is legal, otherwise a uniform
  legal move), drawing the same random numbers in the same order as counting the decision
  (:meth:`Round.counts`) and making the one action picked (:meth:`Round.move_option`,
  :meth:`Round.knock_option`) would, counted and made in one step;
* ``step(round, action)``: :meth:`Round.apply` for the commonest moves of an action picked
  for this decision, which is known to be legal: in the game with a middle a swap of one
  card or of the whole hand, a pass, each with the knock after it, and the dealer's choice;
  in the draw-and-discard game a draw, a discard and a knock. A last cycle's queue and a
  showdown that the hand table decides alone are made there too. Every other action,
  phase or ruleset goes to :meth:`Round.apply` itself;
* ``deal``, per number of players (:meth:`FastPath.deal_for`): :meth:`Round.deal` with the
  deal pattern's positions written in;
* ``apply(match, action, seat=None)``: :meth:`Match.apply` with the step written in, the
  ``apply`` of the match's subclass for these rules (one call less a decision);
* ``finish(match)``: :meth:`Match._settle`, the end of a round and the start of the next
  (the losses settled as :func:`~schwimmen.engine.lives.settle` settles them, the deal
  passed on, the next pack shuffled and dealt) in one step, without the intermediate
  settlement; a round whose losses would put out everybody left, and a match given its
  packs or positions, go to :meth:`Match._finish_round`;
* :func:`shuffler`: ``random.shuffle`` written out for a pack's size.

The events recorded and the state left are the general path's; the differential test
(``tests/test_fastpath.py``) plays and deals every ruleset and composition both ways. The
rules stay data: the guards are parameter values, never a ruleset's name.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat
from types import CodeType
from typing import Any

from schwimmen.engine.compiled import preprocess
from schwimmen.engine.dealing import deal_pattern
from schwimmen.engine.hands import FLAG_BITS, PROTECTED, PUNISHES, Evaluator
from schwimmen.engine.lives import lives_after
from schwimmen.engine.reasons import IllegalAction
from schwimmen.engine.rotation import next_active, next_dealer
from schwimmen.engine.roundkit import RoundKit
from schwimmen.engine.rounds import (
    _ACT_DISCARD,
    _ACT_DRAW_DISCARD,
    _ACT_DRAW_STOCK,
    _ACT_KNOCK,
    _ACT_PASS,
    _ACT_SWAP,
    _ACT_SWAP_ALL,
    _ACT_TAKE_EXTRA,
    _ACTION_DECLINE,
    _ACTION_DRAW_DISCARD,
    _ACTION_DRAW_STOCK,
    _ACTION_KEEP,
    _ACTION_KNOCK,
    _ACTION_PASS,
    _ACTION_PASS_KNOCK,
    _ACTION_SHOW,
    _ACTION_SWAP_ALL,
    _ACTION_SWAP_ALL_KNOCK,
    _ACTION_TAKE_EXTRA,
    _AT6,
    _AT12,
    _CELLS,
    _END_KNOCK,
    _ENDS_AT_DEAL,
    _ENDS_IN_PLAY,
    _PHASE_DEALER_CHOICE,
    _PHASE_DISCARD,
    _PHASE_OVER,
    _PHASE_REVEAL_OFFER,
    _PHASE_TURN,
    DrawRound,
    Emit,
    Round,
)
from schwimmen.engine.turncap import RoundTooLong
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import Action
from schwimmen.protocol.cards import Card
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import (
    AfterLast,
    CompleteTie,
    DealerRotation,
    DealProcedure,
    EveryoneOut,
    KnockerTied,
    MultiLoss,
    TiedLowest,
)

# the dealing procedures after which the dealer chooses between two hands
_CHOOSING = (DealProcedure.EXTRA_HAND_BLIND_CHOICE, DealProcedure.TWO_PACKETS_LOOK_AT_ONE)

KNOCK_PROBABILITY = 0.1
"""How often the random bot knocks where a knock is legal (the benchmark's workload)."""

Pick = Callable[[Round, Callable[[], float]], Action]
Step = Callable[[Round, Action], None]

# The random bot's decision through the general path: what ``pick`` does where its
# counted case does not hold (a list already made, another phase, other hand sizes).
_GENERAL_PICK = """
def general(rnd, random):
    if rnd._legal is None:
        # a fixed choice of two, the second where the draw says 1
        phase = rnd.phase
        if phase is DEALER_CHOICE:
            action = rnd._picked = A_TAKE_EXTRA if int(random() * 2) else A_KEEP
            return action
        if phase is REVEAL_OFFER:
            action = rnd._picked = A_DECLINE if int(random() * 2) else A_SHOW
            return action
    moves, knocks = rnd.counts()
    if knocks and (not moves or random() < P):
        return rnd.knock_option(int(random() * knocks))
    return rnd.move_option(int(random() * moves))


def showdown(rnd, reason, by):
#if QUICK_SHOWDOWN
    # Round._end_showdown where the hand table alone decides and one hand is lowest
    hands = rnd.hands
    seats = rnd.seats
    keys = {}
    flags = 0
    for s in seats:
        hand = hands[s]
        packed = FLAT[AT12[hand[0]] + AT6[hand[1]] + hand[2]]
        flags |= packed
        keys[s] = packed >> FLAG_BITS
    if not flags & PUNISHES_OR_PROTECTED:
        # Round._quick_losses: the lowest keys lose, of tied ones as the rules say
        # (loops: a comprehension is a call of its own)
        low = min(keys.values())
        losers = []
        for s in seats:
            if keys[s] == low:
                losers.append(s)
        knocker = rnd.knocker
#if TIED_LAST or KNOCKER_TIED_ORDINARY
        if len(losers) > 1:
#endif
#if TIED_LAST
            reached = rnd.reached
            latest = max(map(reached.get, losers, ZEROS))
            tied = losers
            losers = []
            for s in tied:
                if reached.get(s, 0) == latest:
                    losers.append(s)
#endif
#if KNOCKER_TIED_ORDINARY
            knocker = None
#endif
        losses = {}
        for s in losers:
            losses[s] = KNOCKER_LOWEST if s == knocker else LOWEST
        rnd._finish(reason, False, by, losses, ())
        return
#endif
    rnd._end_showdown(reason, by)
"""

# The game with a middle. Guards: see _flags. ``rnd.closed`` is only ever filled where a
# knock closes one player (NL), ``rnd.last_queue`` only where it starts a last cycle.
_MIDDLE = """
def pick(rnd, random):
#if LAZY
    if rnd._legal is None and rnd.phase is TURN:
#if HIDDEN
        if rnd.middle_hidden:
            return general(rnd, random)
#endif
        seat = rnd.current
        hand = rnd.hands[seat]
        middle = rnd.middle
        # (three cards each: the template is used only where hand and middle hold three,
        # and a turn of the middle game never changes their size)
#if PASS_FREE
        moves = MOVES + 1
#elif PASS_FORBIDDEN
        pass_ok = False
        moves = MOVES
#elif PASS_ONCE
        pass_ok = seat not in rnd.passed
        moves = MOVES + pass_ok
#elif PASS_MUST
        pass_ok = seat not in rnd.obliged
        moves = MOVES + pass_ok
#endif
        if KNOCK_OK and random() < P:
            i = int(random() * KNOCKS)
#if AFTER_MOVE
            if i < 9:
                g, t = CELLS[i]
                action = KNOCK_SWAPS[hand[g]][middle[t]]
#if SWAP_ALL
            elif i == 9:
                action = A_SWAP_ALL_KNOCK
#endif
            else:
                action = A_PASS_KNOCK
#else
            action = A_KNOCK
#endif
        else:
            i = int(random() * moves)
            if i < 9:
                g, t = CELLS[i]
                action = SWAPS[hand[g]][middle[t]]
#if SWAP_ALL
            elif i == 9:
                action = A_SWAP_ALL
#endif
            else:
                action = A_PASS
        rnd._picked = action
        return action
#endif
    return general(rnd, random)


def step(rnd, action):
    phase = rnd.phase
    if action is not rnd._picked or phase is not TURN:
#if CHOICE
        if phase is DEALER_CHOICE and action is rnd._picked:
            # Round._dealer_choice, then the first turn (no 31 to offer: see #else)
BEGIN_INNER
            dealer = rnd.dealer
            extra = rnd.extra or []
            take = action.kind is TAKE_EXTRA_KIND
            if take:
                hands = rnd.hands
                rnd.middle, hands[dealer] = list(hands[dealer]), list(extra)
            else:
                rnd.middle = list(extra)
            rnd.extra = None
            rnd.emit((DEALER_CHOSE, dealer, "take-extra" if take else "keep", tuple(rnd.middle)))
#if WASHOUT
            rnd._washout(None)
#endif
            if take and rnd._check_deal([dealer]):
                return
#if AT_DEAL_MAY
            rnd._offer_reveals()
#else
            rnd.phase = TURN
            rnd.current = rnd._order[0]
#endif
            return
#endif
        rnd.apply(action)
        return
    kind = action.kind
    if kind is SWAP:
BEGIN
        hand = rnd.hands[seat]
        middle = rnd.middle
        give = action.give
        take = action.take
        card = give[0]
        taken = take[0]
        hand[hand.index(card)] = taken
        middle[middle.index(taken)] = card
        rnd.emit((SWAPPED, seat, give, take))
AFTER_SWAP
#if SWAP_ALL
    elif kind is SWAP_ALL_KIND:
BEGIN
        hands = rnd.hands
        old = hands[seat]
        middle = rnd.middle
        hand = hands[seat] = list(middle)
        rnd.middle = list(old)
        rnd.emit((SWAPPED, seat, tuple(old), tuple(middle)))
AFTER_SWAP
#endif
    elif kind is PASS_KIND:
BEGIN
        rnd.emit((PASSED, seat))
        rnd.moves += 1
        rnd.moved.add(seat)
#if OWN_MOVE
        if rnd._check_own_move(seat):
            return
#endif
        rnd.passed.add(seat)
#if PASS_MUST
        rnd.obliged.add(seat)
#endif
#if NL
        closed = rnd.closed
        streak = rnd.pass_streak = rnd.pass_streak + 1
        if streak >= len(rnd.seats) - len(closed) and rnd._all_passed():
            return
#else
        if rnd.last_queue is None:
            streak = rnd.pass_streak = rnd.pass_streak + 1
            if streak >= len(rnd.seats) and rnd._all_passed():
                return
#endif
#if WASHOUT
        extra = False
#endif
    else:
        rnd.apply(action)
        return
    if action.knock:
        rnd.emit((KNOCKED, seat))
KNOCK_STARTS
#if WASHOUT
        extra = False
#endif
#if WASHOUT
    if extra and rnd.extra_turn:
        rnd.current = seat
        return
    rnd.extra_turn = False
#endif
#if NL
    if closed:
        rnd.current = rnd._next_seat(seat)
    else:
        rnd.current = rnd._ring[seat]
#else
    queue = rnd.last_queue
    if queue is None:
        rnd.current = rnd._ring[seat]
    elif queue:
        rnd.current = queue.pop(0)
    else:
        showdown(rnd, END_KNOCK, rnd.knocker)
#endif
"""

# A move's start in the generated step, as Round.apply's: the turn cap, then this
# decision's legal list and pick are spent.
_BEGIN = """        if rnd.moves >= rnd.max_turns:
            raise rnd.too_long()
        rnd._legal = rnd._picked = None
        rnd._lazy = False
        seat = rnd.current
"""

# What follows a swap of one card or of the whole hand (Round.apply's swap).
_AFTER_SWAP = """        moves = rnd.moves = rnd.moves + 1
        rnd.moved.add(seat)
        rnd.reached[seat] = moves
#if PASS_MUST
        if rnd.obliged:
            rnd.obliged.discard(seat)
#endif
#if FLAT3
        if FLAT[AT12[hand[0]] + AT6[hand[1]] + hand[2]] & ENDS and rnd._check_in_play(seat):
            return
#else
        if rnd.evaluator.packed(hand) & ENDS and rnd._check_in_play(seat):
            return
#endif
#if WASHOUT
        extra = rnd._washout(seat)
#endif
#if NL
        rnd.pass_streak = 0
        closed = rnd.closed
        if closed and len(closed) >= len(rnd.seats) and rnd._all_passed():
            return
#else
        if rnd.last_queue is None:
            rnd.pass_streak = 0
#endif
"""

# What a knock starts (Round._knock): where it starts a last cycle, the queue of the
# others in the ring (nobody closes in such a game); where it closes the knocker, the
# general path.
_KNOCK_STARTS = """#if NL
        if rnd._knock(seat):
            return
#else
        if rnd.knocker is None:
            rnd.knocker = seat
        ring = rnd._ring
        queue = []
        probe = ring[seat]
        while probe != seat:
            queue.append(probe)
#if UNTIL_DEALER
            if probe == rnd.dealer:
                break
#endif
            probe = ring[probe]
#if UNTIL_DEALER
        if seat == rnd.dealer:
            queue = []
#endif
        rnd.last_queue = queue
        if not queue:
            showdown(rnd, END_KNOCK, seat)
            return
#endif
"""

# The next seat after a move of the draw game (Round._advance without an extra turn,
# which only washing out a middle gives).
_ADVANCE = """
#if NL
        if rnd.closed:
            rnd.current = rnd._next_seat(seat)
        else:
            rnd.current = rnd._ring[seat]
#else
        queue = rnd.last_queue
        if queue is None:
            rnd.current = rnd._ring[seat]
        elif queue:
            rnd.current = queue.pop(0)
        else:
            showdown(rnd, END_KNOCK, rnd.knocker)
#endif
"""

# The draw-and-discard game (no middle: no washout, no hidden middle, no pass).
_DRAW = """
def pick(rnd, random):
    if rnd._legal is None:
        phase = rnd.phase
        if phase is TURN:
            moves = 2 if rnd.discard else 1
            seat = rnd.current
#if not NL
            if rnd.last_queue is not None:
                knocks = 0
#else
            if seat in rnd.closed:
                knocks = 0
#endif
#if ONE_KNOCK
            elif rnd.knocker is not None:
                knocks = 0
#endif
#if ANY_TURN and not REQ_MAX
            else:
                knocks = 1
#else
            elif rnd._why_knock_illegal(seat, False) is None:
                knocks = 1
            else:
                knocks = 0
#endif
            if knocks and random() < P:
                int(random() * knocks)
                action = A_KNOCK
            elif int(random() * moves):
                action = A_DRAW_DISCARD
            else:
                action = A_DRAW_STOCK
            rnd._picked = action
            return action
        if phase is DISCARD_PHASE:
            hand = rnd.hands[rnd.current]
#if REDISCARD_FORBIDDEN
            taken = rnd.took_from_discard
            if taken is not None:
                # the card just taken, which may not be thrown again, lies last (the draw
                # appended it; a pack holds no card twice): the others are the hand but it
                if hand[-1] == taken:
                    action = rnd._picked = DISCARDS[hand[int(random() * (len(hand) - 1))]]
                    return action
                hand = [card for card in hand if card != taken]
#endif
            action = rnd._picked = DISCARDS[hand[int(random() * len(hand))]]
            return action
    return general(rnd, random)


def step(rnd, action):
    if action is not rnd._picked:
        rnd.apply(action)
        return
    kind = action.kind
    if kind is DISCARD_KIND:
BEGIN
        card = action.give[0]
        hand = rnd.hands[seat]
        hand.remove(card)
        rnd.discard.append(card)
        rnd.emit((DISCARDED, seat, card))
        moves = rnd.moves = rnd.moves + 1
        rnd.moved.add(seat)
        rnd.phase = TURN
        rnd.took_from_discard = None
        rnd.reached[seat] = moves
#if FLAT3
        if FLAT[AT12[hand[0]] + AT6[hand[1]] + hand[2]] & ENDS and rnd._check_in_play(seat):
            return
#else
        if rnd.evaluator.packed(hand) & ENDS and rnd._check_in_play(seat):
            return
#endif
ADVANCE
        return
    if kind is DRAW_STOCK_KIND:
        stock = rnd.stock
        if not stock or rnd.moves >= rnd.max_turns:
            rnd.apply(action)
            return
        rnd._legal = rnd._picked = None
        rnd._lazy = False
        seat = rnd.current
        card = stock.pop()
        rnd.took_from_discard = None
        rnd.hands[seat].append(card)
        rnd.emit((DREW, seat, "stock", card))
        rnd.phase = DISCARD_PHASE
        return
    if kind is DRAW_DISCARD_KIND:
BEGIN
        card = rnd.discard.pop()
        rnd.took_from_discard = card
        rnd.hands[seat].append(card)
        rnd.emit((DREW, seat, "discard", card))
        rnd.phase = DISCARD_PHASE
        return
    if kind is KNOCK_KIND:
BEGIN
        rnd.moves += 1
        rnd.moved.add(seat)
#if OWN_MOVE
        if rnd._check_own_move(seat):
            return
#endif
        rnd.emit((KNOCKED, seat))
KNOCK_STARTS
ADVANCE
        return
    rnd.apply(action)
"""


# A round dealt from a shuffled pack, for one number of players (the positions of the
# deal pattern written in as numbers): Round.deal and Round._after_deal in one step, each
# of the round's fields set once. The pack is the round's own (Match._next_pack's).
_DEAL = """
def deal(rules, evaluator, table_size, seats, dealer, cards, emit, number, max_turns):
    rnd = NEW(CLS)
    order, ring = SEATING(seats, dealer)
    SEATS = order
    rnd.rules = rules
    rnd.evaluator = evaluator
    rnd.table_size = table_size
    rnd.seats = seats
    rnd.dealer = dealer
    rnd._kit = KIT
    rnd.emit = emit
    rnd.number = number
    rnd.max_turns = max_turns
    rnd.dealt = cards
    HANDS
    rnd.hands = {HELD}
    rnd.middle = MIDDLE
    rnd.middle_hidden = MIDDLE_HIDDEN
    rnd.extra = EXTRA
    rest = cards[REST:]
#if SET_ASIDE
    rnd.stock = []
    rnd.set_aside = rest
#else
    rest.reverse()
    rnd.stock = rest
    rnd.set_aside = []
#endif
    rnd.discard = UPCARD
    rnd.out = []
    rnd.phase = TURN
    rnd.current = -1
    rnd.moves = 0
    rnd.moved = set()
    rnd.pass_streak = 0
    rnd.passed = set()
    rnd.obliged = set()
    rnd.knocker = None
    rnd.closed = set()
    rnd.last_queue = None
    rnd.reached = {REACHED}
    rnd.offers = []
    rnd.shown = set()
    rnd.took_from_discard = None
    rnd.offers_made = False
    rnd.extra_turn = False
    rnd.own_move = OWN_MOVE_FLAGS
    rnd.result = None
    rnd._legal = None
    rnd._split = -1
    rnd._owed = 0
    rnd._lazy = False
    rnd._picked = None
    rnd._ring = ring
    rnd._order = order
    emit((ROUND_STARTED, number, dealer, (SEATS,)))
    DEALT
#if HAS_MIDDLE
    emit((MIDDLE_DEALT, MIDDLE_TUPLE, not MIDDLE_HIDDEN))
#endif
#if HAS_EXTRA
    emit((EXTRA_DEALT, EXTRA_TUPLE))
#endif
#if HAS_UPCARD
    emit((UPCARD_DEALT, rnd.discard[-1]))
#endif
#if WASHOUT
    rnd._washout(None)
#endif
#if FLAT3
    if (SEEN) & ENDS_AT_DEAL and rnd._check_deal(order):
        return rnd
#else
    if rnd._check_deal(order):
        return rnd
#endif
#if HAS_EXTRA
    rnd.phase = DEALER_CHOICE
    rnd.current = dealer
#elif AT_DEAL_MAY
    rnd._offer_reveals()
#else
    rnd.current = SEAT0
#endif
    return rnd
"""


# The end of a round and the start of the next (Match._settle): the losses settled
# (lives.settle and Match._finish_round in one step, without the Settlement), the deal
# passed on (rotation.next_dealer) and the next round dealt from a shuffled pack (Match.
# _start_round). Where everybody left would be put out, where the match is given its
# packs or positions, and where the pack is too small for the deal, the general path
# does it all.
_FINISH = """
def finish(m):
    while not m.over:
        rnd = m.round
        if rnd.phase is not OVER:
            return
        result = rnd.result
        losses = result.losses
        lives = m.lives
        after = {}
        out = False
        for s, n in losses.items():
            if n > 0:
#if STOP
                left = LIVES_AFTER(RULES, lives[s], n)
#else
                if n == 1:
#if SWIM
                    left = lives[s] - 1 if lives[s] else None
#else
                    left = lives[s] - 1 if lives[s] > 1 else None
#endif
                else:
                    left = LIVES_AFTER(RULES, lives[s], n)
#endif
                after[s] = left
                if left is None:
                    out = True
#if not NO_WINNER
        if out and all(after.get(s, 0) is None for s in m.active()):
            m._finish_round()
            continue
#endif
        m.results.append(result)
        emit = m._pending.append
        eliminated = m.eliminated
        taken = {}
        for s, left in after.items():
            have = lives[s]
            if left is None:
                if have > 0:
                    taken[s] = have
                emit((LIVES_LOST, s, losses[s], 0))
                lives[s] = 0
                eliminated.add(s)
                emit((ELIMINATED, s))
            else:
                if have > left:
                    taken[s] = have - left
                emit((LIVES_LOST, s, losses[s], left))
                lives[s] = left
#if SWIM
                if left == 0 and have > 0:
                    emit((SWIMMING, s))
#endif
        m.lives_lost.append(taken)
        losers = m._losers = tuple(after)
        table = m.table_size
        if out:
            seats = m.active()
            if len(seats) <= 1:
                m._end_match(tuple(seats), shared=False)
                return
        elif eliminated:
            seats = [s for s in range(table) if s not in eliminated]
        else:
            seats = list(range(table))
#if LOSER_DEALS
        dealer = m.dealer = NEXT_DEALER(RULES, table, m.dealer, eliminated, losers)
#else
        if eliminated:
            dealer = m.dealer = NEXT_ACTIVE(table, m.dealer, eliminated)
        else:
            dealer = m.dealer = (m.dealer + 1) % table
#endif
        emit((DEALER_PASSED, dealer))
        deal_needed = DEALS.get(len(seats))
        if deal_needed is None:
            deal_needed = DEAL_OF(KIT, DEALS, len(seats))
        deal, needed = deal_needed
        if m.deals or m.decks or needed > PACK_SIZE:
            m._start_round()
            continue
        number = m.round_no = m.round_no + 1
        m._head = None
        if not m.record:
            m._pending.clear()
        cards = list(m.evaluator.pack)
        rng = m._rng
        if rng is None:
            rng = m.rng
        if type(rng) is RANDOM:
            SHUFFLE(cards, rng.getrandbits)
        else:
            rng.shuffle(cards)
        m.round = deal(
            m.rules, m.evaluator, table, seats, dealer, cards, emit, number, m.max_turns
        )
        m._began_pending.append((number, dealer, tuple(lives), tuple(seats)))
"""


Apply = Callable[..., None]
"""``apply(match, action, seat=None)``: :meth:`Match.apply` of these rules."""

Finish = Callable[[Any], None]
"""``finish(match)``: :meth:`Match._settle` (the match's type is not named here: its
module imports this one)."""

Deal = Callable[
    [Rules, Evaluator, int, list[int], int, list[Card], Emit, int, int],
    Round,
]
"""``deal(rules, evaluator, table_size, seats, dealer, pack, emit, number, max_turns)``:
:meth:`Round.deal` of a pack the round may keep (a fresh one, as a match's)."""


@dataclass(frozen=True)
class FastPath:
    """The generated decision of one rules object (see the module's docstring), and its
    deal for each number of players (made on first use)."""

    kit: RoundKit
    source: str
    pick: Pick
    step: Step
    finish: Finish
    apply: Apply
    deals: dict[int, tuple[Deal, int]]

    def deal_for(self, players: int) -> tuple[Deal, int]:
        """The deal of ``players`` and the cards it needs (the pack's size at least)."""
        return _deal_of(self.kit, self.deals, players)


def _deal_of(kit: RoundKit, deals: dict[int, tuple[Deal, int]], players: int) -> tuple[Deal, int]:
    found = deals.get(players)
    if found is None:
        found = deals[players] = _generate_deal(kit, players)
    return found


def _flags(kit: RoundKit) -> dict[str, bool]:
    """The template's guards: each a parameter value (or two) of the rules, read from the
    kit the general path reads."""
    cards = kit.rules.cards
    return {
        "LAZY": kit.swap_one
        and not kit.knock_needs_maximum
        and cards.hand_size == 3
        and cards.middle_size == 3,
        "HIDDEN": kit.hidden_middle,
        "WASHOUT": kit.washout,
        "SWAP_ALL": kit.swap_all,
        "OWN_MOVE": kit.own_move != 0,
        "FLAT3": kit.flat is not None and cards.hand_size == 3,
        "PASS_FREE": kit.pass_free,
        "PASS_FORBIDDEN": kit.pass_forbidden,
        "PASS_ONCE": kit.pass_once,
        "PASS_MUST": kit.pass_then_swap,
        "AFTER_MOVE": kit.knock_after_move,
        "CLOSE_BY_PASSING": not kit.knock_after_move and not kit.knock_instead,
        "REQ_MAX": kit.knock_needs_maximum,
        "ONE_KNOCK": kit.knock_once,
        "NO_FIRST_KNOCK": kit.knock_not_first_turn,
        "CYCLE_KNOCK": kit.knock_not_first_cycle,
        "ANY_TURN": kit.knock_any_turn,
        "NL": not kit.last_cycle,
        "REDISCARD_FORBIDDEN": kit.rediscard_forbidden,
        "UNTIL_DEALER": kit.until_dealer,
        "CHOICE": kit.rules.dealing.procedure in _CHOOSING,
        "AT_DEAL_MAY": kit.maximum_at_deal_may,
        "TIED_LAST": kit.rules.penalties.tied_lowest is TiedLowest.LAST_TO_REACH_LOSES,
        "KNOCKER_TIED_ORDINARY": kit.rules.penalties.knocker_tied is KnockerTied.ORDINARY,
        "QUICK_SHOWDOWN": kit.flat is not None
        and cards.hand_size == 3
        and kit.rules.penalties.complete_tie is not CompleteTie.NOBODY_LOSES,
    }


def _knock_ok(flags: dict[str, bool]) -> str:
    """Whether the mover may knock in a turn of three cards against a face-up middle
    (Round._why_knock_illegal's checks that the rules ask, in its order), as a condition
    of the generated pick."""
    checks = [
        ("rnd.last_queue is None", not flags["NL"]),
        ("rnd.knocker is None", flags["ONE_KNOCK"]),
        ("seat not in rnd.closed", flags["NL"]),
        ("rnd.moves != 0", flags["NO_FIRST_KNOCK"]),
        ("len(rnd.moved) >= len(rnd.seats)", flags["CYCLE_KNOCK"]),
        ("pass_ok", flags["CLOSE_BY_PASSING"] and not flags["PASS_FREE"]),
    ]
    return " and ".join(check for check, asked in checks if asked) or "True"


_CODE: dict[str, CodeType] = {}
_FAST: dict[int, tuple[RoundKit, FastPath]] = {}


def _generate(kit: RoundKit) -> FastPath:
    template = _DRAW if kit.draw_game else _MIDDLE
    flags = _flags(kit)
    template = template.replace("KNOCK_OK", _knock_ok(flags)).replace(
        "KNOCKS", "moves" if flags["AFTER_MOVE"] else "1"
    )
    template = template.replace("AFTER_SWAP\n", _AFTER_SWAP).replace("ADVANCE\n", _ADVANCE[1:])
    template = template.replace("KNOCK_STARTS\n", _KNOCK_STARTS)
    inner = "".join(f"    {line}\n" for line in _BEGIN.splitlines())
    template = template.replace("BEGIN_INNER\n", inner).replace("BEGIN\n", _BEGIN)
    source = preprocess(_GENERAL_PICK + template, flags)
    namespace: dict[str, Any] = {
        "P": KNOCK_PROBABILITY,
        "MOVES": 9 + kit.swap_all,
        "TURN": _PHASE_TURN,
        "DISCARD_PHASE": _PHASE_DISCARD,
        "SWAP": _ACT_SWAP,
        "PASS_KIND": _ACT_PASS,
        "DISCARD_KIND": _ACT_DISCARD,
        "SWAP_ALL_KIND": _ACT_SWAP_ALL,
        "KNOCK_KIND": _ACT_KNOCK,
        "TAKE_EXTRA_KIND": _ACT_TAKE_EXTRA,
        "DEALER_CHOSE": ev.DealerChose,
        "FLAG_BITS": FLAG_BITS,
        "ZEROS": repeat(0),
        "PUNISHES_OR_PROTECTED": PUNISHES | PROTECTED,
        "LOWEST": kit.rules.penalties.lowest,
        "KNOCKER_LOWEST": kit.rules.penalties.knocker_lowest,
        "KNOCKED": ev.knocked,
        "DEALER_CHOICE": _PHASE_DEALER_CHOICE,
        "REVEAL_OFFER": _PHASE_REVEAL_OFFER,
        "A_KEEP": _ACTION_KEEP,
        "A_TAKE_EXTRA": _ACTION_TAKE_EXTRA,
        "A_SHOW": _ACTION_SHOW,
        "A_DECLINE": _ACTION_DECLINE,
        "DRAW_STOCK_KIND": _ACT_DRAW_STOCK,
        "DRAW_DISCARD_KIND": _ACT_DRAW_DISCARD,
        "SWAPS": kit.swaps,
        "KNOCK_SWAPS": kit.knock_swaps,
        "DISCARDS": kit.discards,
        "CELLS": _CELLS,
        "FLAT": kit.flat,
        "AT12": _AT12,
        "AT6": _AT6,
        "ENDS": _ENDS_IN_PLAY,
        "SWAPPED": ev.swapped,
        "PASSED": ev.passed,
        "DISCARDED": ev.discarded,
        "DREW": ev.drew,
        "END_KNOCK": _END_KNOCK,
        "A_KNOCK": _ACTION_KNOCK,
        "A_SWAP_ALL_KNOCK": _ACTION_SWAP_ALL_KNOCK,
        "A_PASS_KNOCK": _ACTION_PASS_KNOCK,
        "A_SWAP_ALL": _ACTION_SWAP_ALL,
        "A_PASS": _ACTION_PASS,
        "A_DRAW_STOCK": _ACTION_DRAW_STOCK,
        "A_DRAW_DISCARD": _ACTION_DRAW_DISCARD,
    }
    deals: dict[int, tuple[Deal, int]] = {}
    finish = _generate_finish(kit, deals)
    source += _apply_source(source)
    namespace.update(
        FINISH=finish,
        OVER=_PHASE_OVER,
        ONCE=(None,),
        ILLEGAL=IllegalAction,
        TOO_LONG=RoundTooLong,
    )
    exec(_compiled(source), namespace)  # as engine.compiled does: source made from the rules
    return FastPath(
        kit, source, namespace["pick"], namespace["step"], finish, namespace["apply"], deals
    )


# Match.apply with the step written in (one call less a decision): the step's body runs
# once in a loop, its returns leave the loop, and a round that ended is settled.
_APPLY = """
def apply(self, action, seat=None):
    rnd = self.round
    if self.over or (seat is not None and seat != rnd.current):
        problem = self.why_illegal(action, seat)
        if problem is not None:
            raise ILLEGAL(problem)
    try:
        for _ in ONCE:
STEP
    except TOO_LONG as exc:
        if self._composition is None:
            raise
        raise exc.named(self._composition) from None
    if rnd.phase is OVER:
        FINISH(self)
"""


def _apply_source(source: str) -> str:
    """``apply(match, action, seat=None)``: :meth:`Match.apply` with the generated step
    (the last function of ``source``, which returns nothing and loops only where it
    breaks out of its own loop) as its body."""
    _, header, body = source.partition("\ndef step(rnd, action):\n")
    if not header or "\ndef " in body:
        raise ValueError("the generated step must be the source's last function")
    lines = []
    for line in body.rstrip().splitlines():
        if line.strip() == "return":
            line = line.replace("return", "break")
        lines.append(f"        {line}" if line else "")
    return _APPLY.replace("STEP\n", "\n".join(lines) + "\n")


def _generate_finish(kit: RoundKit, deals: dict[int, tuple[Deal, int]]) -> Finish:
    rules = kit.rules
    flags = {
        "STOP": rules.lives.multi_loss is MultiLoss.STOP_AT_SWIMMING,
        "SWIM": rules.lives.after_last is AfterLast.SWIM,
        "NO_WINNER": rules.match.everyone_out is EveryoneOut.NO_WINNER,
        "LOSER_DEALS": rules.match.dealer_rotation is DealerRotation.LOSER,
    }
    pack = kit.evaluator.pack
    namespace: dict[str, Any] = {
        "OVER": _PHASE_OVER,
        "RULES": rules,
        "KIT": kit,
        "DEALS": deals,
        "DEAL_OF": _deal_of,
        "LIVES_AFTER": lives_after,
        "NEXT_DEALER": next_dealer,
        "NEXT_ACTIVE": next_active,
        "LIVES_LOST": ev.lives_lost,
        "SWIMMING": ev.Swimming,
        "ELIMINATED": ev.Eliminated,
        "DEALER_PASSED": ev.next_dealer,
        "RANDOM": random.Random,
        "SHUFFLE": shuffler(len(pack)),
        "PACK_SIZE": len(pack),
    }
    exec(_compiled(preprocess(_FINISH, flags)), namespace)
    finish: Finish = namespace["finish"]
    return finish


def _cards(positions: tuple[int, ...], brackets: str) -> str:
    """The cards at ``positions`` of the pack as a list or tuple display."""
    items = ", ".join(f"cards[{p}]" for p in positions)
    if brackets == "()" and len(positions) == 1:
        items += ","
    return brackets[0] + items + brackets[1]


def _generate_deal(kit: RoundKit, players: int) -> tuple[Deal, int]:
    pattern = deal_pattern(kit.rules, players)
    seats = [f"s{i}" for i in range(players)]
    held = [f"t{i}" for i in range(players)]
    flags = {
        "SET_ASIDE": kit.set_aside,
        "HAS_MIDDLE": bool(pattern.middle),
        "HAS_EXTRA": bool(pattern.extra),
        "HAS_UPCARD": bool(pattern.upcard),
        "WASHOUT": kit.washout,
        "FLAT3": kit.flat is not None and kit.rules.cards.hand_size == 3,
        "AT_DEAL_MAY": kit.maximum_at_deal_may,
    }
    words = {
        "SEATS": ", ".join(seats),
        "HANDS": "\n    ".join(
            f"{t} = {_cards(p, '()')}" for t, p in zip(held, pattern.hands, strict=True)
        ),
        "HELD": ", ".join(f"{s}: list({t})" for s, t in zip(seats, held, strict=True)),
        "MIDDLE": _cards(pattern.middle, "[]"),
        "MIDDLE_TUPLE": _cards(pattern.middle, "()"),
        "MIDDLE_HIDDEN": str(bool(pattern.middle) and kit.hidden_middle),
        "EXTRA": _cards(pattern.extra, "[]") if pattern.extra else "None",
        "EXTRA_TUPLE": _cards(pattern.extra, "()"),
        "UPCARD": _cards(pattern.upcard, "[]"),
        "REST": str(pattern.rest),
        "REACHED": ", ".join(f"{s}: 0" for s in seats),
        "DEALT": "\n    ".join(
            f"emit((DEALT, {s}, {t}))" for s, t in zip(seats, held, strict=True)
        ),
        "SEEN": " | ".join(f"FLAT[AT12[{t}[0]] + AT6[{t}[1]] + {t}[2]]" for t in held),
        "SEAT0": seats[0],
    }
    source = preprocess(_DEAL, flags)
    source = re.sub(r"\b(" + "|".join(words) + r")\b", lambda m: words[m.group(1)], source)
    namespace: dict[str, Any] = {
        "NEW": object.__new__,
        "CLS": DrawRound if kit.draw_game else Round,
        "SEATING": kit.seating,
        "KIT": kit,
        "TURN": _PHASE_TURN,
        "DEALER_CHOICE": _PHASE_DEALER_CHOICE,
        "OWN_MOVE_FLAGS": kit.own_move,
        "FLAT": kit.flat,
        "AT12": _AT12,
        "AT6": _AT6,
        "ENDS_AT_DEAL": _ENDS_AT_DEAL,
        "ROUND_STARTED": ev.RoundStarted,
        "DEALT": ev.Dealt,
        "MIDDLE_DEALT": ev.MiddleDealt,
        "EXTRA_DEALT": ev.ExtraDealt,
        "UPCARD_DEALT": ev.UpcardDealt,
    }
    exec(_compiled(source), namespace)
    return namespace["deal"], pattern.rest


def _compiled(source: str) -> CodeType:
    """The code of ``source``, compiled once (rules objects of equal answers share it)."""
    code = _CODE.get(source)
    if code is None:
        code = _CODE[source] = compile(source, "<generated>", "exec")
    return code


def _shuffle_source(size: int) -> str:
    """``random.shuffle`` of ``size`` cards written out step by step: each position from
    the last down swaps with one drawn below it, by ``getrandbits`` of the position's
    bit length, drawn again while too high (``Random._randbelow_with_getrandbits``)."""
    lines = ["def shuffle(cards, getrandbits):"]
    for i in range(size - 1, 0, -1):
        n, k = i + 1, (i + 1).bit_length()
        lines += [
            f"    j = getrandbits({k})",
            f"    while j >= {n}:",
            f"        j = getrandbits({k})",
            f"    cards[{i}], cards[j] = cards[j], cards[{i}]",
        ]
    if size < 2:
        lines.append("    return None")
    return "\n".join(lines) + "\n"


_SHUFFLES: dict[int, Callable[[list[Card], Callable[[int], int]], None]] = {}


def shuffler(size: int) -> Callable[[list[Card], Callable[[int], int]], None]:
    """``shuffle(cards, rng.getrandbits)``: in place, exactly what ``rng.shuffle(cards)``
    does to a list of ``size`` cards (the same draws in the same order), without a loop:
    a match shuffles a pack every round."""
    found = _SHUFFLES.get(size)
    if found is None:
        namespace: dict[str, Any] = {}
        exec(_compiled(_shuffle_source(size)), namespace)
        found = _SHUFFLES[size] = namespace["shuffle"]
    return found


def fast_for(kit: RoundKit) -> FastPath:
    """The generated decision of ``kit``'s rules (made once per kit)."""
    found = _FAST.get(id(kit))
    if found is None or found[0] is not kit:
        if len(_FAST) > 1024:
            _FAST.clear()
        found = _FAST[id(kit)] = (kit, _generate(kit))
    return found[1]
