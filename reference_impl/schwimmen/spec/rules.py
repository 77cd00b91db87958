"""Typed, immutable view of a resolved ruleset's values, grouped as in the registry.

The engine reads only this. A parameter that does not apply to a ruleset (a draw-pile
rule in a game with a middle) is ``None`` here. Points are :class:`fractions.Fraction`
so that 30½ is exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from schwimmen.spec import vocabulary as v


@dataclass(frozen=True)
class Penalty:
    """Who loses when a round ends on a special hand. ``maximum_holders`` None means a
    holder of a 31 counts like anybody else (see the penalty schema)."""

    kind: v.PenaltyKind
    lives: int = 0
    maximum_holders: int | None = None


@dataclass(frozen=True)
class Players:
    min: int
    max: int


@dataclass(frozen=True)
class Cards:
    """The pack and the hands. ``values`` is a plain dict so that rules can be pickled to
    worker processes; nothing mutates it."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    values: Mapping[str, int]
    hand_size: int
    middle_size: int


@dataclass(frozen=True)
class Dealing:
    procedure: v.DealProcedure
    rest_of_pack: v.RestOfPack | None
    middle_visibility: v.MiddleVisibility | None


@dataclass(frozen=True)
class Turns:
    first_player: v.FirstPlayer
    direction: v.Direction
    move: v.MoveKind
    swaps: frozenset[v.Swap]
    passing: v.Passing | None


@dataclass(frozen=True)
class Draw:
    rediscard: v.Rediscard | None
    stock_exhausted: v.StockExhausted | None


@dataclass(frozen=True)
class AllPass:
    replacement: v.Replacement | None
    old_middle: v.OldMiddle | None
    no_replacement: v.NoReplacement | None


@dataclass(frozen=True)
class Knocking:
    form: v.KnockForm
    requires: v.KnockRequires
    first_turn: v.KnockFirstTurn
    per_round: v.KnocksPerRound
    then: v.AfterKnock
    last_cycle: v.LastCycle | None


@dataclass(frozen=True)
class Maximum:
    points: int
    hands: v.MaximumHands
    at_deal: v.AtDeal
    in_play: v.InPlay
    penalty_at_deal: Penalty | None
    penalty_in_play: Penalty | None


@dataclass(frozen=True)
class Triples:
    points: Fraction | None
    ranks: frozenset[str]
    order: v.TripleOrder | None


@dataclass(frozen=True)
class ThreeAces:
    kind: v.AcesKind
    points: Fraction | None
    at_deal: v.AcesAtDeal | None
    penalty: Penalty | None
    penalty_at_deal: Penalty | None


@dataclass(frozen=True)
class ThreeSevens:
    kind: v.SevensKind
    penalty: Penalty | None


@dataclass(frozen=True)
class Protection:
    hands: frozenset[v.ProtectingHand]
    effect: v.ProtectionEffect | None


@dataclass(frozen=True)
class WashoutRules:
    rule: v.Washout


@dataclass(frozen=True)
class Comparison:
    suit_order: tuple[str, ...] | None
    card_by_card: v.CardByCard


@dataclass(frozen=True)
class Penalties:
    lowest: int
    tied_lowest: v.TiedLowest
    complete_tie: v.CompleteTie
    knocker_lowest: int
    knocker_tied: v.KnockerTied


@dataclass(frozen=True)
class Lives:
    count: int
    counting: v.Counting
    after_last: v.AfterLast
    multi_loss: v.MultiLoss


@dataclass(frozen=True)
class MatchRules:
    dealer_rotation: v.DealerRotation
    everyone_out: v.EveryoneOut
    series: v.Series


@dataclass(frozen=True)
class Rules:
    players: Players
    cards: Cards
    dealing: Dealing
    turns: Turns
    draw: Draw
    all_pass: AllPass
    knocking: Knocking
    maximum: Maximum
    triples: Triples
    three_aces: ThreeAces
    three_sevens: ThreeSevens
    protection: Protection
    washout: WashoutRules
    comparison: Comparison
    penalties: Penalties
    lives: Lives
    match: MatchRules


def _points(raw: Any) -> Fraction | None:
    if raw is None or raw == "none":
        return None
    return Fraction(raw).limit_denominator(2)


def _penalty(raw: Any) -> Penalty | None:
    if raw is None:
        return None
    return Penalty(
        v.PenaltyKind(raw["kind"]),
        int(raw.get("lives", 0)),
        None if raw.get("maximum_holders") is None else int(raw["maximum_holders"]),
    )


def build_rules(values: Mapping[str, Any]) -> Rules:
    """Build :class:`Rules` from resolved, validated parameter values (JSON data)."""

    def get(path: str) -> Any:
        return values.get(path)

    def opt(enum: type[Any], path: str) -> Any:
        raw = get(path)
        return None if raw is None else enum(raw)

    ranks = tuple(get("cards.ranks"))
    triple_ranks_raw = get("triples.ranks")
    if triple_ranks_raw is None:
        triple_ranks: frozenset[str] = frozenset()
    elif triple_ranks_raw == "all":
        triple_ranks = frozenset(ranks)
    else:
        triple_ranks = frozenset(triple_ranks_raw)
    suit_order_raw = get("comparison.suit_order")
    return Rules(
        players=Players(int(get("players.range")["min"]), int(get("players.range")["max"])),
        cards=Cards(
            ranks=ranks,
            suits=tuple(get("cards.suits")),
            values={r: int(x) for r, x in get("cards.values").items()},
            hand_size=int(get("cards.hand_size")),
            middle_size=int(get("cards.middle_size") or 0),
        ),
        dealing=Dealing(
            procedure=v.DealProcedure(get("dealing.procedure")),
            rest_of_pack=opt(v.RestOfPack, "dealing.rest_of_pack"),
            middle_visibility=opt(v.MiddleVisibility, "dealing.middle_visibility"),
        ),
        turns=Turns(
            first_player=v.FirstPlayer(get("turns.first_player")),
            direction=v.Direction(get("turns.direction")),
            move=v.MoveKind(get("turns.move")),
            swaps=frozenset(v.Swap(s) for s in (get("turns.swaps") or ())),
            passing=opt(v.Passing, "turns.passing"),
        ),
        draw=Draw(
            rediscard=opt(v.Rediscard, "draw.rediscard"),
            stock_exhausted=opt(v.StockExhausted, "draw.stock_exhausted"),
        ),
        all_pass=AllPass(
            replacement=opt(v.Replacement, "all_pass.replacement"),
            old_middle=opt(v.OldMiddle, "all_pass.old_middle"),
            no_replacement=opt(v.NoReplacement, "all_pass.no_replacement"),
        ),
        knocking=Knocking(
            form=v.KnockForm(get("knocking.form")),
            requires=v.KnockRequires(get("knocking.requires")),
            first_turn=v.KnockFirstTurn(get("knocking.first_turn")),
            per_round=v.KnocksPerRound(get("knocking.per_round")),
            then=v.AfterKnock(get("knocking.then")),
            last_cycle=opt(v.LastCycle, "knocking.last_cycle"),
        ),
        maximum=Maximum(
            points=int(get("maximum.points")),
            hands=v.MaximumHands(get("maximum.hands")),
            at_deal=v.AtDeal(get("maximum.at_deal")),
            in_play=v.InPlay(get("maximum.in_play")),
            penalty_at_deal=_penalty(get("maximum.penalty_at_deal")),
            penalty_in_play=_penalty(get("maximum.penalty_in_play")),
        ),
        triples=Triples(
            points=_points(get("triples.points")),
            ranks=triple_ranks,
            order=opt(v.TripleOrder, "triples.order"),
        ),
        three_aces=ThreeAces(
            kind=v.AcesKind(get("three_aces.kind")),
            points=_points(get("three_aces.points")),
            at_deal=opt(v.AcesAtDeal, "three_aces.at_deal"),
            penalty=_penalty(get("three_aces.penalty")),
            penalty_at_deal=_penalty(get("three_aces.penalty_at_deal")),
        ),
        three_sevens=ThreeSevens(
            kind=v.SevensKind(get("three_sevens.kind")),
            penalty=_penalty(get("three_sevens.penalty")),
        ),
        protection=Protection(
            hands=frozenset(v.ProtectingHand(h) for h in (get("protection.hands") or ())),
            effect=opt(v.ProtectionEffect, "protection.effect"),
        ),
        washout=WashoutRules(rule=v.Washout(get("washout.rule") or v.Washout.NONE)),
        comparison=Comparison(
            suit_order=None if suit_order_raw in (None, "none") else tuple(suit_order_raw),
            card_by_card=v.CardByCard(get("comparison.card_by_card")),
        ),
        penalties=Penalties(
            lowest=int(get("penalties.lowest")),
            tied_lowest=v.TiedLowest(get("penalties.tied_lowest")),
            complete_tie=v.CompleteTie(get("penalties.complete_tie")),
            knocker_lowest=int(get("penalties.knocker_lowest")),
            knocker_tied=v.KnockerTied(get("penalties.knocker_tied")),
        ),
        lives=Lives(
            count=int(get("lives.count")),
            counting=v.Counting(get("lives.counting")),
            after_last=v.AfterLast(get("lives.after_last")),
            multi_loss=v.MultiLoss(get("lives.multi_loss")),
        ),
        match=MatchRules(
            dealer_rotation=v.DealerRotation(get("match.dealer_rotation")),
            everyone_out=v.EveryoneOut(get("match.everyone_out")),
            series=v.Series(get("match.series")),
        ),
    )
