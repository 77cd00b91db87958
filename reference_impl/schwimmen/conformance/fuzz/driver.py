"""``schwimmen fuzz``: generate cases, find where an implementation differs from the
reference, shrink each difference and write it as a fixture.

Each of ``jobs`` threads drives one implementation process through the harness's own
driver (``process.ProcessImplementation``: it never raises and never waits longer than
the timeout, and restarts a process that crashed, hung or answered garbage), while the
reference answers the same case: made and played in-process with one job, in as many
worker processes as jobs with several (:mod:`.supply`). Case ``n`` of a run is made
from the seed and ``n`` alone, so a run is reproducible from its seed (with one job
exactly; with several the same cases are made, but which worker meets a difference
first may vary).

A difference is shrunk by the worker that found it, on its own process, while the others
go on fuzzing. Differences are told apart as ``words.key`` says (the mutant that explains
them, else a refusal's code, action and phase, else the field and phase): one finding,
one fixture, however often it shows; a kind of difference already shrunk a few times is
not shrunk again. Every finding is reported with what became of it: a fixture written,
one kept apart because it does not lint clean, or a flaky one the implementation passed
on a rerun.

``seconds`` is the whole budget: the implementation's start counts against it (its start
timeout is never longer than what is left), no request waits past it, and the finding in
hand when it runs out gets at most ``grace`` seconds more to be shrunk and written. The
run also stops after ``max_differences`` findings if asked, when the implementation
cannot start, declares that it reports nothing the fuzzer compares, answers a request
twice, or errs on several cases in a row: fuzzing an implementation that answers nothing
finds nothing, and says so. An engine that plays rules of its own (``fixed_rules``) is
sent cases without a ruleset and judged against the one fuzzed.
"""

from __future__ import annotations

import marshal
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schwimmen import resident
from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.fuzz import words
from schwimmen.conformance.fuzz.cases import Playthrough
from schwimmen.conformance.fuzz.diff import (
    Difference,
    Malformed,
    compares_anything,
    first_difference,
)
from schwimmen.conformance.fuzz.fixture import (
    FLAKY,
    REJECTED,
    WRITTEN,
    Written,
    build,
    expectation,
    fixture_id,
    holds,
    pinned_parameters,
)
from schwimmen.conformance.fuzz.params import Mutants, explanations
from schwimmen.conformance.fuzz.shrink import Budget, shrink
from schwimmen.conformance.fuzz.supply import Sent, Supply, supply
from schwimmen.conformance.fuzz.wire import Wire
from schwimmen.conformance.process import ProcessImplementation, Reply, Started
from schwimmen.conformance.runner import Status, judge
from schwimmen.engine.adapter import run_case
from schwimmen.protocol.actions import ActionSyntaxError, parse_text
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

START_ATTEMPTS = 3
ERRORS_IN_A_ROW = 5
SHRINKS_PER_KIND = 3
REPORT_EVERY = 5.0
GRACE = 5.0
"""Seconds past the budget that the finding in hand may take to be shrunk and written."""
MIN_WAIT = 0.2
CUT_SHORT = 1.0
"""A request the end of the budget cut off sooner than this is not counted."""

Say = Callable[[str], None]


@dataclass(frozen=True)
class FuzzOptions:
    impl: str
    seconds: float = 60.0
    seed: int = 0
    jobs: int = 1
    out: Path = Path("fuzz-fixtures")
    max_differences: int | None = None
    timeout: float = 10.0
    start_timeout: float = 30.0
    shrink_seconds: float = 30.0
    grace: float = GRACE
    force: bool = False
    began: float | None = None
    """When the budget began (``time.monotonic()``; None: now), so that a command's own
    start (loading the catalog) counts against ``seconds`` too."""


@dataclass
class Found:
    """A distinct difference (a finding), shrunk, and what became of it (``written``);
    ``seen`` the numbers of the other cases that showed it."""

    written: Written
    difference: Difference
    explained: tuple[str, ...]
    case_number: int
    found_after: float
    written_after: float
    before: tuple[int, int, int]  # steps, seats, rounds of the case as generated
    after: tuple[int, int, int]  # ... and as shrunk
    tries: int
    title: str = ""
    seen: list[int] = field(default_factory=list)


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
    fixed_rules: bool = False

    def of(self, status: str) -> list[Found]:
        return [f for f in self.found if f.written.status == status]

    @property
    def written(self) -> list[Found]:
        return self.of(WRITTEN)

    @property
    def rejected(self) -> list[Found]:
        return self.of(REJECTED)

    @property
    def flaky(self) -> list[Found]:
        return self.of(FLAKY)


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
        self.parameters = self.mutants.values
        self.wire = Wire(ruleset)
        self.lock = threading.Lock()
        self.build_lock = threading.Lock()
        self.stop = threading.Event()
        self.next_number = 0
        self.in_a_row = 0
        self.shrinks: Counter[tuple[str, ...]] = Counter()
        self.keys: dict[tuple[str, ...], Found] = {}
        self.taken: set[str] = set()
        self.started_at = time.monotonic() if options.began is None else options.began
        self.deadline = self.started_at + options.seconds
        self.hard_end = self.deadline + options.grace
        self.last_report = self.started_at
        self.declared: frozenset[str] = frozenset()
        self.fixed = False
        self.cases = Supply(ruleset, options.seed)
        self.workers = [
            ProcessImplementation(
                options.impl, timeout=options.timeout, start_timeout=options.start_timeout
            )
            for _ in range(max(1, options.jobs))
        ]

    # ------------------------------------------------------------------ the run
    def execute(self) -> FuzzReport:
        # Whether a worker is done is its own event: after a join that Ctrl-C broke off,
        # ``Thread.is_alive`` may say False of a thread that still runs.
        finished = {i: threading.Event() for i in range(len(self.workers))}
        started: set[int] = set()
        kept: resident.Kept | None = None
        try:
            # before any implementation process starts: a forked worker holds no pipe of one
            self.cases = supply(self.ruleset, self.options.seed, len(self.workers))
            if self._handshake():
                kept = resident.keep()  # what the run keeps to its end is built
                for i, w in enumerate(self.workers):
                    threading.Thread(
                        target=self._work, args=(w, finished[i]), daemon=True, name=f"fuzz-{i}"
                    ).start()
                    started.add(i)
                for event in finished.values():
                    while not event.wait(0.2):
                        pass
        except KeyboardInterrupt:
            self.report.interrupted = True
            self.report.stopped = "interrupted"
            self.stop.set()
        finally:
            # Every process started is ended: by its own worker when it has one still
            # running (killed first, so that it returns at once), else here.
            for i, w in enumerate(self.workers):
                if i in started and not finished[i].is_set():
                    w.interrupt()
                    finished[i].wait(5.0)
                if i not in started or finished[i].is_set():
                    late = w.close()
                    if late:
                        self._twice(late)
            self.cases.close()
            resident.release(kept)
        self.report.seconds = time.monotonic() - self.started_at
        return self.report

    def _left(self, end: float | None = None) -> float:
        return (self.deadline if end is None else end) - time.monotonic()

    def _bound(self, worker: ProcessImplementation, end: float | None = None) -> None:
        """No wait past the budget: the start and each request get what is left."""
        left = round(max(MIN_WAIT, self._left(end)), 1)
        worker.timeout = min(self.options.timeout, left)
        worker.start_timeout = min(self.options.start_timeout, left)

    def _handshake(self) -> bool:
        worker = self.workers[0]
        started: Started | None = None
        for _ in range(START_ATTEMPTS):
            if self._left() <= 0:
                break
            self._bound(worker)
            started = worker.start()
            if started is not None:
                break
        if started is None:
            why = worker.start_error or f"no start answer within the {self.options.seconds:g} s"
            self.report.fatal = f"the implementation could not start: {why}"
            return False
        self.report.implementation = started.name
        self.declared = started.not_reported
        self.fixed = self.report.fixed_rules = started.fixed_rules
        if not compares_anything(self.declared):
            self.report.fatal = (
                f"nothing compared: {started.name} declares every field the fuzzer compares "
                "as not reported (not_reported), so no case can show a difference"
            )
            return False
        if not (self.fixed or started.any_ruleset or self.ruleset.id in started.rulesets):
            claims = ", ".join(started.rulesets) or "no ruleset"
            self.report.fatal = (
                f"{started.name} does not claim {self.ruleset.id} (it claims {claims}); "
                "fuzz a ruleset it implements"
            )
            return False
        return True

    def _elapsed(self) -> float:
        return time.monotonic() - self.started_at

    def _take(self) -> int | None:
        with self.lock:
            if self.stop.is_set():
                return None
            if self._left() <= 0:
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
            line = (
                f"{now - self.started_at:5.0f} s: {r.cases} cases ({rate:.0f}/s): "
                f"{r.compared} compared, {r.skipped} skipped, {r.errored} errored; "
                f"{len(r.found)} finding(s)"
            )
        self.say(line)

    def _request(self, case: Mapping[str, Any]) -> Mapping[str, Any]:
        """The case as the implementation gets it: without a ruleset for an engine that
        plays rules of its own (PROTOCOL.md, start: fixed_rules)."""
        if not self.fixed:
            return case
        return {k: v for k, v in case.items() if k != "ruleset"}

    def _differ(
        self, ref: Mapping[str, Any], got: Mapping[str, Any], steps: int
    ) -> Difference | None:
        return first_difference(ref, got, steps, self.declared, self.parameters)

    # ------------------------------------------------------------------ a worker
    def _work(self, worker: ProcessImplementation, finished: threading.Event) -> None:
        try:
            # Case n+1 is made while the implementation plays case n: the two processes
            # work at once, and the implementation is never kept waiting for a case.
            ready = self._prepare()
            while ready is not None and not self.stop.is_set():
                number, done, ref = ready
                self._bound(worker)
                asked = time.monotonic()
                request = self._request(done.case)
                pending = worker.submit(request, text=self.wire.request(request))
                ready = self._prepare()
                expected = None if ref is None else self.wire.expected(pending.seq, ref)
                reply = worker.receive(pending, expected)
                if self._cut_short(reply, asked):
                    break
                self._one(worker, number, done, ref, reply)
                self._progress()
        except Exception as exc:  # a bug of the fuzzer itself: say so and stop the run
            self._fatal(f"internal error of fuzz: {type(exc).__name__}: {exc}")
            raise
        finally:
            try:
                late = worker.close()
                if late:
                    self._twice(late)
            finally:
                finished.set()

    def _prepare(self) -> tuple[int, Playthrough | Sent, Mapping[str, Any] | None] | None:
        """The next case to send: its number, the case, the reference's outcome."""
        number = self._take()
        if number is None:
            return None
        return number, *self.cases.get(number)

    def _cut_short(self, reply: Reply, asked: float) -> bool:
        """The request failed only because the budget ended moments after it was sent:
        not the implementation's fault, and not counted. One that waited longer (a hang
        the end of the budget cut off) is counted as errored like any other."""
        if reply.answer.get("status") != "errored" or reply.earlier or self._left() > 0:
            return False
        with self.lock:
            self.report.stopped = self.report.stopped or "time is up"
        return time.monotonic() - asked < CUT_SHORT

    def _twice(self, message: str) -> None:
        """The implementation answered a request more than once: the case it belongs to
        was counted as compared, but its answer cannot be trusted."""
        with self.lock:
            if self.report.compared:
                self.report.compared -= 1
        self._erred(f"protocol violation: {message}", fatal=True)

    def _one(
        self,
        worker: ProcessImplementation,
        number: int,
        done: Playthrough | Sent,
        ref: Mapping[str, Any] | None,
        reply: Reply,
    ) -> None:
        """Judge the implementation's ``reply`` to case ``number`` against ``ref``."""
        if ref is None:
            self._fatal(f"the reference could not play generated case {number} (a fuzz bug)")
            return
        answer = reply.answer
        if self.stop.is_set() and self.report.interrupted:
            return
        with self.lock:
            self.report.cases += 1
        if reply.earlier:
            self._twice(reply.earlier)
            return
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
            same = got is ref or _same_text(ref, got)
            difference = None if same else self._differ(ref, got, done.steps)
        except (Malformed, KeyError, TypeError, ValueError) as exc:
            self._erred(f"an answer the protocol does not allow: {exc}", number=number)
            return
        with self.lock:
            self.report.compared += 1
            self.in_a_row = 0
            if difference is None:
                return
            self.report.differing += 1
            kind = self._kind(difference, done.case)
            limit = self.options.max_differences
            if self.shrinks[kind] >= SHRINKS_PER_KIND or (
                limit is not None and len(self.report.found) >= limit
            ):
                return
            self.shrinks[kind] += 1
        self._found(worker, number, done, difference)

    @staticmethod
    def _kind(difference: Difference, case: Mapping[str, Any]) -> tuple[str, ...]:
        """A cheap grouping before shrinking (the finding's key needs the shrunk case):
        its signature, and for a step the kind of action."""
        if difference.field != "steps":
            return (difference.signature,)
        return (difference.signature, _action_kind(case, difference.time), str(difference.expected))

    def _erred(
        self,
        message: str,
        *,
        start: bool = False,
        number: int | None = None,
        fatal: bool = False,
    ) -> None:
        message = message.strip() or "no message"
        with self.lock:
            self.report.errored += 1
            self.in_a_row += 1
            in_a_row = self.in_a_row
            if len(self.report.errors) < 5:
                where = f"case {number}: " if number is not None else ""
                self.report.errors.append(where + message)
        if fatal:
            self._fatal(f"the implementation broke the protocol: {message}")
        elif start and in_a_row >= START_ATTEMPTS:
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
        self._bound(worker, self.hard_end)
        got = _outcome(worker.run(self._request(case)).answer)
        if got is None:
            return None
        try:
            return self._differ(ref, got, len(case["steps"]))
        except (Malformed, KeyError, TypeError, ValueError):
            return None

    def _found(
        self,
        worker: ProcessImplementation,
        number: int,
        made: Playthrough | Sent,
        difference: Difference,
    ) -> None:
        found_after = self._elapsed()
        self.say(f"case {number}: {difference}; shrinking")
        done = self.cases.playthrough(number, made)
        # The last finding may run past the budget, but by no more than the grace, and
        # leaves half of what it has for writing.
        room = max(0.5, min(self.options.shrink_seconds, (self._left(self.hard_end)) / 2))
        budget = Budget(seconds=room)
        shrunk = shrink(self.ruleset, done, difference, lambda c: self._check(worker, c), budget)
        small = shrunk.playthrough
        case = small.case
        ref = _outcome(run_case(case))
        self._bound(worker, self.hard_end)
        got = _outcome(worker.run(self._request(case)).answer)
        if ref is None or got is None:
            self._unwritten(f"case {number}: the shrunk case could not be run again")
            return
        try:
            final = self._differ(ref, got, small.steps) or shrunk.difference
        except (Malformed, KeyError, TypeError, ValueError):
            final = shrunk.difference
        with self.build_lock:
            self._write(worker, number, done, small, final, ref, got, found_after, shrunk.tries)

    def _where(self, case: Mapping[str, Any], difference: Difference) -> words.Where:
        """The kind of action and the phase at the difference (a step: the phase before
        it, replayed on the reference; a round: at the deal or in play)."""
        if difference.field == "steps":
            before = {**case, "steps": list(case["steps"])[: difference.time - 1]}
            outcome = _outcome(run_case(before))
            phase = str(outcome.get("phase", "?")) if outcome else "?"
            return words.Where(_action_kind(case, difference.time), phase)
        if difference.field.startswith("rounds"):
            return words.Where("", "at-deal" if _at_deal(difference) else "in-play")
        return words.Where("", "end")

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
        explaining = explanations(self.mutants, case, got, self.declared, expect)
        explained = tuple(str(m) for m in explaining)
        where = self._where(case, difference)
        key = words.key(difference, where, explained)
        with self.lock:
            earlier = self._same(key, explained)
            if earlier is not None:
                earlier.seen.append(number)
            limit = self.options.max_differences
            if earlier is None and limit is not None and len(self.report.found) >= limit:
                return
        if earlier is not None:
            self.say(f"case {number}: the same finding as case {earlier.case_number}")
            return
        if self._left(self.hard_end) <= 0:
            self._unwritten(
                f"case {number}: {difference}: the time ran out before it could be written "
                f"(rerun with --seed {self.options.seed} and more --seconds)"
            )
            return
        explained_words = tuple(m.describe() for m in explaining)
        title = words.title(self.ruleset.id, difference, where, explained_words)
        pinned = pinned_parameters(self.mutants, case, expect)
        written = build(
            self.catalog,
            self.mutants,
            case,
            expect,
            pinned,
            fixture_id=fixture_id(self.ruleset, words.name(difference, where, explained)),
            title=title,
            description=self._describe(number, done, small, difference, explained_words),
            fails=lambda f: self._fails(worker, f),
            out=self.options.out,
            field=difference.field,
            taken=self.taken,
            force=self.options.force,
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
            title,
        )
        with self.lock:
            self.keys[key] = entry
            self.report.found.append(entry)
            limit = self.options.max_differences
            if limit is not None and len(self.report.found) >= limit:
                self.report.stopped = f"{len(self.report.found)} finding(s), as asked"
                self.stop.set()
        if written.status == FLAKY:
            self.say(f"case {number}: flaky, not written: {written.problems[0]}")
        elif written.status == REJECTED:
            self.say(f"kept apart {written.path} ({len(written.problems)} problem(s))")
        else:
            self.say(f"wrote {written.path}")

    def _same(self, key: tuple[str, ...], explained: tuple[str, ...]) -> Found | None:
        """The finding this one is part of: the same key, or a mutant that explains both
        (one cause shows in several fields: a 31 at the deal not checked is a round
        missing in one case and a wrong ``at_deal`` in another)."""
        found = self.keys.get(key)
        if found is not None or not explained:
            return found
        mine = set(explained)
        return next((f for f in self.keys.values() if mine & set(f.explained)), None)

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
        self._bound(worker, self.hard_end)
        answer = worker.run(self._request(fixture.request(self.ruleset))).answer
        result = judge(fixture, case, self.ruleset, answer, self.declared)
        return result.status is Status.FAILED

    def _unwritten(self, message: str) -> None:
        with self.lock:
            self.report.unwritten.append(message)
        self.say(message)


def _same_text(ref: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    """Whether the answer is the reference's outcome exactly: then no field differs (a
    copy agrees with itself on everything compared, whatever is declared). The two are
    held to the same bytes under ``marshal`` (version 2: no back-references), which keeps
    every value's type (``==`` would take ``true`` for ``1``, which the comparison tells
    apart) and gives the same bytes only for the same value, so ``==`` need not be asked
    as well; an answer that differs only in key order or number form is compared field
    by field. Fuzzing the reference itself, this spares the comparison of nearly every
    case."""
    try:
        mine: Any = ref  # marshal takes JSON's types and refuses the rest
        theirs: Any = got
        return marshal.dumps(mine, 2) == marshal.dumps(theirs, 2)
    except (TypeError, ValueError):
        return False


def _action_kind(case: Mapping[str, Any], time: int) -> str:
    """The kind of action of step ``time`` (1-based) of ``case``."""
    steps = case.get("steps", [])
    if not 1 <= time <= len(steps):
        return "none"
    ((seat, text),) = dict(steps[time - 1]).items()
    if seat == "table":
        return "next-match"
    try:
        return parse_text(str(text)).kind.value
    except ActionSyntaxError:
        return "malformed"


def _at_deal(difference: Difference) -> bool:
    for side in (difference.expected, difference.actual):
        records = side if isinstance(side, list) else [side]
        for record in records:
            if isinstance(record, Mapping) and record.get("at_deal") is True:
                return True
    return difference.field == "rounds.at_deal" and difference.expected is True


def fuzz(catalog: Catalog, ruleset: Ruleset, options: FuzzOptions, say: Say) -> FuzzReport:
    """Fuzz ``options.impl`` against the reference under ``ruleset``."""
    return FuzzRun(catalog, ruleset, options, say).execute()
