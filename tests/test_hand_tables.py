"""An evaluator without a table (``schwimmen score``'s few hands) values every hand as
the one with a table does (the engine's): the table is only a shortcut."""

from __future__ import annotations

import random
from itertools import combinations

from schwimmen.engine.hands import Evaluator, evaluator_for, scoring_key
from schwimmen.spec.loader import Catalog


def test_an_evaluator_without_a_table_agrees_with_the_table(catalog: Catalog) -> None:
    seen: set[tuple[object, ...]] = set()
    rng = random.Random(21)
    for name in catalog.standard_names():
        rules = catalog.resolve(name).rules
        key = scoring_key(rules)
        if key in seen:
            continue
        seen.add(key)
        table, lazy = evaluator_for(rules), Evaluator(rules, table=False)
        assert not lazy.flat
        hands = list(combinations(table.pack, rules.cards.hand_size))
        for hand in rng.sample(hands, 400):
            order = list(hand)
            rng.shuffle(order)
            assert lazy.packed(order) == table.packed(hand), (name, hand)
            assert lazy.value(order) == table.value(hand), (name, hand)
    assert len(seen) > 5


def test_a_table_is_built_when_the_engine_asks_after_the_calculator(catalog: Catalog) -> None:
    rules = catalog.resolve("scat+no-knock-first-turn").rules
    first = evaluator_for(rules, table=False)
    engine = evaluator_for(rules)
    assert engine.table
    assert evaluator_for(rules, table=False) is engine
    assert first.values == engine.values
