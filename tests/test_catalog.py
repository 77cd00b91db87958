"""Every shipped ruleset and house rule validates, resolves, and is complete."""

from __future__ import annotations

import pytest

from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.parameters import PARAMETERS, applicable

EXPECTED_RULESETS = {
    "altenburg",
    "pagat",
    "dutch",
    "tri-palki",
    "forty-one",
    "hosa-aba",
    "rules-page",
    "beginner-guide",
    "online",
    "scat",
}


def test_the_ten_rulesets_are_shipped(catalog: Catalog) -> None:
    assert set(catalog.rulesets) == EXPECTED_RULESETS


def test_the_whole_catalog_is_clean(catalog: Catalog) -> None:
    assert [str(e) for e in catalog.check_all()] == []


def test_every_ruleset_sets_every_applicable_parameter(catalog: Catalog) -> None:
    for rid in catalog.rulesets:
        ruleset = catalog.resolve(rid)
        values = {k: s.value for k, s in ruleset.settings.items()}
        for param in PARAMETERS:
            applies = applicable(param, values) is None
            assert (param.path in ruleset.settings) == applies, (rid, param.path)


def test_every_house_rule_resolves_on_its_origin(catalog: Catalog) -> None:
    assert len(catalog.house_rules) >= 14
    for hid, sf in catalog.house_rules.items():
        ruleset = catalog.resolve(f"{sf.data['origin']}+{hid}")
        changed = [s for s in ruleset.settings.values() if s.origin == hid]
        assert changed, f"{hid} changes nothing"


def test_compositions_resolve_deterministically(catalog: Catalog) -> None:
    name = "pagat+knocker-loses-two+pass-once-per-round"
    first = catalog.resolve(name)
    again = Catalog.load().resolve(name)
    assert first.values() == again.values()
    assert first.settings["penalties.knocker_lowest"].value == 2
    assert first.settings["turns.passing"].value == "once-per-deal"
    assert first.settings["penalties.knocker_lowest"].origin == "knocker-loses-two"


def test_house_rule_order_does_not_change_the_values(catalog: Catalog) -> None:
    a = catalog.resolve("pagat+knocker-loses-two+pass-once-per-round")
    b = catalog.resolve("pagat+pass-once-per-round+knocker-loses-two")
    assert a.values() == b.values()


def test_conflicting_house_rules_name_both_files_and_the_parameter(catalog: Catalog) -> None:
    with pytest.raises(SpecErrors) as info:
        catalog.resolve("pagat+triples-thirty+no-triples")
    text = str(info.value)
    assert "triples.points" in text
    assert "triples-thirty" in text and "no-triples" in text
    assert "spec/house-rules/no-triples.yaml:" in text


def test_a_middle_rule_on_the_draw_game_is_rejected(catalog: Catalog) -> None:
    with pytest.raises(SpecErrors) as info:
        catalog.resolve("scat+hidden-middle")
    text = str(info.value)
    assert "hidden-middle" in text and "scat" in text
    assert "middle" in text


def test_unknown_names_are_reported(catalog: Catalog) -> None:
    with pytest.raises(SpecErrors, match="unknown ruleset 'nope'"):
        catalog.resolve("nope")
    with pytest.raises(SpecErrors, match="unknown house rule 'nope'"):
        catalog.resolve("pagat+nope")


def test_points_are_exact_halves(catalog: Catalog) -> None:
    rules = catalog.resolve("pagat").rules
    assert rules.triples.points is not None
    assert rules.triples.points * 2 == 61


def test_a_mutant_changes_only_what_it_is_asked_and_registers_nothing(catalog: Catalog) -> None:
    from schwimmen.spec.errors import SpecErrors

    names = catalog.standard_names()
    base = catalog.resolve("pagat")
    mutant = catalog.mutant("pagat", {"penalties.knocker_lowest": 2})
    assert mutant.id == "pagat+{penalties.knocker_lowest=2}"
    changed = {k for k in base.settings if base.value(k) != mutant.value(k)}
    assert changed == {"penalties.knocker_lowest"}
    assert mutant.settings["penalties.knocker_lowest"].provenance.why == "mutation"
    assert catalog.standard_names() == names
    with pytest.raises(SpecErrors) as info:
        catalog.mutant("pagat", {"penalties.lowest": "two"})
    assert "penalties.lowest" in str(info.value.errors[0])


def test_feuer_on_its_holders_move_has_no_penalty_at_the_deal(catalog: Catalog) -> None:
    """Where dealt Feuer or 31 waits for its holder's move, nothing ends a round at the
    deal on it, so its penalty at the deal does not apply; a house rule that sets it on top
    is rejected, naming the parameter that makes it inapplicable."""
    pagat = catalog.resolve("pagat").values()
    for house_rule, param, penalty in (
        ("feuer-on-own-move", "three_aces.at_deal", "three_aces.penalty_at_deal"),
        ("thirty-one-on-own-move", "maximum.at_deal", "maximum.penalty_at_deal"),
    ):
        values = catalog.resolve(f"pagat+{house_rule}").values()
        assert values[param] == "on-own-move"
        assert penalty not in values and penalty in pagat
        with pytest.raises(SpecErrors) as info:
            catalog.resolve(f"pagat+{house_rule}+thirty-one-at-deal")
        assert param in str(info.value)


def test_every_ruleset_with_feuer_says_when_dealt_feuer_acts(catalog: Catalog) -> None:
    for name in catalog.standard_names():
        values = catalog.resolve(name).values()
        assert ("three_aces.at_deal" in values) == (values["three_aces.kind"] == "feuer"), name
