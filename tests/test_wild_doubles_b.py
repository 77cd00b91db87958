"""Two engines "in the wild" (tests/fakes/blitz, tests/fakes/knack) behave as their READMEs
and truth.yaml say, so that fingerprint and fuzz tests can be written on top of them.

Each engine plays fixed rules of its own, close to one ruleset of the catalog (its
truth.yaml's ``base``). The suite is run against it under that base, over the protocol,
with the CLI an implementer would use, and the report must show what its description
predicts: every planned case accounted for, a run that is not green, the fixtures that
a listed deviation decides failing, its habits (skips, missing reason codes, crashes,
errored tables) where they should be. Where no fixture can show a deviation (the
habits mask it), the engine and the reference are given the same position directly and
must differ exactly there.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from schwimmen.conformance.harness import Options, run_suite
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog

FAKES = Path(__file__).parent / "fakes"
BLITZ = f"node {FAKES / 'blitz' / 'engine.mjs'}"
KNACK = f"{sys.executable} {FAKES / 'knack' / 'engine.py'}"
NO_NODE = shutil.which("node") is None
needs_node = pytest.mark.skipif(NO_NODE, reason="node is not installed: blitz is not run")


@dataclass(frozen=True)
class Run:
    status: int
    report: dict[str, Any]

    def result(self, fixture: str) -> dict[str, Any]:
        found: list[dict[str, Any]] = [r for r in self.report["results"] if r["fixture"] == fixture]
        assert len(found) == 1, f"{fixture}: {len(found)} cases in the report"
        return found[0]

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [r for r in self.report["results"] if r["kind"] == kind]


def conformance(
    impl: str, base: str, out: Path, env: dict[str, str] | None = None, pattern: str | None = None
) -> Run:
    args = [
        sys.executable,
        "-m",
        "schwimmen",
        "conformance",
        "--impl",
        impl,
        "--ruleset",
        base,
        "--format",
        "json",
        "--output",
        str(out),
    ]
    if pattern:
        args += ["-k", pattern]
    proc = subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert out.exists(), proc.stderr
    return Run(proc.returncode, json.loads(out.read_text(encoding="utf-8")))


def truth(name: str) -> dict[str, Any]:
    data = yaml.safe_load((FAKES / name / "truth.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


_PLANS: dict[str, dict[tuple[str, str], int]] = {}


def planned(catalog: Catalog, base: str) -> dict[tuple[str, str], int]:
    """Every case the suite plans under ``base``, with its fixture's number of seats."""
    if base not in _PLANS:
        suite = run_suite(catalog, Options(rulesets=(base,)))
        _PLANS[base] = {
            (r.fixture.id, r.case.name): int(r.fixture.setup.get("seats", 0)) for r in suite.results
        }
    return _PLANS[base]


@functools.cache
def parameters(ruleset: str) -> dict[str, Any]:
    shown = subprocess.run(
        [sys.executable, "-m", "schwimmen", "show", ruleset, "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    return {k: v["value"] for k, v in json.loads(shown.stdout)["parameters"].items()}


def ask(impl: str, case: dict[str, Any], env: dict[str, str] | None = None) -> list[Any]:
    """The start answer and the answer to one run request, straight over the protocol."""
    lines = [
        {"cmd": "start", "version": 1},
        {"cmd": "run", "seq": 1, "case": case},
        {"cmd": "stop"},
    ]
    proc = subprocess.run(
        impl.split(" "),
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env={**os.environ, **(env or {})},
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


def failed_on(run: Run, fixture: str) -> list[str]:
    r = run.result(fixture)
    assert r["status"] == "failed", f"{fixture}: {r['status']} {r['message']}"
    return [m["path"] for m in r["mismatches"]]


@pytest.fixture(scope="module")
def blitz(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    if NO_NODE:
        pytest.skip("node is not installed: blitz is not run")
    yield conformance(BLITZ, "scat", tmp_path_factory.mktemp("blitz") / "report.json")


@pytest.fixture(scope="module")
def knack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    yield conformance(KNACK, "pagat", tmp_path_factory.mktemp("knack") / "report.json")


# ----------------------------------------------------------------------------- blitz


@pytest.mark.slow
@needs_node
def test_blitz_every_case_is_accounted_for(blitz: Run, catalog: Catalog) -> None:
    assert truth("blitz")["base"] == "scat"
    plan = planned(catalog, "scat")
    got = {(r["fixture"], r["case"]) for r in blitz.report["results"]}
    assert got == set(plan)
    counts = blitz.report["counts"]
    assert sum(counts.values()) == len(plan)
    assert blitz.status == 1
    assert not blitz.report["verdict"]["ok"]
    assert blitz.report["not_reported"] == truth("blitz")["not_reported"] == []


@needs_node
def test_blitz_skips_showdown_and_setup_and_only_those(blitz: Run) -> None:
    for kind in ("showdown", "setup"):
        assert blitz.of_kind(kind)
        assert {r["status"] for r in blitz.of_kind(kind)} == {"skipped"}
    assert all(
        r["kind"] in ("showdown", "setup")
        for r in blitz.report["results"]
        if r["status"] == "skipped"
    )
    assert {r["status"] for r in blitz.of_kind("hand-evaluation")} == {"passed"}


@needs_node
@pytest.mark.parametrize(
    "fixture",
    ["scat/second-knock", "scat/no-rediscard", "scat/empty-discard", "scat/discard-not-in-hand"],
)
def test_blitz_refuses_without_a_reason_and_fails_only_there(blitz: Run, fixture: str) -> None:
    mismatches = blitz.result(fixture)["mismatches"]
    assert blitz.result(fixture)["status"] == "failed"
    assert mismatches and all(m["path"].startswith("steps.") for m in mismatches)
    assert all("not reported" in str(m["actual"]) for m in mismatches)


@pytest.mark.slow
@needs_node
def test_blitz_is_right_once_the_missing_reason_is_declared(tmp_path: Path) -> None:
    run = conformance(
        BLITZ,
        "scat",
        tmp_path / "r.json",
        pattern="scat/",
        env={"WILD_START": json.dumps({"not_reported": ["steps.reason"]})},
    )
    assert run.report["not_reported"] == ["steps.reason"]
    for fixture in ("scat/second-knock", "scat/no-rediscard", "scat/knocker-frozen"):
        assert run.result(fixture)["status"] == "passed"
    assert run.report["counts"]["failed"] == 0


@needs_node
@pytest.mark.parametrize("fixture", ["last-cycle/eliminated-seat-scat", "scat/last-two-tie"])
def test_blitz_crashes_on_an_eliminated_seat_in_the_position(blitz: Run, fixture: str) -> None:
    r = blitz.result(fixture)
    assert r["status"] == "errored"
    assert "exit code 1" in r["message"] and "engine.mjs" in r["message"]


@needs_node
@pytest.mark.parametrize(
    "fixture", ["scat/match-won", "lives/swimmer-loses-scat", "lives/losses-to-elimination-scat"]
)
def test_blitz_crashes_when_play_puts_a_seat_out_and_the_run_goes_on(
    blitz: Run, fixture: str
) -> None:
    results = blitz.report["results"]
    r = blitz.result(fixture)
    assert r["status"] == "errored" and "exit code 1" in r["message"]
    later = results[results.index(r) + 1 :]
    assert any(x["status"] == "passed" for x in later) or r is results[-1]
    errored = [x for x in results if x["status"] == "errored"]
    assert all("exit code 1" in x["message"] for x in errored)


@needs_node
def test_blitz_ends_with_no_winner_where_scat_replays() -> None:
    """No fixture shows it under scat: the one that could (scat/last-two-tie) starts with an
    eliminated seat, on which blitz crashes. So the position is given to both directly, and
    to the reference playing scat with blitz's one deviation, which it then matches."""
    deviations = {d["parameter"]: d["value"] for d in truth("blitz")["deviations"]}
    assert deviations == {"match.everyone_out": "no-winner"} and truth("blitz")["outside"] == []
    pack = [
        r + s
        for s in "CSHD"
        for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    ]
    case = {
        "kind": "match",
        "fixture": "two-swimmers-tie",
        "ruleset": {"id": "scat", "parameters": parameters("scat")},
        "seats": 2,
        "lives": 0,
        "hands": {"P1": ["AH", "8H", "7S"], "P2": ["KH", "9H", "7C"]},
        "discard": ["2C"],
        "stock": ["3D", "4S", "5D"],
        "decks": [pack],
        "steps": [
            {"P1": "draw-stock"},
            {"P1": "discard 3D"},
            {"P2": "knock"},
            {"P1": "draw-stock"},
            {"P1": "discard 4S"},
        ],
    }
    reference = run_case(case)["outcome"]
    started, answer = ask(BLITZ, case)
    assert started["any_ruleset"] is True
    ours = answer["outcome"]
    assert ours["rounds"][0]["losses"] == reference["rounds"][0]["losses"] == {"P1": 1, "P2": 2}
    assert reference["match_over"] is False and reference["swimming"] == ["P1", "P2"]
    assert ours["match_over"] is True and ours["winners"] == []
    assert sorted(ours["eliminated"]) == ["P1", "P2"]
    as_blitz = {**parameters("scat"), **deviations}
    played = run_case({**case, "ruleset": {"id": "scat+blitz", "parameters": as_blitz}})["outcome"]
    assert played["match_over"] is True and played["winners"] == ours["winners"]
    assert sorted(played["eliminated"]) == sorted(ours["eliminated"])


@needs_node
def test_blitz_start_answer_takes_wild_start() -> None:
    started = ask(
        BLITZ,
        {"kind": "setup", "ruleset": {"id": "scat", "parameters": {}}, "seats": 3},
        env={"WILD_START": '{"any_ruleset": false, "rulesets": ["scat"]}'},
    )
    assert started[0]["any_ruleset"] is False and started[0]["rulesets"] == ["scat"]
    assert started[1]["status"] == "skipped"


# ----------------------------------------------------------------------------- knack


def test_knack_every_case_is_accounted_for(knack: Run, catalog: Catalog) -> None:
    assert truth("knack")["base"] == "pagat"
    plan = planned(catalog, "pagat")
    got = {(r["fixture"], r["case"]) for r in knack.report["results"]}
    assert got == set(plan)
    assert sum(knack.report["counts"].values()) == len(plan)
    assert knack.report["counts"]["skipped"] == 0
    assert knack.status == 1
    assert knack.report["not_reported"] == truth("knack")["not_reported"]


def test_knack_errors_exactly_the_tables_of_more_than_five(knack: Run, catalog: Catalog) -> None:
    plan = planned(catalog, "pagat")
    big = {key for key, seats in plan.items() if seats > 5}
    assert {key[0] for key in big} >= {"setup/six-players", "passing/stock-short-six-players"}
    for r in knack.report["results"]:
        if (r["fixture"], r["case"]) in big:
            assert r["status"] == "errored" and r["message"] == "only five chairs"
        else:
            assert r["status"] != "errored", r


def test_knack_deviations_are_listed() -> None:
    deviations = {d["parameter"]: d["value"] for d in truth("knack")["deviations"]}
    assert deviations == {
        "turns.passing": "forbidden",
        "three_aces.kind": "ordinary",
        "comparison.suit_order": "none",
        "turns.swaps": ["one"],
    }
    base = parameters("pagat")
    assert all(base[p] != v for p, v in deviations.items())
    assert [o["rule"] for o in truth("knack")["outside"]] == ["deal-passes-right"]


@pytest.mark.parametrize(
    "fixture",
    ["passing/no-passing-dutch", "knocking/pass-and-close", "knocking/knock-first-turn-a"],
)
def test_knack_no_passing(knack: Run, fixture: str) -> None:
    failed_on(knack, fixture)
    actual = [m["actual"] for m in knack.result(fixture)["mismatches"] if m["path"] == "steps.1"]
    assert actual == [{"rejected": "no-pass"}]


@pytest.mark.parametrize(
    "fixture", ["evaluation/three-aces", "showdown/aces-and-kings", "feuer/aces-kings-queens-dealt"]
)
def test_knack_three_aces_are_no_feuer(knack: Run, fixture: str) -> None:
    paths = failed_on(knack, fixture)
    assert not any(p.startswith("steps") for p in paths)


@pytest.mark.parametrize(
    "fixture",
    [
        "showdown/equal-totals-different-suits",
        "showdown/four-suits-tied",
        "thirty-one/thirty-one-against-thirty-one",
    ],
)
def test_knack_no_suit_order(knack: Run, fixture: str) -> None:
    assert failed_on(knack, fixture) in (["losses"], ["end.losses"])


@pytest.mark.parametrize(
    "fixture", ["passing/three-card-swap", "passing/three-card-swap-written-out"]
)
def test_knack_has_no_swap_all(knack: Run, fixture: str) -> None:
    failed_on(knack, fixture)
    first = knack.result(fixture)["mismatches"][0]
    assert first["path"] == "steps.1" and first["actual"] == {"rejected": "unsupported"}


def test_knack_passes_where_it_agrees_with_pagat(knack: Run) -> None:
    for fixture in (
        "round/swap-names-cards-not-there",
        "knocking/swap-and-close",
        "dealing/stacked-pack-extra-hand-take",
        "setup/five-players",
    ):
        assert knack.result(fixture)["status"] == "passed", fixture


def test_knack_deals_to_the_right_where_pagat_deals_to_the_left() -> None:
    """Every pagat fixture that moves the deal closes with a pass or a bare knock, which
    knack refuses (no-pass), so the suite never shows the deal going right: the same
    round, closed with a swap, is given to knack and the reference directly."""
    pack = [r + s for s in "CSHD" for r in ["7", "8", "9", "10", "J", "Q", "K", "A"]]
    case = {
        "kind": "match",
        "fixture": "deal-moves-on",
        "ruleset": {"id": "pagat", "parameters": parameters("pagat")},
        "seats": 3,
        "dealer": "P3",
        "hands": {"P1": ["KH", "9S", "7D"], "P2": ["KC", "9C", "7S"], "P3": ["AD", "JD", "8S"]},
        "middle": ["10H", "8D", "7C"],
        "stock": [],
        "decks": [pack],
        "steps": [{"P1": "swap 9S 10H knock"}, {"P2": "swap 7S 7C"}, {"P3": "swap 8S 8D"}],
    }
    reference = run_case(case)["outcome"]
    started, answer = ask(KNACK, case)
    assert started["not_reported"] == ["rounds.hands", "rounds.values"]
    ours = answer["outcome"]
    assert len(ours["rounds"]) == len(reference["rounds"]) == 1
    assert ours["rounds"][0]["losses"] == reference["rounds"][0]["losses"] == {"P1": 1}
    assert "hands" not in ours["rounds"][0] and "values" not in ours["rounds"][0]
    assert reference["dealer"] == "P1"
    assert ours["dealer"] == "P2"
