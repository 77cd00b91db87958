"""schwimmen fingerprint on the independent engines of ``tests/fakes/`` (stammtisch,
nurgeben, blitz, knack), whose rules each ``truth.yaml`` states: its base, the deviations
a parameter expresses, the rules outside the parameter space, its habits.

Each engine is run as a fixed-rules engine (its start answer says so through
``WILD_START``), so the suite asks each position once and judges it under every base.
The fingerprint must claim nothing the engine does not play: either it names the base
and only changes of its truth (and every change of its truth that the answers decide),
or it says too little was judged to tell and claims nothing; whatever no parameter
explains is grouped by what differs, and every case of the base is accounted for with
the changes claimed. These runs take a minute or more each.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from schwimmen.conformance.fingerprint import Fingerprint, fingerprint, report
from schwimmen.conformance.fingerprint.analysis import check
from schwimmen.conformance.harness import Options
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


def _decided(catalog: Catalog, found: Fingerprint, truth: dict[str, Any]) -> list[str]:
    """The deviations of the truth the engine's answers decide: with every deviation of
    the truth laid over the base, some fixture the engine fails without this one passes
    with it (the fingerprint must claim these)."""
    assert found.evidence is not None
    base = truth["base"]
    changes = {d["parameter"]: d["value"] for d in truth.get("deviations") or ()}
    out = []
    for parameter in changes:
        rest = {p: v for p, v in changes.items() if p != parameter}
        with_it, without = (check(catalog, found.evidence, base, c) for c in (changes, rest))
        if with_it is None or without is None:
            continue
        if (with_it.agree - without.agree) & without.disagree:
            out.append(parameter)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_wild_engine_gets_no_false_claim(
    name: str, monkeypatch: pytest.MonkeyPatch, catalog: Catalog
) -> None:
    if name == "blitz" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    if not (FAKES / name / "truth.yaml").exists():
        pytest.skip(f"{name} is not on this branch")
    truth = _truth(name)
    monkeypatch.setenv("WILD_START", json.dumps({"fixed_rules": True, "any_ruleset": False}))
    found = fingerprint(catalog, Options(impl=ENGINES[name], jobs=2))
    data = report.to_json(found, catalog)
    deviations = {d["parameter"]: _key(d["value"]) for d in truth.get("deviations") or ()}
    if not data["told"]:
        assert "too little judged to tell" in data["summary"] or data["problem"]
        assert report.house_rule(found, catalog, "wild") is None
        return
    closest = data["closest"]
    assert closest["base"].split("+")[0] == truth["base"], data["summary"]
    # what it says the engine plays: the house rules of a composed base, and the changes
    best = found.closest
    assert best is not None
    said = dict(best.changes)
    for overlay in best.base_ruleset.overlays:
        for group, params in catalog.house_rules[overlay].data["rules"].items():
            for param, entry in params.items():
                said.setdefault(f"{group}.{param}", entry["value"])
    for parameter, value in said.items():
        assert deviations.get(parameter) == _key(value), (parameter, value, data["summary"])
    for parameter in _decided(catalog, found, truth):
        assert parameter in said, (parameter, data["summary"])
    if closest["unexplained"]:
        grouped = [f for g in closest["unexpressed"] for f in g["fixtures"]]
        assert sorted(grouped) == sorted(closest["unexplained"])
        assert all(g["words"] for g in closest["unexpressed"])
    # every case of the base is accounted for with the changes claimed
    tally = closest["tally"]
    only = tally["judged_only_with_changes"]
    assert tally["judged_with_changes"] - only + tally["out_of_judgement"] == tally["judged"]
