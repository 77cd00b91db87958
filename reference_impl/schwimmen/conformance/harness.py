"""Run the suite: choose the rulesets and fixtures, plan the cases, run them against an
implementation (the in-process reference or processes speaking the protocol), classify.

The harness never reaches into the engine: the in-process reference is the same
request → answer function that ``schwimmen serve`` exposes over the protocol.

The verdict is the product, so it is earned: a run is green only when it judged
something, judged something of every kind of case it was asked for, and everything it
judged passed. Every planned case ends in exactly one result, whatever the
implementation does, and an interrupted run still reports what it had.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from schwimmen.conformance.fixtures import Case, Fixture, load_fixtures, select
from schwimmen.conformance.process import ProcessImplementation, Reply, Started
from schwimmen.conformance.runner import CaseResult, Status, judge, planned
from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

KINDS = ("hand-evaluation", "showdown", "round", "match", "setup")
START_ATTEMPTS = 3


@dataclass
class Options:
    impl: str | None = None
    rulesets: Sequence[str] = ()
    pattern: str | None = None
    kinds: Sequence[str] = ()
    jobs: int = 1
    max_fail: int | None = None
    timeout: float = 10.0
    start_timeout: float = 30.0
    validate_protocol: bool = False
    fixtures_dir: Path | None = None


@dataclass(frozen=True)
class Verdict:
    """Green or not, and why, in one line."""

    ok: bool
    line: str


@dataclass
class SuiteResult:
    implementation: dict[str, Any]
    rulesets: list[str]
    results: list[CaseResult]
    seconds: float
    load_errors: list[SpecError] = field(default_factory=list)
    kinds: Sequence[str] = ()
    pattern: str | None = None
    not_reported: tuple[str, ...] = ()
    interrupted: bool = False
    named: bool = False  # the rulesets were named with --ruleset (no house rule added)

    def counts(self) -> dict[str, int]:
        out = {s.value: 0 for s in Status}
        for r in self.results:
            out[r.status.value] += 1
        return out

    def by_kind(self) -> dict[str, dict[str, int]]:
        """judged / passed / failed / errored / skipped for each kind of case run."""
        return _tally(self.results)

    def by_ruleset_kind(self) -> dict[str, dict[str, dict[str, int]]]:
        """The same for each ruleset and kind: a ruleset's 9 passed setup cases say
        nothing about its rounds, so the two are never added up."""
        groups: dict[str, list[CaseResult]] = {}
        for r in self.results:
            groups.setdefault(r.ruleset, []).append(r)
        return {name: _tally(results) for name, results in sorted(groups.items())}

    def verdict(self) -> Verdict:
        return _verdict(self)

    @property
    def ok(self) -> bool:
        return self.verdict().ok


def _tally(results: Iterable[CaseResult]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for r in results:
        row = table.setdefault(r.kind, {"judged": 0, **{s.value: 0 for s in Status}})
        row[r.status.value] += 1
        row["judged"] += r.judged
    order = {k: i for i, k in enumerate(KINDS)}
    return dict(sorted(table.items(), key=lambda kv: order.get(kv[0], len(order))))


def _common(messages: list[str]) -> str:
    if not messages:
        return ""
    text, n = Counter(messages).most_common(1)[0]
    text = text if len(text) <= 160 else text[:157] + "..."
    return f" (most often: {text!r}, {n}x)" if n > 1 or len(messages) == 1 else ""


def _verdict(suite: SuiteResult) -> Verdict:
    counts = suite.counts()
    total = len(suite.results)
    judged = counts["passed"] + counts["failed"]
    if suite.load_errors:
        return Verdict(False, f"{len(suite.load_errors)} fixture file(s) could not be loaded")
    if suite.interrupted:
        not_run = sum(1 for r in suite.results if r.message.startswith("not run: interrupted"))
        return Verdict(False, f"interrupted: {not_run} of {total} cases were not run")
    messages = {r.message for r in suite.results}
    if total and counts["errored"] == total and len(messages) == 1:
        only = messages.pop()
        only = only if len(only) <= 300 else only[:297] + "..."
        return Verdict(False, f"every case errored: {only}")
    if counts["failed"] or counts["errored"]:
        return Verdict(
            False,
            f"the implementation does not conform: {counts['failed']} failed, "
            f"{counts['errored']} errored of {total} cases",
        )
    if total == 0:
        why = (
            f"no fixture matches -k {suite.pattern!r}"
            if suite.pattern
            else ("no fixture applies to the chosen rulesets and kinds")
        )
        return Verdict(False, f"nothing was judged: 0 cases to run ({why})")
    if judged == 0:
        reasons = [r.message for r in suite.results]
        return Verdict(
            False, f"nothing was judged: all {total} cases were skipped{_common(reasons)}"
        )
    by_kind = suite.by_kind()
    asked = list(suite.kinds) or list(by_kind)
    empty = [k for k in asked if by_kind.get(k, {}).get("judged", 0) == 0]
    if empty:
        parts = []
        for k in empty:
            row = by_kind.get(k)
            parts.append(f"{k} ({row['skipped']} skipped)" if row else f"{k} (no case applies)")
        return Verdict(
            False,
            "nothing was judged for the kind(s) asked for: "
            + ", ".join(parts)
            + "; run only the kinds your engine plays with --kind",
        )
    skipped = f", {counts['skipped']} skipped" if counts["skipped"] else ""
    return Verdict(True, f"all {judged} judged cases pass{skipped}")


def default_rulesets(catalog: Catalog) -> list[str]:
    """The ten rulesets and every house rule on the ruleset it comes from."""
    return catalog.standard_names()


def resolve_all(catalog: Catalog, names: Sequence[str]) -> list[Ruleset]:
    out = []
    errors: list[SpecError] = []
    for name in names:
        try:
            out.append(catalog.resolve(name))
        except SpecErrors as exc:
            errors.extend(exc.errors)
    if errors:
        raise SpecErrors(errors)
    return out


Progress = Callable[[CaseResult], None]
Plan = list[tuple[Fixture, Case, Ruleset]]


def run_suite(
    catalog: Catalog,
    options: Options,
    progress: Progress | None = None,
    implementation: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
) -> SuiteResult:
    started = time.perf_counter()
    fixtures, load_errors = load_fixtures(options.fixtures_dir)
    fixtures = select(fixtures, pattern=options.pattern, kinds=options.kinds)
    names = list(options.rulesets) or default_rulesets(catalog)
    rulesets = resolve_all(catalog, names)
    plan = planned(fixtures, rulesets)
    interrupted = False
    not_reported: tuple[str, ...] = ()
    if options.impl is None:
        from schwimmen.engine.adapter import run_case

        impl_info: dict[str, Any] = {"name": "schwimmen-reference (in-process)", "version": ""}
        results = _run_in_process(plan, implementation or run_case, options, progress)
    else:
        run = _ProcessRun(plan, options, progress)
        impl_info, results, interrupted = run.execute()
        not_reported = tuple(sorted(run.not_reported))
    return SuiteResult(
        impl_info,
        names,
        results,
        time.perf_counter() - started,
        load_errors,
        kinds=tuple(options.kinds),
        pattern=options.pattern,
        not_reported=not_reported,
        interrupted=interrupted,
        named=bool(options.rulesets),
    )


class _Budget:
    """Counts failures for ``--max-fail``; once spent, the remaining cases are skipped."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.bad = 0
        self.lock = threading.Lock()

    def spent(self) -> bool:
        return self.limit is not None and self.bad >= self.limit

    def record(self, result: CaseResult) -> None:
        if result.status in (Status.FAILED, Status.ERRORED):
            with self.lock:
                self.bad += 1


def _stopped(fixture: Fixture, case: Case, ruleset: Ruleset, limit: int | None) -> CaseResult:
    message = f"not run: stopped after {limit} failures (--max-fail)"
    return CaseResult(fixture, case, ruleset.id, Status.SKIPPED, message=message)


def _run_in_process(
    plan: Plan,
    implementation: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    options: Options,
    progress: Progress | None,
) -> list[CaseResult]:
    budget = _Budget(options.max_fail)
    results = []
    for fixture, case, ruleset in plan:
        if budget.spent():
            result = _stopped(fixture, case, ruleset, options.max_fail)
        else:
            try:
                answer = implementation(fixture.request(ruleset))
            except Exception as exc:  # an in-process implementation may raise anything
                answer = {"status": "errored", "message": f"{type(exc).__name__}: {exc}"}
            result = judge(fixture, case, ruleset, answer)
            budget.record(result)
        results.append(result)
        if progress:
            progress(result)
    return results


class _Starts:
    """Failed starts in a row, across all workers: after a few, the implementation is
    taken to be unable to start, and the remaining cases are errored at once with its
    reason instead of starting it again for every case."""

    def __init__(self) -> None:
        self.in_a_row = 0
        self.reason: str | None = None
        self.lock = threading.Lock()

    def failed(self, reason: str) -> None:
        with self.lock:
            self.in_a_row += 1
            if self.in_a_row >= START_ATTEMPTS:
                self.reason = reason

    def succeeded(self) -> None:
        with self.lock:
            self.in_a_row = 0

    def message(self) -> str | None:
        if self.reason is None:
            return None
        return f"the implementation could not start: {self.reason}"


class _ProcessRun:
    """The plan, run by ``jobs`` implementation processes, one thread each."""

    def __init__(self, plan: Plan, options: Options, progress: Progress | None) -> None:
        assert options.impl is not None
        self.plan = plan
        self.options = options
        self.progress = progress
        self.results: list[CaseResult | None] = [None] * len(plan)
        self.next_index = 0
        self.lock = threading.Lock()
        self.budget = _Budget(options.max_fail)
        self.starts = _Starts()
        self.interrupted = threading.Event()
        self.workers = [
            ProcessImplementation(
                options.impl,
                timeout=options.timeout,
                start_timeout=options.start_timeout,
                validate=options.validate_protocol,
            )
            for _ in range(max(1, options.jobs))
        ]
        self.threads: list[threading.Thread] = []
        self.first: Started | None = None
        self.not_reported: frozenset[str] = frozenset()
        self.answers: dict[str, Reply] = {}  # a fixed-rules engine's answer per position

    def execute(self) -> tuple[dict[str, Any], list[CaseResult], bool]:
        try:
            info = self._handshake()
            for i, w in enumerate(self.workers):
                thread = threading.Thread(
                    target=self._work, args=(w,), name=f"implementation-{i + 1}", daemon=True
                )
                self.threads.append(thread)
                thread.start()
            for t in self.threads:
                while t.is_alive():
                    t.join(0.2)
        except KeyboardInterrupt:
            self.interrupted.set()
            for w in self.workers:
                w.interrupt()
            for t in self.threads:
                t.join(10)
            info = self._info()
        finally:
            for w in self.workers:
                w.interrupt()
        info["restarts"] = sum(w.restarts for w in self.workers)
        final = [r or self._not_run(i) for i, r in enumerate(self.results)]
        return info, final, self.interrupted.is_set()

    def _not_run(self, index: int) -> CaseResult:
        fixture, case, ruleset = self.plan[index]
        message = "not run: interrupted" if self.interrupted.is_set() else "not run"
        return CaseResult(fixture, case, ruleset.id, Status.SKIPPED, message=message)

    def _handshake(self) -> dict[str, Any]:
        """Start the first process to learn what the implementation claims; a few tries."""
        worker = self.workers[0]
        for _ in range(START_ATTEMPTS):
            self.first = worker.start()
            if self.first is not None:
                self.not_reported = self.first.not_reported
                return self._info()
            self.starts.failed(worker.start_error or "no reason given")
        return self._info()

    def _info(self) -> dict[str, Any]:
        first = self.first
        if first is None:
            message = self.starts.message() or "the implementation did not start"
            return {"name": self.options.impl, "command": self.options.impl, "error": message}
        return {
            "name": first.name,
            "version": first.version,
            "command": self.options.impl,
            "any_ruleset": first.any_ruleset,
            "fixed_rules": first.fixed_rules,
            "rulesets": list(first.rulesets),
            "not_reported": sorted(first.not_reported),
        }

    def _take(self) -> int | None:
        with self.lock:
            if self.next_index >= len(self.plan) or self.interrupted.is_set():
                return None
            self.next_index += 1
            return self.next_index - 1

    def _emit(self, index: int, result: CaseResult) -> None:
        with self.lock:
            self.results[index] = result
            if self.progress:
                self.progress(result)

    def _work(self, worker: ProcessImplementation) -> None:
        # The last answered case stays open until the worker's next answer or its stop:
        # only then is it known whether the implementation answered it twice.
        held: tuple[int, CaseResult] | None = None
        try:
            while (index := self._take()) is not None:
                fixture, case, ruleset = self.plan[index]
                result, reply = self._one(worker, fixture, case, ruleset)
                if reply is None:
                    self._emit(index, result)
                    continue
                if held is not None:
                    self._emit(held[0], _blamed(held[1], reply.earlier))
                    held = None
                if reply.start_failed:
                    self._emit(index, result)
                else:
                    held = (index, result)
        finally:
            late = worker.close()
            if held is not None:
                self._emit(held[0], _blamed(held[1], late))

    def _one(
        self, worker: ProcessImplementation, fixture: Fixture, case: Case, ruleset: Ruleset
    ) -> tuple[CaseResult, Reply | None]:
        first = self.first
        gave_up = self.starts.message()
        if self.budget.spent():
            return _stopped(fixture, case, ruleset, self.options.max_fail), None
        if gave_up is not None or first is None:
            message = gave_up or "the implementation did not start"
            return CaseResult(fixture, case, ruleset.id, Status.ERRORED, message=message), None
        if not (first.any_ruleset or first.fixed_rules or ruleset.id in first.rulesets):
            message = f"{first.name} does not implement {ruleset.id}"
            return CaseResult(fixture, case, ruleset.id, Status.SKIPPED, message=message), None
        request = fixture.request(ruleset)
        position = ""
        if first.fixed_rules:  # it plays its own rules: each position is asked once
            del request["ruleset"]
            position = json.dumps(request, sort_keys=True)
            with self.lock:
                known = self.answers.get(position)
            if known is not None and not known.start_failed:
                return judge(fixture, case, ruleset, known.answer, self.not_reported), None
        reply = worker.run(request)
        if position and reply.answer.get("status") == "ok":
            with self.lock:
                self.answers[position] = reply
        if self.interrupted.is_set():
            message = "not run: interrupted"
            return CaseResult(fixture, case, ruleset.id, Status.SKIPPED, message=message), None
        if reply.start_failed:
            reason = str(reply.answer.get("message", ""))
            self.starts.failed(reason)
            message = self.starts.message() or f"the implementation did not start: {reason}"
            result = CaseResult(fixture, case, ruleset.id, Status.ERRORED, message=message)
            self.budget.record(result)
            return result, reply
        self.starts.succeeded()
        result = judge(fixture, case, ruleset, reply.answer, self.not_reported)
        if reply.stderr or reply.stderr_dropped:
            result = replace(result, stderr=reply.stderr, stderr_dropped=reply.stderr_dropped)
        self.budget.record(result)
        return result, reply


def _blamed(result: CaseResult, problem: str | None) -> CaseResult:
    """``result``, or errored with ``problem`` when its answer turned out to be wrong after
    the fact (the implementation answered it twice)."""
    if problem is None:
        return result
    return replace(result, status=Status.ERRORED, message=problem, mismatches=())
