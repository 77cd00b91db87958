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

Two kinds of round share the deal, the knock and the end: :class:`Round` plays the games
with a middle (swap, pass, knock), :class:`DrawRound` the draw-and-discard game;
:meth:`Round.deal` and :meth:`Round.from_position` make the kind the rules play. Each
decision reads its rules from the round's :class:`~schwimmen.engine.roundkit.RoundKit`
(flags and tables worked out once per rules object), and records its events as plain
records that the match turns into :mod:`~schwimmen.protocol.events` when its log is read
(see :func:`schwimmen.protocol.events.build`): a bot match or a fuzzer's replay pays for
no event object it never looks at.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from typing import ClassVar

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
from schwimmen.engine.roundkit import RoundKit, kit_for
from schwimmen.engine.turncap import MAX_TURNS, RoundTooLong
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import Action, ActionKind, simple
from schwimmen.protocol.cards import SEAT_NAME, Card, pretty, seat_name, text
from schwimmen.protocol.frozen import quick_init
from schwimmen.spec.rules import Penalty, Rules
from schwimmen.spec.vocabulary import (
    AfterKnock,
    CompleteTie,
    KnockerTied,
    NoReplacement,
    OldMiddle,
    PenaltyKind,
    ProtectionEffect,
    Replacement,
    TiedLowest,
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


@dataclass(slots=True)
class Explanation:
    """The hand values and the sentence that explain a round's losses, worked out when
    first read (``work``, then dropped). An ordinary showdown decides its losers from the
    hand table alone; only the event log, a fuzz case's answer or a reader of
    :attr:`RoundResult.values` needs the values and the words, and a bot match reads
    neither."""

    work: Callable[[], tuple[dict[int, HandValue], str]] | None
    values: dict[int, HandValue] = field(default_factory=dict)
    why: str = ""

    @classmethod
    def known(cls, values: dict[int, HandValue], why: str) -> Explanation:
        return cls(None, values, why)

    def read(self) -> Explanation:
        work = self.work
        if work is not None:
            self.values, self.why = work()
            self.work = None
        return self


@quick_init
@dataclass(frozen=True, slots=True, eq=False, repr=False)
class RoundResult:
    """How a round ended and what it costs (``losses``: lives per seat). ``values`` and
    ``why`` are read through ``explained`` (see :class:`Explanation`); equality and
    ``repr`` are a plain frozen dataclass's over the nine public fields."""

    reason: EndReason
    at_deal: bool
    by: int | None
    knocker: int | None
    losses: dict[int, int]
    exempt: tuple[int, ...]
    hands: dict[int, tuple[Card, ...]]
    explained: Explanation

    @property
    def values(self) -> dict[int, HandValue]:
        return self.explained.read().values

    @property
    def why(self) -> str:
        return self.explained.read().why

    def _fields(self) -> tuple[tuple[str, object], ...]:
        return (
            ("reason", self.reason),
            ("at_deal", self.at_deal),
            ("by", self.by),
            ("knocker", self.knocker),
            ("losses", self.losses),
            ("exempt", self.exempt),
            ("hands", self.hands),
            ("values", self.values),
            ("why", self.why),
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, RoundResult)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # (as a frozen dataclass of dicts: unhashable)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self._fields())
        return f"{self.__class__.__qualname__}({shown})"


Emit = Callable[[ev.Record], None]
"""What a round hands each event to, as a record (see :data:`schwimmen.protocol.events.Record`)."""

# The hot paths below compare enum members by identity dozens of times a decision (and
# return reason codes). On Python 3.11 reading a member off its class (``Phase.OVER``)
# takes about 90 ns, because the enum metaclass hooks attribute access; a module
# constant takes about 10 ns.
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
_PHASE_COMPLETE_SWAP = Phase.COMPLETE_SWAP
_PHASE_DEALER_CHOICE = Phase.DEALER_CHOICE
_PHASE_DISCARD = Phase.DISCARD
_PHASE_OVER = Phase.OVER
_PHASE_REVEAL_OFFER = Phase.REVEAL_OFFER
_PHASE_TURN = Phase.TURN
_END_KNOCK = EndReason.KNOCK
_END_MAXIMUM = EndReason.MAXIMUM
_END_FEUER = EndReason.FEUER
_END_FEUER_LIGHT = EndReason.FEUER_LIGHT
_END_ALL_PASSED = EndReason.ALL_PASSED
_END_STOCK_EXHAUSTED = EndReason.STOCK_EXHAUSTED
_END_TWO_OPEN = EndReason.TWO_OPEN
_END_ONE_OPEN = EndReason.ONE_OPEN
_WHY_ROUND_OVER = Reason.ROUND_OVER
_WHY_MUST_COMPLETE_SWAP = Reason.MUST_COMPLETE_SWAP
_WHY_WRONG_PHASE = Reason.WRONG_PHASE
_WHY_MIDDLE_HIDDEN = Reason.MIDDLE_HIDDEN
_WHY_MALFORMED = Reason.MALFORMED
_WHY_NOT_IN_HAND = Reason.NOT_IN_HAND
_WHY_NOT_IN_MIDDLE = Reason.NOT_IN_MIDDLE
_WHY_EMPTY_DISCARD = Reason.EMPTY_DISCARD
_WHY_REDISCARD = Reason.REDISCARD
_WHY_SWAP_ONE_NOT_ALLOWED = Reason.SWAP_ONE_NOT_ALLOWED
_WHY_SWAP_ALL_NOT_ALLOWED = Reason.SWAP_ALL_NOT_ALLOWED
_WHY_TWO_CARD_SWAP = Reason.TWO_CARD_SWAP
_WHY_NO_PASS = Reason.NO_PASS
_WHY_PASS_LIMIT = Reason.PASS_LIMIT
_WHY_MUST_SWAP_AFTER_PASS = Reason.MUST_SWAP_AFTER_PASS
_WHY_KNOCK_WITH_MOVE = Reason.KNOCK_WITH_MOVE
_WHY_SECOND_KNOCK = Reason.SECOND_KNOCK
_WHY_KNOCK_FIRST_TURN = Reason.KNOCK_FIRST_TURN
_WHY_KNOCK_NEEDS_MAXIMUM = Reason.KNOCK_NEEDS_MAXIMUM
_SHOWDOWN = PenaltyKind.SHOWDOWN
_ALL_WITHOUT_SPECIAL = PenaltyKind.ALL_WITHOUT_SPECIAL
_NOBODY_LOSES = CompleteTie.NOBODY_LOSES
_EXEMPTS_HOLDER = ProtectionEffect.EXEMPTS_HOLDER
_LAST_TO_REACH = TiedLowest.LAST_TO_REACH_LOSES
_KNOCKER_TIED_ORDINARY = KnockerTied.ORDINARY
_TWO_OPEN = AfterKnock.PLAY_UNTIL_TWO_OPEN
_ONE_OPEN = AfterKnock.PLAY_UNTIL_ONE_OPEN
_FROM_STOCK = Replacement.FROM_STOCK
_UNDER_STOCK = OldMiddle.UNDER_STOCK
_NO_REPLACEMENT_SHOWDOWN = NoReplacement.SHOWDOWN
_REFUSED_IN_MIDDLE_GAME = (_ACT_DRAW_STOCK, _ACT_DRAW_DISCARD, _ACT_DISCARD)
_REFUSED_IN_DRAW_GAME = (_ACT_SWAP, _ACT_SWAP_ALL, _ACT_PASS, _ACT_TURN_UP)
_CHOICES = (_ACT_KEEP, _ACT_TAKE_EXTRA)
_OFFER_ANSWERS = (_ACT_SHOW, _ACT_DECLINE)
_NOT_ASKED_IN_TURN = (_ACT_KEEP, _ACT_TAKE_EXTRA, _ACT_SHOW, _ACT_DECLINE)
# the phases whose every answer Round._why_not_asked gives
_DECIDED_BEFORE_TURN = (
    _PHASE_OVER,
    _PHASE_COMPLETE_SWAP,
    _PHASE_DEALER_CHOICE,
    _PHASE_REVEAL_OFFER,
)
# the events of a decision, each made once (see protocol.events)
_passed = ev.passed
_knocked = ev.knocked
_swapped = ev.swapped
_discarded = ev.discarded
_drew = ev.drew


_FLAG_MASK = (1 << FLAG_BITS) - 1
# A three-card hand's place in the hand table is ``a << 12 | b << 6 | c`` (cards below 64):
# read as ``_AT12[a] + _AT6[b] + c`` it takes two list reads and two additions, which
# Python 3.11 specialises for ints, where a shift or an ``|`` goes the generic way
# (callgrind: 3 % fewer instructions for a pagat round).
_AT12 = [card << 12 for card in range(64)]
_AT6 = [card << 6 for card in range(64)]
# The actions without cards, one object each (the ones the text and JSON readers give):
# the legal list made before every decision reads these constants, and an action taken
# from it is recognised by identity.
_ACTION_DECLINE = simple(ActionKind.DECLINE)
_ACTION_DRAW_DISCARD = simple(ActionKind.DRAW_DISCARD)
_ACTION_DRAW_STOCK = simple(ActionKind.DRAW_STOCK)
_ACTION_KEEP = simple(ActionKind.KEEP)
_ACTION_KNOCK = simple(ActionKind.KNOCK)
_ACTION_PASS = simple(ActionKind.PASS)
_ACTION_PASS_KNOCK = simple(ActionKind.PASS, knock=True)
_ACTION_SHOW = simple(ActionKind.SHOW)
_ACTION_SWAP_ALL = simple(ActionKind.SWAP_ALL)
_ACTION_SWAP_ALL_KNOCK = simple(ActionKind.SWAP_ALL, knock=True)
_ACTION_TAKE_EXTRA = simple(ActionKind.TAKE_EXTRA)
_ACTION_TURN_UP = simple(ActionKind.TURN_UP)
_TEXT_DRAW_DISCARD = _ACTION_DRAW_DISCARD.text
_TEXT_DRAW_STOCK = _ACTION_DRAW_STOCK.text
_TEXT_KNOCK = _ACTION_KNOCK.text
_TEXT_PASS = _ACTION_PASS.text
_TEXT_PASS_KNOCK = _ACTION_PASS_KNOCK.text
_TEXT_SWAP_ALL = _ACTION_SWAP_ALL.text
_TEXT_SWAP_ALL_KNOCK = _ACTION_SWAP_ALL_KNOCK.text


# the flags that can end a round when a move makes them (checked after every swap)
_ENDS_IN_PLAY = FEUER | FEUER_LIGHT | MAXIMUM
_ENDS_AT_DEAL = FEUER | FEUER_LIGHT | MAXIMUM


def _pairs(table: list[list[Action]], hand: list[Card], middle: list[Card]) -> list[Action]:
    """The one-card swaps of ``hand`` with ``middle`` from ``table``, hand card by hand
    card. Three cards against three are spelled out: this list is made before every
    decision, and the literal is four times quicker than the nested comprehension."""
    if len(hand) == 3 and len(middle) == 3:
        m0, m1, m2 = middle
        r0, r1, r2 = table[hand[0]], table[hand[1]], table[hand[2]]
        return [r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2]]
    return [table[g][t] for g in hand for t in middle]


# the (hand position, middle position) of each of the nine swaps of three cards against
# three, in the legal list's order
_CELLS = tuple((g, t) for g in range(3) for t in range(3))
_NINE_SWAPS = (_ACT_SWAP,) * 9
_COUNTED_KINDS = (
    (_NINE_SWAPS, (*_NINE_SWAPS, _ACT_PASS)),
    ((*_NINE_SWAPS, _ACT_SWAP_ALL), (*_NINE_SWAPS, _ACT_SWAP_ALL, _ACT_PASS)),
)
"""The kinds of the moves of a decision counted without a list (:meth:`Round.counts`), by
whether the whole hand may be swapped and whether the pass is offered."""
_COUNTED_DRAWS = ((), (_ACT_DRAW_STOCK,), (_ACT_DRAW_STOCK, _ACT_DRAW_DISCARD))


def _no_emit(_record: ev.Record) -> None:
    return None


@dataclass(slots=True, init=False)
class Round:
    """The mutable state of one deal, and the game with a middle (swap, pass, knock).
    Build a round with :meth:`deal` or :meth:`from_position`, which make a
    :class:`DrawRound` for the draw-and-discard game; a round made directly serves
    :meth:`showdown_losses` and :meth:`value` (hands and knocker set by hand)."""

    rules: Rules
    evaluator: Evaluator
    table_size: int
    seats: list[int]
    dealer: int
    _kit: RoundKit  # the rules as a round asks them (see engine.roundkit)
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
    _owed: int = 0
    _lazy: bool = False
    _picked: Action | None = None
    _ring: dict[int, int] = field(default_factory=dict)
    _order: list[int] = field(default_factory=list)

    def __init__(
        self,
        rules: Rules,
        evaluator: Evaluator,
        table_size: int,
        seats: list[int],
        dealer: int,
        emit: Emit = _no_emit,
        number: int = 0,
        max_turns: int = MAX_TURNS,
        *,
        kit: RoundKit | None = None,
    ) -> None:
        # written out (a round is made per deal): literals, no default factories
        kit = kit_for(rules, table=evaluator.table) if kit is None else kit
        self.rules = rules
        self.evaluator = evaluator
        self.table_size = table_size
        self.seats = seats
        self.dealer = dealer
        self.emit = emit
        self.number = number
        self.max_turns = max_turns
        self.dealt = []
        self.hands = {}
        self.middle = []
        self.middle_hidden = False
        self.extra = None
        self.stock = []
        self.discard = []
        self.out = []
        self.set_aside = []
        self.phase = _PHASE_TURN
        self.current = -1
        self.moves = 0
        self.moved = set()
        self.pass_streak = 0
        self.passed = set()
        self.obliged = set()
        self.knocker = None
        self.closed = set()
        self.last_queue = None
        self.reached = {}
        self.offers = []
        self.shown = set()
        self.took_from_discard = None
        self.offers_made = False
        self.extra_turn = False
        self.own_move = kit.own_move
        self.result = None
        self._legal = None
        self._split = -1
        self._owed = 0
        self._lazy = False
        self._picked = None
        # the deal order (clockwise from the dealer's left, the dealer last) and the seat
        # after each: asked at the deal and after every move
        self._order, self._ring = kit.seating(seats, dealer)
        self._kit = kit

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
        kit = kit_for(rules, table=evaluator.table)
        kind = _kind(kit)
        rnd = kind(
            rules, evaluator, table_size, list(seats), dealer, emit, number, max_turns, kit=kit
        )
        order = rnd._deal_order()
        plan = kit.plan(len(order))
        cards = rnd.dealt = list(pack)
        hands = rnd.hands
        held = []
        for seat, pick in zip(order, plan.hands, strict=True):
            cards_of = pick(cards)
            hands[seat] = list(cards_of)
            held.append(cards_of)
        if plan.middle is not None:
            rnd.middle = list(plan.middle(cards))
        if plan.extra is not None:
            rnd.extra = list(plan.extra(cards))
        if plan.upcard is not None:
            rnd.discard = list(plan.upcard(cards))
        rest = cards[plan.rest :]
        if kit.set_aside:
            rnd.set_aside = rest
        else:
            rest.reverse()
            rnd.stock = rest
        rnd._after_deal(held)
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
        kit = kit_for(rules, table=evaluator.table)
        kind = _kind(kit)
        rnd = kind(
            rules, evaluator, table_size, list(seats), dealer, emit, number, max_turns, kit=kit
        )
        order = rnd._deal_order()
        rnd.hands = {s: list(hands[s]) for s in order}
        rnd.dealt = [c for s in order for c in hands[s]]
        rnd.dealt += [*middle, *extra, *stock, *discard]
        rnd.middle = list(middle)
        rnd.extra = list(extra) or None
        rnd.discard = list(discard)
        if kit.set_aside:
            rnd.set_aside = list(stock)
        else:
            rnd.stock = list(stock)[::-1]
        rnd._after_deal([tuple(rnd.hands[s]) for s in order])
        return rnd

    # ================================================================== seating
    def _deal_order(self) -> list[int]:
        """Active seats clockwise from the dealer's left, the dealer last (made once a
        round and shared: callers only read it)."""
        return self._order

    def _next_seat(self, seat: int) -> int:
        """The next seat clockwise that still plays this round (NL: not closed).

        Until somebody closes, the answer is looked up in the ring of the round's seats,
        made with the deal order: it is asked after every move."""
        if not self.closed:
            return self._ring[seat]
        seats = self.seats
        i = seats.index(seat)
        n = len(seats)
        for step in range(1, n + 1):
            cand = seats[(i + step) % n]
            if cand not in self.closed:
                return cand
        return seat

    # ================================================================== the deal
    def _after_deal(self, held: list[tuple[Card, ...]]) -> None:
        """Everything after the cards lie where they were dealt (U09); ``held`` are the
        hands as dealt, in deal order."""
        kit = self._kit
        emit = self.emit
        order = self._deal_order()
        emit((ev.RoundStarted, self.number, self.dealer, tuple(order)))
        for seat, cards in zip(order, held, strict=True):
            emit((ev.Dealt, seat, cards))
        self.reached = dict.fromkeys(order, 0)
        middle = self.middle
        if middle:
            hidden = self.middle_hidden = kit.hidden_middle
            emit((ev.MiddleDealt, tuple(middle), not hidden))
        if self.extra is not None:
            emit((ev.ExtraDealt, tuple(self.extra)))
        if self.discard:
            emit((ev.UpcardDealt, self.discard[-1]))
        if kit.washout:
            self._washout(None)
        if self._check_deal(order):
            return
        if self.extra is not None:
            self.phase = _PHASE_DEALER_CHOICE
            self.current = self.dealer
            return
        self._offer_reveals()

    def _packed(self, hand: Sequence[Card]) -> int:
        """``key << 8 | flags`` of a hand (the table's entry)."""
        flat = self._kit.flat
        if flat is not None and len(hand) == 3:
            return flat[_AT12[hand[0]] + _AT6[hand[1]] + hand[2]]
        return self.evaluator.packed(hand)

    def _check_deal(self, seats: Sequence[int]) -> bool:
        """End the round if a hand dealt to ``seats`` must end it (U09, U13, U14, U40)."""
        hands = self.hands
        flat = self._kit.flat
        seen = 0
        if flat is not None:
            for s in seats:
                h = hands[s]
                seen |= flat[_AT12[h[0]] + _AT6[h[1]] + h[2]]
        else:
            packed = self.evaluator.packed
            for s in seats:
                seen |= packed(hands[s])
        if not seen & _ENDS_AT_DEAL:
            return False
        packed = self._packed
        flags = {s: packed(hands[s]) & _FLAG_MASK & ~self.own_move for s in seats}
        feuer = [s for s in seats if flags[s] & FEUER]
        if feuer:
            self._end_special(_END_FEUER, feuer, True)
            return True
        light = [s for s in seats if flags[s] & FEUER_LIGHT]
        if light:
            self._end_special(_END_FEUER_LIGHT, light, True)
            return True
        if self._kit.maximum_at_deal_must:
            holders = [s for s in self._deal_order() if self._flags(s) & MAXIMUM]
            if holders:
                self.shown.update(holders)
                self._end_special(_END_MAXIMUM, holders, True)
                return True
        return False

    def _offer_reveals(self) -> None:
        if self._kit.maximum_at_deal_may:
            self.offers = [s for s in self._deal_order() if self._flags(s) & MAXIMUM]
            self.offers_made = bool(self.offers)
        self._next_offer()

    def _next_offer(self) -> None:
        if self.offers:
            self.phase = _PHASE_REVEAL_OFFER
            self.current = self.offers[0]
            return
        if self.shown:
            holders = [s for s in self._deal_order() if s in self.shown]
            self._end_special(_END_MAXIMUM, holders, True)
            return
        self.phase = _PHASE_TURN
        self.current = self._deal_order()[0]

    # ================================================================== evaluation
    def _flags(self, seat: int) -> int:
        return self._packed(self.hands[seat]) & _FLAG_MASK

    def value(self, seat: int) -> HandValue:
        return self.evaluator.value(self.hands[seat])

    # ================================================================== legality
    def to_move(self) -> int | None:
        return None if self.phase is _PHASE_OVER else self.current

    def why_illegal(self, action: Action) -> Reason | None:
        """The reason ``action`` is refused for the seat to move, or None if it is legal."""
        phase = self.phase
        kind = action.kind
        if phase is _PHASE_TURN and kind is _ACT_SWAP and not action.knock:
            # the commonest question, answered by the checks below in the same order
            if self.middle_hidden:
                return _WHY_MIDDLE_HIDDEN
            give, take = action.give, action.take
            if len(give) == 1 and len(take) == 1:
                if give[0] not in self.hands[self.current]:
                    return _WHY_NOT_IN_HAND
                if take[0] not in self.middle:
                    return _WHY_NOT_IN_MIDDLE
                return None if self._kit.swap_one else _WHY_SWAP_ONE_NOT_ALLOWED
        problem = self._why_not_asked(action)
        if problem is not None or phase in _DECIDED_BEFORE_TURN:
            return problem
        seat = self.current
        if kind is _ACT_TURN_UP:
            if not self.middle_hidden:
                return _WHY_WRONG_PHASE
            return None
        if kind is _ACT_SWAP or kind is _ACT_SWAP_ALL:
            if self.middle_hidden:
                return _WHY_MIDDLE_HIDDEN
            problem = self._why_swap_illegal(action)
            if problem is None and action.knock:
                # only closing with 31 looks at the hand the move leaves
                after = self._hand_after(seat, action) if self._kit.knock_needs_maximum else None
                problem = self._why_knock_illegal(seat, True, after)
            return problem
        if kind is _ACT_PASS:
            problem = self._why_pass_illegal(seat)
            if problem is None and action.knock:
                problem = self._why_knock_illegal(seat, True)
            return problem
        if kind is _ACT_KNOCK:
            if not self._kit.knock_instead:  # a knock is read as a pass that closes
                problem = self._why_pass_illegal(seat)
                if problem is not None:
                    return problem
            return self._why_knock_illegal(seat, False)
        return _WHY_WRONG_PHASE

    # what the game refuses whatever the phase: the other game's actions
    _refused_kinds: ClassVar[tuple[ActionKind, ...]] = _REFUSED_IN_MIDDLE_GAME
    _refused_reason: ClassVar[Reason] = Reason.NO_DRAW

    def _why_not_asked(self, action: Action) -> Reason | None:
        """The checks both games make before their turn's own: the round is over, the
        action belongs to the other game, or it is not what is asked for now. The order
        of the checks is the order of Reason's members (PROTOCOL.md): the game's actions,
        then what is asked for now, the cards, the move, the knock. In the phases of
        :data:`_DECIDED_BEFORE_TURN` the answer is final (None: legal); in a turn or a
        discard, None only means that the turn's checks come next."""
        phase = self.phase
        kind = action.kind
        if phase is _PHASE_OVER:
            return _WHY_ROUND_OVER
        if kind in self._refused_kinds:
            return self._refused_reason
        if phase is _PHASE_COMPLETE_SWAP:
            if (kind is not _ACT_SWAP and kind is not _ACT_SWAP_ALL) or action.knock:
                return _WHY_MUST_COMPLETE_SWAP
            return self._why_swap_illegal(action)
        if phase is _PHASE_DEALER_CHOICE:
            return None if kind in _CHOICES else _WHY_WRONG_PHASE
        if phase is _PHASE_REVEAL_OFFER:
            return None if kind in _OFFER_ANSWERS else _WHY_WRONG_PHASE
        if kind in _NOT_ASKED_IN_TURN:
            return _WHY_WRONG_PHASE
        return None

    def _why_swap_illegal(self, action: Action) -> Reason | None:
        hand, middle = self.hands[self.current], self.middle
        kit = self._kit
        if action.kind is _ACT_SWAP_ALL:
            return None if kit.swap_all else _WHY_SWAP_ALL_NOT_ALLOWED
        give, take = action.give, action.take
        if len(give) == 1 and len(take) == 1:  # the common swap, checked in the same order
            if give[0] not in hand:
                return _WHY_NOT_IN_HAND
            if take[0] not in middle:
                return _WHY_NOT_IN_MIDDLE
            return None if kit.swap_one else _WHY_SWAP_ONE_NOT_ALLOWED
        if len(give) != len(take) or len(set(give)) != len(give) or len(set(take)) != len(take):
            return _WHY_MALFORMED
        if any(c not in hand for c in give):
            return _WHY_NOT_IN_HAND
        if any(c not in middle for c in take):
            return _WHY_NOT_IN_MIDDLE
        if len(give) == 1:
            return None if kit.swap_one else _WHY_SWAP_ONE_NOT_ALLOWED
        if len(give) == len(hand):
            return None if kit.swap_all else _WHY_SWAP_ALL_NOT_ALLOWED
        return _WHY_TWO_CARD_SWAP

    def _why_pass_illegal(self, seat: int) -> Reason | None:
        kit = self._kit
        if kit.pass_forbidden:
            return _WHY_NO_PASS
        if kit.pass_once and seat in self.passed:
            return _WHY_PASS_LIMIT
        if kit.pass_then_swap and seat in self.obliged:
            return _WHY_MUST_SWAP_AFTER_PASS
        return None

    def _hand_after(self, seat: int, action: Action) -> list[Card]:
        """The hand ``seat`` would hold after the swap ``action``."""
        hand = self.hands[seat]
        if action.kind is _ACT_SWAP_ALL or len(action.give) == len(hand):
            return list(self.middle)
        give, take = action.give[0], action.take[0]
        return [take if c == give else c for c in hand]

    def _why_knock_illegal(
        self, seat: int, with_move: bool, hand: Sequence[Card] | None = None
    ) -> Reason | None:
        """Why ``seat`` may not knock now (``with_move``: at the end of a move); ``hand``
        is the hand he closes on when the close follows a move (closing with 31 looks at
        the hand after the move)."""
        kit = self._kit
        if with_move and not kit.knock_after_move:
            return _WHY_KNOCK_WITH_MOVE
        if self.last_queue is not None:
            return _WHY_SECOND_KNOCK
        if kit.knock_once and self.knocker is not None:
            return _WHY_SECOND_KNOCK
        if seat in self.closed:
            return _WHY_SECOND_KNOCK
        if kit.knock_not_first_turn and self.moves == 0:
            return _WHY_KNOCK_FIRST_TURN
        if kit.knock_not_first_cycle and len(self.moved) < len(self.seats):
            return _WHY_KNOCK_FIRST_TURN
        if kit.knock_needs_maximum:
            closing = self.hands[seat] if hand is None else hand
            if not self._packed(closing) & MAXIMUM:
                return _WHY_KNOCK_NEEDS_MAXIMUM
        return None

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move, in a fixed order (hand × middle).

        The list is computed once per decision and shared until the next action; an
        action object taken from it is known to be legal without asking again."""
        return self._listed()[:]

    def legal_texts(self) -> list[str]:
        """The canonical texts of :meth:`legal_actions`, in the same order.

        The observation asks for them before every decision (issue 21: under 5 µs): see
        :meth:`counted_texts`, which names them without making the list where it can."""
        texts = self.counted_texts()
        return [action.text for action in self._listed()] if texts is None else texts

    def counted_texts(self) -> list[str] | None:
        """The legal texts of a decision that :meth:`counts` counts without a list (a
        turn with the middle face up, three cards against three), read off the kit's text
        tables in the list's order; None where the list is made (or was). No action is
        made: a bot that then picks by :meth:`counts` makes only its pick.

        The counting is :meth:`counts`'s, spelled out again: the observation asks for
        these texts before every decision, and a call less is a tenth of its cost."""
        if self._legal is None and self.phase is _PHASE_TURN and not self.middle_hidden:
            kit = self._kit
            seat = self.current
            hand = self.hands[seat]
            middle = self.middle
            if kit.swap_one and not kit.knock_needs_maximum and len(hand) == 3 and len(middle) == 3:
                self._lazy = True
                pass_ok = kit.pass_free or self._why_pass_illegal(seat) is None
                # closing: every move may end with a close; else one knock or none
                closing = knock = False
                if kit.knock_after_move:
                    closing = (
                        self.last_queue is None
                        and (self.knocker is None or not kit.knock_once)
                        and seat not in self.closed
                        and (kit.knock_any_turn or self._why_knock_illegal(seat, True) is None)
                    )
                elif (kit.knock_instead or pass_ok) and self._why_knock_illegal(
                    seat, False
                ) is None:
                    knock = True
                if not (kit.swap_all and pass_ok):
                    return self._swap_texts(kit, hand, middle, pass_ok, closing, knock)
                # the commonest lists, written out and made in one step (a list grown
                # item by item is copied as it grows)
                h0, h1, h2 = hand
                m0, m1, m2 = middle
                table = kit.swap_texts
                r0, r1, r2 = table[h0], table[h1], table[h2]
                if closing:
                    table = kit.knock_swap_texts
                    k0, k1, k2 = table[h0], table[h1], table[h2]
                    return [
                        r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2],
                        _TEXT_SWAP_ALL, _TEXT_PASS,
                        k0[m0], k0[m1], k0[m2], k1[m0], k1[m1], k1[m2], k2[m0], k2[m1], k2[m2],
                        _TEXT_SWAP_ALL_KNOCK, _TEXT_PASS_KNOCK,
                    ]  # fmt: skip
                if knock:
                    return [
                        r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2],
                        _TEXT_SWAP_ALL, _TEXT_PASS, _TEXT_KNOCK,
                    ]  # fmt: skip
                return [
                    r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2],
                    _TEXT_SWAP_ALL, _TEXT_PASS,
                ]  # fmt: skip
        return None

    @staticmethod
    def _swap_texts(
        kit: RoundKit,
        hand: list[Card],
        middle: list[Card],
        passing: bool,
        closing: bool,
        knock: bool,
    ) -> list[str]:
        """The counted texts (see :meth:`counted_texts`) in the list's order: the nine
        swaps hand card by middle card, the whole hand's swap, the pass, then the knocks
        (``closing``: the moves again, each ending with a close; else the knock alone,
        where there is one), for the lists :meth:`counted_texts` does not write out."""
        h0, h1, h2 = hand
        m0, m1, m2 = middle
        table = kit.swap_texts
        r0, r1, r2 = table[h0], table[h1], table[h2]
        swap_all = kit.swap_all
        out = [r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2]]
        if swap_all:
            out.append(_TEXT_SWAP_ALL)
        if passing:
            out.append(_TEXT_PASS)
        if closing:
            table = kit.knock_swap_texts
            r0, r1, r2 = table[h0], table[h1], table[h2]
            out += (r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2])
            if swap_all:
                out.append(_TEXT_SWAP_ALL_KNOCK)
            if passing:
                out.append(_TEXT_PASS_KNOCK)
        elif knock:
            out.append(_TEXT_KNOCK)
        return out

    def legal_split(self) -> tuple[list[Action], list[Action]]:
        """The legal actions as (moves, knocks): knocks are a knock, or a move that ends
        with one. Moves come first in :meth:`legal_actions`, so this is one slice."""
        legal = self._listed()
        split = self._split
        if split < 0:
            return legal[:], []
        return legal[:split], legal[split:]

    def options(self) -> tuple[list[Action], int, int]:
        """This decision's legal list as a bot reads it, not copied (the caller must not
        change it): the list, how many moves begin it, and how many knocks follow them.
        The knocks may not be in the list yet: :meth:`knock_option` gives the ``i``-th.
        A random bot picks a knock one time in ten; the other nine need no knock
        action made."""
        legal = self._legal
        if legal is None:
            legal = self._legal_actions()
        split = self._split
        if split < 0:
            return legal, len(legal), 0
        return legal, split, self._owed or len(legal) - split

    def knock_option(self, i: int) -> Action:
        """The ``i``-th knock of this decision (see :meth:`options`)."""
        action = self._picked = self._listed()[self._split + i]
        return action

    def counts(self) -> tuple[int, int]:
        """How many moves and how many knocks this decision offers, as :meth:`options`
        counts them. A random bot takes one action of a list it never reads: where the
        decision is the commonest (a turn with the middle face up, three cards against
        three, knocks that need no look at the hand a move leaves) the list is not made,
        and :meth:`move_option` makes only the move picked."""
        if self._legal is None and self.phase is _PHASE_TURN and not self.middle_hidden:
            kit = self._kit
            seat = self.current
            if (
                kit.swap_one
                and not kit.knock_needs_maximum
                and len(self.hands[seat]) == 3
                and len(self.middle) == 3
            ):
                # the checks of _legal_actions, in its order, counted
                self._lazy = True
                pass_ok = kit.pass_free or self._why_pass_illegal(seat) is None
                moves = 9 + kit.swap_all + pass_ok
                if kit.knock_after_move:
                    if (
                        self.last_queue is None
                        and (self.knocker is None or not kit.knock_once)
                        and seat not in self.closed
                        and (kit.knock_any_turn or self._why_knock_illegal(seat, True) is None)
                    ):
                        return moves, moves
                    return moves, 0
                if (kit.knock_instead or pass_ok) and self._why_knock_illegal(seat, False) is None:
                    return moves, 1
                return moves, 0
        _legal, moves, knocks = self.options()
        return moves, knocks

    def move_option(self, i: int) -> Action:
        """The ``i``-th move of this decision, ``0 <= i < moves`` (see :meth:`counts`):
        the very object its legal list holds there, so that :meth:`apply` knows it is
        legal without asking. Of a list not made (see :meth:`counts`): the nine swaps
        hand card by hand card, then the whole hand's swap where allowed, then the pass."""
        legal = self._legal
        if legal is not None:
            action = legal[i]
        elif not self._lazy:
            action = self._legal_actions()[i]
        elif i < 9:
            g, t = _CELLS[i]
            action = self._kit.swaps[self.hands[self.current][g]][self.middle[t]]
        elif i == 9 and self._kit.swap_all:
            action = _ACTION_SWAP_ALL
        else:
            action = _ACTION_PASS
        self._picked = action
        return action

    def counted_kinds(self, moves: int) -> tuple[ActionKind, ...] | None:
        """The kinds of the ``moves`` moves that :meth:`counts` counted without a list, in
        the list's order (see :meth:`move_option`); None when this decision has its list.
        A player that picks a kind of move before the move (the fuzzer's case maker) then
        needs no list either."""
        if not self._lazy or self._legal is not None:
            return None
        swap_all = self._kit.swap_all
        return _COUNTED_KINDS[swap_all][moves - 9 - swap_all]

    def _listed(self) -> list[Action]:
        """This decision's whole legal list (made now if it was not, with its knocks)."""
        legal = self._legal
        if legal is None:
            legal = self._legal_actions()
        if self._owed:
            self._owed = 0
            self._add_knocks(legal)
        return legal

    def _legal_fixed(self) -> list[Action]:
        """The legal actions of the phases that offer a fixed choice (or none)."""
        phase = self.phase
        if phase is _PHASE_DEALER_CHOICE:
            return [_ACTION_KEEP, _ACTION_TAKE_EXTRA]
        if phase is _PHASE_REVEAL_OFFER:
            return [_ACTION_SHOW, _ACTION_DECLINE]
        return []

    def _legal_actions(self) -> list[Action]:
        """The legal list of this decision, kept as ``_legal``: moves first, then knocks
        (a knock, or a move that ends with one); ``_split`` is where the knocks begin
        (-1: none). Asked before every decision, so the common case reads straight
        through: a turn with the middle face up, three cards against three."""
        phase = self.phase
        self._split = -1
        self._owed = 0
        if phase is not _PHASE_TURN and phase is not _PHASE_COMPLETE_SWAP:
            out = self._legal = self._legal_fixed()
            return out
        seat = self.current
        kit = self._kit
        hand, middle = self.hands[seat], self.middle
        hidden = self.middle_hidden  # (never after the middle was turned up to swap)
        three = len(hand) == 3 and len(middle) == 3
        if hidden or not kit.swap_one:
            out = []
        elif three:  # the commonest list, spelled out (see _pairs)
            m0, m1, m2 = middle
            table = kit.swaps
            r0, r1, r2 = table[hand[0]], table[hand[1]], table[hand[2]]
            out = [r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2]]
        else:
            out = _pairs(kit.swaps, hand, middle)
        if kit.swap_all and not hidden:
            out.append(_ACTION_SWAP_ALL)
        self._legal = out
        if phase is _PHASE_COMPLETE_SWAP:
            return out
        if hidden:
            out.append(_ACTION_TURN_UP)
        pass_ok = kit.pass_free or self._why_pass_illegal(seat) is None
        if pass_ok:
            out.append(_ACTION_PASS)
        if kit.knock_after_move:
            if kit.knock_needs_maximum:
                self._closing_moves(seat, out, pass_ok)
            elif (
                # _why_knock_illegal(seat, True) is None, its commonest checks first
                self.last_queue is None
                and (self.knocker is None or not kit.knock_once)
                and seat not in self.closed
                and (kit.knock_any_turn or self._why_knock_illegal(seat, True) is None)
            ):
                # every move but a turn-up may end with a close: the knocks mirror the
                # moves, and are made when somebody asks for them (see _add_knocks)
                self._split = len(out)
                self._owed = len(out) - hidden
            return out
        if (kit.knock_instead or pass_ok) and self._why_knock_illegal(seat, False) is None:
            self._split = len(out)
            out.append(_ACTION_KNOCK)
        return out

    def _add_knocks(self, out: list[Action]) -> None:
        """Append to ``out``, this decision's moves, the knock after each (the moves in the
        same order, each ending with a close; a turn-up ends with none)."""
        kit = self._kit
        hand, middle = self.hands[self.current], self.middle
        hidden = self.middle_hidden
        if hidden or not kit.swap_one:
            pass
        elif len(hand) == 3 and len(middle) == 3:
            m0, m1, m2 = middle
            table = kit.knock_swaps
            r0, r1, r2 = table[hand[0]], table[hand[1]], table[hand[2]]
            out += (r0[m0], r0[m1], r0[m2], r1[m0], r1[m1], r1[m2], r2[m0], r2[m1], r2[m2])
        else:
            out += _pairs(kit.knock_swaps, hand, middle)
        if kit.swap_all and not hidden:
            out.append(_ACTION_SWAP_ALL_KNOCK)
        if out[self._split - 1] is _ACTION_PASS:
            out.append(_ACTION_PASS_KNOCK)

    def _closing_moves(self, seat: int, out: list[Action], pass_ok: bool) -> None:
        """Append the moves after which ``seat`` may close, each checked on the hand it
        leaves (closing needs 31 at the end of the move)."""
        start = len(out)
        knock_swaps = self._kit.knock_swaps
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
                closing = knock_swaps[move.give[0]][move.take[0]]
                after = self._hand_after(seat, move)
            if self._why_knock_illegal(seat, True, after) is None:
                out.append(closing)
        if len(out) > start:
            self._split = start

    # ================================================================== applying
    def _refuse(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` is refused (for an action that is not
        one of the objects of this decision's legal list, which needs no asking)."""
        problem = self.why_illegal(action)
        if problem is not None:
            raise IllegalAction(problem)

    def apply(self, action: Action, *, checked: bool = False) -> None:
        """Apply ``action`` for the seat to move; raise :class:`IllegalAction` if refused
        (an action object from this decision's legal list is legal without asking;
        ``checked``: the caller has just asked :meth:`why_illegal`). A round that has taken
        ``max_turns`` moves raises :class:`RoundTooLong` instead: under its rules it may
        never end."""
        if self.moves >= self.max_turns:
            raise self.too_long()
        if not checked and action is not self._picked:
            for listed in self._legal or ():
                if listed is action:
                    break
            else:
                self._refuse(action)
        self._legal = self._picked = None
        self._lazy = False
        phase = self.phase
        if phase is _PHASE_DEALER_CHOICE or phase is _PHASE_REVEAL_OFFER:
            self._answer(action)
            return
        seat = self.current
        kind = action.kind
        kit = self._kit
        extra = False
        if kind is _ACT_SWAP or kind is _ACT_SWAP_ALL:
            hand = self.hands[seat]
            give = action.give
            if len(give) == 1 and kind is _ACT_SWAP:
                middle = self.middle
                take = action.take
                card = give[0]
                taken = take[0]
                hand[hand.index(card)] = taken
                middle[middle.index(taken)] = card
                self.emit((_swapped, seat, give, take))
            else:
                hand = self._swap_hands(seat)
            self.phase = _PHASE_TURN
            moves = self.moves = self.moves + 1
            self.moved.add(seat)
            self.reached[seat] = moves
            if self.obliged:
                self.obliged.discard(seat)
            flat = kit.flat
            packed = (
                flat[_AT12[hand[0]] + _AT6[hand[1]] + hand[2]]
                if flat is not None
                else self.evaluator.packed(hand)
            )
            if packed & _ENDS_IN_PLAY and self._check_in_play(seat):
                return
            if kit.washout:
                extra = self._washout(seat)
            if self.last_queue is None:
                self.pass_streak = 0
                # nobody passed; only a table where everybody has closed could have "all passed"
                if self.closed and len(self.closed) >= len(self.seats) and self._all_passed():
                    return
        elif kind is _ACT_TURN_UP:
            self.middle_hidden = False
            self.emit((ev.MiddleTurnedUp, seat, tuple(self.middle)))
            self.phase = _PHASE_COMPLETE_SWAP
            return
        else:
            # a pass, or a knock (read as a pass that closes unless it replaces the move)
            if kind is _ACT_PASS or kit.knock_after_move:
                self.emit((_passed, seat))
            self.phase = _PHASE_TURN
            self.moves += 1
            self.moved.add(seat)
            if self.own_move and self._check_own_move(seat):
                return
            is_pass = kind is _ACT_PASS or not kit.knock_instead
            if is_pass:
                self.passed.add(seat)
                if kit.pass_then_swap:
                    self.obliged.add(seat)
            if self.last_queue is None:
                if is_pass:
                    self.pass_streak += 1
                else:
                    self.pass_streak = 0
                if self.pass_streak >= len(self.seats) - len(self.closed) and self._all_passed():
                    return
        if action.knock or kind is _ACT_KNOCK:
            self.emit((_knocked, seat))
            if self._knock(seat):
                return
            extra = False
        # the next to move (the seat's own extra turn after washing out the middle)
        if extra and self.extra_turn:
            self.current = seat
            return
        self.extra_turn = False
        queue = self.last_queue
        if queue is not None:
            if not queue:
                self._end_showdown(_END_KNOCK, self.knocker)
                return
            self.current = queue.pop(0)
        elif self.closed:
            self.current = self._next_seat(seat)
        else:
            self.current = self._ring[seat]

    def _swap_hands(self, seat: int) -> list[Card]:
        """Swap the whole hand of ``seat`` with the middle; the new hand."""
        hands = self.hands
        hand, middle = hands[seat], self.middle
        hands[seat], self.middle = list(middle), list(hand)
        self.emit((_swapped, seat, tuple(hand), tuple(middle)))
        return hands[seat]

    def too_long(self) -> RoundTooLong:
        """The error for a round at its turn cap, naming the round and its cards as dealt."""
        deal = " ".join(text(c) for c in self.dealt)
        where = f"round {self.number} of this match"
        return RoundTooLong(self.moves, where, len(self.seats), deal)

    def _answer(self, action: Action) -> None:
        """The dealer's choice, or the answer to an offer to show a dealt 31."""
        seat = self.current
        kind = action.kind
        if self.phase is _PHASE_DEALER_CHOICE:
            self._dealer_choice(kind is _ACT_TAKE_EXTRA)
            return
        self.offers.pop(0)
        if kind is _ACT_SHOW:
            self.shown.add(seat)
            self.emit((ev.Revealed, seat, tuple(self.hands[seat]), "maximum"))
        else:
            self.emit((ev.RevealDeclined, seat))
        self._next_offer()

    def _check_own_move(self, seat: int) -> bool:
        """End the round if the mover, having passed or knocked, still holds a hand that
        takes effect on its holder's own move (``on-own-move``: dealt Feuer or 31)."""
        if not self._packed(self.hands[seat]) & self.own_move:
            return False
        return self._check_in_play(seat, self.own_move)

    def _check_in_play(self, seat: int, mask: int = _FLAG_MASK) -> bool:
        """End the round if the mover's new hand must end it (U04, U13, U14); ``mask``
        the flags that may end it."""
        flags = self._packed(self.hands[seat]) & mask
        if flags & FEUER:
            self._end_special(_END_FEUER, [seat], False)
            return True
        if flags & FEUER_LIGHT:
            self._end_special(_END_FEUER_LIGHT, [seat], False)
            return True
        if flags & MAXIMUM and self._kit.maximum_in_play_must:
            self.shown.add(seat)
            self._end_special(_END_MAXIMUM, [seat], False)
            return True
        return False

    def _washout(self, mover: int | None) -> bool:
        """Wash out a middle of one suit (rules-matrix 2.28, U20); True if it happened."""
        if not self._kit.washout or self.middle_hidden:
            return False
        happened = False
        size = len(self.middle)
        while self.middle and len({c >> 4 for c in self.middle}) == 1 and len(self.stock) >= size:
            old = tuple(self.middle)
            self.out.extend(old)
            self.middle = [self.stock.pop() for _ in range(size)]
            happened = True
            self.emit((ev.WashedOut, old, tuple(self.middle), mover))
        if happened and mover is not None:
            self.extra_turn = True
        return happened

    def _all_passed(self) -> bool:
        """Everybody passed in a row (2.10): replace the middle, or end or go on (U01-U03).
        Returns True when the round ended."""
        self.pass_streak = 0
        all_pass = self.rules.all_pass
        size = len(self.middle)
        if all_pass.replacement is _FROM_STOCK and len(self.stock) >= size:
            old = tuple(self.middle)
            if all_pass.old_middle is _UNDER_STOCK:
                self.stock[:0] = old[::-1]
            else:
                self.out.extend(old)
            self.middle = [self.stock.pop() for _ in range(size)]
            self.emit((ev.MiddleReplaced, old, tuple(self.middle)))
            self._washout(None)
            return False
        if all_pass.no_replacement is _NO_REPLACEMENT_SHOWDOWN:
            self._end_showdown(_END_ALL_PASSED, None)
            return True
        return False

    def _knock(self, seat: int) -> bool:
        """Start what a knock starts; True when the round ended at once."""
        kit = self._kit
        self.knocker = seat if self.knocker is None else self.knocker
        if not kit.last_cycle:
            # personal closing (U21): the closer stops; the round ends when too few are open
            self.closed.add(seat)
            still_open = len(self.seats) - len(self.closed)
            then = self.rules.knocking.then
            if then is _TWO_OPEN and still_open <= 2:
                self._end_showdown(_END_TWO_OPEN, seat)
                return True
            if then is _ONE_OPEN and still_open <= 1:
                self._end_showdown(_END_ONE_OPEN, seat)
                return True
            return False
        queue: list[int] = []
        probe = seat
        until_dealer = kit.until_dealer
        while True:
            probe = self._next_seat(probe)
            if probe == seat:
                break
            queue.append(probe)
            if until_dealer and probe == self.dealer:
                break
        if seat == self.dealer and until_dealer:
            queue = []
        self.last_queue = queue
        if not queue:
            self._end_showdown(_END_KNOCK, seat)
            return True
        return False

    def _advance(self, seat: int, extra: bool) -> None:
        if extra and self.extra_turn:
            self.current = seat
            return
        self.extra_turn = False
        queue = self.last_queue
        if queue is not None:
            if not queue:
                self._end_showdown(_END_KNOCK, self.knocker)
                return
            self.current = queue.pop(0)
        elif self.closed:
            self.current = self._next_seat(seat)
        else:
            self.current = self._ring[seat]

    def _dealer_choice(self, take: bool) -> None:
        dealer = self.dealer
        extra = self.extra or []
        if take:
            self.middle, self.hands[dealer] = list(self.hands[dealer]), list(extra)
        else:
            self.middle = list(extra)
        self.extra = None
        self.emit((ev.DealerChose, dealer, "take-extra" if take else "keep", tuple(self.middle)))
        self._washout(None)
        if take and self._check_deal([dealer]):
            return
        self._offer_reveals()

    # ================================================================== the end
    def _values(self) -> dict[int, HandValue]:
        return self.evaluator.value_map(self.hands, self.seats)

    def _end_special(self, reason: EndReason, holders: Sequence[int], at_deal: bool) -> None:
        """A round ended by Feuer, Feuer light or a 31: its penalty decides (2.14, 2.23).

        "All others" are the players who do not hold (and, where showing is optional, show)
        the hand that ended the round (U08); after Feuer a holder of 31 loses
        ``maximum_holders`` where the penalty says so (pagat's "31 at the deal").
        """
        rules = self.rules
        for s in holders:
            if not (reason is _END_MAXIMUM and self.offers_made):
                self.emit((ev.Revealed, s, tuple(self.hands[s]), reason.value))
        penalty: Penalty | None
        if reason is _END_FEUER:
            penalty = rules.three_aces.penalty_at_deal if at_deal else rules.three_aces.penalty
        elif reason is _END_FEUER_LIGHT:
            penalty = rules.three_sevens.penalty
        else:
            penalty = rules.maximum.penalty_at_deal if at_deal else rules.maximum.penalty_in_play
        by = holders[0]
        if penalty is None or penalty.kind is _SHOWDOWN:
            self._end_showdown(reason, by, at_deal, tuple(holders))
            return
        # the flags of each hand, from the table (a hand value's flags are its entry's)
        packed = self._packed
        hands = self.hands
        flags = {s: packed(hands[s]) for s in self.seats}
        names = ", ".join(seat_name(s) for s in holders)
        what = {_END_FEUER: "Feuer", _END_FEUER_LIGHT: "Feuer light"}.get(reason, "31")
        if penalty.kind is _ALL_WITHOUT_SPECIAL:
            losses = {
                s: penalty.lives for s in self.seats if s not in holders and not flags[s] & SPECIAL
            }
            why = (
                f"{what} shown by {names}: every player without a special hand loses "
                f"{penalty.lives}"
            )
            self._finish(reason, at_deal, by, losses, tuple(holders), why)
            return
        losses = {}
        maximum_holders = penalty.maximum_holders
        exempt = set(holders)
        for s in self.seats:
            if s in exempt:
                continue
            lives = penalty.lives
            if maximum_holders is not None and reason is not _END_MAXIMUM and flags[s] & MAXIMUM:
                lives = maximum_holders
            if lives:
                losses[s] = lives
        why = f"{what} shown by {names}: every other player loses {penalty.lives}"
        if maximum_holders is not None and reason is not _END_MAXIMUM:
            why += f", a holder of 31 loses {maximum_holders}"
        self._finish(reason, at_deal, by, losses, tuple(holders), why)

    def _end_showdown(
        self, reason: EndReason, by: int | None, at_deal: bool = False, exempt: tuple[int, ...] = ()
    ) -> None:
        """End the round by the ordinary showdown (also where a special hand's penalty is
        the showdown: ``exempt`` its holders)."""
        losses = self._quick_losses()
        if losses is None:
            values = self._values()
            losses, why = self.showdown_losses(values)
            self._finish(reason, at_deal, by, losses, exempt, why, values)
            return
        self._finish(reason, at_deal, by, losses, exempt)

    def _quick_losses(self) -> dict[int, int] | None:
        """The losses of :meth:`showdown_losses` from the hand table's keys alone, where
        no hand protects, punishes or needs its points (a complete tie that costs nobody
        compares points); None where the whole showdown must decide. The same losers in
        the same order: the lowest keys, of the tied only the last to reach his hand
        where that rule holds, the knocker's loss where he is not tied."""
        penalties = self.rules.penalties
        if penalties.complete_tie is _NOBODY_LOSES:
            return None
        seats = self.seats
        hands = self.hands
        flat = self._kit.flat
        keys = {}
        flags = 0
        for s in seats:
            hand = hands[s]
            packed = (
                flat[_AT12[hand[0]] + _AT6[hand[1]] + hand[2]]
                if flat is not None and len(hand) == 3
                else self.evaluator.packed(hand)
            )
            flags |= packed
            keys[s] = packed >> FLAG_BITS
        if flags & (PUNISHES | PROTECTED):
            return None
        low = min(keys.values())
        losers = [s for s in seats if keys[s] == low]
        knocker = self.knocker
        if len(losers) > 1:
            if penalties.tied_lowest is _LAST_TO_REACH:
                reached = self.reached
                latest = max(reached.get(s, 0) for s in losers)
                losers = [s for s in losers if reached.get(s, 0) == latest]
            if penalties.knocker_tied is _KNOCKER_TIED_ORDINARY:
                knocker = None
        lowest, knocker_lowest = penalties.lowest, penalties.knocker_lowest
        return {s: knocker_lowest if s == knocker else lowest for s in losers}

    def showdown_losses(self, values: dict[int, HandValue]) -> tuple[dict[int, int], str]:
        """The ordinary showdown (2.20–2.22, U17–U19, U23, U47, U48)."""
        rules = self.rules
        penalties = rules.penalties
        seats = self.seats
        flags = 0
        keys = {}
        for s in seats:
            value = values[s]
            flags |= value.flags
            keys[s] = value.key
        punishers = [s for s in seats if values[s].flags & PUNISHES] if flags & PUNISHES else []
        if punishers:
            losers = [s for s in seats if not values[s].flags & SPECIAL]
            why = (
                f"three aces ({', '.join(seat_name(s) for s in punishers)}): every player "
                "without a special hand loses"
            )
            return {s: penalties.lowest for s in losers}, why
        if penalties.complete_tie is _NOBODY_LOSES and len({values[s].points for s in seats}) == 1:
            return {}, "complete tie: every hand has the same value, nobody loses"
        candidates = seats
        if flags & PROTECTED:
            candidates = [s for s in seats if not values[s].flags & PROTECTED]
        if not candidates:
            return {}, "every hand is protected: nobody loses"
        if flags & PROTECTED and rules.protection.effect is not _EXEMPTS_HOLDER:
            low = min([keys[s] for s in candidates])
        else:
            low = min(keys.values())
        losers = [s for s in candidates if keys[s] == low]
        if not losers:
            return {}, "the lowest hand is protected: nobody loses"
        note = ""
        tied = len(losers) > 1
        if tied and penalties.tied_lowest is _LAST_TO_REACH:
            reached = self.reached
            latest = max(reached.get(s, 0) for s in losers)
            losers = [s for s in losers if reached.get(s, 0) == latest]
            note = " (of the tied hands, only the one reached last loses)"
        knocker = self.knocker
        if tied and penalties.knocker_tied is _KNOCKER_TIED_ORDINARY:
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
        why: str | None = None,
        values: dict[int, HandValue] | None = None,
    ) -> None:
        """End the round with ``losses``, explained by ``why`` and ``values``: what is not
        given is worked out when read (without ``why``: the ordinary showdown's words).
        The work holds no reference back to this round: a cycle would leave every ended
        round to the cycle collector."""
        self.phase = _PHASE_OVER
        held = self.hands
        hands = {}
        for s in self.seats:
            hands[s] = tuple(held[s])
        explained: Explanation
        if why is None:
            explained = Explanation(
                partial(
                    _showdown_explained,
                    self.rules,
                    self.evaluator,
                    self.seats,
                    self.knocker,
                    self.reached,
                    hands,
                )
            )
        elif values is None:
            explained = Explanation(
                partial(_values_explained, self.evaluator, self.seats, hands, why)
            )
        else:
            explained = Explanation.known(values, why)
        result = self.result = RoundResult(
            reason, at_deal, by, self.knocker, losses, exempt, hands, explained
        )
        self.emit((round_ended, result))


def _showdown_explained(
    rules: Rules,
    evaluator: Evaluator,
    seats: list[int],
    knocker: int | None,
    reached: dict[int, int],
    hands: dict[int, tuple[Card, ...]],
) -> tuple[dict[int, HandValue], str]:
    """The values and the words of an ordinary showdown (:meth:`Round.showdown_losses`)
    of an ended round, from what decides them."""
    rnd = Round(rules, evaluator, max(seats) + 1, seats, seats[0])
    rnd.hands = {s: list(hands[s]) for s in seats}
    rnd.knocker = knocker
    rnd.reached = reached
    values = rnd._values()
    return values, rnd.showdown_losses(values)[1]


def _values_explained(
    evaluator: Evaluator, seats: list[int], hands: dict[int, tuple[Card, ...]], why: str
) -> tuple[dict[int, HandValue], str]:
    """The hand values of an ended round, and its words (``why``, known)."""
    return evaluator.value_map(hands, seats), why


def _kind(kit: RoundKit) -> type[Round]:
    """The class of the rounds of ``kit``: the game's kind."""
    return DrawRound if kit.draw_game else Round


def round_ended(result: RoundResult) -> ev.RoundEnded:
    """The event that reports ``result`` (its hands, values and losses copied)."""
    values = result.values
    return ev.RoundEnded(
        reason=result.reason._value_,
        at_deal=result.at_deal,
        by=result.by,
        knocker=result.knocker,
        hands=dict(result.hands),
        values={s: value_json(values[s]) for s in result.hands},
        losses=dict(result.losses),
        exempt=result.exempt,
        why=result.why,
    )


class DrawRound(Round):
    """A round of the draw-and-discard game (Scat): each turn draws from the stock or the
    discard pile and throws a card, or knocks instead (rules-matrix 2.29, 2.30)."""

    __slots__ = ()

    _refused_kinds: ClassVar[tuple[ActionKind, ...]] = _REFUSED_IN_DRAW_GAME
    _refused_reason: ClassVar[Reason] = Reason.NO_MIDDLE

    def why_illegal(self, action: Action) -> Reason | None:
        phase = self.phase
        problem = self._why_not_asked(action)
        if problem is not None or phase in _DECIDED_BEFORE_TURN:
            return problem
        kind = action.kind
        if phase is _PHASE_DISCARD:
            if kind is not _ACT_DISCARD:
                return _WHY_WRONG_PHASE
            card = action.give[0]
            if card not in self.hands[self.current]:
                return _WHY_NOT_IN_HAND
            if card == self.took_from_discard and self._kit.rediscard_forbidden:
                return _WHY_REDISCARD
            return None
        if kind is _ACT_DISCARD:
            return _WHY_WRONG_PHASE
        if kind is _ACT_DRAW_DISCARD:
            return None if self.discard else _WHY_EMPTY_DISCARD
        if kind is _ACT_DRAW_STOCK:
            return None
        if kind is _ACT_KNOCK:
            return self._why_knock_illegal(self.current, False)
        return _WHY_WRONG_PHASE

    def counts(self) -> tuple[int, int]:
        """A draw (stock, and the pile where it has a card; the knock where allowed) or a
        discard of any held card, counted without the list (see :meth:`Round.counts`);
        the list is made where the card just taken may not be thrown again."""
        if self._legal is None:
            phase = self.phase
            if phase is _PHASE_TURN:
                self._lazy = True
                moves = 2 if self.discard else 1
                # _why_knock_illegal(seat, False) is None, its commonest checks first
                kit = self._kit
                seat = self.current
                if (
                    self.last_queue is not None
                    or (kit.knock_once and self.knocker is not None)
                    or seat in self.closed
                ):
                    return moves, 0
                if kit.knock_any_turn and not kit.knock_needs_maximum:
                    return moves, 1
                return moves, 1 if self._why_knock_illegal(seat, False) is None else 0
            if phase is _PHASE_DISCARD:
                self._lazy = True
                hand = self.hands[self.current]
                taken = self.took_from_discard
                if taken is not None and self._kit.rediscard_forbidden:
                    return len(hand) - hand.count(taken), 0
                return len(hand), 0
        _legal, moves, knocks = self.options()
        return moves, knocks

    def counted_kinds(self, moves: int) -> tuple[ActionKind, ...] | None:
        """The kinds of a draw or a discard counted without a list (see :meth:`counts`):
        the stock, then the pile; or a discard of each card counted."""
        if not self._lazy or self._legal is not None:
            return None
        if self.phase is _PHASE_TURN:
            return _COUNTED_DRAWS[moves]
        return (_ACT_DISCARD,) * moves

    def counted_texts(self) -> list[str] | None:
        """The texts of a draw or a discard counted without a list (see :meth:`counts`,
        whose counting this spells out again), in the list's order: the stock, the pile,
        the knock; each held card but one that may not be thrown again."""
        if self._legal is None:
            phase = self.phase
            if phase is _PHASE_TURN:
                self._lazy = True
                out = [_TEXT_DRAW_STOCK, _TEXT_DRAW_DISCARD] if self.discard else [_TEXT_DRAW_STOCK]
                kit = self._kit
                seat = self.current
                if (
                    self.last_queue is not None
                    or (kit.knock_once and self.knocker is not None)
                    or seat in self.closed
                ):
                    return out
                free = kit.knock_any_turn and not kit.knock_needs_maximum
                if free or self._why_knock_illegal(seat, False) is None:
                    out.append(_TEXT_KNOCK)
                return out
            if phase is _PHASE_DISCARD:
                self._lazy = True
                table = self._kit.discard_texts
                hand = self.hands[self.current]
                taken = self.took_from_discard
                if taken is not None and self._kit.rediscard_forbidden:
                    return [table[card] for card in hand if card != taken]
                if len(hand) == 4:
                    c0, c1, c2, c3 = hand
                    return [table[c0], table[c1], table[c2], table[c3]]
                return [table[card] for card in hand]
        return None

    def move_option(self, i: int) -> Action:
        legal = self._legal
        if legal is not None:
            action = legal[i]
        elif not self._lazy:
            action = self._legal_actions()[i]
        elif self.phase is _PHASE_TURN:
            action = _ACTION_DRAW_DISCARD if i else _ACTION_DRAW_STOCK
        else:
            hand = self.hands[self.current]
            taken = self.took_from_discard
            if taken is not None and self._kit.rediscard_forbidden:
                hand = [card for card in hand if card != taken]
            action = self._kit.discards[hand[i]]
        self._picked = action
        return action

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        seat = self.current
        self._split = -1
        if phase is _PHASE_DISCARD:
            # any held card but (where that is refused) the one just taken from the pile:
            # what why_illegal allows
            kit = self._kit
            table = kit.discards
            hand = self.hands[seat]
            taken = self.took_from_discard
            if taken is not None and kit.rediscard_forbidden:
                out = [table[card] for card in hand if card != taken]
            elif len(hand) == 4:
                out = [table[hand[0]], table[hand[1]], table[hand[2]], table[hand[3]]]
            else:
                out = [table[card] for card in hand]
        elif phase is not _PHASE_TURN:
            out = self._legal_fixed()
        else:
            out = (
                [_ACTION_DRAW_STOCK, _ACTION_DRAW_DISCARD] if self.discard else [_ACTION_DRAW_STOCK]
            )
            if self._why_knock_illegal(seat, False) is None:
                self._split = len(out)
                out.append(_ACTION_KNOCK)
        self._legal = out
        return out

    def apply(self, action: Action, *, checked: bool = False) -> None:
        if self.moves >= self.max_turns:
            raise self.too_long()
        if not checked and action is not self._picked:
            for listed in self._legal or ():
                if listed is action:
                    break
            else:
                self._refuse(action)
        self._legal = self._picked = None
        self._lazy = False
        phase = self.phase
        if phase is _PHASE_DEALER_CHOICE or phase is _PHASE_REVEAL_OFFER:
            self._answer(action)
            return
        seat = self.current
        kind = action.kind
        if kind is _ACT_DISCARD:
            card = action.give[0]
            hand = self.hands[seat]
            hand.remove(card)
            self.discard.append(card)
            self.emit((_discarded, seat, card))
            moves = self.moves = self.moves + 1
            self.moved.add(seat)
            self.phase = _PHASE_TURN
            self.took_from_discard = None
            self.reached[seat] = moves
            flat = self._kit.flat
            packed = (
                flat[_AT12[hand[0]] + _AT6[hand[1]] + hand[2]]
                if flat is not None
                else self.evaluator.packed(hand)
            )
            if packed & _ENDS_IN_PLAY and self._check_in_play(seat):
                return
            if self.last_queue is None and not self.closed:
                # _advance(seat, False) before any knock or close: the next seat round
                self.extra_turn = False
                self.current = self._ring[seat]
                return
            self._advance(seat, False)
            return
        if kind is _ACT_KNOCK:
            self.moves += 1
            self.moved.add(seat)
            if self.own_move and self._check_own_move(seat):
                return
            self.emit((_knocked, seat))
            if self._knock(seat):
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
                    self._end_showdown(_END_STOCK_EXHAUSTED, None)
                    return
                top = self.discard.pop()
                self.stock = self.discard[::-1]
                self.discard = [top]
                self.emit((ev.StockRenewed, len(self.stock)))
            card = self.stock.pop()
            self.took_from_discard = None
            source = "stock"
        self.hands[seat].append(card)
        self.emit((_drew, seat, source, card))
        self.phase = _PHASE_DISCARD


def describe_hand(cards: Sequence[Card]) -> str:
    return " ".join(pretty(c) for c in cards)


__all__ = [
    "DrawRound",
    "Emit",
    "EndReason",
    "Explanation",
    "Phase",
    "Round",
    "RoundResult",
    "describe_hand",
    "round_ended",
]
