"""Composition lint (issue 19): the reference passes every case the suite selects for any
house rule on any ruleset it fits, for every pair of house rules on the origin of either and
for a seeded sample of triples; a failure names the parameter the case does not pin."""

from __future__ import annotations

from pathlib import Path

import pytest

from schwimmen.conformance.compositions import check, compositions, sample
from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.resources import conformance_dir
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog

TIED = "thirty-one/thirty-one-against-thirty-one-shown-down"
NAMED = "rules-page+knocker-loses-two+knocker-tied-loses-one"


def test_the_plan_holds_every_house_rule_where_it_resolves(catalog: Catalog) -> None:
    plan = compositions(catalog)
    for name in plan.names:
        catalog.resolve(name)  # each is a ruleset `schwimmen show` accepts
    for base in catalog.rulesets:
        for rule in catalog.house_rules:
            name = f"{base}{SEPARATOR}{rule}"
            try:
                catalog.resolve(name)
            except SpecErrors:
                assert name not in plan.singles
            else:
                assert name in plan.singles
    assert NAMED in plan.pairs  # the composition knocker-tied-loses-one's note names
    assert plan.triples and all(n.count(SEPARATOR) == 3 for n in plan.triples)
    assert compositions(catalog).triples == plan.triples  # seeded


def test_the_reference_passes_a_seeded_sample_of_compositions(catalog: Catalog) -> None:
    fixtures, _ = load_fixtures()
    names = sample(compositions(catalog), 30)
    passing = [catalog.resolve(n) for n in catalog.standard_names()]
    failures, distinct = check(catalog, fixtures, names, passing)
    assert distinct > 20
    assert [str(f) for f in failures] == []


def test_a_failure_names_the_parameter_the_case_does_not_pin(
    catalog: Catalog, tmp_path: Path
) -> None:
    original = (conformance_dir() / "fixtures" / f"{TIED}.yaml").read_text(encoding="utf-8")
    pin = ", penalties.knocker_tied: [knocker-penalty]"
    assert pin in original
    target = tmp_path / f"{TIED}.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(original.replace(pin, ""), encoding="utf-8")
    fixtures, _ = load_fixtures(tmp_path)
    passing = [catalog.resolve(n) for n in catalog.standard_names()]
    failures, _ = check(catalog, fixtures, [NAMED], passing)
    (failure,) = failures
    assert failure.failure.ruleset == NAMED
    assert [u[0] for u in failure.failure.unpinned] == ["penalties.knocker_tied"]
    assert "which its case does not pin" in str(failure)


@pytest.mark.slow
def test_the_reference_passes_every_composition(catalog: Catalog) -> None:
    fixtures, _ = load_fixtures()
    plan = compositions(catalog)
    passing = [catalog.resolve(n) for n in catalog.standard_names()]
    failures, distinct = check(catalog, fixtures, plan.names, passing)
    assert distinct > 500
    assert [str(f) for f in failures] == []


@pytest.mark.slow
def test_no_case_depends_on_a_parameter_it_does_not_pin_next_to_a_house_rule(
    catalog: Catalog,
) -> None:
    from schwimmen.conformance.mutations import hidden_dependencies

    fixtures, _ = load_fixtures()
    hidden, tried = hidden_dependencies(fixtures, catalog.standard_names())
    assert tried > 1000
    assert [str(h) for h in hidden] == []
