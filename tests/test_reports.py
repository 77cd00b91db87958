"""Reports an implementer can act on: the ruleset's own words first, one divergence in
full rather than a cascade, legal-move checks in plain words, counts that never add up
kinds, and a tracked history that shows a regression whole."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from schwimmen.cli.main import main
from schwimmen.conformance import history, report
from schwimmen.conformance.compare import NOT_REPORTED, Mismatch
from schwimmen.conformance.fixtures import Case, Fixture, load_fixtures
from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.runner import CaseResult, Status
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
WRONG = f"{sys.executable} {FAKE} wrong"


def test_a_failure_quotes_the_ruleset_under_test_first(catalog: Catalog) -> None:
    suite = run_suite(
        catalog, Options(impl=WRONG, rulesets=("scat",), pattern="showdown/complete-tie-same")
    )
    (failed,) = [r for r in suite.results if r.status is Status.FAILED]
    because = [line for line in report.failure_text(failed) if "because:" in line]
    assert because[0].startswith("  because: scat: ") and "[s004:" in because[0]
    others = [line for line in because if "„" in line and "[s004" not in line]
    assert others and all("a source of other rulesets, not scat's" in line for line in others)
    quotes = [line.split("„", 1)[1].split("“", 1)[0] for line in because if "„" in line]
    assert len(quotes) == len(set(quotes)), "each quote once"


def _fixture_with_steps(n: int) -> tuple[Fixture, Case]:
    fixtures, _ = load_fixtures()
    fixture = next(f for f in fixtures if len(f.setup.get("steps", ())) >= n)
    return fixture, fixture.cases[0]


def test_one_wrong_step_is_shown_once_and_the_rest_summed_up() -> None:
    fixture, case = _fixture_with_steps(6)
    steps = [Mismatch(f"steps.{n}", "accepted", {"rejected": "no-pass"}) for n in (2, 3, 4, 6)]
    mismatches = (*steps, Mismatch("to_move", "P1", "P2"))
    result = CaseResult(fixture, case, "pagat", Status.FAILED, mismatches)
    heads = [item.head for item in report.shown(result)]
    (seat, action), *_ = fixture.setup["steps"][1].items()
    assert heads == [
        f"steps.2 ({seat}: {action})",
        "steps 3–4, 6 differ as well, after the divergence at step 2",
        "to_move",
    ]


def test_legal_move_checks_read_forwards() -> None:
    fixture, case = _fixture_with_steps(1)
    result = CaseResult(
        fixture,
        case,
        "pagat",
        Status.FAILED,
        (
            Mismatch("legal_excludes", [], ["knock"]),
            Mismatch("legal_includes", ["swap-all", "pass"], ["knock"]),
            Mismatch("after_step.2.legal_excludes", ["knock"], NOT_REPORTED),
        ),
    )
    lines = [(item.head, item.expected) for item in report.shown(result)]
    assert lines[0] == ("legal_excludes: knock must not be legal, but was offered", None)
    assert lines[1] == (
        "legal_includes: swap-all, pass must be legal, but were not offered (offered: knock)",
        None,
    )
    assert lines[2] == ("after_step.2.legal_excludes", '["knock"]')


def test_counts_by_ruleset_never_add_up_kinds(catalog: Catalog) -> None:
    suite = run_suite(catalog, Options(impl=WRONG, rulesets=("forty-one",)))
    rows = suite.by_ruleset_kind()["forty-one"]
    assert "setup" in rows and "round" in rows
    assert rows["setup"]["judged"] == sum(
        1 for r in suite.results if r.kind == "setup" and r.judged
    )
    data = report.to_json(suite)
    assert data["by_ruleset_kind"]["forty-one"] == rows
    assert data["rulesets_named"] is True


def test_the_header_says_which_rulesets_ran(catalog: Catalog) -> None:
    named = run_suite(catalog, Options(rulesets=("pagat",), pattern="card-values"))
    assert report.rulesets_line(named).startswith("pagat (named with --ruleset")
    assert "no house rules unless named" in report.rulesets_line(named)
    every = run_suite(catalog, Options(pattern="card-values"))
    houses = len(catalog.house_rules)
    line = report.rulesets_line(every)
    assert line.startswith(f"all {len(every.rulesets)}: ")
    assert f"{len(catalog.rulesets)} rulesets and {houses} house rules" in line
    assert len(f"schwimmen-reference (in-process): {line}") <= 80


def test_help_says_a_named_ruleset_runs_without_house_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["conformance", "--help"])
    assert "without house rules" in " ".join(capsys.readouterr().out.split())


def test_tracking_sums_up_a_first_run_and_shows_a_regression_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    track = tmp_path / "history.json"
    assert main(["conformance", "--track", str(track), "--ruleset", "pagat"]) == 0
    first = capsys.readouterr().out
    assert "by ruleset: pagat " in first and "this run:" in first
    assert len(first.splitlines()) < 10
    code = main(["conformance", "--track", str(track), "--impl", WRONG, "-k", "thirty-one-by"])
    assert code == 1
    regression = capsys.readouterr().out
    assert "newly failing" in regression and "FAILED round/thirty-one-by-a-swap" in regression
    assert "expected end" in regression and "because:" in regression
    kept = history.load(track)
    assert len(kept) > 100, "a narrower run leaves the rest of the history alone"
