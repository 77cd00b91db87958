"""The JavaScript example engine for pagat passes every pagat case over the protocol.

conformance/examples/pagat/ is the second, independent implementation: written from the
documents and the fixtures only, it must pass every pagat case of every kind with nothing
skipped or errored.
"""

from __future__ import annotations

import shutil

import pytest

from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.runner import Status
from schwimmen.resources import conformance_dir
from schwimmen.spec.loader import Catalog

KINDS = {"hand-evaluation", "showdown", "round", "match", "setup"}


@pytest.mark.skipif(
    shutil.which("node") is None,
    reason="node is not installed: the JavaScript example engine is not run",
)
def test_pagat_example_engine_passes_every_pagat_case(catalog: Catalog) -> None:
    adapter = conformance_dir() / "examples" / "pagat" / "adapter.mjs"
    options = Options(impl=f"node {adapter}", rulesets=("pagat",), validate_protocol=True)
    suite = run_suite(catalog, options)
    not_passed = [
        f"{r.key}: {r.status} {r.message} {[str(m) for m in r.mismatches]}"
        for r in suite.results
        if r.status is not Status.PASSED
    ]
    assert not not_passed, "\n".join(not_passed[:20])
    assert {r.kind for r in suite.results} == KINDS
    assert len(suite.results) >= 140
    counts = suite.counts()
    assert counts["skipped"] == 0 and counts["errored"] == 0
    verdict = suite.verdict()
    assert verdict.ok, verdict.line
