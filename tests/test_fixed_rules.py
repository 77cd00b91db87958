"""A fixed-rules engine (start answer ``fixed_rules: true``): each distinct position is sent
once, without its ruleset, and the one answer is judged against every planned ruleset;
nothing is skipped for not being claimed, and the reports speak of agreement."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from schwimmen.conformance import report
from schwimmen.conformance.fixtures import load_fixtures, select
from schwimmen.conformance.harness import Options, SuiteResult, position_key, run_suite
from schwimmen.conformance.runner import Status, planned
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
PATTERN = "second"
RULESETS = ("pagat", "online", "dutch", "pagat+no-triples")


def _fixed(catalog: Catalog, mode: str = "fixed", **kw: Any) -> SuiteResult:
    options = Options(
        impl=f"{sys.executable} {FAKE} {mode}",
        rulesets=kw.pop("rulesets", RULESETS),
        pattern=kw.pop("pattern", PATTERN),
        **kw,
    )
    return run_suite(catalog, options)


def _positions(catalog: Catalog, rulesets: tuple[str, ...] = RULESETS) -> set[str]:
    fixtures = select(load_fixtures()[0], pattern=PATTERN)
    plan = planned(fixtures, [catalog.resolve(n) for n in rulesets])
    return {position_key(f.request(r)) for f, _, r in plan}


@pytest.fixture(scope="module")
def logged(
    catalog: Catalog, tmp_path_factory: pytest.TempPathFactory
) -> tuple[SuiteResult, list[dict[str, Any]]]:
    log = tmp_path_factory.mktemp("fixed") / "requests.jsonl"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FAKE_LOG", str(log))
        suite = _fixed(catalog)
    return suite, [json.loads(line) for line in log.read_text().splitlines()]


def test_each_position_is_sent_once_without_its_ruleset(
    catalog: Catalog, logged: tuple[SuiteResult, list[dict[str, Any]]]
) -> None:
    suite, requests = logged
    assert all("ruleset" not in r for r in requests)
    keys = [position_key(r) for r in requests]
    assert len(keys) == len(set(keys)) == len(_positions(catalog)) == suite.positions
    assert len(suite.results) > suite.positions  # one answer judged for several rulesets
    assert suite.fixed_rules and suite.implementation["fixed_rules"] is True


def test_nothing_is_skipped_for_not_being_claimed_and_agreement_is_per_ruleset(
    logged: tuple[SuiteResult, list[dict[str, Any]]],
) -> None:
    suite, _ = logged
    assert not [r for r in suite.results if r.status is Status.SKIPPED]
    rows = {a.ruleset: a for a in suite.agreement()}
    assert set(rows) == set(RULESETS)
    # the fake plays pagat: full agreement with pagat, and it comes first
    assert rows["pagat"].full and suite.agreement()[0].full
    assert rows["dutch"].failed > 0  # dutch scores this position differently
    assert rows["pagat"].line() == f"agrees with pagat on all {rows['pagat'].judged} judged cases"


def test_the_default_run_verdict_is_agreement_not_a_claim(catalog: Catalog) -> None:
    suite = _fixed(catalog, rulesets=())
    verdict = suite.verdict()
    assert verdict.ok, verdict.line
    assert "agrees with" in verdict.line and "claims no ruleset" in verdict.line
    assert f"{suite.positions} positions sent" in verdict.line
    assert len(suite.rulesets) > 10


def test_a_named_ruleset_is_judged_alone(catalog: Catalog) -> None:
    dutch = _fixed(catalog, rulesets=("dutch",))
    assert {r.ruleset for r in dutch.results} == {"dutch"}
    assert not dutch.ok and "does not conform" in dutch.verdict().line


@pytest.mark.slow
def test_a_timed_out_answer_errs_every_case_that_shares_it(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_FIXED", "1")
    suite = _fixed(catalog, "hang-every:5", timeout=0.5)
    errored = [r for r in suite.results if r.status is Status.ERRORED]
    assert errored and suite.positions_errored >= 1
    by_position: dict[str, set[Status]] = {}
    for r in suite.results:
        key = position_key({k: v for k, v in r.fixture.request(r.spec).items()}) if r.spec else ""
        by_position.setdefault(key, set()).add(r.status)
    # a position's cases are all errored or none is: they share one answer
    assert all(s == {Status.ERRORED} or Status.ERRORED not in s for s in by_position.values())
    assert sum(s == {Status.ERRORED} for s in by_position.values()) == suite.positions_errored
    assert "timed out" in errored[0].message


def test_reports_carry_the_agreement(logged: tuple[SuiteResult, list[dict[str, Any]]]) -> None:
    suite, _ = logged
    data = report.to_json(suite)
    assert data["fixed_rules"] is True and data["positions"] == suite.positions
    assert data["agreement"][0]["ruleset"] == suite.agreement()[0].ruleset
    assert all(a["agreement"].startswith("agrees with") for a in data["agreement"])
    props = {
        p.get("name"): p.get("value")
        for p in ET.fromstring(report.to_junit(suite)).iter("property")
    }
    assert props["positions"] == str(suite.positions)
    assert props["agreement.pagat"].startswith("agrees with pagat on all")
    text = report.to_markdown(suite)
    assert "plays rules of its own (fixed_rules)" in text and "| agreement |" in text


def test_the_in_process_dedup_asks_each_position_once(catalog: Catalog) -> None:
    asked: list[Mapping[str, Any]] = []
    pagat = catalog.resolve("pagat")

    def engine(request: Mapping[str, Any]) -> Mapping[str, Any]:
        asked.append(request)
        return run_case({**request, "ruleset": {"id": "pagat", "parameters": pagat.values()}})

    options = Options(rulesets=RULESETS, pattern=PATTERN, fixed_rules=True)
    suite = run_suite(catalog, options, implementation=engine)
    assert len(asked) == suite.positions == len(_positions(catalog))
    assert all("ruleset" not in r for r in asked)
    assert {a.ruleset for a in suite.agreement() if a.full} >= {"pagat", "pagat+no-triples"}


def test_a_composition_an_adapter_does_not_list_says_why_nothing_was_judged(
    catalog: Catalog,
) -> None:
    """An adapter that lists its rulesets (pagat) run with a composition it does not list:
    every case is skipped without asking, and the verdict says why and how to run it."""
    suite = _fixed(catalog, "pagat-only", rulesets=("pagat+no-triples",))
    assert {r.status for r in suite.results} == {Status.SKIPPED}
    line = suite.verdict().line
    assert not suite.ok and line.startswith("nothing was judged: fake-pagat-only lists")
    assert "(pagat) and pagat+no-triples is not among them" in line
    assert "fixed_rules" in line and "any_ruleset" in line
    assert suite.unclaimed() == ["pagat+no-triples"]
    # a ruleset it does list is run as before, and nothing is said
    assert not _fixed(catalog, "pagat-only", rulesets=("pagat",)).unclaimed_line()
