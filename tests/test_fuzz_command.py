"""``schwimmen fuzz``: differential fuzzing finds where an implementation plays other rules,
shrinks the case and writes it as a fixture the suite accepts; it is reproducible from
its seed and survives implementations that crash, hang, lie, answer twice, report nothing
or never start, within its time budget; one cause is one fixture, and no file is ever
overwritten."""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from pids import alive

from schwimmen.cli.main import main
from schwimmen.conformance.fields import STATE_FIELDS
from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.conformance.fuzz import FuzzOptions, FuzzReport, fuzz, words
from schwimmen.conformance.fuzz.cases import case_rng, generate, play
from schwimmen.conformance.fuzz.diff import Difference, compares_anything, first_difference
from schwimmen.conformance.fuzz.fixture import citations, free_id, governing
from schwimmen.conformance.fuzz.shrink import ddmin
from schwimmen.conformance.harness import Options, run_suite
from schwimmen.conformance.lint import lint
from schwimmen.conformance.runner import Status
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog

SERVE = f"{sys.executable} -m schwimmen serve"
MUTANT = f"{SERVE} --play pagat+knocker-loses-two"
FAKE = Path(__file__).parent / "fakes" / "fake_impl.py"


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
def test_the_mutant_is_found_shrunk_and_written_as_a_fixture_the_suite_accepts(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "found"
    args = ["fuzz", "--impl", MUTANT, "--ruleset", "pagat", "--seed", "1", "--seconds", "30"]
    code, stdout, _ = _run([*args, "--max-differences", "1", "--out", str(out)], capsys)
    assert code == 1, stdout
    assert f"fixtures written to {out}" in stdout
    assert "penalties.knocker_lowest=2" in stdout
    fixtures, errors = load_fixtures(out)
    assert not errors and len(fixtures) == 1
    fixture = fixtures[0]
    assert fixture.id.startswith("fuzz/pagat/penalties-knocker-lowest-losses-")
    assert "knocker_lowest is 2" in fixture.title and "lives lost" in fixture.title
    (case,) = fixture.cases
    assert case.where["penalties.knocker_lowest"] == [1]
    assert "pagat" in case.rulesets
    assert len(fixture.setup["steps"]) <= 6 and fixture.setup["seats"] <= 3
    problems, count = lint(catalog, out)
    assert (problems, count) == ([], 1)
    reference = run_suite(catalog, Options(fixtures_dir=out))
    assert reference.results and {r.status for r in reference.results} == {Status.PASSED}
    mutant = run_suite(catalog, Options(impl=MUTANT, fixtures_dir=out, rulesets=("pagat",)))
    assert [r.status for r in mutant.results] == [Status.FAILED]


def test_the_same_seed_makes_the_same_cases_and_the_same_fixture(
    catalog: Catalog, tmp_path: Path
) -> None:
    pagat = catalog.resolve("pagat")
    for number in range(20):
        one, two = generate(pagat, case_rng(5, number)), generate(pagat, case_rng(5, number))
        assert one.case == two.case
        again = play(pagat, one.plan)
        assert again is not None and again.case == one.case
    assert generate(pagat, case_rng(5, 0)).case != generate(pagat, case_rng(6, 0)).case
    texts = []
    for run in ("a", "b"):
        options = FuzzOptions(MUTANT, seconds=30, seed=3, out=tmp_path / run, max_differences=1)
        report = fuzz(catalog, pagat, options, lambda _: None)
        assert len(report.found) == 1
        path = report.found[0].written.path
        assert path is not None
        texts.append(path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]


def test_the_outcome_gathered_while_generating_is_the_reference_answer_to_the_case(
    catalog: Catalog,
) -> None:
    """Fuzz takes the reference's answer from the playthrough that made the case; it must
    be exactly what running the case gives, for every ruleset."""
    gathered = 0
    for name in sorted(catalog.rulesets):
        ruleset = catalog.resolve(name)
        for number in range(6):
            done = generate(ruleset, case_rng(11, number))
            if done.outcome is not None:
                gathered += 1
                assert run_case(done.case) == {"status": "ok", "outcome": done.outcome}, name
    assert gathered > 5 * len(catalog.rulesets)


def test_a_next_match_starts_with_the_lives_the_case_runs_with(catalog: Catalog) -> None:
    """A case that gives every seat the same lives and starts the next match of a series
    is played by the generator as run_case plays it (the case's lives for this match, the
    ruleset's for the next), so its answer comes from the playthrough, not a replay
    (which remains for a case whose last step would deal from a pack it does not have)."""
    online = catalog.resolve("online")
    found = gathered = 0
    for number in range(400):
        done = generate(online, case_rng(3, number))
        steps = done.case["steps"]
        if not isinstance(done.case.get("lives"), int) or {"table": "next-match"} not in steps:
            continue
        found += 1
        if done.outcome is not None:
            gathered += 1
            assert run_case(done.case) == {"status": "ok", "outcome": done.outcome}, number
    assert found >= 3
    assert gathered >= 0.8 * found


@pytest.mark.slow
def test_the_reference_against_itself_shows_no_difference_and_says_it_proves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["fuzz", "--impl", SERVE, "--ruleset", "scat", "--seconds", "8", "--out", str(tmp_path)]
    code, stdout, stderr = _run([*args, "--seed", "2"], capsys)
    assert code == 0, stdout + stderr
    assert "0 finding(s)" in stdout
    assert "no proof of conformance" in stdout
    assert not list(tmp_path.rglob("*.yaml"))


def test_probes_try_many_refusals_and_the_reference_refuses_each(catalog: Catalog) -> None:
    codes: dict[str, Counter[str]] = {}
    for name in ("pagat", "scat", "rules-page+pass-once-per-round"):
        ruleset = catalog.resolve(name)
        seen: Counter[str] = Counter()
        for number in range(150):
            done = generate(ruleset, case_rng(11, number))
            answer = run_case(done.case)
            assert answer["status"] == "ok", answer
            seen.update(s["reason"] for s in answer["outcome"]["steps"] if not s["accepted"])
        codes[name] = seen
    for code in ("not-your-turn", "not-in-hand", "not-in-middle", "two-card-swap", "malformed"):
        assert codes["pagat"][code], codes["pagat"]
    for code in ("wrong-phase", "not-in-hand", "no-middle", "rediscard"):
        assert codes["scat"][code], codes["scat"]
    assert codes["rules-page+pass-once-per-round"]["pass-limit"], codes


def test_the_first_difference_is_the_earliest_in_time(catalog: Catalog) -> None:
    pagat = catalog.resolve("pagat")
    done = generate(pagat, case_rng(1, 0))
    ref = run_case(done.case)["outcome"]
    assert first_difference(ref, ref, done.steps) is None
    changed = {**ref, "lives": {seat: n + 1 for seat, n in ref["lives"].items()}}
    later = first_difference(ref, changed, done.steps)
    assert later is not None and later.field == "lives" and later.time == done.steps + 1
    steps = [dict(s) for s in ref["steps"]]
    steps[0] = {"accepted": False, "reason": "not-your-turn"}
    earlier = first_difference(ref, {**changed, "steps": steps}, done.steps)
    assert earlier is not None and earlier.path == "steps.1"
    assert earlier.signature == "steps:accepted/refused"


def test_delta_debugging_keeps_exactly_what_the_test_needs() -> None:
    def test(items: list[int]) -> list[int] | None:
        return items if 3 in items and 7 in items else None

    assert ddmin(list(range(20)), test) == [3, 7]
    assert ddmin([5], lambda items: items) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("crash:1", "exit code 3"),
        ("hang", "timed out"),
        ("cannot-start", "could not start"),
    ],
)
def test_a_broken_implementation_ends_the_run_with_a_clear_message(
    mode: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    impl = f"{sys.executable} {FAKE} {mode}"
    began = time.monotonic()
    args = ["fuzz", "--impl", impl, "--ruleset", "pagat", "--seconds", "30", "--timeout", "0.5"]
    code, stdout, stderr = _run([*args, "--seed", "1", "--out", str(tmp_path)], capsys)
    assert code == 1, stdout + stderr
    assert time.monotonic() - began < 20
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("schwimmen fuzz: ") and expected in last, stderr
    assert not list(tmp_path.rglob("*.yaml"))


@pytest.mark.slow
def test_an_implementation_that_crashes_now_and_then_is_restarted_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    impl = f"{sys.executable} {FAKE} crash:3"
    args = ["fuzz", "--impl", impl, "--ruleset", "pagat", "--seconds", "4", "--seed", "1"]
    code, stdout, stderr = _run([*args, "--out", str(tmp_path)], capsys)
    assert code == 1, stdout + stderr
    assert "errored: case 2: the implementation exited (exit code 3)" in stdout
    assert "0 finding(s)" in stdout


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--seconds", "0"], "argument --seconds: must be more than 0"),
        (["--ruleset", "no-such-ruleset"], "argument --ruleset:"),
        (["--impl", ""], "argument --impl: the command is empty"),
        (["--max-differences", "0"], "argument --max-differences: must be at least 1"),
        (["-j", "x"], "argument -j/--jobs: not a whole number"),
        (["--out", ""], "argument --out: the folder name is empty"),
        (["--out", "  "], "argument --out: the folder name is empty"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(
    extra: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["fuzz", "--impl", SERVE, "--ruleset", "pagat", *extra]
    code, stdout, stderr = _run(args, capsys)
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and expected in stderr, stderr


def test_an_out_folder_that_cannot_be_written_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    args = ["fuzz", "--impl", SERVE, "--ruleset", "pagat", "--out", str(blocker / "sub")]
    code, _, stderr = _run(args, capsys)
    assert code == 2 and "argument --out: cannot write to" in stderr


def _fake(mode: str) -> str:
    return f"{sys.executable} {FAKE} {mode}"


def _fixture_files(out: Path) -> list[Path]:
    return sorted(out.rglob("*.yaml"))


# ---------------------------------------------------------------------------- 1. findings
def test_each_distinct_refusal_is_its_own_finding_with_its_own_name() -> None:
    held = Difference("steps.2", "steps", 2, -1, {"rejected": "not-in-hand"}, "accepted")
    phase = Difference("steps.1", "steps", 1, -1, {"rejected": "wrong-phase"}, "accepted")
    at_play, at_turn = words.Where("discard", "play"), words.Where("draw-stock", "turn")
    keys = {
        words.key(held, at_play, ()),
        words.key(phase, at_turn, ()),
        words.key(held, words.Where("discard", "turn"), ()),  # the same refusal elsewhere
        words.key(phase, words.Where("knock", "turn"), ()),  # another action
    }
    assert len(keys) == 4
    names = {words.name(held, at_play, ()), words.name(phase, at_turn, ())}
    assert names == {
        f"discard-not-in-hand-accepted-{words.name(held, at_play, ())[-4:]}",
        f"draw-stock-wrong-phase-accepted-{words.name(phase, at_turn, ())[-4:]}",
    }
    title = words.title("pagat", held, at_play, ())
    assert title == (
        "pagat: a discard in the play phase must be refused (not-in-hand); "
        "the implementation accepts it"
    )


def test_a_name_that_is_taken_or_exists_gets_the_next_free_one(tmp_path: Path) -> None:
    (tmp_path / "fuzz" / "pagat").mkdir(parents=True)
    (tmp_path / "fuzz" / "pagat" / "a-1a2b.yaml").write_text("# mine\n", encoding="utf-8")
    taken = {"fuzz/pagat/a-1a2b-2"}
    assert free_id("fuzz/pagat/a-1a2b", tmp_path, taken, force=False) == "fuzz/pagat/a-1a2b-3"
    assert free_id("fuzz/pagat/a-1a2b", tmp_path, set(), force=True) == "fuzz/pagat/a-1a2b"
    assert free_id("fuzz/pagat/new-0000", tmp_path, taken, force=False) == "fuzz/pagat/new-0000"


@pytest.mark.slow
def test_a_rerun_never_replaces_a_fixture_and_every_finding_is_a_file(
    catalog: Catalog, tmp_path: Path
) -> None:
    pagat = catalog.resolve("pagat")
    options = FuzzOptions(MUTANT, seconds=30, seed=3, out=tmp_path, max_differences=1)
    first = fuzz(catalog, pagat, options, lambda _: None)
    (path,) = _fixture_files(tmp_path)
    assert [f.written.path for f in first.written] == [path]
    edited = path.read_text(encoding="utf-8") + "# edited by hand\n"
    path.write_text(edited, encoding="utf-8")
    second = fuzz(catalog, pagat, options, lambda _: None)
    assert path.read_text(encoding="utf-8") == edited
    (again,) = [f.written.path for f in second.written]
    assert again is not None and again != path and again.stem == path.stem + "-2"
    assert _fixture_files(tmp_path) == sorted([path, again])
    problems, count = lint(catalog, tmp_path)
    assert count == 2 and [p for p in problems if "edited" in str(p)] == []


# ---------------------------------------------------------------------------- 2.-4.
@pytest.mark.slow
def test_one_cause_is_one_fixture_shrunk_to_the_deal(catalog: Catalog, tmp_path: Path) -> None:
    impl = f"{SERVE} --play pagat --set maximum.at_deal=no-effect"
    options = FuzzOptions(impl, seconds=20, seed=3, out=tmp_path)
    report = fuzz(catalog, catalog.resolve("pagat"), options, lambda _: None)
    assert len(report.found) == 1 and report.found[0].seen, [f.title for f in report.found]
    (entry,) = report.found
    assert 'maximum.at_deal="no-effect"' in entry.explained
    assert entry.written.fixture_id.startswith("fuzz/pagat/maximum-at-deal-round-missing-")
    assert entry.title.startswith("pagat: round 1 must end at the deal (maximum)")
    fixtures, _ = load_fixtures(tmp_path)
    assert [len(f.setup["steps"]) for f in fixtures] == [0]  # nothing after the deal
    assert lint(catalog, tmp_path) == ([], 1)


def test_shrinking_drops_every_step_after_the_first_difference(catalog: Catalog) -> None:
    from schwimmen.conformance.fuzz.shrink import Budget, shrink

    pagat = catalog.resolve("pagat")
    done = next(d for n in range(50) if (d := generate(pagat, case_rng(7, n))).steps >= 20)
    for time_ in (0, 3):  # at the deal, and at step 3: nothing after it is needed

        def check(case: dict[str, object], at: int = time_) -> Difference | None:
            if len(case["steps"]) < at:  # type: ignore[arg-type]
                return None  # the difference needs the steps up to it
            return Difference("rounds[0]", "rounds.missing", at, 0, [], None)

        difference = check(done.case)
        assert difference is not None
        small = shrink(pagat, done, difference, check, Budget(tries=400, seconds=10))
        assert small.playthrough.steps == time_


def test_a_case_that_pins_nothing_still_cites_the_rule_it_is_played_by(
    catalog: Catalog,
) -> None:
    for name in ("pagat", "scat", "online"):
        ruleset = catalog.resolve(name)
        for field in ("steps", "legal", "rounds.losses", "lives", "hands"):
            cites = citations(ruleset, governing(ruleset, field))
            assert cites.because or cites.defaults, (name, field)


@pytest.mark.slow
def test_every_fixture_written_lints_clean_and_problems_name_the_real_file(
    catalog: Catalog, tmp_path: Path
) -> None:
    impl = _fake("random:1")
    options = FuzzOptions(impl, seconds=6, seed=1, out=tmp_path, timeout=2)
    report = fuzz(catalog, catalog.resolve("pagat"), options, lambda _: None)
    assert _fixture_files(tmp_path) == sorted(Path(str(f.written.path)) for f in report.written)
    if report.written:
        assert lint(catalog, tmp_path) == ([], len(report.written))
    for entry in report.flaky:  # passed on a rerun: reported, never written
        assert entry.written.path is None
        assert entry.written.problems[0] == "the implementation passed the fixture on a rerun"
    for entry in report.rejected:
        assert entry.written.path is not None and entry.written.path.suffix == ".rejected"
        assert all("conformance/fixtures/" not in p for p in entry.written.problems)


# ---------------------------------------------------------------------------- 5.
def test_a_suit_no_rule_decides_is_no_difference(catalog: Catalog) -> None:
    values = catalog.resolve("online").values()
    assert values["comparison.suit_order"] == "none"
    hand = {"points": 20, "hand": "suit", "suit": "H", "maximum": False}
    record = {
        "reason": "knock",
        "at_deal": False,
        "after_step": 1,
        "by": "P1",
        "knocker": "P1",
        "losses": {},
        "values": {"P1": hand},
        "hands": {"P1": ["KH", "QS", "7C"]},  # 10 in hearts, 10 in spades: a tie
    }
    state = frozenset(STATE_FIELDS)  # only the steps and rounds are compared here
    ref = {"steps": [{"accepted": True}], "rounds": [record]}
    spades = {**record, "values": {"P1": {**hand, "suit": "S"}}}
    got = {"steps": [{"accepted": True}], "rounds": [spades]}
    assert first_difference(ref, got, 1, state, values) is None
    clubs = {**record, "values": {"P1": {**hand, "suit": "C"}}}
    found = first_difference(ref, {**got, "rounds": [clubs]}, 1, state, values)
    assert found is not None and found.field == "rounds.values"
    ordered = {**values, "comparison.suit_order": ["D", "H", "S", "C"]}
    assert first_difference(ref, got, 1, state, ordered) is not None


@pytest.mark.slow
def test_an_engine_naming_another_tied_suit_shows_no_difference(
    catalog: Catalog, tmp_path: Path
) -> None:
    counted = tmp_path / "changed"
    impl = f"{sys.executable} {Path(__file__).parent / 'fakes' / 'other_suit_impl.py'}"
    options = FuzzOptions(f"{impl} count={counted}", seconds=6, seed=1, out=tmp_path / "out")
    report = fuzz(catalog, catalog.resolve("online"), options, lambda _: None)
    assert counted.exists()  # it did name other suits, in some cases
    assert report.compared > 0 and report.found == [] and report.differing == 0


# ---------------------------------------------------------------------------- 6.
def test_a_run_that_compares_nothing_fails_with_one_line_and_progress_shows_skips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from schwimmen.conformance.fuzz import driver

    monkeypatch.setattr(driver, "REPORT_EVERY", 0.5)
    args = ["fuzz", "--impl", _fake("skip"), "--ruleset", "pagat", "--seconds", "3"]
    code, stdout, stderr = _run([*args, "--seed", "1", "--out", str(tmp_path)], capsys)
    assert code == 1, stdout + stderr
    assert "0 compared" in stdout and "no difference found" not in stdout
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("schwimmen fuzz: nothing compared: of ") and "skipped" in last
    progress = [line for line in stderr.splitlines() if " cases (" in line]
    assert progress and all("compared" in p and "skipped" in p for p in progress)


def test_a_run_in_which_most_cases_errored_fails() -> None:
    from schwimmen.cli.fuzz_command import failure

    assert failure(FuzzReport(1, cases=10, compared=3, errored=7)) is not None
    assert "most cases errored" in str(failure(FuzzReport(1, cases=10, compared=3, errored=7)))
    assert failure(FuzzReport(1, cases=10, compared=9, errored=1)) is None
    assert "nothing compared" in str(failure(FuzzReport(1, cases=4, errored=4)))


@pytest.mark.slow
# ---------------------------------------------------------------------------- 7.
def test_the_budget_is_the_whole_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from schwimmen.conformance.fuzz import GRACE

    began = time.monotonic()
    args = ["fuzz", "--impl", MUTANT, "--ruleset", "pagat", "--seconds", "8", "--seed", "1"]
    code, stdout, _ = _run([*args, "--out", str(tmp_path)], capsys)
    took = time.monotonic() - began
    assert code == 1 and "(time is up)" in stdout, stdout
    assert took < 8 + GRACE + 1.5, took
    assert len(_fixture_files(tmp_path)) == stdout.count("[written]")


def test_an_implementation_that_never_starts_is_bounded_by_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    began = time.monotonic()
    args = ["fuzz", "--impl", _fake("never-start"), "--ruleset", "pagat", "--seconds", "3"]
    code, _, stderr = _run([*args, "--out", str(tmp_path)], capsys)
    assert code == 1 and time.monotonic() - began < 5
    assert "could not start" in stderr.strip().splitlines()[-1]


# ---------------------------------------------------------------------------- 8.
def test_an_implementation_that_answers_twice_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["fuzz", "--impl", _fake("twice"), "--ruleset", "pagat", "--seconds", "5"]
    code, stdout, stderr = _run([*args, "--out", str(tmp_path)], capsys)
    assert code == 1
    assert "0 compared" in stdout
    assert "more than once" in stderr.strip().splitlines()[-1]


def test_an_implementation_that_reports_nothing_is_no_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["fuzz", "--impl", _fake("nothing"), "--ruleset", "pagat", "--seconds", "5"]
    code, stdout, stderr = _run([*args, "--out", str(tmp_path)], capsys)
    assert code == 1 and "no difference found" not in stdout
    assert "nothing compared" in stderr.strip().splitlines()[-1]
    assert not compares_anything(frozenset({"steps", "rounds", "state"}) | _all_fields())
    assert compares_anything(frozenset({"legal"}))


def _all_fields() -> frozenset[str]:
    from schwimmen.conformance.fields import FIELDS

    return frozenset(FIELDS)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("interrupted", [False, True])
def test_nothing_the_implementation_started_outlives_the_run(
    interrupted: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import _thread
    import threading

    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PIDS", str(pids))
    args = ["fuzz", "--impl", _fake("leak-setsid"), "--ruleset", "pagat", "--seconds", "4"]
    from schwimmen.conformance.fuzz.driver import FuzzRun

    timer = threading.Timer(1, _thread.interrupt_main)  # as a Ctrl-C would, mid-run
    handshake = FuzzRun._handshake

    def started_then_interrupted(run: FuzzRun) -> bool:
        ok = handshake(run)
        timer.start()
        return ok

    if interrupted:
        monkeypatch.setattr(FuzzRun, "_handshake", started_then_interrupted)
    code, out, err = _run([*args, "--out", str(tmp_path / "out")], capsys)
    timer.cancel()
    assert code == (130 if interrupted else 0), out + err
    started = [int(n) for n in pids.read_text(encoding="utf-8").split()]
    assert len(started) > 2  # the implementation and grandchildren that left its session
    deadline = time.monotonic() + 3
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [p for p in started if alive(p)] == []
    assert os.getpid() not in started


# ---------------------------------------------------------------------------- 9.
def test_an_engine_with_rules_of_its_own_is_fuzzed(catalog: Catalog, tmp_path: Path) -> None:
    impl = f"{SERVE} --play pagat --set penalties.knocker_lowest=2 --fixed-rules"
    options = FuzzOptions(impl, seconds=30, seed=1, out=tmp_path, max_differences=1)
    report = fuzz(catalog, catalog.resolve("pagat"), options, lambda _: None)
    assert report.fixed_rules and report.fatal is None
    (entry,) = report.found
    assert "penalties.knocker_lowest=2" in entry.explained
    assert entry.written.status == "written"


# ---------------------------------------------------------------------------- naming
def test_a_mutant_explains_a_difference_only_if_it_plays_the_whole_case_so(
    catalog: Catalog,
) -> None:
    """A finding is named by a parameter only when that mutant answers the whole case as
    the implementation did and fails the fixture exactly as it does, the reference
    without the change passing it: one that agrees only up to the difference (here: the
    implementation also names another winner afterwards) explains nothing."""
    from schwimmen.conformance.fuzz.fixture import expectation
    from schwimmen.conformance.fuzz.params import Mutants, explanations, run_under

    pagat = catalog.resolve("pagat")
    (fixture,) = [f for f in load_fixtures()[0] if f.id == "knocking/knocker-lowest"]
    case = {k: v for k, v in fixture.request(pagat).items() if k != "ruleset"}
    mutants = Mutants(catalog, pagat)
    ref = run_under(case, pagat)
    got = run_under(case, catalog.mutant("pagat", {"penalties.knocker_lowest": 2}))
    assert ref is not None and got is not None
    steps = len(case["steps"])
    difference = first_difference(ref, got, steps)
    assert difference is not None
    expect = expectation(difference, ref, got)
    named = [str(m) for m in explanations(mutants, case, got, frozenset(), expect)]
    assert "penalties.knocker_lowest=2" in named
    later = {**got, "to_move": "P2" if got.get("to_move") != "P2" else "P1"}
    assert not explanations(mutants, case, later, frozenset(), expect)
    assert not explanations(mutants, case, ref, frozenset(), expect)  # no difference at all
