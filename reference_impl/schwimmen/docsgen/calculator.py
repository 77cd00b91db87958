"""The hand calculator's tables: every hand of every ruleset, valued by the engine.

The calculator page (``docs/tools/calculator.md``) runs in the browser without a server
and must not evaluate a hand itself, or it would be a second engine that could disagree
with the first. So the engine values every hand of every ruleset's pack at build time and
the page only looks the hand up:

* rulesets (and house rules) that score hands alike share one table
  (:func:`schwimmen.engine.hands.evaluator_for` already shares the evaluator);
* a table lists its distinct values once, ``[points, kind, suit, rank, flags]``, where
  ``rank`` is the place of the engine's comparison key among the table's keys (a higher
  rank beats a lower one, equal ranks tie) and ``flags`` the engine's flag bits;
* the hands are not written out: a hand is the sorted positions of its cards in the pack,
  ``p0 < p1 < ...``, and its index is ``C(p0, 1) + C(p1, 2) + ...`` (the combinatorial
  number system), so hand ``i``'s value is the ``i``-th group of ``width`` digits of one
  string, in base 93 (the printable ASCII characters a JSON string holds unescaped). The
  4,960 three-card hands of a 32-card pack take 4,960 characters where the table has at
  most 93 values, as every table of a 32-card pack has.

Who loses a showdown is decided in the page from the ranks and flags, by the steps of
:meth:`schwimmen.engine.rounds.Round.showdown_losses`, with each ruleset's showdown
parameters exported beside its table; the tests compare that with the engine's showdown.
The hands of each hand size are a file of their own, so that the page fetches the
four-card tables ("41": 270,725 hands each) only when a fourth card is picked.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from schwimmen.docsgen import memo
from schwimmen.docsgen.templates import render
from schwimmen.engine import hands as hand_flags
from schwimmen.engine.hands import Evaluator, HandValue, evaluator_for, scoring_key
from schwimmen.protocol.cards import suit_of, text
from schwimmen.spec import words
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.pagedata import DEFAULT_LANGUAGE
from schwimmen.spec.parameters import RANKS, SUITS
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import CardByCard, CompleteTie, ProtectionEffect, TiedLowest

DIGITS = "".join(chr(c) for c in range(0x20, 0x7F) if chr(c) not in '"\\')
"""The digits of the hand strings, 0 to 92: printable ASCII but the quote and backslash,
which a JSON string would have to escape."""
BASE = len(DIGITS)

META_FILE = "tools/calculator.json"
"""Where the site publishes the rulesets, the tables' values and the words (the hands
files lie beside it)."""

FLAGS = {
    "maximum": hand_flags.MAXIMUM,
    "feuer": hand_flags.FEUER,
    "feuer-light": hand_flags.FEUER_LIGHT,
    "protected": hand_flags.PROTECTED,
    "special": hand_flags.SPECIAL,
    "punishes": hand_flags.PUNISHES,
}
"""The engine's flag bits, exported so that the page reads them by name."""

Words = Mapping[str, Mapping[str, str]]


def hands_file(size: int) -> str:
    """Where the site publishes the hand strings of the tables of ``size``-card hands."""
    return f"tools/calculator-hands-{size}.json"


def load_words(path: Path | None = None) -> dict[str, dict[str, str]]:
    """The calculator's words by language (``spec/widgets/calculator.yaml``)."""
    return words.load_words(path or words.words_path("calculator"))


def hand_index(positions: Sequence[int]) -> int:
    """The index of a hand given by the sorted pack positions of its cards."""
    return sum(comb(p, i + 1) for i, p in enumerate(positions))


@dataclass(frozen=True)
class Table:
    """One way of valuing hands: the pack, the hand size, the distinct values and, hand
    after hand in index order, the number of its value in :data:`DIGITS` (``encoded``)."""

    evaluator: Evaluator
    values: tuple[tuple[Any, ...], ...]
    encoded: str

    @property
    def width(self) -> int:
        return width_for(len(self.values))


def width_for(count: int) -> int:
    """Digits per hand: enough for ``count`` distinct values."""
    width = 1
    while count > BASE**width:
        width += 1
    return width


def encode(numbers: Sequence[int] | NDArray[np.int64], width: int) -> str:
    """Each number as ``width`` digits, most significant first."""
    left = np.asarray(numbers, dtype=np.int64)
    places = np.empty((len(left), width), dtype=np.int64)
    for place in range(width - 1, -1, -1):
        places[:, place] = left % BASE
        left = left // BASE
    return np.frombuffer(DIGITS.encode("ascii"), dtype=np.uint8)[places].tobytes().decode("ascii")


def _points(value: HandValue) -> int | float | None:
    points = value.points
    if points is None:
        return None
    return int(points) if points == int(points) else float(Fraction(points))


def build_table(evaluator: Evaluator) -> Table:
    """Every hand of the evaluator's pack, valued by the engine's exact evaluation.

    :meth:`Evaluator.evaluate` is asked once per group of hands it cannot tell apart
    (:func:`hand_groups`), not once per hand: 4,960 three-card hands come to a few
    hundred questions, the 270,725 four-card hands of "41" to about 4,000."""
    pack = evaluator.pack
    hands, groups = hand_groups(evaluator)
    first = np.unique(groups, return_index=True, return_inverse=True)
    found: dict[tuple[Any, ...], int] = {}
    number_of_group = []
    for row in first[1]:
        value = evaluator.evaluate([pack[p] for p in hands[row]])
        entry = (value.key, _points(value), value.kind.value, value.suit, value.flags)
        number_of_group.append(found.setdefault(entry, len(found)))
    ordered = sorted(found, key=lambda e: (e[0], json.dumps(e[1:])))
    ranks = {key: rank for rank, key in enumerate(sorted({e[0] for e in ordered}))}
    renumber = [0] * len(found)
    for new, entry in enumerate(ordered):
        renumber[found[entry]] = new
    values = tuple((e[1], e[2], e[3], ranks[e[0]], e[4]) for e in ordered)
    numbers = np.asarray([renumber[n] for n in number_of_group])[first[2].ravel()]
    return Table(evaluator, values, encode(numbers, width_for(len(values))))


def hand_groups(evaluator: Evaluator) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Every hand of the pack as the sorted pack positions of its cards, in index order
    (:func:`hand_index`), and for each a number naming its group: hands of one group get
    the same answer from :meth:`Evaluator.evaluate`.

    That answer is read off the hand in two ways (rules-matrix §2.15–§2.20). A hand
    holding three cards of one rank can be a triple, three aces, three sevens or
    protecting sixes: it is a group of its own. Any other hand is worth its best suit,
    the suit of the highest points, then of the higher place in the suit order, then of
    the higher cards, the first in the pack's order on a full tie; its value depends on
    nothing but that suit, its cards (the counting cards, which also decide the maximum
    and the suited six-seven-eight) and, where the ruleset compares all cards, the ranks
    of the whole hand. Those make the group. Hands of another size than three or four
    cards are each a group of their own."""
    pack = evaluator.pack
    size = evaluator.hand_size
    hands = np.array(list(combinations(range(len(pack)), size)), dtype=np.int64)
    index = sum(_comb_column(hands[:, i], i + 1) for i in range(size))
    in_order = np.empty_like(hands)
    in_order[index] = hands
    hands = in_order
    if size not in (3, 4):
        return hands, np.arange(len(hands), dtype=np.int64)
    rules = evaluator.rules
    suits = list(rules.cards.suits)
    card_suit = np.array([suits.index(suit_of(c)) for c in pack])
    card_place = np.array([evaluator.rank_pos[c] + 1 for c in pack])  # 1..15: a hex digit
    card_value = np.array([evaluator.values[c] for c in pack])
    card_rank = np.array([c & 15 for c in pack])
    # the cards of each hand from the highest rank down, as the comparison reads them
    by_place = np.take_along_axis(hands, np.argsort(-card_place[hands], axis=1), axis=1)
    place = card_place[by_place]
    ranks = card_rank[hands]
    same = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2).max(axis=1) >= 3
    scores = []
    for s, suit in enumerate(suits):
        held = card_suit[by_place] == s
        digits = np.zeros(len(hands), dtype=np.int64)
        for k in range(size):
            digits = np.where(held[:, k], digits * 16 + place[:, k], digits)
        digits <<= 4 * (size - held.sum(axis=1))
        total = (card_value[by_place] * held).sum(axis=1)
        order = evaluator.suit_rank.get(suit, 0)
        score = ((total * 16 + order) << (4 * size)) | digits
        scores.append(np.where(held.any(axis=1), score, -1))
    best = np.argmax(np.stack(scores, axis=1), axis=1)
    counting = np.stack(scores, axis=1)[np.arange(len(hands)), best] & ((1 << 4 * size) - 1)
    group = (best << (4 * size)) | counting
    if rules.comparison.card_by_card is CardByCard.ALL_CARDS:
        whole = np.zeros(len(hands), dtype=np.int64)
        for k in range(size):
            whole = whole * 16 + place[:, k]
        group = (group << (4 * size)) | whole
    return hands, np.where(same, -1 - np.arange(len(hands)), group)


def _comb_column(column: NDArray[np.int64], k: int) -> NDArray[np.int64]:
    """``C(p, k)`` of each ``p`` in ``column``."""
    return np.array([comb(p, k) for p in range(int(column.max()) + 1)], dtype=np.int64)[column]


def kept_table(evaluator: Evaluator) -> Table:
    """:func:`build_table`, from the build cache when the way of scoring hands and the
    code that values them are as they were (:mod:`schwimmen.docsgen.memo`)."""
    scoring = repr(scoring_key(evaluator.rules)).encode()

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "scoring", scoring
        yield from memo.code("docsgen/calculator")

    def build() -> tuple[Any, ...]:
        table = build_table(evaluator)
        return table.values, table.encoded

    # a kind of its own per way of scoring: the cache keeps a few values of each kind
    kind = "calculator-table-" + hashlib.sha256(scoring).hexdigest()[:16]
    values, encoded = memo.kept(kind, inputs, build, tuple)
    return Table(evaluator, values, encoded)


def showdown_rules(rules: Rules) -> dict[str, Any]:
    """The parameters the showdown depends on besides the hands' ranks and flags."""
    return {
        "lives": rules.penalties.lowest,
        "completeTieNobodyLoses": rules.penalties.complete_tie is CompleteTie.NOBODY_LOSES,
        "protectedCountForLowest": rules.protection.effect is ProtectionEffect.EXEMPTS_HOLDER,
        "lastToReachLoses": rules.penalties.tied_lowest is TiedLowest.LAST_TO_REACH_LOSES,
    }


@dataclass(frozen=True)
class CalculatorData:
    """The files the calculator page reads: the metadata and one hands file per size."""

    meta: dict[str, Any]
    hands: dict[int, dict[str, Any]]
    tables: tuple[Table, ...]

    def files(self) -> dict[str, str]:
        """Site path to compact JSON text."""
        out = {META_FILE: _compact(self.meta)}
        for size, data in sorted(self.hands.items()):
            out[hands_file(size)] = _compact(data)
        return out


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def calculator_data(
    catalog: Catalog,
    names: Sequence[str],
    words: Words,
    shown: Mapping[str, Mapping[str, str]] | None = None,
) -> CalculatorData:
    """The tables of the rulesets ``names`` (resolved by the catalog), in that order.
    ``shown`` gives a name's words for players by language (a ruleset's name in the
    comparison, a house rule's title); the page groups each composed name
    (``origin+house-rule``) under its first part, the ruleset it starts from."""
    given = shown or {}
    tables: list[Table] = []
    table_of: dict[int, int] = {}
    rows = []
    for name in names:
        ruleset = catalog.resolve(name)
        evaluator = evaluator_for(ruleset.rules, table=False)  # the tables are kept
        if id(evaluator) not in table_of:
            table_of[id(evaluator)] = len(tables)
            tables.append(kept_table(evaluator))
        rows.append(
            {
                "id": name,
                "title": ruleset.title,
                "names": dict(given.get(name) or {DEFAULT_LANGUAGE: name}),
                "base": name.split(SEPARATOR, 1)[0],
                "table": table_of[id(evaluator)],
                "showdown": showdown_rules(ruleset.rules),
            }
        )
    hands: dict[int, dict[str, Any]] = {}
    for i, table in enumerate(tables):
        size = table.evaluator.hand_size
        hands.setdefault(size, {"size": size, "tables": {}})["tables"][str(i)] = table.encoded
    meta = {
        "ranks": list(RANKS),
        "suits": list(SUITS),
        "digits": DIGITS,
        "flags": FLAGS,
        "hands": {str(size): Path(hands_file(size)).name for size in sorted(hands)},
        "tables": [
            {
                "size": t.evaluator.hand_size,
                "pack": [text(c) for c in t.evaluator.pack],
                "width": t.width,
                "values": [list(v) for v in t.values],
            }
            for t in tables
        ],
        "rulesets": rows,
        "words": {language: dict(forms) for language, forms in words.items()},
    }
    return CalculatorData(meta, hands, tuple(tables))


def calculator_markup(words: Words, language: str) -> str:
    """The page's widget (``calculator.html``) in ``language``.

    The page is ``tools/calculator/`` and its files are one level up; a translation is
    served one folder deeper (``de/tools/calculator/``) and uses the same files."""
    shown = words.get(language) or words["en"]
    up = "../" if language == DEFAULT_LANGUAGE else "../../../tools/"
    return render("calculator.html", language, shown=shown, up=up) + "\n"
