"""The tinkerer's question (issue 19): ``conformance --ruleset pagat+./mine.yaml`` says how
many cases test what the house rule changes, which of them expect otherwise than on the
base, and, when none does, says so and how to write the first case."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from schwimmen.cli.main import main
from schwimmen.conformance.coverage import house_rule_coverage
from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.resources import conformance_dir
from schwimmen.spec.loader import Catalog

MINE = """\
id: mine
kind: house-rule
title: The knocker loses two
origin: pagat
rules:
  penalties:
    knocker_lowest:
      value: 2
      default: {why: "how we play it"}
"""


def test_a_house_rule_gets_the_cases_that_pin_what_it_changes(catalog: Catalog) -> None:
    fixtures, _ = load_fixtures()
    composed = catalog.resolve("pagat+no-triples")
    cov = house_rule_coverage(fixtures, composed, catalog.resolve("pagat"))
    assert [p for p, _, _ in cov.changed] == ["triples.points"]
    assert cov.changed[0][1:] == (30.5, "none")
    assert cov.tests and cov.differing
    for test in cov.tests:
        assert test.pins == ("triples.points",) or test.differs
        fixture = next(f for f in fixtures if f.id == test.fixture)
        case = fixture.applicable_case(composed)
        assert case is not None and case.label() == test.case
    assert "depend on them" in cov.lines()[1]


def test_no_change_is_said_as_such(catalog: Catalog) -> None:
    fixtures, _ = load_fixtures()
    pagat = catalog.resolve("pagat")
    cov = house_rule_coverage(fixtures, pagat, pagat)
    assert cov.changed == () and cov.tests == ()
    assert cov.lines() == ["pagat changes no parameter of pagat: its cases are pagat's."]


def test_a_rule_no_case_tests_is_told_how_to_write_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    only = tmp_path / "fixtures" / "round"
    only.mkdir(parents=True)
    shutil.copy(conformance_dir() / "fixtures/round/thirty-one-by-a-swap.yaml", only)
    (tmp_path / "mine.yaml").write_text(MINE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(
        ["conformance", "--ruleset", "pagat+./mine.yaml", "--fixtures", str(tmp_path / "fixtures")]
    )
    out = " ".join(capsys.readouterr().out.split())
    assert code == 0
    assert "pagat+./mine.yaml changes penalties.knocker_lowest (1 -> 2) of pagat." in out
    assert "No case depends on the parameters it changes" in out
    assert 'schwimmen fuzz --impl "schwimmen serve --play pagat+./mine.yaml" --ruleset pagat' in out
