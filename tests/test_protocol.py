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


@pytest.mark.slow
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


_ENGINES = """
from schwimmen.engine.adapter import run_case as good


def wrong(case):
    return {"status": "ok", "outcome": {"values": {}}}


def _deep(case):
    raise ValueError("no such card")


def raising(case):
    return _deep(case)


def errored(case):
    return {"status": "errored", "message": "cannot set this up"}


def skipping(case):
    return {"status": "skipped", "reason": "not my game"}
"""


@pytest.fixture
def engines(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project with one adapter function per way an engine can answer."""
    pytester.makepyfile(engines=_ENGINES)
    pytester.syspathinsert()
    return pytester


def _run(pytester: pytest.Pytester, adapter: str, *args: str) -> pytest.RunResult:
    return pytester.runpytest(
        f"--schwimmen-adapter=engines:{adapter}", "--schwimmen-k", "three-sevens", *args
    )


def test_pytest_plugin_runs_the_suite_in_a_python_test_run(engines: pytest.Pytester) -> None:
    result = _run(engines, "good", "--schwimmen-ruleset", "pagat", "--schwimmen-ruleset", "scat")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) >= 2 and not outcomes.get("failed")
    result = _run(engines, "wrong", "--schwimmen-ruleset", "pagat")
    assert result.parseoutcomes().get("failed", 0) >= 1 and not result.parseoutcomes().get("errors")
    result.stdout.fnmatch_lines(["*expected values.P1*", "*because:*"])


def test_pytest_plugin_reports_an_errored_case_as_an_error(engines: pytest.Pytester) -> None:
    result = _run(engines, "raising", "--schwimmen-ruleset", "pagat")
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) >= 2 and not outcomes.get("failed"), outcomes
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of schwimmen::showdown/three-sevens[[]pagat[]]*",
            "*message: ValueError: no such card",
            "*the adapter raised:",
            "*Traceback (most recent call last):",
            "*engines.py*in raising*",
            "*engines.py*in _deep*",
            "*ValueError: no such card",
        ]
    )
    result.stdout.no_fnmatch_line("*pytest_plugin.py*")
    result = _run(engines, "errored", "--schwimmen-ruleset", "pagat")
    assert result.parseoutcomes().get("errors", 0) >= 2
    result.stdout.fnmatch_lines(["*message: cannot set this up"])
    result.stdout.no_fnmatch_line("*the adapter raised*")
    result = _run(engines, "skipping", "--schwimmen-ruleset", "pagat", "-rs")
    assert result.parseoutcomes().get("skipped", 0) >= 2
    result.stdout.fnmatch_lines(["*not my game"])


def test_pytest_plugin_cases_are_selected_by_words_and_node_ids(engines: pytest.Pytester) -> None:
    result = engines.runpytest(
        "--schwimmen-adapter=engines:good",
        "--schwimmen-k",
        "swap",
        "-k",
        "thirty-one-by-a-swap and pagat",
        "--collect-only",
        "-q",
    )
    ids = [line for line in result.outlines if line.startswith("schwimmen::")]
    assert "schwimmen::round/thirty-one-by-a-swap[pagat]" in ids
    assert all("thirty-one-by-a-swap" in i and "pagat" in i for i in ids), ids
    result = engines.runpytest(
        "--schwimmen-adapter=engines:good",
        "schwimmen::round/thirty-one-by-a-swap[pagat]",
        "schwimmen::showdown/three-sevens",
        "-v",
    )
    result.stdout.fnmatch_lines(["schwimmen::round/thirty-one-by-a-swap[[]pagat[]] PASSED*"])
    passed = [line for line in result.outlines if " PASSED" in line]
    assert len(passed) == 1 + sum("showdown/three-sevens[" in line for line in passed)
    assert all(line.startswith("schwimmen::") for line in passed), passed
    result = engines.runpytest("--schwimmen-adapter=engines:good", "schwimmen::no/such-case")
    result.stdout.fnmatch_lines(["*not found among the cases to run: schwimmen::no/such-case"])
    assert result.ret != 0


def test_pytest_plugin_takes_the_rulesets_a_project_claims(engines: pytest.Pytester) -> None:
    def rulesets(*args: str) -> set[str]:
        result = _run(engines, "good", "--collect-only", "-q", *args)
        return {line.rpartition("[")[2].rstrip("]") for line in result.outlines if "::" in line}

    engines.makeini("[pytest]\nschwimmen_rulesets = pagat scat\n")
    assert rulesets() == {"pagat", "scat"}
    engines.makeconftest(
        "def pytest_schwimmen_rulesets(config):\n    return ['dutch', 'pagat+no-triples']\n"
    )
    assert rulesets() == {"dutch", "pagat+no-triples"}, "the conftest wins over the ini file"
    assert rulesets("--schwimmen-ruleset", "online") == {"online"}, "the command line wins"


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
