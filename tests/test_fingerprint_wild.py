"""schwimmen fingerprint on the independent engines of ``tests/fakes/`` (stammtisch,
nurgeben, blitz, knack), whose rules each ``truth.yaml`` states: its base, the deviations
a parameter expresses, the rules outside the parameter space, its habits.

Each engine is run as a fixed-rules engine (its start answer says so through
``WILD_START``), so the suite asks each position once and judges it under every base.
The fingerprint must claim nothing the engine does not play: either it names the base
and only changes of its truth (a claim of "one of" several values holds if one of them is
the truth's), or it says too little was judged to tell; whatever no parameter explains is
grouped by what differs, and each rule outside the registry that its truth says where it
shows (``fields``) is among those groups. These runs take up to a minute each.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from schwimmen.cli.main import main
from schwimmen.spec.loader import Catalog

FAKES = Path(__file__).parent / "fakes"
ENGINES = {
    "stammtisch": f"{sys.executable} {FAKES / 'stammtisch' / 'engine.py'}",
    "nurgeben": f"{sys.executable} {FAKES / 'nurgeben' / 'engine.py'}",
    "blitz": f"node {FAKES / 'blitz' / 'engine.mjs'}",
    "knack": f"{sys.executable} {FAKES / 'knack' / 'engine.py'}",
}


def _truth(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FAKES / name / "truth.yaml").read_text("utf-8"))
    return data


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_wild_engine_gets_no_false_claim(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if name == "blitz" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    if not (FAKES / name / "truth.yaml").exists():
        pytest.skip(f"{name} is not on this branch")
    truth = _truth(name)
    monkeypatch.setenv("WILD_START", json.dumps({"fixed_rules": True, "any_ruleset": False}))
    code = main(["fingerprint", "--quiet", "--impl", ENGINES[name], "-j", "2", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    deviations = {d["parameter"]: _key(d["value"]) for d in truth.get("deviations") or ()}
    if not data["told"]:
        assert code == 1
        assert "too little judged to tell" in data["summary"] or data["problem"]
        return
    assert code == 0
    closest = data["closest"]
    assert closest["base"].split("+")[0] == truth["base"], data["summary"]
    catalog = Catalog.load()
    origin = catalog.resolve(truth["base"]).values()
    for parameter, value in catalog.resolve(closest["base"]).values().items():
        if _key(value) != _key(origin.get(parameter)):  # a house rule of the base
            assert deviations.get(parameter) == _key(value), (parameter, data["summary"])
    for deviation in closest["deviations"]:
        told = [deviation["changes"], *deviation["alternatives"]]
        assert any(
            all(deviations.get(c["parameter"]) == _key(c["value"]) for c in changes)
            for changes in told
        ), (told, data["summary"])
    seen = {
        g["field"].split(".")[0]
        for g in [*closest["unexpressed"], *closest["unexpressed_replayed"]]
    }
    for rule in truth.get("outside") or ():
        if rule.get("fields"):
            assert seen & set(rule["fields"]), (rule["rule"], seen, data["summary"])
    if closest["unexplained"]:
        grouped = [f for g in closest["unexpressed"] for f in g["fixtures"]]
        assert sorted(grouped) == sorted(closest["unexplained"])
        assert all(g["words"] for g in closest["unexpressed"])
