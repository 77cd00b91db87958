"""Every round of a valid ruleset can end (issue 19): a composition under which the search
over small positions finds a round that cannot end, a position without a legal action, or
an ability every part alone allows gone (nobody may ever knock), is refused when it is
written, naming the parameters that clash; no shipped composition is."""

from __future__ import annotations

import os
from functools import cache
from itertools import combinations
from typing import Any

import pytest

from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.reachability import (
    KNOCK,
    ROUND_ENDS,
    Witness,
    clone,
    explore,
    search_end,
    signature,
)
from schwimmen.engine.rounds import Phase, Round
from schwimmen.protocol.actions import parse_text
from schwimmen.resources import spec_dir
from schwimmen.spec import termination
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog, load_catalog
from schwimmen.spec.model import Ruleset

# The issue's own example: "a knock counts as a pass" with "passing is forbidden".
CONTRADICTION = {"knocking.form": "close-by-passing", "turns.passing": "forbidden"}


@cache
def _catalog() -> Catalog:
    return load_catalog()


def _unchecked(base: str, changes: dict[str, Any]) -> Ruleset:
    with termination.unchecked():
        return _catalog().mutant(base, changes)


def shipped_compositions(catalog: Catalog) -> list[str]:
    """Every ruleset; every house rule on every ruleset it fits; every two house rules of
    one origin on it (what a tinkerer may compose from the shipped files)."""
    names = sorted(catalog.rulesets)
    for house in sorted(catalog.house_rules):
        for base in sorted(catalog.rulesets):
            names.append(f"{base}+{house}")
    for a, b in combinations(sorted(catalog.house_rules), 2):
        origin = catalog.house_rules[a].data["origin"]
        if catalog.house_rules[b].data["origin"] == origin:
            names.append(f"{origin}+{a}+{b}")
    return names


def _resolvable(catalog: Catalog) -> list[str]:
    out = []
    for name in shipped_compositions(catalog):
        try:
            with termination.unchecked():
                catalog.resolve(name)
        except SpecErrors:
            continue
        out.append(name)
    return out


def _replay(rules: Any, witness: Witness) -> Round:
    evaluator = evaluator_for(rules)
    import random

    rng = random.Random(witness.seats * 1_000_003 + witness.seed)
    pack = list(evaluator.pack)
    rng.shuffle(pack)
    seats = witness.seats
    rnd = Round.deal(rules, evaluator, seats, list(range(seats)), seats - 1, pack)
    for text in witness.actions:
        rnd.apply(parse_text(text))
    return rnd


def test_a_knock_that_counts_as_a_pass_where_passing_is_forbidden_is_refused() -> None:
    with pytest.raises(SpecErrors) as caught:
        _catalog().mutant("pagat", CONTRADICTION)
    text = str(caught.value)
    assert "knocking.form close-by-passing" in text and "turns.passing forbidden" in text
    assert "nobody may knock (or close) in any position searched" in text


def test_without_a_proof_such_a_round_is_unknown_and_nobody_knocks() -> None:
    outcome = explore(_unchecked("pagat", CONTRADICTION).rules, deals=1, searches=0)
    assert KNOCK not in outcome.abilities
    assert outcome.unknown > 0 and outcome.ok  # no playout ended it, and nothing is claimed


@pytest.mark.slow
def test_the_search_proves_that_such_a_round_never_ends() -> None:
    rules = _unchecked("pagat", CONTRADICTION).rules
    outcome = explore(rules, deals=1, budget=30_000)
    assert KNOCK not in outcome.abilities
    assert outcome.never_ends is not None
    position = _replay(rules, outcome.never_ends)
    assert position.phase is not Phase.OVER
    assert search_end(position, 30_000) is False


def test_on_the_base_alone_the_search_finds_every_round_can_end() -> None:
    outcome = explore(_catalog().resolve("pagat").rules, deals=2)
    assert outcome.ok and outcome.unknown == 0
    assert {KNOCK, ROUND_ENDS} <= outcome.abilities


def test_a_clone_is_independent_and_keeps_the_signature() -> None:
    rules = _catalog().resolve("pagat").rules
    evaluator = evaluator_for(rules)
    rnd = Round.deal(rules, evaluator, 2, [0, 1], 1, list(evaluator.pack))
    twin = clone(rnd)
    assert signature(twin) == signature(rnd)
    twin.apply(twin.legal_actions()[0])
    assert signature(twin) != signature(rnd)
    assert rnd.phase is not Phase.OVER and rnd.legal_actions()


def test_a_finding_matches_only_the_clash_it_was_found_in() -> None:
    found = termination.Finding(
        "dutch", (("knocking.form", "close-by-passing"),), ("turns.passing",), (KNOCK,)
    )
    base = {"knocking.form": "instead-of-move", "turns.passing": "forbidden"}
    assert found.matches("dutch", base, {**base, "knocking.form": "close-by-passing"})
    assert not found.matches("pagat", base, {**base, "knocking.form": "close-by-passing"})
    assert not found.matches("dutch", base, base)
    changed_partner = {"knocking.form": "close-by-passing", "turns.passing": "free"}
    assert not found.matches("dutch", base, changed_partner)
    message = found.message(base)
    assert "knocking.form close-by-passing and turns.passing forbidden (from dutch)" in message


def test_the_table_is_read_and_names_known_parameters() -> None:
    from schwimmen.spec.parameters import BY_PATH

    table = termination.findings()
    assert table, "spec/contradictions.yaml holds no finding"
    for found in table:
        assert found.base in _catalog().rulesets
        assert all(path in BY_PATH for path, _ in found.changes)
        assert all(path in BY_PATH for path in found.partners)
        assert found.impossible or found.dead_end or found.never_ends
    for suspect in termination.suspects():
        assert suspect.base in _catalog().rulesets
        assert all(path in BY_PATH for path in suspect.parameters)
        assert suspect.positions > 0 and suspect.searched > 0


def test_no_shipped_composition_is_refused_by_the_table() -> None:
    catalog = _catalog()
    names = _resolvable(catalog)
    assert len(names) > len(catalog.rulesets)
    refused = []
    for name in names:
        try:
            catalog.resolve(name)
        except SpecErrors as exc:
            refused.append(f"{name}: {exc}")
    assert not refused, refused


@pytest.mark.slow
def test_every_shipped_composition_can_end_every_round() -> None:
    """The search itself, not the table: the shipped compositions are not pairs of
    parameter changes on a base, so the table alone does not vouch for them."""
    catalog = _catalog()
    failing = []
    for name in _resolvable(catalog):
        outcome = explore(catalog.resolve(name).rules)
        if not outcome.ok or ROUND_ENDS not in outcome.abilities:
            failing.append((name, outcome))
    assert not failing, failing


@pytest.mark.slow
def test_the_table_is_what_the_search_finds_today() -> None:
    """The file is generated; running the sweep again must write the same text, so a
    change of the engine or the registry that changes a finding shows here. The result does
    not depend on the number of processes, so it takes as many as there are cores."""
    data = termination.sweep(load_catalog(), jobs=os.cpu_count() or 1)
    shipped = (spec_dir() / termination.FILE).read_text(encoding="utf-8")
    assert termination.render(data) == shipped
