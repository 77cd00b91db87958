"""schwimmen fingerprint: engines whose rules are known are named exactly.

Each house rule, and a seeded sample of random one- and two-parameter mutants, is played
by the reference whatever ruleset a case names (in-process, as ``serve --play`` does, so
the whole catalog takes seconds; one test goes through ``serve --play`` and the CLI), and
the fingerprint must name its base and exactly its changed parameter values. A trial the
suite cannot see, or whose own play the suite contradicts, is counted apart (see
``fingerprint_trials``), never as a hit. Misbehaving implementations end in a one-line
reason, not a hang or a traceback. ``benchmarks/fingerprint.py`` runs a larger sample.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from schwimmen.cli.main import main
from schwimmen.conformance.fingerprint import Fingerprint, fingerprint
from schwimmen.conformance.fingerprint.report import summary
from schwimmen.conformance.fingerprint.trials import (
    CANNOT_TELL,
    HIT,
    IN_PART,
    INCONSISTENT,
    INDISTINGUISHABLE,
    MISS,
    NOT_OBSERVABLE,
    Trial,
    false_claims,
    house_rule_trials,
    mutant_trials,
    played_in_process,
    sample,
    verdict,
)
from schwimmen.conformance.harness import Options
from schwimmen.spec.loader import Catalog

FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"
SERVE = f"{sys.executable} -m schwimmen serve"
SEED = 12


def _played(catalog: Catalog, trial: Trial) -> Fingerprint:
    """The fingerprint of the reference playing ``trial`` as fixed rules, in-process."""
    implementation = played_in_process(catalog, trial)
    return fingerprint(catalog, Options(), implementation=implementation, fixed_rules=True)


def _fingerprint(catalog: Catalog, trial: Trial, bases: list[str] | None = None) -> str:
    found = fingerprint(
        catalog,
        Options(),
        bases=bases or (),
        implementation=played_in_process(catalog, trial),
        fixed_rules=True,
    )
    result = verdict(catalog, trial, found)
    assert not false_claims(catalog, trial, found), (trial.label, summary(found))
    if result == HIT:
        best = found.closest
        assert best is not None
        assert best.ruleset.values() == trial.ruleset(catalog).values()
    return result


@pytest.mark.slow
def test_every_house_rule_is_named_on_its_ruleset_with_exactly_its_values(
    catalog: Catalog,
) -> None:
    """With only the rulesets as bases, each house rule must be found as its changes.
    One the suite sees only in part on its bare ruleset (some of its values have no case
    that tells them apart there) must be named exactly once the catalog's compositions
    are bases too, as they are by default."""
    bases = sorted(catalog.rulesets)
    trials = house_rule_trials(catalog)
    results = {t.label: _fingerprint(catalog, t, bases) for t in trials}
    for trial in trials:
        if results[trial.label] in (IN_PART, INDISTINGUISHABLE):
            results[trial.label] = f"in part, then {_fingerprint(catalog, trial)}"
    tally = Counter(results.values())
    wrong = {label: r for label, r in results.items() if r not in (HIT, NOT_OBSERVABLE)}
    wrong = {label: r for label, r in wrong.items() if r != f"in part, then {HIT}"}
    assert not wrong, wrong
    assert tally[HIT] >= len(trials) * 3 // 4, tally


@pytest.mark.slow
def test_a_house_rule_is_named_as_its_composition_under_the_default_bases(
    catalog: Catalog,
) -> None:
    trial = Trial("rules-page", played="rules-page+knocker-loses-two")
    found = _played(catalog, trial)
    assert verdict(catalog, trial, found) == HIT
    best = found.closest
    assert best is not None and best.ruleset.values() == trial.ruleset(catalog).values()
    assert best.complexity == 1


@pytest.mark.slow
def test_random_mutants_are_named_exactly_or_counted_apart(catalog: Catalog) -> None:
    """Whatever the verdict, no claim is false (``_fingerprint``: not the ruleset, a
    house rule or a value the mutant does not play, unless the mutant's value is among
    those named with it as the cases cannot tell them apart)."""
    trials = sample(mutant_trials(catalog, SEED, 1, 0), 5, SEED)
    trials += sample(mutant_trials(catalog, SEED, 0, 1), 4, SEED)
    results = {t.label: _fingerprint(catalog, t) for t in trials}
    assert MISS not in results.values(), results
    assert Counter(results.values())[HIT] + Counter(results.values())[CANNOT_TELL] >= 4, results
    assert Counter(results.values())[HIT] >= 1, results


def test_an_indistinguishable_value_is_offered_as_an_alternative(catalog: Catalog) -> None:
    """Forty-one's suite cannot tell knocking instead of a move from closing by passing:
    whichever is named, the other is listed beside it. Neither has a case of its own on
    forty-one (either only takes the failing case out of judgement), so neither is
    claimed: the value is listed as one the suite cannot tell (this used to be claimed
    as played, which the answers do not show)."""
    trial = Trial("forty-one", {"knocking.form": "instead-of-move"})
    found = _played(catalog, trial)
    result = verdict(catalog, trial, found)
    assert result in (HIT, INDISTINGUISHABLE, INCONSISTENT, CANNOT_TELL)
    best = found.closest
    assert best is not None and best.base == "forty-one"
    if result == CANNOT_TELL:
        assert not best.changes
        undecided = [c.parameter for u in best.undecided for c in u.changes]
        assert "knocking.form" in undecided, summary(found)
    elif result != HIT:
        offered = [
            {c.parameter: c.value for c in alternative}
            for d in best.deviations
            for alternative in d.alternatives
        ]
        assert dict(trial.changes) in offered, offered


@pytest.mark.slow
def test_serve_play_through_the_cli_with_a_house_rule_to_keep(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    impl = f"{SERVE} --play rules-page --set penalties.knocker_lowest=2"
    rule = tmp_path / "our-engine.yaml"
    bases = ["--base", "pagat", "--base", "rules-page"]
    output = ["--format", "json", "--emit-house-rule", str(rule)]
    code = main(["fingerprint", "--impl", impl, *bases, "-j", "2", *output])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    closest = data["closest"]
    assert closest["base"] == "rules-page"
    assert closest["changes"] == {"penalties.knocker_lowest": 2}
    assert closest["unexplained"] == [] and closest["deviations"][0]["explains"] > 0
    assert data["summary"].startswith(
        "closest: rules-page; plays `penalties.knocker_lowest = 2` (rules-page: 1, "
    )
    assert main(["validate", str(rule), "--no-quotes"]) == 0
    assert "observed in schwimmen-reference playing" in rule.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["conformance", "--impl", impl, "--ruleset", f"rules-page+{rule}"]) == 0


def test_the_summary_names_what_stays_unexplained(catalog: Catalog) -> None:
    trial = Trial("pagat", {"penalties.knocker_lowest": 2})
    found = fingerprint(
        catalog,
        Options(),
        bases=["pagat"],
        implementation=played_in_process(catalog, trial),
        fixed_rules=True,
    )
    line = summary(found)
    assert line.startswith("closest: pagat; plays `penalties.knocker_lowest = 2` (pagat: 1, ")
    assert "shown by" in line and "knocking/knocker-lowest" in line and "\n" not in line


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["fingerprint", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("crash:1", "too little judged to tell"),
        ("hang", "too little judged to tell"),
        ("cannot-start", "could not start"),
        ("skip", "too little judged to tell"),
    ],
)
def test_an_engine_that_cannot_be_fingerprinted_gets_one_reason(
    capsys: pytest.CaptureFixture[str], mode: str, words: str
) -> None:
    impl = f"{sys.executable} {FAKE} {mode}"
    args = ["--impl", impl, "--base", "pagat", "--base", "scat", "--timeout", "0.3"]
    code, out, err = _cli(capsys, *args)
    assert code == 1, (out, err)
    assert words in out and "Traceback" not in out + err
    assert out.splitlines()[2].startswith("no fingerprint: ")


def test_an_engine_claiming_one_ruleset_is_fingerprinted_on_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _cli(capsys, "--impl", f"{sys.executable} {FAKE} pagat-only", "-j", "2")
    assert code == 0
    assert "closest: pagat; every judged case passes" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--base", "nosuch"], "argument --base: nosuch"),
        (["--emit-house-rule", "Our Engine.yaml"], "argument --emit-house-rule"),
        (["--output", "/nonexistent-folder/report.txt"], "does not exist"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code, out, err = _cli(capsys, "--impl", SERVE, *args)
    assert code == 2 and not out
    assert words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ([], "--impl"),
        (["--impl", SERVE, "--timeout", "0"], "argument --timeout"),
        (["--impl", SERVE, "--format", "xml"], "argument --format"),
    ],
)
def test_malformed_arguments_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["fingerprint", *args])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
