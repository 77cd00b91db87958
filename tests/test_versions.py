"""Protocol versions: the harness speaks 2 and accepts a start answer of 1; an adapter of
version 1 is told in one line what is new since, and not failed on the fields among it
that it leaves out; ``schwimmen serve`` answers with the version asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from schwimmen.conformance import report
from schwimmen.conformance.fields import ADDED, PROTOCOL_VERSION, VERSIONS
from schwimmen.conformance.harness import Options, SuiteResult, run_suite
from schwimmen.conformance.runner import Status
from schwimmen.resources import conformance_dir
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
# a case that checks the state's values
PATTERN = "best-suit-of-two"


def _serve(*versions: object) -> list[dict[str, object]]:
    lines = "".join(json.dumps({"cmd": "start", "version": v}) + "\n" for v in versions)
    done = subprocess.run(
        [sys.executable, "-m", "schwimmen", "serve"],
        input=lines + '{"cmd": "stop"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_serve_answers_with_the_version_asked_for() -> None:
    one, two, three = _serve(1, 2, 3)
    assert one["version"] == 1 and two["version"] == 2
    assert three["ok"] is False and "versions 1 and 2" in str(three["message"])


def _omitting_state_values(
    catalog: Catalog, version: str, monkeypatch: pytest.MonkeyPatch
) -> SuiteResult:
    monkeypatch.setenv("FAKE_VERSION", version)
    options = Options(
        impl=f"{sys.executable} {FAKE} omit:values",
        rulesets=("pagat",),
        pattern="later-round-as-dealt",
    )
    return run_suite(catalog, options)


def test_a_version_1_adapter_is_not_failed_on_checks_added_since(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = _omitting_state_values(catalog, "1", monkeypatch)
    assert old.protocol == 1 and old.implementation["protocol"] == 1
    assert {r.status for r in old.results} == {Status.PASSED}
    names = {n for r in old.results for n in r.unjudged}
    assert names and all("new since protocol 1" in n for n in names)
    line = old.version_line()
    assert "protocol version 1" in line and "lives_lost" in line and "values of the state" in line
    assert line in report.to_json(old)["protocol_note"]
    current = _omitting_state_values(catalog, str(PROTOCOL_VERSION), monkeypatch)
    assert current.version_line() == ""
    failed = [r for r in current.results if r.status is Status.FAILED]
    assert failed and any("not reported" in str(m) for r in failed for m in r.mismatches)


def test_a_version_the_harness_does_not_know_refuses_the_start(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_VERSION", "7")
    suite = run_suite(
        catalog, Options(impl=f"{sys.executable} {FAKE}", rulesets=("pagat",), pattern=PATTERN)
    )
    assert not suite.ok and "protocol version 7" in suite.verdict().line


def test_the_version_history_names_every_addition() -> None:
    text = (conformance_dir() / "PROTOCOL.md").read_text(encoding="utf-8")
    history = text[text.index("## Version history") :]
    for version in VERSIONS:
        assert f"**Version {version}**" in history
    for token in (
        "`states`",
        "`values`",
        "`lives_lost`",
        "`deals`",
        "`points`",
        "next-match",
        "one-open",
        "`fixed_rules`",
    ):
        assert token in history, token
    assert len(ADDED) >= 6


def test_the_documents_say_which_start_answer_fits_which_engine() -> None:
    protocol = (conformance_dir() / "PROTOCOL.md").read_text(encoding="utf-8")
    section = protocol[protocol.index("### Which start answer") : protocol.index("### run")]
    for token in (
        '"fixed_rules": true',
        '"any_ruleset": true',
        '"rulesets": ["pagat"',
        "not_reported",
        "unsupported",
        "skipped",
    ):
        assert token in section, token
    adapters = (conformance_dir() / "ADAPTERS.md").read_text(encoding="utf-8")
    for token in (
        '"fixed_rules": true',
        '"any_ruleset": true',
        "not_reported",
        "unsupported",
        '"version": 2',
    ):
        assert token in adapters, token


def test_an_adapter_that_refuses_version_2_is_asked_for_version_1(catalog: Catalog) -> None:
    options = Options(impl=f"{sys.executable} {FAKE} v1-only", rulesets=("pagat",), pattern=PATTERN)
    suite = run_suite(catalog, options)
    assert suite.protocol == 1 and suite.ok, suite.verdict().line
    assert "protocol version 1" in suite.version_line()
