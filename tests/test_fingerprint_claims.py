"""schwimmen fingerprint claims only what the engine's answers show.

A change is claimed only when cases the engine answered fail without it and pass with
it; an engine that passes nothing, answers garbage, answers at random, crashes or hangs
gets a non-zero exit, no claim and no house rule; a base cannot win by having its cases
skipped; a pass an engine doing nothing has too supports nothing. The fixed-rules
engines are the reference playing a known mutant (``serve --play ... --fixed-rules``),
so what must be named is known.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from schwimmen.cli.main import main
from schwimmen.conformance.fingerprint import fingerprint
from schwimmen.conformance.harness import Options
from schwimmen.engine.adapter import run_case
from schwimmen.protocol.server import playing
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
SERVE = f"{sys.executable} -m schwimmen serve"


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["fingerprint", "--quiet", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
@pytest.mark.parametrize(
    "mode", ["nothing", "wrong", "type:steps=5", "type:legal=[[1]]", "random:1"]
)
def test_a_hostile_engine_gets_no_claim_no_house_rule_and_a_non_zero_exit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str
) -> None:
    rule = tmp_path / "hostile.yaml"
    impl = f"{sys.executable} {FAKE} {mode}"
    args = ["--impl", impl, "--base", "pagat", "-j", "2", "--timeout", "0.5"]
    code, out, err = _cli(capsys, *args, "--format", "json", "--emit-house-rule", str(rule))
    data = json.loads(out)
    assert code == 1, (data["summary"], err)
    assert not data["told"]
    assert data["summary"].startswith("no fingerprint: ")
    assert "too little judged to tell" in data["summary"]
    assert not rule.exists()
    assert "not written" in err


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["crash:3", "hang-every:3"])
def test_a_crashing_or_hanging_engine_is_stopped_by_the_total_budget(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, mode: str
) -> None:
    rule = tmp_path / "hostile.yaml"
    impl = f"{sys.executable} {FAKE} {mode}"
    started = time.monotonic()
    code = main(
        [
            "fingerprint",
            "--impl",
            impl,
            "--timeout",
            "0.3",
            "--timeout-total",
            "6",
            "--emit-house-rule",
            str(rule),
        ]
    )
    elapsed = time.monotonic() - started
    out, err = capsys.readouterr()
    assert code == 1, out
    assert elapsed < 30, elapsed
    line = out.splitlines()[2]
    assert "too little judged to tell" in line and "time budget of 6 s" in line, line
    assert "is spent: stopping" in err
    assert not rule.exists()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["crash:3", "hang-every:3"])
def test_a_crashing_or_hanging_engine_is_told_too_unreliable_when_run_through(
    capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    impl = f"{sys.executable} {FAKE} {mode}"
    code, out, _ = _cli(capsys, "--impl", impl, "--base", "pagat", "-j", "2", "--timeout", "0.3")
    assert code == 1, out
    assert "too little judged to tell: the engine errored on" in out


@pytest.mark.slow
def test_a_fixed_rules_mutant_is_named_with_exactly_its_change_and_the_fixtures_showing_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    impl = f"{SERVE} --play pagat --set penalties.knocker_lowest=2 --fixed-rules"
    rule = tmp_path / "knocker-pays-two.yaml"
    code, out, err = _cli(
        capsys, "--impl", impl, "-j", "2", "--format", "json", "--emit-house-rule", str(rule)
    )
    data = json.loads(out)
    assert code == 0, (data["summary"], err)
    assert data["fixed_rules"] and data["told"]
    closest = data["closest"]
    assert closest["base"] == "pagat"
    assert closest["changes"] == {"penalties.knocker_lowest": 2}
    (deviation,) = closest["deviations"]
    assert "knocking/knocker-lowest" in deviation["shown_by"]
    assert deviation["explains"] == len(deviation["shown_by"])
    assert closest["cannot_tell"] == []
    tally = closest["tally"]
    assert tally["failed"] > 0 and tally["failed_with_changes"] == 0
    assert tally["out_of_judgement"] == len(closest["out_of_judgement"])
    # every base judged the same answers: one entry per base, each with its tally
    assert len(data["bases"]) > 10 and all("tally" in b for b in data["bases"])
    # the house rule, re-judged by the suite on the same engine, passes what it judges
    assert main(["validate", str(rule), "--no-quotes"]) == 0
    capsys.readouterr()
    assert main(["conformance", "--impl", impl, "--ruleset", f"pagat+{rule}"]) == 0
    (last,) = [ln for ln in capsys.readouterr().out.splitlines() if " judged: " in ln]
    # the fingerprint re-judged pagat's cases with the change, and the cases only the
    # change gives a fixture (one whose only case pins the changed value): as the suite does
    assert int(last.split()[0]) == tally["judged_with_changes"], last


@pytest.mark.slow
def test_a_house_rule_played_as_fixed_rules_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    impl = f"{SERVE} --play rules-page+knocker-loses-two --fixed-rules"
    code, out, _ = _cli(capsys, "--impl", impl, "-j", "2", "--format", "json")
    data = json.loads(out)
    assert code == 0, data["summary"]
    catalog = Catalog.load()
    truth = catalog.resolve("rules-page+knocker-loses-two").values()
    closest = data["closest"]
    played = catalog.mutant(closest["base"], closest["changes"]).values()
    assert played == truth, data["summary"]


def test_an_existing_house_rule_file_is_never_replaced_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rule = tmp_path / "ours.yaml"
    rule.write_text("kept\n", encoding="utf-8")
    code, out, err = _cli(capsys, "--impl", SERVE, "--emit-house-rule", str(rule))
    assert code == 2 and not out and "--force" in err
    assert rule.read_text(encoding="utf-8") == "kept\n"


def _reference(request: Mapping[str, Any]) -> Mapping[str, Any]:
    return run_case(request)


def test_a_base_that_skips_most_cases_cannot_win(catalog: Catalog) -> None:
    """Under scat the engine answers only hand evaluations (the reference: they pass);
    under rules-page it plays every case with one deviation. Fewest unexplained failures
    alone would pick scat on a handful of cases."""
    deviant = playing(
        catalog.mutant("rules-page", {"penalties.knocker_lowest": 2}).values(), run_case
    )

    def engine(request: Mapping[str, Any]) -> Mapping[str, Any]:
        if request["ruleset"]["id"] == "scat":
            if request["kind"] != "hand-evaluation":
                return {"status": "skipped", "reason": "not played here"}
            return run_case(request)
        return deviant(request)

    found = fingerprint(catalog, Options(), ["scat", "rules-page"], engine)
    assert found.told, found.doubt
    best = found.closest
    assert best is not None and best.base == "rules-page"
    assert best.changes == {"penalties.knocker_lowest": 2}
    scat = next(e for e in found.explanations if e.base == "scat")
    assert scat.judged < best.judged // 2


def test_passes_an_idle_engine_has_too_support_nothing(catalog: Catalog) -> None:
    """An engine that deals and then refuses every move (with the reason the reference
    gives where the reference refuses too) passes every case that expects a move
    refused: those passes are counted apart, support no claim, and nothing is told."""

    def idle(request: Mapping[str, Any]) -> Mapping[str, Any]:
        played = run_case(request)
        dealt = {k: v for k, v in request.items() if k not in ("steps", "checkpoints")}
        answer = run_case(dealt)
        if answer.get("status") != "ok" or played.get("status") != "ok":
            return answer
        refused = [
            step if step.get("accepted") is False else {"accepted": False, "reason": "wrong-phase"}
            for step in played["outcome"].get("steps", [])
        ]
        return {**answer, "outcome": {**answer["outcome"], "steps": refused}}

    found = fingerprint(catalog, Options(), ["rules-page", "pagat"], idle)
    assert not found.told
    assert found.doubt is not None and "too little judged to tell" in found.doubt
    best = found.closest
    assert best is not None and best.base_idle
    idle_ids = set(best.idle)
    for deviation in best.deviations:
        assert idle_ids.isdisjoint(deviation.shows)
