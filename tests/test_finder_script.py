"""The variant finder's script knows the contradiction table as its Python half does: for
the answers the table refuses on a ruleset it offers no file and says why, for the ones it
suspects it warns, in the same words, and elsewhere it writes the same house rule.

The script runs under Node with the few parts of a page it touches (an element to fill,
the embedded data), without a browser; ``tests/test_docs_browser.py`` (slow) checks the
built page in one.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from schwimmen.spec import finder
from schwimmen.spec.loader import Catalog

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "javascripts" / "finder.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js")

# Just enough of a page for the script to start: the element it fills and the data it reads.
HARNESS = r"""
const fs = require("fs");
const [script, dataPath, casesPath] = process.argv.slice(2);
function El(tag) { this.tag = tag; this.children = []; this.attrs = {}; this.hidden = false; }
El.prototype.appendChild = function (c) { this.children.push(c); return c; };
El.prototype.setAttribute = function (k, v) { this.attrs[k] = v; };
El.prototype.addEventListener = function () {};
const data = fs.readFileSync(dataPath, "utf8");
global.window = {};
global.document = {
  readyState: "complete",
  documentElement: { lang: "en" },
  createElement: (tag) => new El(tag),
  createTextNode: (text) => ({ text: text }),
  getElementById: (id) => id === "sw-finder" ? new El("div")
    : id === "sw-finder-data" ? { textContent: data } : null,
};
eval(fs.readFileSync(script, "utf8"));
const f = window.schwimmenFinder;
const out = JSON.parse(fs.readFileSync(casesPath, "utf8")).map(([rid, answers]) => {
  const found = f.clash(rid, answers);
  return {
    clash: found,
    text: found ? ["en", "de"].map((lang) => f.clashText(rid, found, lang)) : null,
    yaml: ["en", "de"].map((lang) => f.houseRuleYaml(rid, answers, lang)),
  };
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def data(catalog: Catalog) -> dict[str, Any]:
    questions = finder.load_finder(ROOT / "docs" / finder.DATA)
    rulesets = {rid: catalog.resolve(rid) for rid in sorted(catalog.rulesets)}
    return finder.export(questions, rulesets)


def _cases(data: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """Every ruleset with every one or two answers that make a clash, and a spread of the
    others (every 40th)."""
    options = [
        (q["id"], a["id"]) for q in data["questions"] if not q["decides_game"] for a in q["answers"]
    ]
    answer_sets = [dict([o]) for o in options] + [
        dict([a, b]) for a, b in itertools.combinations(options, 2) if a[0] != b[0]
    ]
    clashing: list[tuple[str, dict[str, str]]] = []
    others: list[tuple[str, dict[str, str]]] = []
    for ruleset in data["rulesets"]:
        for answers in answer_sets:
            case = (ruleset["id"], answers)
            found = finder.clash(data, ruleset["id"], answers)
            (clashing if found is not None else others).append(case)
    return clashing + others[::40]


def test_the_script_refuses_and_warns_where_the_python_does(
    data: dict[str, Any], tmp_path: Path
) -> None:
    assert NODE is not None
    cases = _cases(data)
    data_file, cases_file, harness = (tmp_path / n for n in ("data.json", "cases.json", "h.js"))
    data_file.write_text(finder.script_json(data), encoding="utf-8")
    cases_file.write_text(json.dumps(cases), encoding="utf-8")
    harness.write_text(HARNESS, encoding="utf-8")
    run = subprocess.run(
        [NODE, str(harness), str(SCRIPT), str(data_file), str(cases_file)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers = json.loads(run.stdout)
    assert len(answers) == len(cases)
    refused = 0
    for (rid, chosen), script in zip(cases, answers, strict=True):
        found = finder.clash(data, rid, chosen)
        expected = (
            None if found is None else {"kind": found.kind, "questions": list(found.questions)}
        )
        assert script["clash"] == expected, (rid, chosen)
        if found is not None:
            texts = [finder.clash_text(data, rid, found, lang) for lang in ("en", "de")]
            assert script["text"] == texts
            refused += found.kind == "refused"
        yaml = [finder.house_rule_yaml(data, rid, chosen, lang) for lang in ("en", "de")]
        assert script["yaml"] == yaml, (rid, chosen)
    assert refused, "no case the table refuses"
