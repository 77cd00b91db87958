"""The reference engine passes every conformance case in-process: the fixtures are the
engine's scenario tests (rules-matrix §3) as well as the contract for other engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.conformance.runner import Status, planned, run_in_process
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog


def _rulesets(catalog: Catalog) -> list[str]:
    names = sorted(catalog.rulesets)
    names += [f"{sf.data['origin']}+{hid}" for hid, sf in sorted(catalog.house_rules.items())]
    return names


def test_fixtures_load_without_errors() -> None:
    fixtures, errors = load_fixtures()
    assert [str(e) for e in errors] == []
    assert fixtures


def test_reference_passes_every_case(catalog: Catalog) -> None:
    fixtures, _ = load_fixtures()
    rulesets = [catalog.resolve(n) for n in _rulesets(catalog)]
    results = run_in_process(planned(fixtures, rulesets), run_case)
    bad = [
        f"{r.key} ({r.case.label()}): {r.status.value} {r.message} "
        + "; ".join(str(m) for m in r.mismatches)
        for r in results
        if r.status is not Status.PASSED
    ]
    assert not bad, "\n".join(bad)
    assert results


@pytest.mark.parametrize("name", ["pagat", "scat"])
def test_every_ruleset_gets_cases(catalog: Catalog, name: str) -> None:
    fixtures, _ = load_fixtures()
    assert planned(fixtures, [catalog.resolve(name)])


@pytest.mark.slow
def test_no_case_depends_on_a_parameter_it_does_not_pin() -> None:
    """Mutation lint: a house rule changing any unpinned parameter leaves outcomes alone."""
    from schwimmen.conformance.mutations import hidden_dependencies

    fixtures, _ = load_fixtures()
    hidden, tried = hidden_dependencies(fixtures)
    assert tried > 100
    assert [str(h) for h in hidden] == []


def test_lint_finds_a_card_dealt_twice(catalog: Catalog, tmp_path: Path) -> None:
    """No pack holds a card twice: a fixture dealing one twice cannot be set up."""
    from schwimmen.conformance.lint import lint
    from schwimmen.resources import conformance_dir

    original = conformance_dir() / "fixtures" / "round" / "thirty-one-by-a-swap.yaml"
    broken = original.read_text(encoding="utf-8").replace("P2: [KC, 9C, 7D]", "P2: [KC, 9C, AH]")
    assert "AH" in broken.split("P2:")[1].split("\n")[0]
    target = tmp_path / "round" / "thirty-one-by-a-swap.yaml"
    target.parent.mkdir()
    target.write_text(broken, encoding="utf-8")
    errors, count = lint(catalog, tmp_path)
    assert count == 1
    assert [e.message for e in errors if "twice" in e.message] == [
        "card AH is dealt twice (also at hands.P1.0)"
    ]
