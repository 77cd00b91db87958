"""``schwimmen fuzz``: generate cases, find where an implementation differs from the
reference, shrink each difference and write it as a fixture.

Each of ``jobs`` threads drives one implementation process through the harness's own
driver (``process.ProcessImplementation``: it never raises and never waits longer than
the timeout, and restarts a process that crashed, hung or answered garbage), while the
reference answers the same case in-process. Case ``n`` of a run is made from the seed
and ``n`` alone, so a run is reproducible from its seed (with one job exactly; with
several the same cases are made, but which worker meets a difference first may vary).

A difference is shrunk by the worker that found it, on its own process, while the others
go on fuzzing. Differences are told apart by their first differing field and the
parameter that explains them (``params.explanations``), or the parameters they pin
where none does; a field already shrunk a few times is not shrunk again. The run stops
at the time limit, after ``max_differences`` distinct differences, when the
implementation cannot start, or when it errs on several cases in a row: fuzzing an
implementation that answers nothing finds nothing, and says so.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.fuzz.cases import Playthrough, case_rng, generate
from schwimmen.conformance.fuzz.diff import Difference, Malformed, first_difference
from schwimmen.conformance.fuzz.fixture import (
    Written,
    build,
    expectation,
    fixture_id,
    holds,
    pinned_parameters,
)
from schwimmen.conformance.fuzz.params import Mutant, Mutants, explanations
from schwimmen.conformance.fuzz.shrink import Budget, shrink
from schwimmen.conformance.process import ProcessImplementation, Started
from schwimmen.conformance.runner import Status, judge
from schwimmen.engine.adapter import run_case
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

START_ATTEMPTS = 3
ERRORS_IN_A_ROW = 5
SHRINKS_PER_FIELD = 3
REPORT_EVERY = 5.0

Say = Callable[[str], None]


@dataclass(frozen=True)
class FuzzOptions:
    impl: str
    seconds: float = 60.0
    seed: int = 0
    jobs: int = 1
    out: Path = Path("fuzz-fixtures")
    max_differences: int = 5
    timeout: float = 10.0
    start_timeout: float = 30.0
    shrink_seconds: float = 30.0


@dataclass(frozen=True)
class Found:
    """A distinct difference, shrunk and written."""

    written: Written
    difference: Difference
    explained: tuple[str, ...]
    case_number: int
    found_after: float
    written_after: float
    before: tuple[int, int, int]  # steps, seats, rounds of the case as generated
    after: tuple[int, int, int]  # ... and as shrunk
    tries: int


@dataclass
class FuzzReport:
    seed: int
    implementation: str = ""
    cases: int = 0
    compared: int = 0
    skipped: int = 0
    errored: int = 0
    differing: int = 0
    found: list[Found] = field(default_factory=list)
    unwritten: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    fatal: str | None = None
    stopped: str = ""
    seconds: float = 0.0
    interrupted: bool = False


def _dims(p: Playthrough) -> tuple[int, int, int]:
    return (p.steps, p.plan.seats, len(p.plan.packs))


def _outcome(answer: Mapping[str, Any]) -> Mapping[str, Any] | None:
    outcome = answer.get("outcome")
    if answer.get("status") == "ok" and isinstance(outcome, Mapping):
        return outcome
    return None


class FuzzRun:
    """One fuzzing run against one implementation command and one ruleset."""

    def __init__(self, catalog: Catalog, ruleset: Ruleset, options: FuzzOptions, say: Say) -> None:
        self.catalog = catalog
        self.ruleset = ruleset
        self.options = options
        self.say = say
        self.report = FuzzReport(options.seed)
        self.mutants = Mutants(catalog, ruleset)
        self.lock = threading.Lock()
        self.build_lock = threading.Lock()
        self.stop = threading.Event()
        self.next_number = 0
        self.in_a_row = 0
        self.shrinks: Counter[str] = Counter()
        self.keys: dict[tuple[str, tuple[str, ...]], str] = {}
        self.started_at = time.monotonic()
        self.last_report = self.started_at
        self.declared: frozenset[str] = frozenset()
        self.workers = [
            ProcessImplementation(
                options.impl, timeout=options.timeout, start_timeout=options.start_timeout
            )
            for _ in range(max(1, options.jobs))
        ]

    # ------------------------------------------------------------------ the run
    def execute(self) -> FuzzReport:
        try:
            if self._handshake():
                threads = [
                    threading.Thread(target=self._work, args=(w,), daemon=True, name=f"fuzz-{i}")
                    for i, w in enumerate(self.workers)
                ]
                for t in threads:
                    t.start()
                for t in threads:
                    while t.is_alive():
                        t.join(0.2)
        except KeyboardInterrupt:
            self.report.interrupted = True
            self.report.stopped = "interrupted"
            self.stop.set()
            for w in self.workers:
                w.interrupt()
        finally:
            for w in self.workers:
                w.interrupt()
        self.report.seconds = time.monotonic() - self.started_at
        return self.report

    def _handshake(self) -> bool:
        worker = self.workers[0]
        started: Started | None = None
        for _ in range(START_ATTEMPTS):
            started = worker.start()
            if started is not None:
                break
        if started is None:
            self.report.fatal = f"the implementation could not start: {worker.start_error}"
            return False
        self.report.implementation = started.name
        self.declared = started.not_reported
        if not (started.any_ruleset or self.ruleset.id in started.rulesets):
            claims = ", ".join(started.rulesets) or "no ruleset"
            self.report.fatal = (
                f"{started.name} does not claim {self.ruleset.id} (it claims {claims}); "
                "fuzz a ruleset it implements"
            )
            worker.close()
            return False
        return True

    def _elapsed(self) -> float:
        return time.monotonic() - self.started_at

    def _take(self) -> int | None:
        with self.lock:
            if self.stop.is_set():
                return None
            if self._elapsed() >= self.options.seconds:
                self.report.stopped = self.report.stopped or "time is up"
                self.stop.set()
                return None
            self.next_number += 1
            return self.next_number - 1

    def _fatal(self, message: str) -> None:
        with self.lock:
            if self.report.fatal is None:
                self.report.fatal = message
            self.stop.set()

    def _progress(self) -> None:
        now = time.monotonic()
        with self.lock:
            if now - self.last_report < REPORT_EVERY:
                return
            self.last_report = now
            r = self.report
            rate = r.cases / max(now - self.started_at, 1e-9)
        self.say(
            f"{now - self.started_at:5.0f} s: {r.cases} cases ({rate:.0f}/s), "
            f"{len(r.found)} difference(s), {r.errored} errored"
        )

    # ------------------------------------------------------------------ a worker
    def _work(self, worker: ProcessImplementation) -> None:
        try:
            while (number := self._take()) is not None:
                self._one(worker, number)
                self._progress()
        except Exception as exc:  # a bug of the fuzzer itself: say so and stop the run
            self._fatal(f"internal error of fuzz: {type(exc).__name__}: {exc}")
            raise
        finally:
            worker.close()

    def _one(self, worker: ProcessImplementation, number: int) -> None:
        done = generate(self.ruleset, case_rng(self.options.seed, number))
        ref = _outcome(run_case(done.case))
        if ref is None:
            self._fatal(f"the reference could not play generated case {number} (a fuzz bug)")
            return
        reply = worker.run(done.case)
        answer = reply.answer
        if self.stop.is_set() and self.report.interrupted:
            return
        with self.lock:
            self.report.cases += 1
        if reply.start_failed:
            self._erred(str(answer.get("message", "")), start=True)
            return
        status = answer.get("status")
        if status == "skipped":
            with self.lock:
                self.report.skipped += 1
                self.in_a_row = 0
            return
        got = _outcome(answer)
        if got is None:
            self._erred(str(answer.get("message", f"status {status!r}")), number=number)
            return
        try:
            difference = first_difference(ref, got, done.steps, self.declared)
        except (Malformed, KeyError, TypeError, ValueError) as exc:
            self._erred(f"an answer the protocol does not allow: {exc}", number=number)
            return
        with self.lock:
            self.report.compared += 1
            self.in_a_row = 0
            if difference is None:
                return
            self.report.differing += 1
            if (
                self.shrinks[difference.field] >= SHRINKS_PER_FIELD
                or len(self.report.found) >= self.options.max_differences
            ):
                return
            self.shrinks[difference.field] += 1
        self._found(worker, number, done, difference)

    def _erred(self, message: str, *, start: bool = False, number: int | None = None) -> None:
        message = message.strip() or "no message"
        with self.lock:
            self.report.errored += 1
            self.in_a_row += 1
            in_a_row = self.in_a_row
            if len(self.report.errors) < 5:
                where = f"case {number}: " if number is not None else ""
                self.report.errors.append(where + message)
        if start and in_a_row >= START_ATTEMPTS:
            self._fatal(f"the implementation could not start: {message}")
        elif in_a_row >= ERRORS_IN_A_ROW:
            self._fatal(
                f"the implementation erred on {in_a_row} cases in a row, the last: {message}"
            )

    # ------------------------------------------------------------------ a difference
    def _check(self, worker: ProcessImplementation, case: Mapping[str, Any]) -> Difference | None:
        ref = _outcome(run_case(case))
        if ref is None:
            return None
        got = _outcome(worker.run(case).answer)
        if got is None:
            return None
        try:
            return first_difference(ref, got, len(case["steps"]), self.declared)
        except (Malformed, KeyError, TypeError, ValueError):
            return None

    def _found(
        self, worker: ProcessImplementation, number: int, done: Playthrough, difference: Difference
    ) -> None:
        found_after = self._elapsed()
        self.say(f"case {number}: {difference}; shrinking")
        budget = Budget(seconds=self.options.shrink_seconds)
        shrunk = shrink(self.ruleset, done, difference, lambda c: self._check(worker, c), budget)
        small = shrunk.playthrough
        case = small.case
        ref = _outcome(run_case(case))
        got = _outcome(worker.run(case).answer)
        if ref is None or got is None:
            self._unwritten(f"case {number}: the shrunk case could not be run again")
            return
        try:
            final = first_difference(ref, got, small.steps, self.declared) or shrunk.difference
        except (Malformed, KeyError, TypeError, ValueError):
            final = shrunk.difference
        with self.build_lock:
            self._write(worker, number, done, small, final, ref, got, found_after, shrunk.tries)

    def _write(
        self,
        worker: ProcessImplementation,
        number: int,
        done: Playthrough,
        small: Playthrough,
        difference: Difference,
        ref: Mapping[str, Any],
        got: Mapping[str, Any],
        found_after: float,
        tries: int,
    ) -> None:
        case = small.case
        expect = expectation(difference, ref, got)
        if not holds(expect, ref, got, small.steps, self.declared):
            expect = expectation(difference, ref, got, full=True)
        if not holds(expect, ref, got, small.steps, self.declared):
            self._unwritten(f"case {number}: {difference} cannot be stated as a fixture")
            return
        explaining = self._explain(case, got, difference)
        explained = tuple(str(m) for m in explaining)
        pinned = pinned_parameters(self.mutants, case, expect)
        key = (difference.field, explained or tuple(pinned))
        names = [e.split("=")[0] for e in explained] or pinned[:3]
        ident = fixture_id(self.ruleset, difference.field, names)
        with self.lock:
            if len(self.report.found) >= self.options.max_differences:
                return
            earlier = self.keys.get(key)
            if earlier is None:
                self.keys[key] = ident
        if earlier is not None:
            self.say(f"case {number}: the same difference as {earlier}; not written again")
            return
        written = build(
            self.catalog,
            self.mutants,
            case,
            expect,
            pinned,
            fixture_id=ident,
            title=f"{self.ruleset.id}: {difference.field} (found by schwimmen fuzz)",
            description=self._describe(
                number, done, small, difference, tuple(m.describe() for m in explaining)
            ),
            fails=lambda f: self._fails(worker, f),
            out=self.options.out,
        )
        entry = Found(
            written,
            difference,
            explained,
            number,
            found_after,
            self._elapsed(),
            _dims(done),
            _dims(small),
            tries,
        )
        with self.lock:
            self.report.found.append(entry)
            if len(self.report.found) >= self.options.max_differences:
                self.report.stopped = f"{len(self.report.found)} difference(s) found"
                self.stop.set()
        problems = f" ({len(written.problems)} problem(s))" if written.problems else ""
        self.say(f"wrote {written.path}{problems}")

    def _explain(
        self, case: Mapping[str, Any], got: Mapping[str, Any], difference: Difference
    ) -> list[Mutant]:
        return explanations(self.mutants, case, got, difference, self.declared)

    def _describe(
        self,
        number: int,
        done: Playthrough,
        small: Playthrough,
        difference: Difference,
        explained: tuple[str, ...],
    ) -> str:
        steps, seats, rounds = _dims(done)
        as_if = (
            f" The implementation answers as the reference does {' or '.join(explained)}."
            if explained
            else ""
        )
        return (
            f"Found by schwimmen fuzz --ruleset {self.ruleset.id} --seed {self.options.seed} "
            f"(case {number}: {steps} steps, {seats} seats, {rounds} round(s)), shrunk to "
            f"{small.steps} steps, {small.plan.seats} seats, {len(small.plan.packs)} round(s). "
            f"First difference: {difference}.{as_if}"
        )

    def _fails(self, worker: ProcessImplementation, fixture: Fixture) -> bool:
        case = fixture.applicable_case(self.ruleset)
        if case is None:
            return False
        answer = worker.run(fixture.request(self.ruleset)).answer
        result = judge(fixture, case, self.ruleset, answer, self.declared)
        return result.status is Status.FAILED

    def _unwritten(self, message: str) -> None:
        with self.lock:
            self.report.unwritten.append(message)
        self.say(message)


def fuzz(catalog: Catalog, ruleset: Ruleset, options: FuzzOptions, say: Say) -> FuzzReport:
    """Fuzz ``options.impl`` against the reference under ``ruleset``."""
    return FuzzRun(catalog, ruleset, options, say).execute()
