"""What a round asks of its rules, worked out once per rules object.

A round reads its rules before every decision: may this seat pass, may it knock, does a
swap end the round, where do the dealt cards go. Read through :class:`~schwimmen.spec.
rules.Rules` each time, every such question is a chain of attribute lookups and an enum
comparison; here each is answered once, when the first round of a rules object is dealt,
as a plain flag, a number or a table (the hand table, the swap and discard actions of the
pack, where each card of a stacked pack goes). The round still never asks which ruleset
it plays: every flag is a parameter's value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from schwimmen.engine.dealing import deal_pattern
from schwimmen.engine.hands import FEUER, MAXIMUM, Evaluator, evaluator_for
from schwimmen.protocol.actions import Action, discard_table, swap_table
from schwimmen.protocol.cards import Card
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import (
    AcesAtDeal,
    AfterKnock,
    AtDeal,
    InPlay,
    KnockFirstTurn,
    KnockForm,
    KnockRequires,
    KnocksPerRound,
    LastCycle,
    MiddleVisibility,
    MoveKind,
    Passing,
    Rediscard,
    RestOfPack,
    Swap,
    Washout,
)

Pick = Callable[[Sequence[Card]], tuple[Card, ...]]
"""Takes the cards at fixed positions of a pack, as a tuple (an ``itemgetter``)."""


def _pick(positions: Sequence[int]) -> Pick | None:
    """A picker of ``positions`` (always a tuple, even of one card), or None for none."""
    if not positions:
        return None
    if len(positions) == 1:
        only = positions[0]
        return lambda cards: (cards[only],)
    return itemgetter(*positions)


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Where a stacked pack's cards go for one number of players (see
    :func:`~schwimmen.engine.dealing.deal_pattern`): a picker per hand in deal order (the
    dealer last), the middle's, the extra hand's and the upcard's; ``rest`` is where the
    stock begins."""

    hands: tuple[Pick, ...]
    middle: Pick | None
    extra: Pick | None
    upcard: Pick | None
    rest: int


@dataclass(frozen=True, slots=True)
class RoundKit:
    """The rules of a round as the round asks them (each flag is named after the
    parameter value it stands for)."""

    rules: Rules
    evaluator: Evaluator
    flat: list[int] | None
    """The evaluator's three-card hand table (``a << 12 | b << 6 | c``), or None."""
    draw_game: bool
    swap_one: bool
    swap_all: bool
    hidden_middle: bool
    set_aside: bool
    washout: bool
    own_move: int
    """The hand flags that take effect only on their holder's own move."""
    maximum_at_deal_must: bool
    maximum_at_deal_may: bool
    maximum_in_play_must: bool
    pass_free: bool
    pass_forbidden: bool
    pass_once: bool
    pass_then_swap: bool
    knock_after_move: bool
    knock_instead: bool
    knock_needs_maximum: bool
    knock_once: bool
    knock_not_first_turn: bool
    knock_not_first_cycle: bool
    knock_any_turn: bool
    """Neither the first turn nor the first cycle is closed to knocking."""
    last_cycle: bool
    until_dealer: bool
    rediscard_forbidden: bool
    swaps: list[list[Action]]
    knock_swaps: list[list[Action]]
    swap_texts: list[list[str]]
    """The text of each action of ``swaps``, indexed the same way ("" where none)."""
    knock_swap_texts: list[list[str]]
    """The text of each action of ``knock_swaps``, indexed the same way."""
    discards: list[Action]
    discard_texts: list[str]
    """The text of each action of ``discards``, indexed the same way ("" where none)."""
    plans: dict[int, DealPlan] = field(default_factory=dict)
    seatings: dict[tuple[int, ...], tuple[list[int], dict[int, int]]] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> RoundKit:
        """The kit itself: it never changes, and its tables are every round's of its rules
        (a copied match shares it, as it shares the rules)."""
        return self

    def plan(self, players: int) -> DealPlan:
        """Where the cards go when ``players`` are dealt in (made on first use)."""
        found = self.plans.get(players)
        if found is None:
            pattern = deal_pattern(self.rules, players)
            hands = tuple(_pick(p) or _nothing for p in pattern.hands)
            found = self.plans[players] = DealPlan(
                hands,
                _pick(pattern.middle),
                _pick(pattern.extra),
                _pick(pattern.upcard),
                pattern.rest,
            )
        return found

    def seating(self, seats: list[int], dealer: int) -> tuple[list[int], dict[int, int]]:
        """The deal order of ``seats`` dealt by ``dealer`` (clockwise from the dealer's
        left, the dealer last) and the seat after each: made once per table and dealer,
        shared by its rounds, which only read them."""
        key = (dealer, *seats)
        found = self.seatings.get(key)
        if found is None:
            start = seats.index(dealer)
            found = self.seatings[key] = (
                seats[start + 1 :] + seats[: start + 1],
                dict(zip(seats, seats[1:] + seats[:1], strict=True)),
            )
        return found


def _nothing(_cards: Sequence[Card]) -> tuple[Card, ...]:
    return ()


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


def _texts(table: list[list[Action]], pack: Sequence[Card]) -> list[list[str]]:
    """The texts of a swap table's actions of ``pack`` in the table's shape: the
    observation names a decision's swaps by indexing it, as the legal list does."""
    out = [[""] * len(row) for row in table]
    for give in pack:
        for take in pack:
            out[give][take] = table[give][take].text
    return out


def _make(rules: Rules, table: bool) -> RoundKit:
    evaluator = evaluator_for(rules, table=table)
    turns, knocking, maximum = rules.turns, rules.knocking, rules.maximum
    pack = evaluator.pack
    draw = turns.move is MoveKind.DRAW_AND_DISCARD
    swaps = [] if draw else swap_table(pack)
    knock_swaps = [] if draw else swap_table(pack, knock=True)
    discards = discard_table(pack) if draw else []
    return RoundKit(
        rules=rules,
        evaluator=evaluator,
        flat=evaluator.flat or None,
        draw_game=draw,
        swap_one=Swap.ONE in turns.swaps,
        swap_all=Swap.ALL in turns.swaps,
        hidden_middle=rules.dealing.middle_visibility is MiddleVisibility.HIDDEN_UNTIL_FIRST_SWAP,
        set_aside=rules.dealing.rest_of_pack is RestOfPack.SET_ASIDE,
        washout=rules.washout.rule is Washout.SAME_SUIT_MIDDLE,
        own_move=own_move_flags(rules),
        maximum_at_deal_must=maximum.at_deal is AtDeal.MUST_SHOW,
        maximum_at_deal_may=maximum.at_deal is AtDeal.MAY_SHOW,
        maximum_in_play_must=maximum.in_play is InPlay.MUST_SHOW,
        pass_free=turns.passing is Passing.FREE,
        pass_forbidden=turns.passing is Passing.FORBIDDEN,
        pass_once=turns.passing is Passing.ONCE_PER_DEAL,
        pass_then_swap=turns.passing is Passing.THEN_MUST_SWAP,
        knock_after_move=knocking.form is KnockForm.AFTER_MOVE,
        knock_instead=knocking.form is KnockForm.INSTEAD_OF_MOVE,
        knock_needs_maximum=knocking.requires is KnockRequires.MAXIMUM,
        knock_once=knocking.per_round is KnocksPerRound.ONE,
        knock_not_first_turn=knocking.first_turn is KnockFirstTurn.NOT_ON_FIRST_TURN_OF_DEAL,
        knock_not_first_cycle=knocking.first_turn is KnockFirstTurn.NOT_IN_FIRST_CYCLE,
        knock_any_turn=knocking.first_turn
        not in (KnockFirstTurn.NOT_ON_FIRST_TURN_OF_DEAL, KnockFirstTurn.NOT_IN_FIRST_CYCLE),
        last_cycle=knocking.then is AfterKnock.LAST_CYCLE,
        until_dealer=knocking.last_cycle is LastCycle.UNTIL_DEALER,
        rediscard_forbidden=rules.draw.rediscard is Rediscard.FORBIDDEN,
        swaps=swaps,
        knock_swaps=knock_swaps,
        swap_texts=_texts(swaps, pack) if swaps else [],
        knock_swap_texts=_texts(knock_swaps, pack) if knock_swaps else [],
        discards=discards,
        discard_texts=[(a.text if a is not None else "") for a in discards],
    )


_KITS: dict[int, RoundKit] = {}


def kit_for(rules: Rules, *, table: bool = True) -> RoundKit:
    """The kit of ``rules``: one per rules object (asked at every deal). With
    ``table=False`` a kit without the hand table will do (a showdown of a few hands, as
    ``schwimmen score`` asks: building the table costs far more than the hands); one that
    has it is still returned where it exists."""
    found = _KITS.get(id(rules))
    if (
        found is None
        or found.rules is not rules
        or (table and found.flat is None and not found.evaluator.table)
    ):
        if len(_KITS) > 1024:
            _KITS.clear()
        found = _KITS[id(rules)] = _make(rules, table)
    return found
