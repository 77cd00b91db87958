"""Hand evaluation: what a hand is worth and how it compares, for one ruleset.

Every rule that bears on a hand's worth is read from the spec once, when the table is
built: card points, triples (value, ranks, order), three aces (ordinary, counts as the
maximum, fixed points, Feuer, Tri Palki's punishing aces), Feuer light, protecting hands,
the suit order and the card-by-card comparison (rules-matrix §2.15–§2.20). The result is a
flat table with one packed integer per hand, so a lookup during play is one index
operation: ``key << 8 | flags``. A higher key is a better hand; equal keys are a tie
that the ruleset does not break.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import combinations, permutations

from schwimmen.protocol.cards import Card, deck, rank_of, suit_of
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import AcesKind, CardByCard, ProtectingHand, SevensKind, TripleOrder

MAXIMUM = 1
FEUER = 2
FEUER_LIGHT = 4
PROTECTED = 8
SPECIAL = 16
PUNISHES = 32

FLAG_BITS = 8


class HandKind(StrEnum):
    SUIT = "suit"
    TRIPLE = "triple"
    FIXED = "fixed"
    FEUER = "feuer"
    FEUER_LIGHT = "feuer-light"


@dataclass(frozen=True)
class HandValue:
    """The worth of one hand.

    ``points`` is what the hand counts (None for a Feuer that the source gives no number);
    ``suit`` the suit whose cards count (None for triples and specials); ``counting``
    the cards that make the value; ``key`` orders hands; ``flags`` marks maximum, Feuer,
    Feuer light, protection and Tri Palki's punishing aces.
    """

    points: Fraction | None
    kind: HandKind
    suit: str | None
    counting: tuple[Card, ...]
    key: int
    flags: int

    @property
    def is_maximum(self) -> bool:
        return bool(self.flags & MAXIMUM)

    @property
    def is_feuer(self) -> bool:
        return bool(self.flags & FEUER)

    @property
    def is_feuer_light(self) -> bool:
        return bool(self.flags & FEUER_LIGHT)

    @property
    def is_protected(self) -> bool:
        return bool(self.flags & PROTECTED)

    @property
    def is_special(self) -> bool:
        return bool(self.flags & SPECIAL)

    @property
    def punishes(self) -> bool:
        return bool(self.flags & PUNISHES)


def _half(points: Fraction) -> int:
    return int(points * 2)


class Evaluator:
    """All hands of one ruleset's pack, evaluated once into a table.

    Three-card hands index a flat list by ``a << 12 | b << 6 | c`` in any card order;
    four-card hands (the "41" variant) index a dict by the sorted cards.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        cards = rules.cards
        self.values: dict[Card, int] = {}
        self.rank_pos: dict[Card, int] = {}
        self.pack: list[Card] = deck(cards.ranks, cards.suits)
        for card in self.pack:
            self.values[card] = cards.values[rank_of(card)]
            self.rank_pos[card] = cards.ranks.index(rank_of(card))
        order = rules.comparison.suit_order
        self.suit_rank: dict[str, int] = (
            {s: len(order) - i for i, s in enumerate(order)} if order else {}
        )
        self.hand_size = cards.hand_size
        self.flat: list[int] = []
        self.by_sorted: dict[tuple[Card, ...], int] = {}
        self._values: dict[tuple[Card, ...], HandValue] = {}
        self._build()

    # ------------------------------------------------------------------ exact evaluation
    def evaluate(self, hand: Sequence[Card]) -> HandValue:
        """Evaluate ``hand`` from the rules (slow; the tables are built from this)."""
        rules = self.rules
        first = rank_of(hand[0])
        same_rank = len(hand) == 3 and all(rank_of(c) == first for c in hand)
        rank = first if same_rank else None
        flags = 0

        if same_rank and rank == "A":
            aces = rules.three_aces
            if aces.kind is AcesKind.FEUER:
                shown = aces.points
                return self._special(hand, HandKind.FEUER, shown, tier=2, flags=FEUER | SPECIAL)
            if aces.kind is AcesKind.FIXED_POINTS and aces.points is not None:
                return self._valued(hand, HandKind.FIXED, aces.points, None, tuple(hand), 0)
            if aces.kind is AcesKind.COUNTS_AS_MAXIMUM:
                pts = Fraction(rules.maximum.points)
                return self._valued(hand, HandKind.FIXED, pts, None, tuple(hand), MAXIMUM)
            if aces.kind is AcesKind.PUNISHES_ALL_WITHOUT_SPECIAL:
                flags |= PUNISHES | SPECIAL
        if same_rank and rank == "7" and rules.three_sevens.kind is SevensKind.FEUER_LIGHT:
            return self._special(hand, HandKind.FEUER_LIGHT, None, tier=1, flags=FEUER_LIGHT)
        protection = rules.protection.hands
        if same_rank and rank == "6" and ProtectingHand.THREE_SIXES in protection:
            flags |= PROTECTED | SPECIAL
        if (
            ProtectingHand.SIX_SEVEN_EIGHT_SUITED in protection
            and len(hand) == 3
            and len({suit_of(c) for c in hand}) == 1
            and sorted(rank_of(c) for c in hand) == ["6", "7", "8"]
        ):
            flags |= PROTECTED | SPECIAL

        triples = rules.triples
        if same_rank and triples.points is not None and rank in triples.ranks:
            return self._valued(hand, HandKind.TRIPLE, triples.points, None, tuple(hand), flags)

        best_suit, best_sum, best_rank = None, -1, list[int]()
        for suit in self.rules.cards.suits:
            cards = [c for c in hand if suit_of(c) == suit]
            if not cards:
                continue
            total = sum(self.values[c] for c in cards)
            ranking = (
                total,
                self.suit_rank.get(suit, 0),
                sorted((self.rank_pos[c] for c in cards), reverse=True),
            )
            if ranking > (best_sum, self.suit_rank.get(best_suit or "", 0), best_rank):
                best_suit, best_sum, best_rank = suit, total, ranking[2]
        counting = tuple(c for c in hand if suit_of(c) == best_suit)
        if best_sum == rules.maximum.points:
            flags |= MAXIMUM
        return self._valued(hand, HandKind.SUIT, Fraction(best_sum), best_suit, counting, flags)

    def _special(
        self,
        hand: Sequence[Card],
        kind: HandKind,
        shown: Fraction | None,
        *,
        tier: int,
        flags: int,
    ) -> HandValue:
        key = self._key(tier, Fraction(0), 0, (), 0)
        return HandValue(shown, kind, None, tuple(hand), key, flags)

    def _valued(
        self,
        hand: Sequence[Card],
        kind: HandKind,
        points: Fraction,
        suit: str | None,
        counting: tuple[Card, ...],
        flags: int,
    ) -> HandValue:
        rules = self.rules
        triple_rank = 0
        if kind is HandKind.TRIPLE and rules.triples.order is TripleOrder.BY_RANK:
            triple_rank = self.rank_pos[hand[0]] + 1
        compared: tuple[Card, ...] = ()
        if rules.comparison.card_by_card is CardByCard.COUNTING_CARDS:
            compared = counting
        elif rules.comparison.card_by_card is CardByCard.ALL_CARDS:
            compared = tuple(hand)
        suit_rank = self.suit_rank.get(suit, 0) if suit is not None else 0
        key = self._key(0, points, triple_rank, compared, suit_rank)
        return HandValue(points, kind, suit, counting, key, flags)

    def _key(
        self,
        tier: int,
        points: Fraction,
        triple_rank: int,
        compared: Sequence[Card],
        suit_rank: int,
    ) -> int:
        """Lexicographic order packed into one integer: tier (Feuer above everything),
        points, triple rank, the compared cards highest first, then the suit."""
        digits = sorted((self.rank_pos[c] + 1 for c in compared), reverse=True)
        digits += [0] * (4 - len(digits))
        cards_part = 0
        for d in digits:
            cards_part = cards_part * 16 + d
        key = tier
        key = key * 256 + _half(points)
        key = key * 16 + triple_rank
        key = key * 65536 + cards_part
        key = key * 8 + suit_rank
        return key

    # ------------------------------------------------------------------ tables
    def _build(self) -> None:
        if self.hand_size == 3:
            self.flat = [0] * (64 << 12)
            for combo in combinations(self.pack, 3):
                value = self.evaluate(combo)
                packed = value.key << FLAG_BITS | value.flags
                for a, b, c in permutations(combo):
                    self.flat[a << 12 | b << 6 | c] = packed
        else:
            for four in combinations(sorted(self.pack), self.hand_size):
                value = self.evaluate(four)
                self.by_sorted[four] = value.key << FLAG_BITS | value.flags

    def value(self, hand: Sequence[Card]) -> HandValue:
        """:meth:`evaluate`, remembered per hand (a pack has at most 270,725 hands)."""
        key = tuple(sorted(hand))
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self.evaluate(key)
        return found

    def packed(self, hand: Sequence[Card]) -> int:
        """``key << 8 | flags`` of ``hand`` from the table."""
        if self.hand_size == 3:
            return self.flat[hand[0] << 12 | hand[1] << 6 | hand[2]]
        return self.by_sorted[tuple(sorted(hand))]


_CACHE: dict[int, tuple[Rules, Evaluator]] = {}


def evaluator_for(rules: Rules) -> Evaluator:
    """The evaluator of ``rules``, built once per rules object (the catalog shares them)."""
    found = _CACHE.get(id(rules))
    if found is None or found[0] is not rules:
        found = (rules, Evaluator(rules))
        _CACHE[id(rules)] = found
    return found[1]
