"""Two engines "in the wild" (tests/fakes/stammtisch, tests/fakes/nurgeben) behave as their
READMEs describe them when the suite runs against them under their base ruleset.

They are the test doubles for fingerprint and fuzz: independent engines with fixed rules of
their own, habits (skips, unreported fields) and gaps. Each expectation below comes from
the engine's description (its README and truth.yaml): a deviation fails the fixtures that
pin the base's rule, a habit skips what it says it skips, and every planned case is
accounted for. The suite is run through the CLI, as any implementer runs it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
FAKES = ROOT / "tests" / "fakes"
FIXTURES = ROOT / "conformance" / "fixtures"
BASE = "rules-page"
ENGINES = ("stammtisch", "nurgeben")

Report = dict[str, Any]
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _command(tmp: Path, name: str, *args: str) -> list[str]:
    """`schwimmen conformance ... --format json`, its report written to tmp/NAME.json."""
    command = [sys.executable, "-m", "schwimmen", "conformance", *args]
    return [*command, "--format", "json", "--output", str(tmp / f"{name}.json")]


def _part(report: Report, ruleset: str) -> Report:
    """The part of a run of several rulesets that is about one of them, counted anew."""
    results = [r for r in report["results"] if r["ruleset"] == ruleset]
    counts = {status: 0 for status in ("passed", "failed", "skipped", "errored")}
    for result in results:
        counts[result["status"]] += 1
    return {**report, "results": results, "counts": counts}


def _deviations_house_rule(tmp: Path, engine: str) -> Path:
    """truth.yaml's deviations written as a house rule on the base, to run the suite under."""
    name = f"{engine}-deviations"
    rules: dict[str, dict[str, Any]] = {}
    for deviation in _truth(engine)["deviations"]:
        group, parameter = deviation["parameter"].split(".")
        why = f"{engine}'s truth.yaml: {deviation['words']}"
        rules.setdefault(group, {})[parameter] = {
            "value": deviation["value"],
            "default": {"why": why},
        }
    rule = {
        "id": name,
        "kind": "house-rule",
        "title": f"What {engine} plays differently from {BASE}",
        "summary": f"The deviations that {engine}'s truth.yaml lists.",
        "origin": BASE,
        "rules": rules,
    }
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(rule, sort_keys=False), encoding="utf-8")
    return path


def _impl(engine: str) -> str:
    return f"{sys.executable} {FAKES / engine / 'engine.py'}"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, Report]]:
    """The reference's run of the base (the planned cases) and each engine's, side by side;
    an engine runs the base and the base with its deviations (split apart afterwards)."""
    tmp = tmp_path_factory.mktemp("wild")
    commands = {"reference": _command(tmp, "reference", "--ruleset", BASE)}
    for engine in ENGINES:
        deviated = f"{BASE}+{_deviations_house_rule(tmp, engine)}"
        rulesets = ["--ruleset", BASE, "--ruleset", deviated]
        commands[engine] = _command(
            tmp, engine, "--impl", _impl(engine), *rulesets, "--validate-protocol"
        )
    running = {
        name: subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for name, c in commands.items()
    }
    done: dict[str, tuple[int, Report]] = {}
    for name, process in running.items():
        _, stderr = process.communicate(timeout=120)
        output = tmp / f"{name}.json"
        assert output.exists(), stderr
        done[name] = (process.returncode, json.loads(output.read_text(encoding="utf-8")))
    for engine in ENGINES:
        status, report = done[engine]
        names = {r["ruleset"] for r in report["results"]} - {BASE}
        assert len(names) == 1, names
        done[engine] = (status, _part(report, BASE))
        done[f"{engine}+deviations"] = (status, _part(report, names.pop()))
    return done


@pytest.fixture(scope="module")
def fixtures() -> dict[str, dict[str, Any]]:
    found = {}
    for path in FIXTURES.glob("*/*.yaml"):
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)
        found[data["id"]] = data
    return found


def _truth(engine: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FAKES / engine / "truth.yaml").read_text("utf-8"))
    return data


def _by_fixture(report: Report) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for result in report["results"]:
        grouped.setdefault(result["fixture"], []).append(result)
    return grouped


def _status(report: Report, fixture: str) -> str:
    (result,) = _by_fixture(report)[fixture]
    status: str = result["status"]
    return status


def _mismatch(report: Report, fixture: str, path: str) -> dict[str, Any]:
    (result,) = _by_fixture(report)[fixture]
    assert result["status"] == "failed", (fixture, result["status"], result["message"])
    for mismatch in result["mismatches"]:
        if mismatch["path"] == path:
            found: dict[str, Any] = mismatch
            return found
    raise AssertionError(f"{fixture}: no mismatch at {path}: {result['mismatches']}")


def _keys(report: Report) -> set[tuple[str, str]]:
    return {(r["fixture"], r["case"]) for r in report["results"]}


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_every_planned_case_is_accounted_for(
    runs: dict[str, tuple[int, Report]], engine: str
) -> None:
    """The planned cases are the reference's run of the same ruleset; none is lost."""
    _, reference = runs["reference"]
    status, report = runs[engine]
    counts = report["counts"]
    assert sum(counts.values()) == len(report["results"]) == len(reference["results"])
    assert _keys(report) == _keys(reference)
    assert status == 1 and not report["verdict"]["ok"]
    assert counts["errored"] == 0
    assert report["implementation"]["not_reported"] == _truth(engine)["not_reported"]


@pytest.mark.parametrize(
    ("fixture", "path", "expected", "actual"),
    [
        # dealing.procedure hands-then-middle: no dealer's choice, the hands differ
        ("dealing/dealer-chooses-first", "phase", "dealer-choice", "turn"),
        (
            "dealing/stacked-pack-two-packets-keep",
            "steps.1",
            "accepted",
            {"rejected": "not-your-turn"},
        ),
        # penalties.knocker_lowest 2
        ("showdown/knocker-lowest", "losses.P1", 1, 2),
        ("showdown/knocker-tied-lowest", "losses.P1", 1, 2),
        ("thirty-one/thirty-one-in-the-last-cycle-played-out", "end.losses.P1", 1, 2),
        # a knock needs 20 points
        (
            "options/close-without-thirty-one",
            "steps.1",
            "accepted",
            {"rejected": "knock-needs-maximum"},
        ),
        ("knocking/knock-first-turn-a", "steps.1", "accepted", {"rejected": "knock-needs-maximum"}),
        # the loser deals
        ("options/lowest-loses-one-life", "dealer", "P1", "P3"),
        ("lives/last-life-lost", "dealer", "P1", "P3"),
    ],
)
def test_stammtisch_fails_where_it_deviates(
    runs: dict[str, tuple[int, Report]], fixture: str, path: str, expected: Any, actual: Any
) -> None:
    _, report = runs["stammtisch"]
    mismatch = _mismatch(report, fixture, path)
    assert (mismatch["expected"], mismatch["actual"]) == (expected, actual)


@pytest.mark.parametrize(
    "fixture",
    [
        "feuer/aces-kings-queens-dealt",
        "feuer/feuer-and-thirty-one-dealt",
        "lives/feuer-at-deal-two-lives",
    ],
)
def test_stammtisch_dealt_aces_do_nothing(
    runs: dict[str, tuple[int, Report]], fixture: str
) -> None:
    _, report = runs["stammtisch"]
    mismatch = _mismatch(report, fixture, "end")
    assert mismatch["expected"]["reason"] == "feuer" and mismatch["expected"]["at_deal"] is True
    assert mismatch["actual"] == "nothing"


@pytest.mark.parametrize(
    "fixture",
    [
        "feuer/aces-completed-by-a-swap-a",  # Feuer on his own move, as in the base
        "passing/all-pass",
        "passing/stock-short-second-round",
        "round/swap-names-cards-not-there",
        "knocking/pass-and-close",
        "showdown/knocker-not-lowest",
        "showdown/triples-in-order",
        "evaluation/three-aces",
    ],
)
def test_stammtisch_passes_where_it_agrees(
    runs: dict[str, tuple[int, Report]], fixture: str
) -> None:
    _, report = runs["stammtisch"]
    assert _status(report, fixture) == "passed"


def test_stammtisch_skips_setup_and_the_dealers_choice(
    runs: dict[str, tuple[int, Report]], fixtures: dict[str, dict[str, Any]]
) -> None:
    _, report = runs["stammtisch"]
    skipped = {r["fixture"] for r in report["results"] if r["status"] == "skipped"}
    run = {r["fixture"] for r in report["results"]}
    habits = {f for f in run if fixtures[f]["kind"] == "setup" or "extra" in fixtures[f]}
    assert skipped == habits
    assert any(fixtures[f]["kind"] == "setup" for f in habits)
    assert any("extra" in fixtures[f] for f in habits)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_fixture_of_the_truth_fails(runs: dict[str, tuple[int, Report]], engine: str) -> None:
    """truth.yaml's failing fixtures fail, each for causes it declares."""
    truth = _truth(engine)
    causes = {d["parameter"] for d in truth["deviations"]} | {o["rule"] for o in truth["outside"]}
    _, report = runs[engine]
    grouped = _by_fixture(report)
    for fixture, why in truth["failing"].items():
        assert set(why) <= causes, (fixture, why)
        if fixture in grouped:
            assert [r["status"] for r in grouped[fixture]] == ["failed"], fixture


def test_nurgeben_fails_every_case_with_steps(
    runs: dict[str, tuple[int, Report]], fixtures: dict[str, dict[str, Any]]
) -> None:
    """Every step is answered unsupported, which no fixture expects."""
    _, report = runs["nurgeben"]
    played = [r for r in report["results"] if fixtures[r["fixture"]].get("steps")]
    assert played
    for result in played:
        assert result["status"] == "failed", result["fixture"]
        steps = [m for m in result["mismatches"] if m["path"].startswith("steps.")]
        assert steps and all(m["actual"] == {"rejected": "unsupported"} for m in steps)


@pytest.mark.parametrize(
    ("fixture", "status"),
    [
        ("evaluation/triples", "failed"),  # triples.points none
        ("showdown/three-jacks", "failed"),
        ("evaluation/three-aces", "failed"),  # three_aces.kind ordinary
        ("feuer/aces-kings-queens-dealt", "failed"),
        ("thirty-one/dealers-own-hand-thirty-one", "failed"),  # no dealer's choice
        ("evaluation/card-values", "passed"),
        ("evaluation/best-suit-of-two", "passed"),
        ("showdown/knocker-lowest", "passed"),
        ("thirty-one/dealt-to-one-player", "passed"),
    ],
)
def test_nurgeben_values_and_deal(
    runs: dict[str, tuple[int, Report]], fixture: str, status: str
) -> None:
    _, report = runs["nurgeben"]
    assert _status(report, fixture) == status


def test_nurgeben_passes_every_setup(runs: dict[str, tuple[int, Report]]) -> None:
    _, report = runs["nurgeben"]
    setups = [r for r in report["results"] if r["kind"] == "setup"]
    assert setups and all(r["status"] == "passed" for r in setups)
    assert report["counts"]["skipped"] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_its_deviations_leave_only_the_rules_no_parameter_expresses(
    runs: dict[str, tuple[int, Report]], fixtures: dict[str, dict[str, Any]], engine: str
) -> None:
    """Under the base with truth.yaml's deviations, a fixture failed for deviations alone
    passes, and a planned fixture that still fails has an outside rule among its causes."""
    truth = _truth(engine)
    outside = {o["rule"] for o in truth["outside"]}
    _, base = runs[engine]
    _, deviated = runs[f"{engine}+deviations"]
    planned = {r["fixture"] for r in base["results"]}
    assert deviated["counts"]["errored"] == 0
    assert deviated["counts"]["failed"] < base["counts"]["failed"]
    failed = {r["fixture"] for r in deviated["results"] if r["status"] == "failed"}
    for fixture, why in truth["failing"].items():
        if not set(why) & outside:
            assert fixture not in failed, fixture
    for fixture in failed & planned:
        assert set(truth["failing"].get(fixture, [])) & outside, fixture
    if engine == "nurgeben":
        assert all(fixtures[f].get("steps") for f in failed)


@pytest.mark.parametrize("engine", ENGINES)
def test_wild_start_is_merged_into_the_start_answer(engine: str) -> None:
    claim = {"any_ruleset": False, "rulesets": ["pagat"], "not_reported": ["values.suit"]}
    lines = [{"cmd": "start", "version": 1}, {"cmd": "stop"}]
    answered = subprocess.run(
        [sys.executable, str(FAKES / engine / "engine.py")],
        input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "WILD_START": json.dumps(claim)},
        check=True,
    )
    (answer,) = [json.loads(line) for line in answered.stdout.splitlines()]
    assert answer["ok"] is True and answer["version"] == 1
    assert answer["implementation"]["name"] == engine
    assert {k: answer[k] for k in claim} == claim


@pytest.fixture(scope="module")
def base_parameters() -> dict[str, Any]:
    shown = subprocess.run(
        [sys.executable, "-m", "schwimmen", "show", BASE, "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    parameters: dict[str, Any] = json.loads(shown.stdout)["parameters"]
    return parameters


@pytest.mark.parametrize("engine", ENGINES)
def test_truth_deviations_are_real_parameters_of_the_base(
    base_parameters: dict[str, Any], engine: str
) -> None:
    truth = _truth(engine)
    assert truth["base"] == BASE
    parameters = base_parameters
    assert truth["deviations"]
    for deviation in truth["deviations"]:
        assert deviation["parameter"] in parameters, deviation
        assert parameters[deviation["parameter"]]["value"] != deviation["value"], deviation
        assert deviation["words"]
    assert all(o["rule"] and o["words"] for o in truth["outside"])
    assert truth["habits"]


def _engine(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"wild_{name}", FAKES / name / "engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NEXT_PACK = [rank + suit for suit in "CSHD" for rank in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def _play(case: dict[str, Any]) -> dict[str, Any]:
    """A round case of three seats (P3 deals) run on stammtisch, its outcome returned."""
    answer: dict[str, Any] = _engine("stammtisch").run_case(
        {"kind": "round", "seats": 3, "decks": [NEXT_PACK], **case}
    )
    assert answer["status"] == "ok", answer
    outcome: dict[str, Any] = answer["outcome"]
    return outcome


def test_stammtisch_feuer_by_a_pass_and_the_first_loser_deals() -> None:
    """Dealt aces wait for the holder's own move; a pass is one. P2 loses first from P3's left."""
    outcome = _play(
        {
            "hands": {"P1": ["AC", "AS", "AH"], "P2": ["KC", "9C", "7D"], "P3": ["QD", "JD", "8S"]},
            "middle": ["10H", "8D", "7C"],
            "steps": [{"P1": "pass"}],
        }
    )
    (record,) = outcome["rounds"]
    assert (record["reason"], record["by"], record["after_step"]) == ("feuer", "P1", 1)
    assert record["losses"] == {"P2": 1, "P3": 1}
    assert record["values"]["P1"] == {
        "points": None,
        "hand": "feuer",
        "suit": None,
        "maximum": False,
    }
    assert (outcome["dealer"], outcome["to_move"]) == ("P2", "P3")


def test_stammtisch_knock_needs_twenty() -> None:
    position = {"middle": ["10H", "8D", "7C"], "steps": [{"P1": "knock"}]}
    others = {"P2": ["KC", "9C", "7D"], "P3": ["QD", "JD", "8S"]}
    twenty = _play({"hands": {"P1": ["KH", "QH", "7S"], **others}, **position})
    nineteen = _play({"hands": {"P1": ["KH", "9H", "7S"], **others}, **position})
    assert twenty["steps"] == [{"accepted": True}] and twenty["knocker"] == "P1"
    assert nineteen["steps"] == [{"accepted": False, "reason": "knock-needs-maximum"}]


def test_stammtisch_knocker_on_his_last_life_loses_two_and_is_out() -> None:
    """Two lives lost one at a time from one: he swims, then goes under; P2 deals after him."""
    outcome = _play(
        {
            "lives": {"P1": 1},
            "hands": {"P1": ["KH", "QH", "7S"], "P2": ["KC", "QC", "9C"], "P3": ["AD", "JD", "8S"]},
            "middle": ["7H", "8D", "7C"],
            "steps": [{"P1": "knock"}, {"P2": "pass"}, {"P3": "pass"}],
        }
    )
    (record,) = outcome["rounds"]
    assert (record["reason"], record["losses"], record["lives_lost"]) == (
        "knock",
        {"P1": 2},
        {"P1": 1},
    )
    assert outcome["eliminated"] == ["P1"] and outcome["lives"]["P1"] == 0
    assert (outcome["dealer"], outcome["to_move"]) == ("P2", "P3")


def test_stammtisch_replayed_round_passes_the_deal_clockwise() -> None:
    """Both swimmers tie: nobody goes under, the round is replayed, P1 deals after P2."""
    answer = _engine("stammtisch").run_case(
        {
            "kind": "match",
            "seats": 2,
            "lives": 0,
            "hands": {"P1": ["KH", "QH", "7S"], "P2": ["KC", "QC", "9D"]},
            "middle": ["7H", "8D", "7C"],
            "decks": [NEXT_PACK],
            "steps": [{"P1": "knock"}, {"P2": "pass"}],
        }
    )
    outcome = answer["outcome"]
    (record,) = outcome["rounds"]
    assert record["losses"] == {"P1": 2, "P2": 1} and record["lives_lost"] == {}
    assert outcome["eliminated"] == [] and outcome["swimming"] == ["P1", "P2"]
    assert outcome["dealer"] == "P1" and outcome["match_over"] is False
