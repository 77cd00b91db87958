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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any, TypeVar

from schwimmen.protocol.cards import Card, deck, rank_of, suit_of
from schwimmen.spec.parameters import SUITS
from schwimmen.spec.present import points as points_text
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import (
    AcesKind,
    CardByCard,
    MaximumHands,
    ProtectingHand,
    SevensKind,
    TripleOrder,
)

MAXIMUM = 1
FEUER = 2
FEUER_LIGHT = 4
PROTECTED = 8
SPECIAL = 16
PUNISHES = 32

FLAG_BITS = 8

T = TypeVar("T")


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

    def json(self) -> dict[str, Any]:
        """The value's JSON form: its points (null for a Feuer the source gives no number),
        the kind of hand and the suit that counts."""
        points = self.points
        return {
            "points": None if points is None else float(points),
            "hand": self.kind.value,
            "suit": self.suit,
        }

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
    four-card hands (the "41" variant) index a dict by the sorted cards. Without
    ``table`` every hand is evaluated on first sight, as four-card hands always are:
    building a table costs more than a few lookups save (``schwimmen score`` asks for a
    handful of hands under some twenty ways of scoring).
    """

    def __init__(self, rules: Rules, *, table: bool = True) -> None:
        self.rules = rules
        self.table = table
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
        self._suit_rank_by_index = {SUITS.index(s): r for s, r in self.suit_rank.items()}
        self.hand_size = cards.hand_size
        # Four-card hands are worth more than their best suit only where triples or three
        # aces count; otherwise every four-card hand is an ordinary one (table building).
        self._four_card_groups = cards.hand_size != 3 and (
            rules.triples.points is not None or rules.three_aces.kind is not AcesKind.ORDINARY
        )
        # The ranks of which a maximum hand must hold one (the beginner guide's literal 31,
        # U12); None: every hand that reaches the maximum is one.
        self._maximum_ranks: frozenset[str] | None = (
            frozenset({"K", "Q"})
            if rules.maximum.hands is MaximumHands.ACE_WITH_KING_OR_QUEEN
            else None
        )
        self.flat: list[int] = []
        self.by_sorted: dict[tuple[Card, ...], int] = {}
        self._values: dict[tuple[Card, ...], HandValue] = {}
        self._values_in_order: dict[int, HandValue] = {}
        self.json_in_order: dict[int, dict[str, Any]] = {}
        """The JSON form of a three-card hand's value by its held order (``a << 12 | b << 6
        | c``), filled by :meth:`value_json`: shared, so a reader copies it."""
        self._build()

    # ------------------------------------------------------------------ exact evaluation
    def evaluate(self, hand: Sequence[Card]) -> HandValue:
        """Evaluate ``hand`` from the rules (slow; the tables are built from this)."""
        rules = self.rules
        rank = _group_rank(hand)
        same_rank = rank is not None
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
            group = tuple(c for c in hand if rank_of(c) == rank)
            return self._valued(hand, HandKind.TRIPLE, triples.points, None, group, flags)

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
        if best_sum == rules.maximum.points and self._is_maximum_hand(counting):
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
            triple_rank = self.rank_pos[counting[0]] + 1
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

    def _is_maximum_hand(self, counting: Sequence[Card]) -> bool:
        """Whether the cards that reach the maximum make a maximum hand (maximum.hands)."""
        needed = self._maximum_ranks
        return needed is None or any(rank_of(c) in needed for c in counting)

    # ------------------------------------------------------------------ tables
    def _ordinary(self, hand: Sequence[Card]) -> bool:
        """True when no special hand, no triple and no protection can apply: the hand is
        worth its best suit, and :meth:`_fast` computes exactly what :meth:`evaluate` does."""
        if len(hand) != 3:
            return not (self._four_card_groups and _group_rank(hand) is not None)
        a, b, c = hand
        if a & 15 == b & 15 == c & 15:
            return False
        return not (self.rules.protection.hands and a >> 4 == b >> 4 == c >> 4)

    def _fast(self, hand: Sequence[Card]) -> int:
        """The packed entry of an ordinary hand, in integers only (table building)."""
        best: tuple[int, int, list[int]] | None = None
        for suit_index in {c >> 4 for c in hand}:
            cards = [c for c in hand if c >> 4 == suit_index]
            total = sum(self.values[c] for c in cards)
            suit_rank = self._suit_rank_by_index.get(suit_index, 0)
            ranking = (total, suit_rank, sorted((self.rank_pos[c] for c in cards), reverse=True))
            if best is None or ranking > best:
                best = ranking
        assert best is not None
        total, suit_rank, digits = best
        by_card = self.rules.comparison.card_by_card
        if by_card is CardByCard.ALL_CARDS:
            digits = sorted((self.rank_pos[c] for c in hand), reverse=True)
        elif by_card is CardByCard.NONE:
            digits = []
        cards_part = 0
        for i in range(4):
            cards_part = cards_part * 16 + (digits[i] + 1 if i < len(digits) else 0)
        key = (((total * 2) * 16) * 65536 + cards_part) * 8 + suit_rank
        flags = 0
        if total == self.rules.maximum.points:
            by_suit: dict[int, list[Card]] = {}
            for c in hand:
                by_suit.setdefault(c >> 4, []).append(c)
            if any(
                sum(self.values[c] for c in cards) == total and self._is_maximum_hand(cards)
                for cards in by_suit.values()
            ):
                flags = MAXIMUM
        return key << FLAG_BITS | flags

    def _entry(self, hand: Sequence[Card]) -> int:
        if self._ordinary(hand):
            return self._fast(hand)
        value = self.evaluate(hand)
        return value.key << FLAG_BITS | value.flags

    def _build(self) -> None:
        """Three-card hands: every hand of the pack, in every card order, into a flat list.
        Four-card hands (270,725 of them in "41"), and every hand of an evaluator without a
        table: filled on first sight of each hand."""
        if self.hand_size == 3 and self.table:
            self.flat = [0] * (64 << 12)
            flat = self.flat
            for combo in combinations(self.pack, 3):
                packed = self._entry(combo)
                for a, b, c in permutations(combo):
                    flat[a << 12 | b << 6 | c] = packed
        else:
            self.by_sorted = _LazyTable(self._entry)

    def fill(self) -> None:
        """Evaluate every hand now (four-card packs are otherwise filled lazily)."""
        if self.hand_size != 3:
            for hand in combinations(sorted(self.pack), self.hand_size):
                self.by_sorted[hand]

    def value(self, hand: Sequence[Card]) -> HandValue:
        """:meth:`evaluate`, remembered per hand (a pack has at most 270,725 hands); an
        ordinary hand is built from its table entry without evaluating it again.

        A three-card hand is also remembered in the order it is held (at most 29,760
        orders of a 32-card pack), so the observation before every decision needs no
        sorting."""
        if len(hand) == 3:
            index = hand[0] << 12 | hand[1] << 6 | hand[2]
            found = self._values_in_order.get(index)
            if found is None:
                found = self._value_sorted(hand)
                _remember_orders(self._values_in_order, hand, found)
            return found
        return self._value_sorted(hand)

    def value_map(
        self, hands: Mapping[int, Sequence[Card]], seats: Sequence[int]
    ) -> dict[int, HandValue]:
        """:meth:`value` of the hands of ``seats`` (the end of every round asks for all
        of them: one call, the held orders looked up in place)."""
        out: dict[int, HandValue] = {}
        in_order = self._values_in_order
        for seat in seats:
            hand = hands[seat]
            if len(hand) == 3:
                found = in_order.get(hand[0] << 12 | hand[1] << 6 | hand[2])
                if found is not None:
                    out[seat] = found
                    continue
            out[seat] = self.value(hand)
        return out

    def value_json(self, hand: Sequence[Card]) -> dict[str, Any]:
        """:func:`value_json` of the hand's value. The observation asks for it before every
        decision, so a three-card hand finds its value's one remembered JSON form by its
        held order, in one lookup."""
        if len(hand) == 3:
            index = hand[0] << 12 | hand[1] << 6 | hand[2]
            form = self.json_in_order.get(index)
            if form is None:
                form = self._json_sorted(tuple(sorted(hand)))
                _remember_orders(self.json_in_order, hand, form)
            return form.copy()
        # a four-card pack has 270,725 hands, more than the forms memo keeps: convert
        return self.value(hand).json()

    def _value_sorted(self, hand: Sequence[Card]) -> HandValue:
        key = tuple(sorted(hand))
        found = self._values.get(key)
        if found is None:
            found = self._from_entry(key) if self._ordinary(key) else self.evaluate(key)
            self._values[key] = found
        return found

    def _json_sorted(self, hand: tuple[Card, ...]) -> dict[str, Any]:
        """The JSON form of the value of ``hand`` (sorted). An ordinary hand's is read off
        its table entry and its best suit, without making its value: the observation
        before every decision asks for it, and a pack of 52 cards has 22,100 hands to
        meet for the first time."""
        found = self._values.get(hand)
        if found is None and self._ordinary(hand):
            half = self.packed(hand) >> FLAG_BITS + 23 & 255
            return {
                "points": half / 2,
                "hand": HandKind.SUIT.value,
                "suit": SUITS[self._best(hand)],
            }
        return (found or self._value_sorted(hand)).json()

    def _best(self, hand: Sequence[Card]) -> int:
        """The suit index whose cards count in an ordinary hand: most points, then the
        suit order, then the highest cards."""
        return max(
            {c >> 4 for c in hand},
            key=lambda s: (
                sum(self.values[c] for c in hand if c >> 4 == s),
                self._suit_rank_by_index.get(s, 0),
                sorted((self.rank_pos[c] for c in hand if c >> 4 == s), reverse=True),
            ),
        )

    def _from_entry(self, hand: tuple[Card, ...]) -> HandValue:
        packed = self.packed(hand)
        key = packed >> FLAG_BITS
        half = key >> 23 & 255
        best = self._best(hand)
        counting = tuple(c for c in hand if c >> 4 == best)
        return HandValue(Fraction(half, 2), HandKind.SUIT, SUITS[best], counting, key, packed & 255)

    def packed(self, hand: Sequence[Card]) -> int:
        """``key << 8 | flags`` of ``hand`` from the table."""
        if self.flat:
            return self.flat[hand[0] << 12 | hand[1] << 6 | hand[2]]
        return self.by_sorted[tuple(sorted(hand))]


def _remember_orders(memo: dict[int, T], hand: Sequence[Card], found: T) -> None:
    """Remember ``found`` for every order of the three cards of ``hand`` (``a << 12 | b <<
    6 | c``): a value does not depend on the order the cards are held in, and a memo
    filled one order at a time misses six times as often while it fills."""
    a, b, c = hand
    memo[a << 12 | b << 6 | c] = memo[a << 12 | c << 6 | b] = found
    memo[b << 12 | a << 6 | c] = memo[b << 12 | c << 6 | a] = found
    memo[c << 12 | a << 6 | b] = memo[c << 12 | b << 6 | a] = found


def _group_rank(hand: Sequence[Card]) -> str | None:
    """The rank of which ``hand`` holds three (in a four-card hand: three or four) cards,
    or None. A three-card hand must be all of one rank."""
    first = rank_of(hand[0])
    if len(hand) == 3:
        return first if all(rank_of(c) == first for c in hand) else None
    ranks = [rank_of(c) for c in hand]
    for rank in ranks[:2]:
        if ranks.count(rank) >= 3:
            return rank
    return None


class _LazyTable(dict[tuple[Card, ...], int]):
    """A dict that evaluates a hand the first time it is looked up."""

    def __init__(self, compute: Callable[[Sequence[Card]], int]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: tuple[Card, ...]) -> int:
        value = self[key] = self.compute(key)
        return value


def scoring_key(rules: Rules) -> tuple[object, ...]:
    """Everything a hand's worth depends on: rulesets that agree on it share one table."""
    c = rules.cards
    return (
        c.ranks,
        c.suits,
        tuple(sorted(c.values.items())),
        c.hand_size,
        rules.maximum.points,
        rules.maximum.hands,
        rules.triples.points,
        tuple(sorted(rules.triples.ranks)),
        rules.triples.order,
        rules.three_aces.kind,
        rules.three_aces.points,
        rules.three_sevens.kind,
        tuple(sorted(rules.protection.hands)),
        rules.comparison.suit_order,
        rules.comparison.card_by_card,
    )


_VALUE_FORMS: dict[int, tuple[HandValue, dict[str, Any], str]] = {}
_VALUE_FORMS_LIMIT = 1 << 16  # a few MiB at most; a three-card pack has ~5,000 values


def value_forms(value: HandValue) -> tuple[HandValue, dict[str, Any], str]:
    """The value, its JSON form (shared: copy it before handing it out) and its points
    text (``30½``, or the hand's name where it has no points).

    Hand values come from the evaluator's memo, so the few thousand distinct ones are
    converted once (the entry keeps its value alive, so the ``id`` cannot be reused; the
    memo is emptied if values from elsewhere ever fill it)."""
    entry = _VALUE_FORMS.get(id(value))
    if entry is None or entry[0] is not value:
        if len(_VALUE_FORMS) >= _VALUE_FORMS_LIMIT:
            _VALUE_FORMS.clear()
        points = value.points
        entry = _VALUE_FORMS[id(value)] = (
            value,
            value.json(),
            value.kind.value if points is None else points_text(points),
        )
    return entry


def value_json(value: HandValue) -> dict[str, Any]:
    """The JSON form of a hand value, a fresh dict each time."""
    entry = _VALUE_FORMS.get(id(value))
    if entry is None or entry[0] is not value:
        entry = value_forms(value)
    return entry[1].copy()


_BY_RULES: dict[int, tuple[Rules, Evaluator]] = {}
_BY_SCORING: dict[tuple[object, ...], Evaluator] = {}


def evaluator_for(rules: Rules, *, table: bool = True) -> Evaluator:
    """The evaluator of ``rules``: one per rules object, and one table per distinct way of
    scoring hands (a house rule about passing does not rebuild the table). With
    ``table=False`` an evaluator without a table will do (a few hands to value); one that
    has a table is still returned where it exists."""
    found = _BY_RULES.get(id(rules))
    if found is not None and found[0] is rules and (found[1].table or not table):
        return found[1]
    key = scoring_key(rules)
    evaluator = _BY_SCORING.get(key)
    if evaluator is None or (table and not evaluator.table):
        evaluator = _BY_SCORING[key] = Evaluator(rules, table=table)
    _BY_RULES[id(rules)] = (rules, evaluator)
    return evaluator
