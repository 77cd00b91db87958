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

from schwimmen.conformance.fields import PROTOCOL_VERSION, added_since
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
    fixed_rules: bool = False
    """Treat the in-process ``implementation`` as a fixed-rules engine (PROTOCOL.md, start):
    each distinct position is asked once, without its ``ruleset``, and the answer judged
    against every planned ruleset. A process says so itself in its start answer."""


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
    fixed_rules: bool = False
    """The implementation plays rules of its own: each answer was judged against every
    ruleset of the run, and what the run shows is agreement, not conformance to a claim."""
    positions: int = 0
    """The requests sent to the implementation: for a fixed-rules engine each distinct
    position once (one answer judged for every case that shares it)."""
    positions_errored: int = 0
    """Of those, the requests whose answer errored (timed out, crashed, ...): each errs
    every case that shares it."""
    protocol: int = PROTOCOL_VERSION
    """The protocol version the implementation answered the start with."""

    def unclaimed(self) -> list[str]:
        """The rulesets of the run the implementation does not list in its start answer
        (and it answered neither ``any_ruleset`` nor ``fixed_rules``): their cases were
        skipped without asking."""
        info = self.implementation
        if info.get("any_ruleset") or info.get("fixed_rules") or "rulesets" not in info:
            return []
        claimed = set(info["rulesets"])
        return sorted({r.ruleset for r in self.results if r.ruleset not in claimed})

    def unclaimed_line(self) -> str:
        """Why the cases of unclaimed rulesets were skipped and how to run them, in one line."""
        missing = self.unclaimed()
        if not missing:
            return ""
        listed = ", ".join(self.implementation.get("rulesets", ())) or "none"
        shown = ", ".join(missing[:4]) + (
            f" and {len(missing) - 4} more" if len(missing) > 4 else ""
        )
        return (
            f"{self.implementation.get('name', 'the implementation')} lists the rulesets it "
            f"implements ({listed}) and {shown} is not among them, so its cases were skipped "
            "without asking; to run them, list it in the start answer's rulesets, or answer "
            '"fixed_rules": true (rules of its own) or "any_ruleset": true (it plays the '
            "case's parameters)"
        )

    def version_line(self) -> str:
        """For an adapter of an earlier protocol version, in one line: what is new since,
        and that missing fields among it were not judged; "" for a current one."""
        added = added_since(self.protocol)
        if not added:
            return ""
        return (
            f"it speaks protocol version {self.protocol}; new since then (PROTOCOL.md, "
            f"version history): {'; '.join(a.name for a in added)}. Checks on fields among "
            "these that it leaves out are not judged, as if declared not reported"
        )

    def agreement(self) -> list[Agreement]:
        """Per ruleset, how many judged cases the answers agree with, best first."""
        rows = []
        for name, kinds in self.by_ruleset_kind().items():
            total = {c: sum(row[c] for row in kinds.values()) for c in _COLUMNS}
            rows.append(Agreement(name, **total))
        return sorted(rows, key=lambda a: (-a.share, -a.passed, a.ruleset))

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


_COLUMNS = ("judged", "passed", "failed", "errored", "skipped")


@dataclass(frozen=True)
class Agreement:
    """How far the answers agree with one ruleset's expectations: worded as agreement
    ("agrees with pagat on 120 of 140 judged cases"), never as a claim of what is played."""

    ruleset: str
    judged: int
    passed: int
    failed: int
    errored: int
    skipped: int

    @property
    def share(self) -> float:
        return self.passed / self.judged if self.judged else 0.0

    @property
    def full(self) -> bool:
        """Everything judged passed, something was judged, and nothing errored."""
        return self.judged > 0 and self.failed == 0 and self.errored == 0

    def short(self) -> str:
        """The agreement without the ruleset's name: "120 of 140", "all 140", "none judged"."""
        if not self.judged:
            return "nothing judged"
        if self.passed == self.judged:
            return f"all {self.judged}"
        return f"{self.passed} of {self.judged}"

    def line(self) -> str:
        if not self.judged:
            return f"no case of {self.ruleset} was judged"
        if self.passed == self.judged:
            return f"agrees with {self.ruleset} on all {self.judged} judged cases"
        return f"agrees with {self.ruleset} on {self.passed} of {self.judged} judged cases"

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            **{c: getattr(self, c) for c in _COLUMNS},
            "agreement": self.line(),
        }


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
    if suite.fixed_rules and not suite.named and judged:
        return _agreement_verdict(suite)
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
    if (
        judged == 0
        and not counts["errored"]
        and set(suite.unclaimed()) >= {r.ruleset for r in suite.results}
    ):
        return Verdict(False, f"nothing was judged: {suite.unclaimed_line()}")
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


def _agreement_verdict(suite: SuiteResult) -> Verdict:
    """A fixed-rules engine judged against every ruleset of a default run claims none of
    them: green when its answers agree fully with at least one ruleset (by the ordinary
    verdict on that ruleset's cases alone), and the line says with which."""
    by_ruleset: dict[str, list[CaseResult]] = {}
    for r in suite.results:
        by_ruleset.setdefault(r.ruleset, []).append(r)
    full = []
    for name, results in by_ruleset.items():
        alone = replace(suite, results=results, named=True, fixed_rules=False)
        if _verdict(alone).ok:
            full.append(name)
    rows = suite.agreement()
    sent = f"{suite.positions} positions sent, each answer judged against every ruleset"
    if suite.positions_errored:
        sent += f"; {suite.positions_errored} of them errored"
    if full:
        best = next(a for a in rows if a.ruleset in full)
        others = [n for n in full if n != best.ruleset]
        also = f" (and fully with {', '.join(others[:5])}{' ...' if len(others) > 5 else ''})"
        return Verdict(
            True,
            f"{best.line()}{also if others else ''}; it plays rules of its "
            f"own and claims no ruleset ({sent})",
        )
    best = rows[0]
    return Verdict(
        False,
        f"agrees fully with no ruleset: at best, it {best.line()} ({sent})",
    )


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
        if options.fixed_rules:
            impl_info["fixed_rules"] = True
        counter = _Sent()
        results = _run_in_process(plan, implementation or run_case, options, progress, counter)
        fixed, positions, positions_errored = options.fixed_rules, counter.sent, counter.errored
        protocol = PROTOCOL_VERSION
    else:
        run = _ProcessRun(plan, options, progress)
        impl_info, results, interrupted = run.execute()
        not_reported = tuple(sorted(run.not_reported))
        fixed, positions, positions_errored = run.fixed, run.sent, run.errored
        protocol = run.first.protocol if run.first is not None else PROTOCOL_VERSION
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
        fixed_rules=fixed,
        positions=positions,
        positions_errored=positions_errored,
        protocol=protocol,
    )


def position_key(request: Mapping[str, Any]) -> str:
    """The position a request asks about, whatever ruleset it names: its canonical JSON
    without ``ruleset``. The requests of one fixture differ between rulesets in
    ``ruleset`` and sometimes in fields like ``points``, so only equal keys share an answer."""
    rest = {k: v for k, v in request.items() if k != "ruleset"}
    return json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class _Unit:
    """What is sent once: the plan's indices that share one answer, and the request (None:
    built from the single planned case when it is sent)."""

    indices: tuple[int, ...]
    request: Mapping[str, Any] | None = None


def units(plan: Plan, fixed_rules: bool) -> list[_Unit]:
    """One unit per planned case; for a fixed-rules engine one per distinct position,
    sent without its ``ruleset`` (PROTOCOL.md, start: fixed_rules)."""
    if not fixed_rules:
        return [_Unit((i,)) for i in range(len(plan))]
    groups: dict[str, list[int]] = {}
    requests: dict[str, dict[str, Any]] = {}
    for i, (fixture, _, ruleset) in enumerate(plan):
        request = fixture.request(ruleset)
        key = position_key(request)
        if key not in groups:
            groups[key] = []
            requests[key] = {k: v for k, v in request.items() if k != "ruleset"}
        groups[key].append(i)
    return [_Unit(tuple(indices), requests[key]) for key, indices in groups.items()]


class _Sent:
    """How many requests went out, and how many of their answers errored."""

    def __init__(self) -> None:
        self.sent = 0
        self.errored = 0
        self.lock = threading.Lock()

    def count(self, answer: Mapping[str, Any]) -> None:
        with self.lock:
            self.sent += 1
            self.errored += answer.get("status") not in ("ok", "skipped")


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
    counter: _Sent,
) -> list[CaseResult]:
    budget = _Budget(options.max_fail)
    results: list[CaseResult | None] = [None] * len(plan)
    for unit in units(plan, options.fixed_rules):
        answer: Mapping[str, Any] | None = None
        for index in unit.indices:
            fixture, case, ruleset = plan[index]
            if budget.spent():
                result = _stopped(fixture, case, ruleset, options.max_fail)
            else:
                if answer is None:
                    request = unit.request or fixture.request(ruleset)
                    try:
                        answer = implementation(request)
                    except Exception as exc:  # an in-process implementation may raise anything
                        answer = {"status": "errored", "message": f"{type(exc).__name__}: {exc}"}
                    counter.count(answer)
                result = judge(fixture, case, ruleset, answer)
                budget.record(result)
            results[index] = result
            if progress:
                progress(result)
    return [r for r in results if r is not None]


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
    """The plan, run by ``jobs`` implementation processes, one thread each.

    The work is handed out in units: a planned case each, or for a fixed-rules engine a
    distinct position each, whose one answer is judged for every case that shares it."""

    def __init__(self, plan: Plan, options: Options, progress: Progress | None) -> None:
        assert options.impl is not None
        self.plan = plan
        self.options = options
        self.progress = progress
        self.results: list[CaseResult | None] = [None] * len(plan)
        self.units: list[_Unit] = []
        self.next_unit = 0
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
        self.fixed = False
        self.counter = _Sent()

    @property
    def sent(self) -> int:
        return self.counter.sent

    @property
    def errored(self) -> int:
        return self.counter.errored

    def execute(self) -> tuple[dict[str, Any], list[CaseResult], bool]:
        try:
            info = self._handshake()
            self.fixed = self.first is not None and self.first.fixed_rules
            self.units = units(self.plan, self.fixed)
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
        info: dict[str, Any] = {
            "name": first.name,
            "version": first.version,
            "command": self.options.impl,
            "any_ruleset": first.any_ruleset,
            "rulesets": list(first.rulesets),
            "not_reported": sorted(first.not_reported),
        }
        if first.fixed_rules:
            info["fixed_rules"] = True
        info["protocol"] = first.protocol
        return info

    def _take(self) -> _Unit | None:
        with self.lock:
            if self.next_unit >= len(self.units) or self.interrupted.is_set():
                return None
            self.next_unit += 1
            return self.units[self.next_unit - 1]

    def _emit(self, results: Sequence[tuple[int, CaseResult]]) -> None:
        with self.lock:
            for index, result in results:
                self.results[index] = result
                if self.progress:
                    self.progress(result)

    def _work(self, worker: ProcessImplementation) -> None:
        # The last answered unit stays open until the worker's next answer or its stop:
        # only then is it known whether the implementation answered it twice.
        held: list[tuple[int, CaseResult]] = []
        try:
            while (unit := self._take()) is not None:
                results, reply = self._one(worker, unit)
                if reply is None:
                    self._emit(results)
                    continue
                if held:
                    self._emit([(i, _blamed(r, reply.earlier)) for i, r in held])
                    held = []
                if reply.start_failed:
                    self._emit(results)
                else:
                    held = results
        finally:
            late = worker.close()
            if held:
                self._emit([(i, _blamed(r, late)) for i, r in held])

    def _all(self, unit: _Unit, status: Status, message: str) -> list[tuple[int, CaseResult]]:
        out = []
        for index in unit.indices:
            fixture, case, ruleset = self.plan[index]
            out.append((index, CaseResult(fixture, case, ruleset.id, status, message=message)))
        return out

    def _one(
        self, worker: ProcessImplementation, unit: _Unit
    ) -> tuple[list[tuple[int, CaseResult]], Reply | None]:
        first = self.first
        gave_up = self.starts.message()
        if self.budget.spent():
            stopped = [(i, _stopped(*self.plan[i], self.options.max_fail)) for i in unit.indices]
            return stopped, None
        if gave_up is not None or first is None:
            message = gave_up or "the implementation did not start"
            return self._all(unit, Status.ERRORED, message), None
        fixture, case, ruleset = self.plan[unit.indices[0]]
        if not (self.fixed or first.any_ruleset or ruleset.id in first.rulesets):
            message = f"{first.name} does not implement {ruleset.id}"
            return self._all(unit, Status.SKIPPED, message), None
        reply = worker.run(unit.request or fixture.request(ruleset))
        if self.interrupted.is_set():
            return self._all(unit, Status.SKIPPED, "not run: interrupted"), None
        if reply.start_failed:
            reason = str(reply.answer.get("message", ""))
            self.starts.failed(reason)
            message = self.starts.message() or f"the implementation did not start: {reason}"
            failed = self._all(unit, Status.ERRORED, message)
            for _, result in failed:
                self.budget.record(result)
            return failed, reply
        self.starts.succeeded()
        self.counter.count(reply.answer)
        out = []
        for index in unit.indices:
            fixture, case, ruleset = self.plan[index]
            result = judge(fixture, case, ruleset, reply.answer, self.not_reported, first.protocol)
            if reply.stderr or reply.stderr_dropped:
                result = replace(result, stderr=reply.stderr, stderr_dropped=reply.stderr_dropped)
            self.budget.record(result)
            out.append((index, result))
        return out, reply


def _blamed(result: CaseResult, problem: str | None) -> CaseResult:
    """``result``, or errored with ``problem`` when its answer turned out to be wrong after
    the fact (the implementation answered it twice)."""
    if problem is None:
        return result
    return replace(result, status=Status.ERRORED, message=problem, mismatches=())
