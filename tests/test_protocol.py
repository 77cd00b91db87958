"""The protocol end to end: the reference over ``schwimmen serve``, a JavaScript adapter,
the message schema, and the pytest plugin for Python engines."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.runner import Status
from schwimmen.protocol.server import serve
from schwimmen.resources import conformance_dir, schema_dir
from schwimmen.spec.loader import Catalog

pytest_plugins = ["pytester"]


def _schema(name: str) -> Draft202012Validator:
    root = json.loads((schema_dir() / "protocol.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": root["$defs"]})


def test_serve_answers_start_run_and_stop() -> None:
    case = {
        "kind": "setup",
        "ruleset": {"id": "pagat", "parameters": Catalog.load().resolve("pagat").values()},
        "seats": 9,
    }
    requests = [
        {"cmd": "start", "version": 1},
        {"cmd": "run", "seq": 1, "case": case},
        {"cmd": "run", "seq": 2},
        {"cmd": "stop"},
        {"cmd": "run", "seq": 3, "case": case},
    ]
    out = io.StringIO()
    serve(io.StringIO("\n".join(json.dumps(r) for r in requests) + "\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 3, "nothing is answered after stop"
    assert not list(_schema("started").iter_errors(answers[0]))
    assert answers[1]["status"] == "ok" and answers[1]["outcome"]["accepted"] is False
    assert not list(_schema("result").iter_errors(answers[1]))
    assert answers[2]["status"] == "errored" and answers[2]["seq"] == 2


def test_reference_passes_everything_over_the_protocol(catalog: Catalog) -> None:
    options = Options(impl=f"{sys.executable} -m schwimmen serve", jobs=2, validate_protocol=True)
    suite = run_suite(catalog, options)
    bad = [
        f"{r.key}: {r.message} {[str(m) for m in r.mismatches]}"
        for r in suite.results
        if r.status is not Status.PASSED
    ]
    assert not bad, "\n".join(bad[:20])
    assert len(suite.results) >= 500


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_javascript_adapter_speaks_the_protocol(catalog: Catalog) -> None:
    adapter = conformance_dir() / "examples" / "minimal-adapter.mjs"
    options = Options(impl=f"node {adapter}", kinds=("hand-evaluation",), validate_protocol=True)
    suite = run_suite(catalog, options)
    counts = suite.counts()
    assert counts["passed"] >= 100 and counts["failed"] == 0 and counts["errored"] == 0


def test_pytest_plugin_runs_the_suite_in_a_python_test_run(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        good="from schwimmen.engine.adapter import run_case\n",
        bad="def run_case(case):\n    return {'status': 'ok', 'outcome': {'values': {}}}\n",
    )
    pytester.syspathinsert()
    result = pytester.runpytest(
        "--schwimmen-adapter=good:run_case",
        "--schwimmen-k",
        "three-sevens",
        "--schwimmen-ruleset",
        "pagat",
        "--schwimmen-ruleset",
        "scat",
    )
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) >= 2 and not outcomes.get("failed")
    result = pytester.runpytest(
        "--schwimmen-adapter=bad:run_case",
        "--schwimmen-k",
        "three-sevens",
        "--schwimmen-ruleset",
        "pagat",
    )
    assert result.parseoutcomes().get("failed", 0) >= 1
    result.stdout.fnmatch_lines(["*expected values.P1*", "*because:*"])


def test_protocol_documents_exist() -> None:
    for name in ("PROTOCOL.md", "INTERPRETING.md", "ADAPTERS.md", "FIXTURES.md"):
        assert (Path(__file__).parent.parent / "conformance" / name).is_file()


def test_the_table_step_starts_only_the_next_match(catalog: Catalog) -> None:
    from schwimmen.conformance.fixtures import parameter_values
    from schwimmen.engine.adapter import run_case

    def request(ruleset: str, steps: list[dict[str, str]]) -> dict[str, Any]:
        params = parameter_values(catalog.resolve(ruleset))
        return {
            "kind": "match",
            "ruleset": {"id": ruleset, "parameters": params},
            "seats": 2,
            "lives": {"P1": 0, "P2": 0},
            "hands": {"P1": ["7C", "8D", "9H"], "P2": ["AC", "KC", "9D"]},
            "middle": ["10S", "JS", "QS"],
            "steps": steps,
        }

    early = run_case(request("online", [{"table": "next-match"}]))
    assert early["outcome"]["steps"] == [{"accepted": False, "reason": "wrong-phase"}]
    wrong = run_case(request("online", [{"table": "dance"}]))
    assert wrong["status"] == "errored" and "next-match" in wrong["message"]
