"""The hand calculator: ``schwimmen score`` and the site's exported tables give the
engine's value for every three-card hand of every ruleset and house rule, and the exported
ranks order hands as the engine's showdown does.

The page itself (its lookups and showdowns in JavaScript) is tested in a real browser in
test_docs_browser.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schwimmen.cli.main import main
from schwimmen.cli.score_command import NOT_A_HAND, report
from schwimmen.docsgen.calculator import (
    DIGITS,
    FLAGS,
    CalculatorData,
    Table,
    build_table,
    calculator_data,
    calculator_markup,
    hand_index,
    load_words,
)
from schwimmen.engine.hands import Evaluator, HandValue, evaluator_for
from schwimmen.engine.handscore import ruleset_names, score, showdown
from schwimmen.protocol.cards import Card, parse, text
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _engine(value: HandValue) -> dict[str, Any]:
    """The engine's exact evaluation of a hand, in the form both answers are compared in."""
    points = value.points
    return {
        "points": None if points is None else float(points),
        "hand": value.kind.value,
        "suit": value.suit,
        "flags": value.flags,
    }


# ---------------------------------------------------------------- schwimmen score
def test_score_shows_every_ruleset_and_house_rule(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(["score", "AC", "KC", "10C", "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert [row["ruleset"] for row in data["rulesets"]] == sorted(catalog.standard_names())
    hand = [parse(c) for c in ("AC", "KC", "10C")]
    for row in data["rulesets"]:
        rules = catalog.resolve(row["ruleset"]).rules
        (shown,) = row["values"]
        if rules.cards.hand_size != 3:
            assert shown["hand"] is None and shown["not_a_hand"], row
            continue
        value = evaluator_for(rules).evaluate(hand)
        assert {k: shown[k] for k in ("points", "hand", "suit")} == value.json(), row
        assert "showdown" not in row


def test_score_text_names_what_is_not_a_hand(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    four = [r for r in ruleset_names(catalog) if catalog.resolve(r).rules.cards.hand_size == 4]
    three = [r for r in ruleset_names(catalog) if catalog.resolve(r).rules.cards.hand_size == 3]
    assert four and three
    args = ["score", "AC", "KC", "10C", "--ruleset", four[0], "--ruleset", three[0]]
    code, out, _ = _run(args, capsys)
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert NOT_A_HAND in lines[four[0]]
    assert NOT_A_HAND not in lines[three[0]]


def test_score_several_hands_shows_the_engines_showdown(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    words = ["AC", "KC", "10C", "/", "7H", "8H", "9D/QS", "QH", "QD"]
    code, out, err = _run(["score", *words, "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    hands = [[parse(c) for c in h] for h in data["hands"].values()]
    assert [len(h) for h in hands] == [3, 3, 3]
    for row in data["rulesets"]:
        rules = catalog.resolve(row["ruleset"]).rules
        if rules.cards.hand_size != 3:
            assert row["showdown"] is None
            continue
        decided = showdown(rules, hands)
        assert row["showdown"]["losses"] == {f"P{s + 1}": n for s, n in decided.losses.items()}
        assert row["showdown"]["why"] == decided.why
    code, out, _ = _run(["score", *words, "--ruleset", "pagat"], capsys)
    assert code == 0 and "loses" in out.splitlines()[0]


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["AC", "KX", "10C"], "'KX' is not a card"),
        (["AC", "ac"], "'ac' is not a card"),
        (["AC", "KC", "/", "AC"], "AC is given twice"),
        (["AC", "/", "/", "KC"], "a hand without cards"),
    ],
)
def test_score_refuses_bad_cards_in_one_line(
    words: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(["score", *words], capsys)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("schwimmen score: error: ")
    assert message in err


def test_score_refuses_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["score", "AC", "KC", "10C", "--ruleset", "pagatt"], capsys)
    assert code == 2 and not out and "pagatt" in err


# ---------------------------------------------------------------- the exported tables
@pytest.fixture(scope="module")
def three_card(catalog: Catalog) -> tuple[list[str], CalculatorData]:
    """The tables of every ruleset and house rule that deals three cards."""
    names = [r for r in ruleset_names(catalog) if catalog.resolve(r).rules.cards.hand_size == 3]
    return names, calculator_data(catalog, names, load_words())


class _Page:
    """What the page reads for a hand (a Python twin of its lookup): the hand's index from
    the pack positions of its cards, the digits at that index, the value they number."""

    def __init__(self, data: CalculatorData, name: str) -> None:
        row = next(r for r in data.meta["rulesets"] if r["id"] == name)
        self.number = row["table"]
        table = data.meta["tables"][self.number]
        self.size = table["size"]
        self.position = {card: i for i, card in enumerate(table["pack"])}
        self.width = table["width"]
        self.values = table["values"]
        self.encoded = data.hands[self.size]["tables"][str(self.number)]

    def value(self, hand: Sequence[Card]) -> list[Any] | None:
        positions = [self.position.get(text(c)) for c in hand]
        if len(hand) != self.size or None in positions:
            return None
        index = hand_index(sorted(p for p in positions if p is not None))
        number = 0
        for digit in self.encoded[index * self.width : (index + 1) * self.width]:
            number = number * len(DIGITS) + DIGITS.index(digit)
        found: list[Any] = self.values[number]
        return found


@pytest.mark.slow
def test_every_three_card_hand_of_every_ruleset_agrees_with_the_engine(
    catalog: Catalog, three_card: tuple[list[str], CalculatorData]
) -> None:
    """Exhaustive: for each ruleset and house rule, every hand of its pack, as
    ``schwimmen score`` reports it and as the page looks it up, against the engine's
    exact evaluation; the exported ranks order the hands as the engine's keys do.

    Rulesets that value hands alike share the engine's evaluator and the page's table;
    the hands are checked once for each such group, and every member of the group is
    checked to use the same evaluator and the same table."""
    names, data = three_card
    groups: dict[int, list[str]] = {}
    for name in names:
        groups.setdefault(id(evaluator_for(catalog.resolve(name).rules)), []).append(name)
    checked = 0
    for members in groups.values():
        name = members[0]
        rules = catalog.resolve(name).rules
        evaluator = evaluator_for(rules)
        page = _Page(data, name)
        for other in members[1:]:
            assert evaluator_for(catalog.resolve(other).rules) is evaluator
            assert _Page(data, other).number == page.number
        rank_of_key: dict[int, int] = {}
        for hand in combinations(evaluator.pack, 3):
            value = evaluator.evaluate(hand)
            shown = report([name], [score(rules, [hand])], [hand])["rulesets"][0]["values"][0]
            assert {k: shown[k] for k in ("points", "hand", "suit")} == value.json(), (name, hand)
            assert shown["counting"] == [text(c) for c in value.counting]
            exported = page.value(hand)
            assert exported is not None
            points, kind, suit, rank, flags = exported
            got = {
                "points": None if points is None else float(points),
                "hand": kind,
                "suit": suit,
                "flags": flags,
            }
            assert got == _engine(value), (name, [text(c) for c in hand])
            assert rank_of_key.setdefault(value.key, rank) == rank, (name, hand)
            checked += 1
        keys = sorted(rank_of_key)
        assert [rank_of_key[k] for k in keys] == list(range(len(keys))), name
    assert checked >= 4960 * len(groups)


def _every_way_of_scoring(catalog: Catalog) -> list[Evaluator]:
    """One evaluator per way of scoring hands among the calculator's rulesets."""
    found: dict[int, Evaluator] = {}
    for name in ruleset_names(catalog):
        evaluator = evaluator_for(catalog.resolve(name).rules, table=False)
        found.setdefault(id(evaluator), evaluator)
    return list(found.values())


def _table_agrees_with_evaluate(table: Table, hands: Sequence[Sequence[Card]]) -> None:
    """Each hand's entry in ``table`` is the value :meth:`Evaluator.evaluate` gives it,
    and hands of higher keys have higher ranks."""
    evaluator = table.evaluator
    position = {card: i for i, card in enumerate(evaluator.pack)}
    rank_of_key: dict[int, int] = {}
    for hand in hands:
        index = hand_index(sorted(position[c] for c in hand))
        digits = table.encoded[index * table.width : (index + 1) * table.width]
        number = 0
        for digit in digits:
            number = number * len(DIGITS) + DIGITS.index(digit)
        points, kind, suit, rank, flags = table.values[number]
        value = evaluator.evaluate(hand)
        got = {
            "points": None if points is None else float(points),
            "hand": kind,
            "suit": suit,
            "flags": flags,
        }
        assert got == _engine(value), [text(c) for c in hand]
        assert rank_of_key.setdefault(value.key, rank) == rank, [text(c) for c in hand]
    keys = sorted(rank_of_key)
    ranks = [rank_of_key[k] for k in keys]
    assert ranks == sorted(set(ranks))


def test_tables_of_every_way_of_scoring_agree_with_evaluate_on_a_sample(
    catalog: Catalog,
) -> None:
    """The tables value hands in groups the evaluator cannot tell apart
    (:func:`hand_groups`); a sample of every table's hands, three of a rank included
    (triples, Feuer, protecting sixes), against the evaluator's answer hand by hand."""
    sizes = set()
    for evaluator in _every_way_of_scoring(catalog):
        sizes.add(evaluator.hand_size)
        table = build_table(evaluator)
        pack = evaluator.pack
        picked = random.Random(f"{evaluator.hand_size}:{len(pack)}:{len(table.values)}")
        hands = [picked.sample(pack, evaluator.hand_size) for _ in range(1500)]
        for rank in {c & 15 for c in pack}:
            same = [c for c in pack if c & 15 == rank]
            rest = [c for c in pack if c & 15 != rank]
            hands.append(same[:3] + picked.sample(rest, evaluator.hand_size - 3))
        _table_agrees_with_evaluate(table, hands)
    assert sizes == {3, 4}


@pytest.mark.slow
def test_every_four_card_hand_agrees_with_evaluate(catalog: Catalog) -> None:
    """Exhaustive for the four-card tables ("41", 270,725 hands each), which the
    three-card test above does not reach."""
    four = [e for e in _every_way_of_scoring(catalog) if e.hand_size == 4]
    assert four
    for evaluator in four:
        _table_agrees_with_evaluate(
            build_table(evaluator), list(combinations(evaluator.pack, evaluator.hand_size))
        )


def test_exported_flags_are_the_engines_and_tables_are_shared(
    three_card: tuple[list[str], CalculatorData],
) -> None:
    names, data = three_card
    assert data.meta["flags"] == FLAGS
    assert [r["id"] for r in data.meta["rulesets"]] == names
    # rulesets that value hands alike share a table: fewer tables than rulesets
    assert len(data.meta["tables"]) < len(names)
    for table in data.meta["tables"]:
        assert len(table["values"]) <= len(DIGITS) ** table["width"]


def _hands(draw: st.DrawFn, pack: list[Card], count: int) -> list[list[Card]]:
    """``count`` disjoint three-card hands, often holding three of a rank (triples, three
    aces, protecting sixes) so that the special cases are met."""
    free = list(pack)
    hands = []
    for _ in range(count):
        if draw(st.booleans()):
            ranks = sorted({c & 15 for c in free if sum(1 for d in free if d & 15 == c & 15) >= 3})
            if ranks:
                rank = draw(st.sampled_from(ranks))
                same = [c for c in free if c & 15 == rank]
                hand = draw(st.permutations(same))[:3]
                hands.append(hand)
                free = [c for c in free if c not in hand]
                continue
        hand = draw(st.permutations(free))[:3]
        hands.append(hand)
        free = [c for c in free if c not in hand]
    return hands


@st.composite
def showdowns(draw: st.DrawFn, names: list[str], catalog: Catalog) -> tuple[str, list[list[Card]]]:
    name = draw(st.sampled_from(names))
    pack = evaluator_for(catalog.resolve(name).rules).pack
    count = draw(st.integers(min_value=2, max_value=6))
    return name, _hands(draw, pack, count)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_exported_ranks_decide_showdowns_as_the_engine(
    catalog: Catalog, three_card: tuple[list[str], CalculatorData], data: st.DataObject
) -> None:
    """Random showdowns: the engine's losers are the hands of the lowest exported rank
    whenever no hand is special (no protection, no punishing aces) and the hands are not
    all worth the same; and ranks compare exactly as the engine's keys."""
    names, tables = three_card
    name, hands = data.draw(showdowns(names, catalog))
    rules = catalog.resolve(name).rules
    evaluator = evaluator_for(rules)
    values = [evaluator.value(h) for h in hands]
    page = _Page(tables, name)
    exported = [page.value(h) for h in hands]
    ranks = [e[3] for e in exported if e is not None]
    assert len(ranks) == len(hands)
    for i, j in combinations(range(len(hands)), 2):
        assert (ranks[i] < ranks[j]) == (values[i].key < values[j].key)
        assert (ranks[i] == ranks[j]) == (values[i].key == values[j].key)
    decided = showdown(rules, hands)
    special = FLAGS["special"] | FLAGS["protected"] | FLAGS["punishes"]
    all_same = len({v.points for v in values}) == 1
    if not any(v.flags & special for v in values) and not all_same:
        low = min(ranks)
        assert set(decided.losses) == {i for i, r in enumerate(ranks) if r == low}
        assert set(decided.losses.values()) == {rules.penalties.lowest}


# ---------------------------------------------------------------- words and markup
def test_words_exist_in_english_and_german_and_reach_the_widget() -> None:
    words = load_words()
    assert set(words) == {"en", "de"}
    assert set(words["en"]) == set(words["de"])
    # the English page is tools/calculator/, the German one de/tools/calculator/: both
    # reach the one copy of the tables at tools/calculator.json
    for language, tables in (
        ("en", "../calculator.json"),
        ("de", "../../../tools/calculator.json"),
    ):
        markup = calculator_markup(words, language)
        assert words[language]["loading"] in markup
        assert f'data-tables="{tables}"' in markup


def test_a_wrong_words_file_is_refused_with_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "words.yaml"
    bad.write_text("words:\n  loading:\n    en: Loading\n    fr: Chargement\n", encoding="utf-8")
    with pytest.raises(SpecErrors) as caught:
        load_words(bad)
    message = str(caught.value)
    assert f"{bad}:2:3: $.words.loading: missing required key 'de'" in message, message
    assert f"{bad}:4:5: $.words.loading.fr: unknown key 'fr'" in message, message
