"""One round (deal) of Schwimmen, from the deal to the lives it costs.

The round reads every behaviour from :class:`~schwimmen.spec.rules.Rules`; it never asks
which ruleset it plays. Its phases are the decision points of the players:

* ``DEALER_CHOICE``: the dealer keeps his hand or takes the unseen extra hand (rules-matrix
  2.5; U37);
* ``REVEAL_OFFER``: a holder of a dealt 31 may show it where showing is optional (U08, U10);
* ``TURN``: an ordinary turn (swap, pass, knock; or draw in the draw-and-discard game);
* ``COMPLETE_SWAP``: a hidden middle was turned up and a swap must follow (U11);
* ``DISCARD``: after a draw, a card must be thrown (2.30);
* ``OVER``: the round has ended; ``result`` says why and who loses.

The phases as the protocol reports them (an ended round only shows when the match is over,
as ``match-over``), the reason codes in the order :meth:`Round.why_illegal` checks them and
the round endings are tabled with their meanings in :mod:`schwimmen.engine.reasons`.

Order of checks at the deal (U09): deal → washout (U20) → Feuer, Feuer light, 31 on every
hand → the dealer's choice → his new hand again → optional reveals → first turn. Where
Feuer or a 31 takes effect only on its holder's own move (``on-own-move``), the deal and
the dealer's choice leave it alone; it acts after the holder's swap, pass or knock, as one
made by a move does, before a knock that move carries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter

from schwimmen.engine.dealing import cached_pattern
from schwimmen.engine.hands import (
    FEUER,
    FEUER_LIGHT,
    FLAG_BITS,
    MAXIMUM,
    PROTECTED,
    PUNISHES,
    SPECIAL,
    Evaluator,
    HandValue,
    value_forms,
    value_json,
)
from schwimmen.engine.reasons import IllegalAction, Reason
from schwimmen.engine.turncap import MAX_TURNS, RoundTooLong
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import Action, ActionKind
from schwimmen.protocol.cards import SEAT_NAME, Card, pretty, seat_name, text
from schwimmen.protocol.frozen import quick_init
from schwimmen.spec.rules import Penalty, Rules
from schwimmen.spec.vocabulary import (
    AcesAtDeal,
    AfterKnock,
    AtDeal,
    CompleteTie,
    InPlay,
    KnockerTied,
    KnockFirstTurn,
    KnockForm,
    KnockRequires,
    KnocksPerRound,
    LastCycle,
    MiddleVisibility,
    MoveKind,
    NoReplacement,
    OldMiddle,
    Passing,
    PenaltyKind,
    ProtectionEffect,
    Rediscard,
    Replacement,
    RestOfPack,
    Swap,
    TiedLowest,
    Washout,
)


class Phase(StrEnum):
    DEALER_CHOICE = "dealer-choice"
    REVEAL_OFFER = "reveal-offer"
    TURN = "turn"
    COMPLETE_SWAP = "complete-swap"
    DISCARD = "discard"
    OVER = "over"


class EndReason(StrEnum):
    KNOCK = "knock"
    MAXIMUM = "maximum"
    FEUER = "feuer"
    FEUER_LIGHT = "feuer-light"
    ALL_PASSED = "all-passed"
    STOCK_EXHAUSTED = "stock-exhausted"
    TWO_OPEN = "two-open"
    ONE_OPEN = "one-open"


@quick_init
@dataclass(frozen=True, slots=True)
class RoundResult:
    reason: EndReason
    at_deal: bool
    by: int | None
    knocker: int | None
    losses: dict[int, int]
    exempt: tuple[int, ...]
    hands: dict[int, tuple[Card, ...]]
    values: dict[int, HandValue]
    why: str


Emit = Callable[[ev.Event], None]

# The hot paths below compare enum members by identity dozens of times a decision. On
# Python 3.11 reading a member off its class (``Phase.OVER``) takes about 90 ns, because
# the enum metaclass hooks attribute access; a module constant takes about 10 ns.
_ACT_DECLINE = ActionKind.DECLINE
_ACT_DISCARD = ActionKind.DISCARD
_ACT_DRAW_DISCARD = ActionKind.DRAW_DISCARD
_ACT_DRAW_STOCK = ActionKind.DRAW_STOCK
_ACT_KEEP = ActionKind.KEEP
_ACT_KNOCK = ActionKind.KNOCK
_ACT_PASS = ActionKind.PASS
_ACT_SHOW = ActionKind.SHOW
_ACT_SWAP = ActionKind.SWAP
_ACT_SWAP_ALL = ActionKind.SWAP_ALL
_ACT_TAKE_EXTRA = ActionKind.TAKE_EXTRA
_ACT_TURN_UP = ActionKind.TURN_UP
_IN_PLAY_MUST_SHOW = InPlay.MUST_SHOW
_KNOCK_FIRST_NOT_ON_FIRST_TURN_OF_DEAL = KnockFirstTurn.NOT_ON_FIRST_TURN_OF_DEAL
_KNOCK_FIRST_NOT_IN_FIRST_CYCLE = KnockFirstTurn.NOT_IN_FIRST_CYCLE
_KNOCK_FORM_AFTER_MOVE = KnockForm.AFTER_MOVE
_KNOCK_FORM_CLOSE_BY_PASSING = KnockForm.CLOSE_BY_PASSING
_KNOCK_FORM_INSTEAD_OF_MOVE = KnockForm.INSTEAD_OF_MOVE
_KNOCK_REQ_MAXIMUM = KnockRequires.MAXIMUM
_KNOCKS_ONE = KnocksPerRound.ONE
_MOVE_DRAW_AND_DISCARD = MoveKind.DRAW_AND_DISCARD
_PASSING_FORBIDDEN = Passing.FORBIDDEN
_PASSING_FREE = Passing.FREE
_PASSING_ONCE_PER_DEAL = Passing.ONCE_PER_DEAL
_PASSING_THEN_MUST_SWAP = Passing.THEN_MUST_SWAP
_PHASE_COMPLETE_SWAP = Phase.COMPLETE_SWAP
_PHASE_DEALER_CHOICE = Phase.DEALER_CHOICE
_PHASE_DISCARD = Phase.DISCARD
_PHASE_OVER = Phase.OVER
_PHASE_REVEAL_OFFER = Phase.REVEAL_OFFER
_PHASE_TURN = Phase.TURN
_REDISCARD_FORBIDDEN = Rediscard.FORBIDDEN
_WASHOUT_SAME_SUIT_MIDDLE = Washout.SAME_SUIT_MIDDLE
# the events of a decision, each made once (see protocol.events)
_passed = ev.passed
_knocked = ev.knocked
_swapped = ev.swapped
_discarded = ev.discarded
_drew = ev.drew


_FLAG_MASK = (1 << FLAG_BITS) - 1
# The actions without cards, one object each: the legal list made before every decision
# reads these constants, and an action taken from it is recognised by identity.
_ACTION_DECLINE = Action(ActionKind.DECLINE)
_ACTION_DRAW_DISCARD = Action(ActionKind.DRAW_DISCARD)
_ACTION_DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
_ACTION_KEEP = Action(ActionKind.KEEP)
_ACTION_KNOCK = Action(ActionKind.KNOCK)
_ACTION_PASS = Action(ActionKind.PASS)
_ACTION_PASS_KNOCK = Action(ActionKind.PASS, knock=True)
_ACTION_SHOW = Action(ActionKind.SHOW)
_ACTION_SWAP_ALL = Action(ActionKind.SWAP_ALL)
_ACTION_SWAP_ALL_KNOCK = Action(ActionKind.SWAP_ALL, knock=True)
_ACTION_TAKE_EXTRA = Action(ActionKind.TAKE_EXTRA)
_ACTION_TURN_UP = Action(ActionKind.TURN_UP)


# Actions are immutable values: every one-card swap and every discard is built once,
# indexed by the cards (a list of lists: the legal list reads four rows per decision).
_SWAP = [[Action(_ACT_SWAP, (g,), (t,)) for t in range(64)] for g in range(64)]
_SWAP_KNOCK = [[Action(_ACT_SWAP, (g,), (t,), True) for t in range(64)] for g in range(64)]
_DISCARD = [Action(_ACT_DISCARD, (c,)) for c in range(64)]


_TEXT = attrgetter("text")  # an action's canonical text, for map() over a legal list

# the flags that can end a round when a move makes them (checked after every swap)
_ENDS_IN_PLAY = FEUER | FEUER_LIGHT | MAXIMUM


def _pairs(table: list[list[Action]], hand: list[Card], middle: list[Card]) -> list[Action]:
    """The one-card swaps of ``hand`` with ``middle`` from ``table``, hand card by hand
    card. Three cards against three are spelled out: this list is made before every
    decision, and the literal is four times quicker than the nested comprehension."""
    if len(hand) == 3 and len(middle) == 3:
        m0, m1, m2 = middle
        r0, r1, r2 = table[hand[0]], table[hand[1]], table[hand[2]]
        return [r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2]]
    return [table[g][t] for g in hand for t in middle]


def _no_emit(_event: ev.Event) -> None:
    return None


@dataclass(slots=True)
class Round:
    """The mutable state of one deal. Build it with :meth:`deal` or :meth:`from_position`."""

    rules: Rules
    evaluator: Evaluator
    table_size: int
    seats: list[int]
    dealer: int
    emit: Emit = _no_emit
    number: int = 0
    max_turns: int = MAX_TURNS
    dealt: list[Card] = field(default_factory=list)
    hands: dict[int, list[Card]] = field(default_factory=dict)
    middle: list[Card] = field(default_factory=list)
    middle_hidden: bool = False
    extra: list[Card] | None = None
    stock: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    out: list[Card] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)
    phase: Phase = Phase.TURN
    current: int = -1
    moves: int = 0
    moved: set[int] = field(default_factory=set)
    pass_streak: int = 0
    passed: set[int] = field(default_factory=set)
    obliged: set[int] = field(default_factory=set)
    knocker: int | None = None
    closed: set[int] = field(default_factory=set)
    last_queue: list[int] | None = None
    reached: dict[int, int] = field(default_factory=dict)
    offers: list[int] = field(default_factory=list)
    shown: set[int] = field(default_factory=set)
    took_from_discard: Card | None = None
    offers_made: bool = False
    extra_turn: bool = False
    own_move: int = 0
    result: RoundResult | None = None
    _legal: list[Action] | None = None
    _split: int = -1
    _ring: dict[int, int] | None = None
    _order: list[int] | None = None
    _swap_one: bool = False
    _swap_all: bool = False

    def __post_init__(self) -> None:
        # asked before every decision: read as two flags rather than three attribute
        # lookups and a set membership each time
        self._swap_one, self._swap_all = _swap_kinds(self.rules)

    # ================================================================== construction
    @classmethod
    def deal(
        cls,
        rules: Rules,
        evaluator: Evaluator,
        table_size: int,
        seats: Sequence[int],
        dealer: int,
        pack: Sequence[Card],
        emit: Emit = _no_emit,
        number: int = 0,
        max_turns: int = MAX_TURNS,
    ) -> Round:
        """Deal ``pack`` (top card first) by the ruleset's procedure (rules-matrix F46, U32):
        one card at a time clockwise from the dealer's left, the dealer last."""
        rnd = cls(rules, evaluator, table_size, list(seats), dealer, emit, number, max_turns)
        order = rnd._deal_order()
        pattern = cached_pattern(rules, len(order))
        cards = rnd.dealt = list(pack)
        hands = {s: [cards[i] for i in idx] for s, idx in zip(order, pattern.hands, strict=True)}
        middle = [cards[i] for i in pattern.middle]
        extra = [cards[i] for i in pattern.extra]
        rnd.discard = [cards[i] for i in pattern.upcard]
        pos = pattern.rest
        rest = cards[pos:]
        rnd.hands = hands
        rnd.middle = middle
        rnd.extra = extra or None
        if rules.dealing.rest_of_pack is RestOfPack.SET_ASIDE:
            rnd.set_aside = rest
        else:
            rnd.stock = rest[::-1]
        rnd._after_deal()
        return rnd

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        evaluator: Evaluator,
        table_size: int,
        seats: Sequence[int],
        dealer: int,
        hands: dict[int, list[Card]],
        middle: Sequence[Card] = (),
        extra: Sequence[Card] = (),
        stock: Sequence[Card] = (),
        discard: Sequence[Card] = (),
        emit: Emit = _no_emit,
        number: int = 0,
        max_turns: int = MAX_TURNS,
    ) -> Round:
        """A round whose cards were dealt as given (``stock`` top first, ``discard`` bottom
        first); everything after the deal (U09) happens as in :meth:`deal`."""
        rnd = cls(rules, evaluator, table_size, list(seats), dealer, emit, number, max_turns)
        rnd.hands = {s: list(hands[s]) for s in rnd._deal_order()}
        rnd.dealt = [c for s in rnd._deal_order() for c in hands[s]]
        rnd.dealt += [*middle, *extra, *stock, *discard]
        rnd.middle = list(middle)
        rnd.extra = list(extra) or None
        rnd.discard = list(discard)
        if rules.dealing.rest_of_pack is RestOfPack.SET_ASIDE:
            rnd.set_aside = list(stock)
        else:
            rnd.stock = list(stock)[::-1]
        rnd._after_deal()
        return rnd

    # ================================================================== seating
    def _deal_order(self) -> list[int]:
        """Active seats clockwise from the dealer's left, the dealer last (made once a
        round and shared: callers only read it)."""
        order = self._order
        if order is None:
            start = self.seats.index(self.dealer)
            order = self._order = self.seats[start + 1 :] + self.seats[: start + 1]
        return order

    def _next_seat(self, seat: int) -> int:
        """The next seat clockwise that still plays this round (NL: not closed).

        Until somebody closes, the answer is looked up in the ring of the round's seats,
        made on first use: it is asked after every move."""
        if not self.closed:
            ring = self._ring
            if ring is None:
                seats = self.seats
                ring = self._ring = dict(zip(seats, seats[1:] + seats[:1], strict=True))
            return ring[seat]
        seats = self.seats
        i = seats.index(seat)
        n = len(seats)
        for step in range(1, n + 1):
            cand = seats[(i + step) % n]
            if cand not in self.closed:
                return cand
        return seat

    # ================================================================== the deal
    def _after_deal(self) -> None:
        rules = self.rules
        order = self._deal_order()
        self.emit(ev.RoundStarted(self.number, self.dealer, tuple(order)))
        for s in order:
            self.emit(ev.Dealt(s, tuple(self.hands[s])))
        self.reached = dict.fromkeys(order, 0)
        self.own_move = _own_move(rules)
        self.middle_hidden = (
            rules.dealing.middle_visibility is MiddleVisibility.HIDDEN_UNTIL_FIRST_SWAP
            and bool(self.middle)
        )
        if self.middle:
            self.emit(ev.MiddleDealt(tuple(self.middle), not self.middle_hidden))
        if self.extra is not None:
            self.emit(ev.ExtraDealt(tuple(self.extra)))
        if self.discard:
            self.emit(ev.UpcardDealt(self.discard[-1]))
        self._washout(None)
        if self._check_deal(order):
            return
        if self.extra is not None:
            self.phase = Phase.DEALER_CHOICE
            self.current = self.dealer
            return
        self._offer_reveals()

    def _check_deal(self, seats: Sequence[int]) -> bool:
        """End the round if a hand dealt to ``seats`` must end it (U09, U13, U14, U40)."""
        packed, hands = self.evaluator.packed, self.hands
        seen = 0
        for s in seats:
            seen |= packed(hands[s])
        if not seen & (FEUER | FEUER_LIGHT | MAXIMUM):
            return False
        flags = {s: packed(hands[s]) & _FLAG_MASK & ~self.own_move for s in seats}
        feuer = [s for s in seats if flags[s] & FEUER]
        if feuer:
            self._end_special(EndReason.FEUER, feuer, True)
            return True
        light = [s for s in seats if flags[s] & FEUER_LIGHT]
        if light:
            self._end_special(EndReason.FEUER_LIGHT, light, True)
            return True
        if self.rules.maximum.at_deal is AtDeal.MUST_SHOW:
            holders = [s for s in self._deal_order() if self._flags(s) & MAXIMUM]
            if holders:
                self.shown.update(holders)
                self._end_special(EndReason.MAXIMUM, holders, True)
                return True
        return False

    def _offer_reveals(self) -> None:
        if self.rules.maximum.at_deal is AtDeal.MAY_SHOW:
            self.offers = [s for s in self._deal_order() if self._flags(s) & MAXIMUM]
            self.offers_made = bool(self.offers)
        self._next_offer()

    def _next_offer(self) -> None:
        if self.offers:
            self.phase = Phase.REVEAL_OFFER
            self.current = self.offers[0]
            return
        if self.shown:
            holders = [s for s in self._deal_order() if s in self.shown]
            self._end_special(EndReason.MAXIMUM, holders, True)
            return
        self.phase = Phase.TURN
        self.current = self._deal_order()[0]

    # ================================================================== evaluation
    def _flags(self, seat: int) -> int:
        return self.evaluator.packed(self.hands[seat]) & _FLAG_MASK

    def value(self, seat: int) -> HandValue:
        return self.evaluator.value(self.hands[seat])

    # ================================================================== legality
    def to_move(self) -> int | None:
        return None if self.phase is _PHASE_OVER else self.current

    def why_illegal(self, action: Action) -> Reason | None:
        """The reason ``action`` is refused for the seat to move, or None if it is legal."""
        phase = self.phase
        kind = action.kind
        if phase is _PHASE_OVER:
            return Reason.ROUND_OVER
        # The order of the checks is the order of Reason's members (PROTOCOL.md): the
        # game's actions, then what is asked for now, the cards, the move, the knock.
        draw_game = self.rules.turns.move is _MOVE_DRAW_AND_DISCARD
        if draw_game:
            if kind in (_ACT_SWAP, _ACT_SWAP_ALL, _ACT_PASS, _ACT_TURN_UP):
                return Reason.NO_MIDDLE
        elif kind in (_ACT_DRAW_STOCK, _ACT_DRAW_DISCARD, _ACT_DISCARD):
            return Reason.NO_DRAW
        if phase is _PHASE_COMPLETE_SWAP:
            if (kind is not _ACT_SWAP and kind is not _ACT_SWAP_ALL) or action.knock:
                return Reason.MUST_COMPLETE_SWAP
            return self._why_swap_illegal(action)
        if phase is _PHASE_DEALER_CHOICE:
            return None if kind in (_ACT_KEEP, _ACT_TAKE_EXTRA) else Reason.WRONG_PHASE
        if phase is _PHASE_REVEAL_OFFER:
            return None if kind in (_ACT_SHOW, _ACT_DECLINE) else Reason.WRONG_PHASE
        if kind in (_ACT_KEEP, _ACT_TAKE_EXTRA, _ACT_SHOW, _ACT_DECLINE):
            return Reason.WRONG_PHASE
        if draw_game:
            return self._why_illegal_draw(action)
        seat = self.current
        if kind is _ACT_TURN_UP:
            if not self.middle_hidden:
                return Reason.WRONG_PHASE
            return None
        if kind in (_ACT_SWAP, _ACT_SWAP_ALL):
            if self.middle_hidden:
                return Reason.MIDDLE_HIDDEN
            problem = self._why_swap_illegal(action)
            if problem is None and action.knock:
                after = self._hand_after(seat, action)
                problem = self._why_knock_illegal(seat, with_move=True, hand=after)
            return problem
        if kind is _ACT_PASS:
            problem = self._why_pass_illegal(seat)
            if problem is None and action.knock:
                problem = self._why_knock_illegal(seat, with_move=True)
            return problem
        if kind is _ACT_KNOCK:
            form = self.rules.knocking.form
            if form in (_KNOCK_FORM_AFTER_MOVE, _KNOCK_FORM_CLOSE_BY_PASSING):
                problem = self._why_pass_illegal(seat)
                if problem is not None:
                    return problem
            return self._why_knock_illegal(seat, with_move=False)
        return Reason.WRONG_PHASE

    def _why_swap_illegal(self, action: Action) -> Reason | None:
        hand, middle = self.hands[self.current], self.middle
        if action.kind is _ACT_SWAP_ALL:
            return None if self._swap_all else Reason.SWAP_ALL_NOT_ALLOWED
        give, take = action.give, action.take
        if len(give) == 1 and len(take) == 1:  # the common swap, checked in the same order
            if give[0] not in hand:
                return Reason.NOT_IN_HAND
            if take[0] not in middle:
                return Reason.NOT_IN_MIDDLE
            return None if self._swap_one else Reason.SWAP_ONE_NOT_ALLOWED
        if len(give) != len(take) or len(set(give)) != len(give) or len(set(take)) != len(take):
            return Reason.MALFORMED
        if any(c not in hand for c in give):
            return Reason.NOT_IN_HAND
        if any(c not in middle for c in take):
            return Reason.NOT_IN_MIDDLE
        if len(give) == 1:
            return None if self._swap_one else Reason.SWAP_ONE_NOT_ALLOWED
        if len(give) == len(hand):
            return None if self._swap_all else Reason.SWAP_ALL_NOT_ALLOWED
        return Reason.TWO_CARD_SWAP

    def _why_pass_illegal(self, seat: int) -> Reason | None:
        passing = self.rules.turns.passing
        if passing is _PASSING_FORBIDDEN:
            return Reason.NO_PASS
        if passing is _PASSING_ONCE_PER_DEAL and seat in self.passed:
            return Reason.PASS_LIMIT
        if passing is _PASSING_THEN_MUST_SWAP and seat in self.obliged:
            return Reason.MUST_SWAP_AFTER_PASS
        return None

    def _hand_after(self, seat: int, action: Action) -> list[Card]:
        """The hand ``seat`` would hold after the swap ``action``."""
        hand = self.hands[seat]
        if action.kind is _ACT_SWAP_ALL or len(action.give) == len(hand):
            return list(self.middle)
        give, take = action.give[0], action.take[0]
        return [take if c == give else c for c in hand]

    def _why_knock_illegal(
        self, seat: int, *, with_move: bool, hand: Sequence[Card] | None = None
    ) -> Reason | None:
        """Why ``seat`` may not knock now; ``hand`` is the hand he closes on when the close
        follows a move (closing with 31 looks at the hand after the move)."""
        knocking = self.rules.knocking
        if with_move and knocking.form is not _KNOCK_FORM_AFTER_MOVE:
            return Reason.KNOCK_WITH_MOVE
        if self.last_queue is not None:
            return Reason.SECOND_KNOCK
        if knocking.per_round is _KNOCKS_ONE and self.knocker is not None:
            return Reason.SECOND_KNOCK
        if seat in self.closed:
            return Reason.SECOND_KNOCK
        first_turn = knocking.first_turn
        if first_turn is _KNOCK_FIRST_NOT_ON_FIRST_TURN_OF_DEAL and self.moves == 0:
            return Reason.KNOCK_FIRST_TURN
        if first_turn is _KNOCK_FIRST_NOT_IN_FIRST_CYCLE and len(self.moved) < len(self.seats):
            return Reason.KNOCK_FIRST_TURN
        if knocking.requires is _KNOCK_REQ_MAXIMUM:
            closing = self.hands[seat] if hand is None else hand
            if not self.evaluator.packed(closing) & MAXIMUM:
                return Reason.KNOCK_NEEDS_MAXIMUM
        return None

    def _why_illegal_draw(self, action: Action) -> Reason | None:
        kind = action.kind
        if self.phase is _PHASE_DISCARD:
            if kind is not _ACT_DISCARD:
                return Reason.WRONG_PHASE
            card = action.give[0]
            if card not in self.hands[self.current]:
                return Reason.NOT_IN_HAND
            if card == self.took_from_discard and self.rules.draw.rediscard is _REDISCARD_FORBIDDEN:
                return Reason.REDISCARD
            return None
        if kind is _ACT_DISCARD:
            return Reason.WRONG_PHASE
        if kind is _ACT_DRAW_DISCARD:
            return None if self.discard else Reason.EMPTY_DISCARD
        if kind is _ACT_DRAW_STOCK:
            return None
        if kind is _ACT_KNOCK:
            return self._why_knock_illegal(self.current, with_move=False)
        return Reason.WRONG_PHASE

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move, in a fixed order (hand × middle).

        The list is computed once per decision and shared until the next action; an
        action object taken from it is known to be legal without asking again."""
        if self._legal is None:
            self._legal = self._legal_actions()
        return list(self._legal)

    def legal_texts(self) -> list[str]:
        """The canonical texts of :meth:`legal_actions`, in the same order."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return list(map(_TEXT, legal))

    def legal_split(self) -> tuple[list[Action], list[Action]]:
        """The legal actions as (moves, knocks): knocks are a knock, or a move that ends
        with one. Moves come first in :meth:`legal_actions`, so this is one slice."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        split = self._split if self._split >= 0 else len(legal)
        return legal[:split], legal[split:]

    def is_listed(self, action: Action) -> bool:
        """True when ``action`` is one of the objects :meth:`legal_actions` returned for
        this decision (so it is legal without asking again)."""
        legal = self._legal
        if legal is not None:
            for candidate in legal:
                if candidate is action:
                    return True
        return False

    def _legal_actions(self) -> list[Action]:
        """Moves first, then knocks (a knock, or a move that ends with one); ``_split``
        is where the knocks begin (-1: none)."""
        self._split = -1
        phase = self.phase
        if phase is _PHASE_OVER:
            return []
        if phase is _PHASE_DEALER_CHOICE:
            return [_ACTION_KEEP, _ACTION_TAKE_EXTRA]
        if phase is _PHASE_REVEAL_OFFER:
            return [_ACTION_SHOW, _ACTION_DECLINE]
        seat = self.current
        out: list[Action] = []
        if self.rules.turns.move is _MOVE_DRAW_AND_DISCARD:
            if phase is _PHASE_DISCARD:
                # any held card but (where that is refused) the one just taken from the
                # pile: what _why_illegal_draw allows
                table = _DISCARD
                taken = self.took_from_discard
                if taken is None or self.rules.draw.rediscard is not _REDISCARD_FORBIDDEN:
                    return [table[card] for card in self.hands[seat]]
                return [table[card] for card in self.hands[seat] if card != taken]
            out.append(_ACTION_DRAW_STOCK)
            if self.discard:
                out.append(_ACTION_DRAW_DISCARD)
            if self._why_knock_illegal(seat, with_move=False) is None:
                self._split = len(out)
                out.append(_ACTION_KNOCK)
            return out
        hand, middle = self.hands[seat], self.middle
        visible = phase is _PHASE_COMPLETE_SWAP or not self.middle_hidden
        one = visible and self._swap_one
        every = visible and self._swap_all
        if one:
            out = _pairs(_SWAP, hand, middle)
        if every:
            out.append(_ACTION_SWAP_ALL)
        if phase is _PHASE_COMPLETE_SWAP:
            return out
        if self.middle_hidden:
            out.append(_ACTION_TURN_UP)
        pass_ok = self.rules.turns.passing is _PASSING_FREE or self._why_pass_illegal(seat) is None
        if pass_ok:
            out.append(_ACTION_PASS)
        form = self.rules.knocking.form
        if form is _KNOCK_FORM_AFTER_MOVE:
            if self.rules.knocking.requires is _KNOCK_REQ_MAXIMUM:
                self._closing_moves(seat, out, pass_ok)
            elif self._why_knock_illegal(seat, with_move=True) is None:
                self._split = len(out)
                if one:
                    out.extend(_pairs(_SWAP_KNOCK, hand, middle))
                if every:
                    out.append(_ACTION_SWAP_ALL_KNOCK)
                if pass_ok:
                    out.append(_ACTION_PASS_KNOCK)
            return out
        knock_ok = self._why_knock_illegal(seat, with_move=False) is None
        if knock_ok and (form is _KNOCK_FORM_INSTEAD_OF_MOVE or pass_ok):
            self._split = len(out)
            out.append(_ACTION_KNOCK)
        return out

    def _closing_moves(self, seat: int, out: list[Action], pass_ok: bool) -> None:
        """Append the moves after which ``seat`` may close, each checked on the hand it
        leaves (closing needs 31 at the end of the move)."""
        start = len(out)
        for move in out[:start]:
            if move.kind is _ACT_TURN_UP:
                continue
            if move.kind is _ACT_PASS:
                closing = _ACTION_PASS_KNOCK
                after: Sequence[Card] = self.hands[seat]
            elif move.kind is _ACT_SWAP_ALL:
                closing = _ACTION_SWAP_ALL_KNOCK
                after = self.middle
            else:
                closing = _SWAP_KNOCK[move.give[0]][move.take[0]]
                after = self._hand_after(seat, move)
            if self._why_knock_illegal(seat, with_move=True, hand=after) is None:
                out.append(closing)
        if len(out) > start:
            self._split = start

    # ================================================================== applying
    def apply(self, action: Action, *, checked: bool = False) -> None:
        """Apply ``action`` for the seat to move; raise :class:`IllegalAction` if refused
        (``checked``: the caller has just asked :meth:`why_illegal`). A round that has
        taken ``max_turns`` moves raises :class:`RoundTooLong` instead: under its rules it
        may never end."""
        if self.moves >= self.max_turns:
            raise self.too_long()
        if not checked:
            problem = self.why_illegal(action)
            if problem is not None:
                raise IllegalAction(problem)
        self._legal = None
        seat = self.current
        kind = action.kind
        phase = self.phase
        if phase is _PHASE_DEALER_CHOICE:
            self._dealer_choice(kind is _ACT_TAKE_EXTRA)
            return
        if phase is _PHASE_REVEAL_OFFER:
            self.offers.pop(0)
            if kind is _ACT_SHOW:
                self.shown.add(seat)
                self.emit(ev.Revealed(seat, tuple(self.hands[seat]), "maximum"))
            else:
                self.emit(ev.RevealDeclined(seat))
            self._next_offer()
            return
        if self.rules.turns.move is _MOVE_DRAW_AND_DISCARD:
            self._apply_draw_game(seat, action)
            return
        if kind is _ACT_TURN_UP:
            self.middle_hidden = False
            self.emit(ev.MiddleTurnedUp(seat, tuple(self.middle)))
            self.phase = _PHASE_COMPLETE_SWAP
            return
        knock_form = self.rules.knocking.form
        is_knock = kind is _ACT_KNOCK or action.knock
        is_pass = kind is _ACT_PASS or (
            kind is _ACT_KNOCK and knock_form is not _KNOCK_FORM_INSTEAD_OF_MOVE
        )
        changed = False
        if kind is _ACT_SWAP or kind is _ACT_SWAP_ALL:
            self._swap(seat, action)
            changed = True
        elif kind is _ACT_PASS or knock_form is _KNOCK_FORM_AFTER_MOVE:
            self.emit(_passed(seat))
        self.phase = _PHASE_TURN
        self.moves += 1
        self.moved.add(seat)
        if changed:
            self.reached[seat] = self.moves
            if self.obliged:
                self.obliged.discard(seat)
            ends = self.evaluator.packed(self.hands[seat]) & _ENDS_IN_PLAY
            if ends and self._check_in_play(seat):
                return
        elif self.own_move and self._check_own_move(seat):
            return
        if is_pass:
            self.passed.add(seat)
            if self.rules.turns.passing is _PASSING_THEN_MUST_SWAP:
                self.obliged.add(seat)
        extra = False
        if changed and self.rules.washout.rule is _WASHOUT_SAME_SUIT_MIDDLE and self._washout(seat):
            extra = True
        if self.last_queue is None:
            if is_pass:
                self.pass_streak += 1
            else:
                self.pass_streak = 0
            if self.pass_streak >= len(self.seats) - len(self.closed) and self._all_passed():
                return
        if is_knock:
            self.emit(_knocked(seat))
            if self._knock(seat):
                return
            extra = False
        self._advance(seat, extra)

    def too_long(self) -> RoundTooLong:
        """The error for a round at its turn cap, naming the round and its cards as dealt."""
        deal = " ".join(text(c) for c in self.dealt)
        where = f"round {self.number} of this match"
        return RoundTooLong(self.moves, where, len(self.seats), deal)

    def _swap(self, seat: int, action: Action) -> None:
        hand, middle = self.hands[seat], self.middle
        if action.kind is _ACT_SWAP_ALL or len(action.give) == len(hand):
            gave, took = tuple(hand), tuple(middle)
            self.hands[seat], self.middle = list(middle), list(hand)
        else:
            gave, took = action.give, action.take
            give, take = gave[0], took[0]
            hand[hand.index(give)] = take
            middle[middle.index(take)] = give
        self.emit(_swapped(seat, gave, took))

    def _check_own_move(self, seat: int) -> bool:
        """End the round if the mover, having passed or knocked, still holds a hand that
        takes effect on its holder's own move (``on-own-move``: dealt Feuer or 31)."""
        if not self.evaluator.packed(self.hands[seat]) & self.own_move:
            return False
        return self._check_in_play(seat, self.own_move)

    def _check_in_play(self, seat: int, mask: int = _FLAG_MASK) -> bool:
        """End the round if the mover's new hand must end it (U04, U13, U14); ``mask``
        the flags that may end it."""
        flags = self.evaluator.packed(self.hands[seat]) & mask
        if flags & FEUER:
            self._end_special(EndReason.FEUER, [seat], False)
            return True
        if flags & FEUER_LIGHT:
            self._end_special(EndReason.FEUER_LIGHT, [seat], False)
            return True
        if flags & MAXIMUM and self.rules.maximum.in_play is _IN_PLAY_MUST_SHOW:
            self.shown.add(seat)
            self._end_special(EndReason.MAXIMUM, [seat], False)
            return True
        return False

    def _washout(self, mover: int | None) -> bool:
        """Wash out a middle of one suit (rules-matrix 2.28, U20); True if it happened."""
        if self.rules.washout.rule is not _WASHOUT_SAME_SUIT_MIDDLE or self.middle_hidden:
            return False
        happened = False
        size = len(self.middle)
        while self.middle and len({c >> 4 for c in self.middle}) == 1 and len(self.stock) >= size:
            old = tuple(self.middle)
            self.out.extend(old)
            self.middle = [self.stock.pop() for _ in range(size)]
            happened = True
            self.emit(ev.WashedOut(old, tuple(self.middle), mover))
        if happened and mover is not None:
            self.extra_turn = True
        return happened

    def _all_passed(self) -> bool:
        """Everybody passed in a row (2.10): replace the middle, or end or go on (U01-U03).
        Returns True when the round ended."""
        self.pass_streak = 0
        rules = self.rules
        size = len(self.middle)
        if rules.all_pass.replacement is Replacement.FROM_STOCK and len(self.stock) >= size:
            old = tuple(self.middle)
            if rules.all_pass.old_middle is OldMiddle.UNDER_STOCK:
                self.stock[:0] = old[::-1]
            else:
                self.out.extend(old)
            self.middle = [self.stock.pop() for _ in range(size)]
            self.emit(ev.MiddleReplaced(old, tuple(self.middle)))
            self._washout(None)
            return False
        if rules.all_pass.no_replacement is NoReplacement.SHOWDOWN:
            self._end_showdown(EndReason.ALL_PASSED, None)
            return True
        return False

    def _knock(self, seat: int) -> bool:
        """Start what a knock starts; True when the round ended at once."""
        knocking = self.rules.knocking
        self.knocker = seat if self.knocker is None else self.knocker
        then = knocking.then
        if then is not AfterKnock.LAST_CYCLE:
            # personal closing (U21): the closer stops; the round ends when too few are open
            self.closed.add(seat)
            still_open = len(self.seats) - len(self.closed)
            if then is AfterKnock.PLAY_UNTIL_TWO_OPEN and still_open <= 2:
                self._end_showdown(EndReason.TWO_OPEN, seat)
                return True
            if then is AfterKnock.PLAY_UNTIL_ONE_OPEN and still_open <= 1:
                self._end_showdown(EndReason.ONE_OPEN, seat)
                return True
            return False
        queue: list[int] = []
        probe = seat
        while True:
            probe = self._next_seat(probe)
            if probe == seat:
                break
            queue.append(probe)
            if knocking.last_cycle is LastCycle.UNTIL_DEALER and probe == self.dealer:
                break
        if seat == self.dealer and knocking.last_cycle is LastCycle.UNTIL_DEALER:
            queue = []
        self.last_queue = queue
        if not queue:
            self._end_showdown(EndReason.KNOCK, seat)
            return True
        return False

    def _advance(self, seat: int, extra: bool) -> None:
        if extra and self.extra_turn:
            self.current = seat
            return
        self.extra_turn = False
        if self.last_queue is not None:
            if not self.last_queue:
                self._end_showdown(EndReason.KNOCK, self.knocker)
                return
            self.current = self.last_queue.pop(0)
            return
        ring = self._ring
        if ring is not None and not self.closed:
            self.current = ring[seat]
            return
        self.current = self._next_seat(seat)

    def _dealer_choice(self, take: bool) -> None:
        dealer = self.dealer
        extra = self.extra or []
        if take:
            self.middle, self.hands[dealer] = list(self.hands[dealer]), list(extra)
        else:
            self.middle = list(extra)
        self.extra = None
        self.emit(ev.DealerChose(dealer, "take-extra" if take else "keep", tuple(self.middle)))
        self._washout(None)
        if take and self._check_deal([dealer]):
            return
        self._offer_reveals()

    # ------------------------------------------------------------------ draw and discard
    def _apply_draw_game(self, seat: int, action: Action) -> None:
        kind = action.kind
        if kind is _ACT_KNOCK:
            self.moves += 1
            self.moved.add(seat)
            if self.own_move and self._check_own_move(seat):
                return
            self.emit(_knocked(seat))
            if self._knock(seat):
                return
            self._advance(seat, False)
            return
        if kind is _ACT_DISCARD:
            card = action.give[0]
            self.hands[seat].remove(card)
            self.discard.append(card)
            self.emit(_discarded(seat, card))
            self.moves += 1
            self.moved.add(seat)
            self.phase = _PHASE_TURN
            self.took_from_discard = None
            self.reached[seat] = self.moves
            ends = self.evaluator.packed(self.hands[seat]) & _ENDS_IN_PLAY
            if ends and self._check_in_play(seat):
                return
            self._advance(seat, False)
            return
        if kind is _ACT_DRAW_DISCARD:
            card = self.discard.pop()
            self.took_from_discard = card
            source = "discard"
        else:
            if not self.stock:
                if len(self.discard) < 2:
                    self._end_showdown(EndReason.STOCK_EXHAUSTED, None)
                    return
                top = self.discard.pop()
                self.stock = self.discard[::-1]
                self.discard = [top]
                self.emit(ev.StockRenewed(len(self.stock)))
            card = self.stock.pop()
            self.took_from_discard = None
            source = "stock"
        self.hands[seat].append(card)
        self.emit(_drew(seat, source, card))
        self.phase = _PHASE_DISCARD

    # ================================================================== the end
    def _values(self) -> dict[int, HandValue]:
        value, hands = self.evaluator.value, self.hands
        return {s: value(hands[s]) for s in self.seats}

    def _end_special(self, reason: EndReason, holders: Sequence[int], at_deal: bool) -> None:
        """A round ended by Feuer, Feuer light or a 31: its penalty decides (2.14, 2.23).

        "All others" are the players who do not hold (and, where showing is optional, show)
        the hand that ended the round (U08); after Feuer a holder of 31 loses
        ``maximum_holders`` where the penalty says so (pagat's "31 at the deal").
        """
        rules = self.rules
        for s in holders:
            if not (reason is EndReason.MAXIMUM and self.offers_made):
                self.emit(ev.Revealed(s, tuple(self.hands[s]), reason.value))
        penalty: Penalty | None
        if reason is EndReason.FEUER:
            penalty = rules.three_aces.penalty_at_deal if at_deal else rules.three_aces.penalty
        elif reason is EndReason.FEUER_LIGHT:
            penalty = rules.three_sevens.penalty
        else:
            penalty = rules.maximum.penalty_at_deal if at_deal else rules.maximum.penalty_in_play
        values = self._values()
        by = holders[0]
        if penalty is None or penalty.kind is PenaltyKind.SHOWDOWN:
            losses, why = self.showdown_losses(values)
            self._finish(reason, at_deal, by, losses, tuple(holders), values, why)
            return
        names = ", ".join(seat_name(s) for s in holders)
        what = {EndReason.FEUER: "Feuer", EndReason.FEUER_LIGHT: "Feuer light"}.get(reason, "31")
        if penalty.kind is PenaltyKind.ALL_WITHOUT_SPECIAL:
            losses = {
                s: penalty.lives
                for s in self.seats
                if s not in holders and not values[s].flags & SPECIAL
            }
            why = (
                f"{what} shown by {names}: every player without a special hand loses "
                f"{penalty.lives}"
            )
            self._finish(reason, at_deal, by, losses, tuple(holders), values, why)
            return
        losses = {}
        maximum_holders = penalty.maximum_holders
        exempt = set(holders)
        for s in self.seats:
            if s in exempt:
                continue
            lives = penalty.lives
            if (
                maximum_holders is not None
                and reason is not EndReason.MAXIMUM
                and values[s].flags & MAXIMUM
            ):
                lives = maximum_holders
            if lives:
                losses[s] = lives
        why = f"{what} shown by {names}: every other player loses {penalty.lives}"
        if maximum_holders is not None and reason is not EndReason.MAXIMUM:
            why += f", a holder of 31 loses {maximum_holders}"
        self._finish(reason, at_deal, by, losses, tuple(holders), values, why)

    def _end_showdown(self, reason: EndReason, by: int | None) -> None:
        values = self._values()
        losses, why = self.showdown_losses(values)
        self._finish(reason, False, by, losses, (), values, why)

    def showdown_losses(self, values: dict[int, HandValue]) -> tuple[dict[int, int], str]:
        """The ordinary showdown (2.20–2.22, U17–U19, U23, U47, U48)."""
        rules = self.rules
        seats = self.seats
        flags = 0
        for s in seats:
            flags |= values[s].flags
        punishers = [s for s in seats if values[s].flags & PUNISHES] if flags & PUNISHES else []
        if punishers:
            losers = [s for s in seats if not values[s].flags & SPECIAL]
            why = (
                f"three aces ({', '.join(seat_name(s) for s in punishers)}): every player "
                "without a special hand loses"
            )
            return {s: rules.penalties.lowest for s in losers}, why
        if rules.penalties.complete_tie is CompleteTie.NOBODY_LOSES:
            points = {values[s].points for s in seats}
            if len(points) == 1:
                return {}, "complete tie: every hand has the same value, nobody loses"
        candidates = seats
        if flags & PROTECTED:
            candidates = [s for s in seats if not values[s].flags & PROTECTED]
        if not candidates:
            return {}, "every hand is protected: nobody loses"
        keys = {s: values[s].key for s in seats}
        if rules.protection.effect is ProtectionEffect.EXEMPTS_HOLDER:
            low = min(keys.values())
        else:
            low = min([keys[s] for s in candidates])
        losers = [s for s in candidates if keys[s] == low]
        if not losers:
            return {}, "the lowest hand is protected: nobody loses"
        note = ""
        tied = len(losers) > 1
        if tied and rules.penalties.tied_lowest is TiedLowest.LAST_TO_REACH_LOSES:
            latest = max(self.reached.get(s, 0) for s in losers)
            losers = [s for s in losers if self.reached.get(s, 0) == latest]
            note = " (of the tied hands, only the one reached last loses)"
        knocker = self.knocker
        penalties = rules.penalties
        if tied and penalties.knocker_tied is KnockerTied.ORDINARY:
            knocker = None
        lowest, knocker_lowest = penalties.lowest, penalties.knocker_lowest
        losses = {s: knocker_lowest if s == knocker else lowest for s in losers}
        worth = value_forms(values[losers[0]])[2]
        names = ", ".join([SEAT_NAME[s] for s in losers])
        why = f"lowest hand {worth}: {names}{note}"
        if flags & PROTECTED:
            protected = [s for s in seats if values[s].flags & PROTECTED]
            why += f"; protected: {', '.join(seat_name(s) for s in protected)}"
        if knocker is not None and knocker in losses and (knocker_lowest != lowest):
            why += f"; the knocker {seat_name(knocker)} loses {losses[knocker]}"
        return losses, why

    def _finish(
        self,
        reason: EndReason,
        at_deal: bool,
        by: int | None,
        losses: dict[int, int],
        exempt: tuple[int, ...],
        values: dict[int, HandValue],
        why: str,
    ) -> None:
        self.phase = _PHASE_OVER
        held = self.hands
        hands = {s: tuple(held[s]) for s in self.seats}
        self.result = RoundResult(
            reason=reason,
            at_deal=at_deal,
            by=by,
            knocker=self.knocker,
            losses=losses,
            exempt=exempt,
            hands=hands,
            values=values,
            why=why,
        )
        self.emit(
            ev.RoundEnded(
                reason=reason._value_,
                at_deal=at_deal,
                by=by,
                knocker=self.knocker,
                hands=dict(hands),
                values={s: value_json(values[s]) for s in self.seats},
                losses=dict(losses),
                exempt=exempt,
                why=why,
            )
        )


_SWAP_KINDS: dict[int, tuple[Rules, tuple[bool, bool]]] = {}


def _swap_kinds(rules: Rules) -> tuple[bool, bool]:
    """Whether a one-card swap and a whole-hand swap are allowed, once per rules object."""
    found = _SWAP_KINDS.get(id(rules))
    if found is None or found[0] is not rules:
        swaps = rules.turns.swaps
        found = _SWAP_KINDS[id(rules)] = (rules, (Swap.ONE in swaps, Swap.ALL in swaps))
    return found[1]


_OWN_MOVE: dict[int, tuple[Rules, int]] = {}


def _own_move(rules: Rules) -> int:
    """:func:`own_move_flags`, worked out once per rules object (asked at every deal)."""
    found = _OWN_MOVE.get(id(rules))
    if found is None or found[0] is not rules:
        found = _OWN_MOVE[id(rules)] = (rules, own_move_flags(rules))
    return found[1]


def own_move_flags(rules: Rules) -> int:
    """The hand flags that take effect only on their holder's own move, not at the deal
    (``three_aces.at_deal`` / ``maximum.at_deal``: ``on-own-move``). A 31 does so only
    where a 31 reached by a move ends the round."""
    flags = 0
    if rules.three_aces.at_deal is AcesAtDeal.ON_OWN_MOVE:
        flags |= FEUER
    if rules.maximum.at_deal is AtDeal.ON_OWN_MOVE and rules.maximum.in_play is InPlay.MUST_SHOW:
        flags |= MAXIMUM
    return flags


def describe_hand(cards: Sequence[Card]) -> str:
    return " ".join(pretty(c) for c in cards)
