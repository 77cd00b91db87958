"""The fingerprint's evidence: what an implementation answered under each candidate base.

An engine that says ``fixed_rules`` plays rules of its own and reads no ruleset, so its
answer to a position is the same under every base: the suite runs once over every
candidate base (one ``run_suite`` call; the harness asks each position once) and every
base is judged on the very same answers. An engine that claims ``any_ruleset`` may read
the request's parameters, so nothing is assumed about how its outcome under one base
relates to its outcome under another: the suite runs under every base. There the first
base runs alone first, with a budget of failures, so that an implementation that only
errors (it crashes at once, hangs, writes garbage) costs a few timeouts instead of one
for every case of every base.

The whole observation is bounded by ``budget`` seconds: once spent, the run is stopped
(as by Ctrl-C) and what was judged so far is kept, marked as cut short. Answers are
checked against the protocol's schema: a wrongly typed answer is an error, not an
outcome to compare field by field.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.harness import Options, SuiteResult, run_suite
from schwimmen.conformance.process import ProcessImplementation
from schwimmen.conformance.runner import CaseResult, Status
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog

PROBE_FAILURES = 10  # the first base runs alone until this many cases failed or errored
MIN_JUDGED = 5  # a base with fewer judged fixtures is no candidate
PROGRESS_EVERY = 10.0  # seconds between progress lines

Progress = Callable[[str], None]

Implementation = Callable[[Mapping[str, Any]], Mapping[str, Any]]


@dataclass(frozen=True)
class Observed:
    """The implementation's outcome on one fixture's position under one base, and
    whether it matched the case the base expects."""

    fixture: Fixture
    outcome: Mapping[str, Any]
    passed: bool


@dataclass
class BaseEvidence:
    """What the implementation answered under one base: the judged fixtures, the
    fixtures it errored on, and how many it skipped."""

    observed: dict[str, Observed] = field(default_factory=dict)
    errored: dict[str, Fixture] = field(default_factory=dict)
    skipped: int = 0


@dataclass
class Evidence:
    """Everything the implementation answered, by base. ``problem`` says why nothing
    can be fingerprinted, when that is so."""

    implementation: dict[str, Any]
    bases: dict[str, BaseEvidence]
    counts: dict[str, int]
    not_reported: frozenset[str] = frozenset()
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)  # a few errored or skipped, as examples
    problem: str | None = None
    fixed_rules: bool = False  # every base judged the same answers
    cut_short: str | None = None  # why the run stopped before every case was asked


def candidate_bases(catalog: Catalog, implementation: Mapping[str, Any] | None) -> list[str]:
    """The default bases: every ruleset of the catalog with each house rule on its origin,
    and every composition the start answer names; only what the implementation claims
    (everything for an in-process implementation, ``implementation`` None)."""
    standard = catalog.standard_names()
    if implementation is None:
        return standard
    claimed = [n for n in implementation.get("rulesets", ()) if isinstance(n, str)]
    extra: list[str] = []
    for name in claimed:
        if name in standard or name in extra:
            continue
        try:
            catalog.resolve(name)
        except SpecErrors:
            continue
        extra.append(name)
    if implementation.get("any_ruleset") is True:
        return standard + extra
    return [n for n in standard if n in claimed] + extra


def observe(
    catalog: Catalog,
    options: Options,
    bases: Sequence[str] = (),
    implementation: Implementation | None = None,
    budget: float | None = None,
    progress: Progress | None = None,
    fixed_rules: bool = False,
) -> Evidence:
    """Run the suite under each base (``bases``, or :func:`candidate_bases`) and keep
    the outcomes. ``options.impl`` is the process to run (its start answer says whether
    it plays fixed rules); without it, ``implementation`` is called in-process (the
    reference by default; the tests' doubles, ``fixed_rules`` when they answer a
    position the same whatever ruleset the request names)."""
    started = time.perf_counter()
    clock = _Clock(budget, progress)
    fixed = fixed_rules if options.impl is None else _says_fixed_rules(options)
    with clock:
        if fixed:
            names = list(bases) or catalog.standard_names()
            clock.say(f"a fixed-rules engine: each position once, judged under {len(names)} bases")
            suite = _run(catalog, options, names, None, implementation, clock)
            evidence = _evidence(dict(suite.implementation), [suite], names)
            evidence.fixed_rules = True
            problem = _probe_problem(suite) if not suite.interrupted else None
        else:
            evidence, problem = _per_base(catalog, options, bases, implementation, clock)
    if clock.spent:
        evidence.cut_short = f"stopped at the time budget of {budget:g} s"
        problem = None
    elif problem == "interrupted":
        evidence.cut_short = "interrupted"
    evidence.seconds = time.perf_counter() - started
    evidence.problem = problem or _judged_problem(evidence)
    return evidence


def _per_base(
    catalog: Catalog,
    options: Options,
    bases: Sequence[str],
    implementation: Implementation | None,
    clock: _Clock,
) -> tuple[Evidence, str | None]:
    in_process = options.impl is None
    first = list(bases[:1]) or catalog.standard_names()[:1]
    probe = _run(catalog, options, first, PROBE_FAILURES, implementation, clock)
    info = dict(probe.implementation)
    names = list(bases) or candidate_bases(catalog, None if in_process else info)
    if names and names[0] not in first and "error" not in info and not probe.interrupted:
        first = names[:1]  # the first ruleset is not claimed: probe one that is
        probe = _run(catalog, options, first, PROBE_FAILURES, implementation, clock)
    problem = _probe_problem(probe)
    suites = [probe]
    if problem is None:
        cut_short = any(r.message.startswith("not run") for r in probe.results)
        rest = [n for n in names if cut_short or n not in first]
        if rest:
            full = _run(catalog, options, rest, None, implementation, clock)
            suites = [full] if cut_short else [probe, full]
            problem = "interrupted" if full.interrupted else None
    return _evidence(info, suites, names), problem


def _says_fixed_rules(options: Options) -> bool:
    """Whether the start answer says ``fixed_rules`` (one start, then stopped)."""
    assert options.impl is not None
    process = ProcessImplementation(
        options.impl, timeout=options.timeout, start_timeout=options.start_timeout
    )
    try:
        started = process.start()
        return started is not None and started.fixed_rules
    finally:
        process.close()


class _Clock:
    """The run's time budget and its progress lines. When the budget is spent the main
    thread is interrupted, as by Ctrl-C: the harness stops its workers and keeps what
    was judged (only the main thread can be interrupted so; elsewhere there is no
    budget).

    The interruption is a simulated SIGINT, which does nothing where Python does not
    handle SIGINT: in a process started with it ignored, as a shell without job control
    starts a command put in the background (``schwimmen fingerprint … &`` in a script, a
    CI job). There the run kept going long past its budget. So while the clock runs,
    such a process gets a handler that stops the run once the budget is spent and
    otherwise does what the process was told: nothing for an ignored SIGINT, Ctrl-C's
    stop where it had the default.

    The interruption is also lost where it lands while Python runs a callback whose
    exceptions it only reports (a weakref callback, a ``__del__``): there the
    KeyboardInterrupt goes to ``sys.unraisablehook`` and the run goes on. A CI run saw a
    6 s budget end in a ``WeakSet`` callback and the run last 725 s. So while the clock
    runs, a KeyboardInterrupt of the spent budget that reaches that hook is given to the
    main thread again, once the callback has returned."""

    def __init__(self, budget: float | None, progress: Progress | None) -> None:
        self.budget = budget
        self.progress = progress
        self.spent = False
        self.started = time.monotonic()
        self.last = self.started
        self.done = 0
        self.timer: threading.Timer | None = None
        self.previous: Any = None
        self.unraisable: Any = None

    def __enter__(self) -> _Clock:
        if self.budget is not None and threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if previous in (signal.SIG_IGN, signal.SIG_DFL):
                self.previous = previous
                signal.signal(signal.SIGINT, self._on_sigint)
            self.unraisable = sys.unraisablehook
            sys.unraisablehook = self._on_unraisable
            self.timer = threading.Timer(self.budget, self._stop)
            self.timer.daemon = True
            self.timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)
            self.previous = None
        if self.unraisable is not None:
            sys.unraisablehook = self.unraisable
            self.unraisable = None

    def _on_unraisable(self, unraisable: Any) -> None:
        if self.spent and isinstance(unraisable.exc_value, KeyboardInterrupt):
            # from another thread a moment later: raised here, it would be lost again
            again = threading.Timer(0.01, _thread.interrupt_main)
            again.daemon = True
            again.start()
        elif self.unraisable is not None:
            self.unraisable(unraisable)

    def _on_sigint(self, signum: int, frame: object) -> None:
        if self.spent or self.previous is signal.SIG_DFL:
            raise KeyboardInterrupt

    def _stop(self) -> None:
        self.spent = True
        self.say(f"the time budget of {self.budget:g} s is spent: stopping")
        _thread.interrupt_main()

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress(f"{time.monotonic() - self.started:6.1f} s  {text}")

    def case(self, result: CaseResult) -> None:
        self.done += 1
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY:
            self.last = now
            self.say(f"{self.done} cases answered, the last {result.key}: {result.status.value}")


def _run(
    catalog: Catalog,
    options: Options,
    names: Sequence[str],
    max_fail: int | None,
    implementation: Implementation | None,
    clock: _Clock,
) -> SuiteResult:
    narrowed = Options(
        impl=options.impl,
        rulesets=list(names),
        jobs=options.jobs,
        max_fail=max_fail,
        timeout=options.timeout,
        start_timeout=options.start_timeout,
        validate_protocol=True,
        fixtures_dir=options.fixtures_dir,
    )
    try:
        return run_suite(catalog, narrowed, clock.case, implementation=implementation)
    except KeyboardInterrupt:
        if not clock.spent:
            raise
        # in-process, the interruption ends the loop itself: nothing was kept
        return SuiteResult({"name": "in-process"}, list(names), [], 0.0, interrupted=True)


def _probe_problem(probe: SuiteResult) -> str | None:
    if "error" in probe.implementation:
        return f"{probe.implementation['error']}; nothing to fingerprint"
    if probe.interrupted:
        return "interrupted"
    counts = probe.counts()
    if counts["passed"] + counts["failed"] == 0 and counts["errored"]:
        total = len(probe.results)
        return (
            f"too little judged to tell: 0 of {total} cases judged, {counts['errored']} "
            f"errored{_first_error(probe.results)}"
        )
    return None


def _first_error(results: Iterable[CaseResult]) -> str:
    for r in results:
        if r.status is Status.ERRORED and r.message:
            text = r.message if len(r.message) <= 200 else r.message[:197] + "..."
            return f" (the first: {text})"
    return ""


def _evidence(
    info: dict[str, Any], suites: Sequence[SuiteResult], names: Sequence[str]
) -> Evidence:
    counts = {s.value: 0 for s in Status}
    bases = {n: BaseEvidence() for n in names}
    errors: list[str] = []
    not_reported: frozenset[str] = frozenset()
    for suite in suites:
        not_reported = not_reported | frozenset(suite.not_reported)
        for r in suite.results:
            counts[r.status.value] += 1
            if r.status in (Status.ERRORED, Status.SKIPPED) and len(errors) < 5:
                errors.append(f"{r.key} {r.status.value}: {r.message}")
            found = bases.get(r.ruleset)
            if found is None:
                continue
            if r.judged:
                passed = r.status is Status.PASSED
                found.observed[r.fixture.id] = Observed(r.fixture, r.outcome, passed)
            elif r.status is Status.ERRORED:
                found.errored[r.fixture.id] = r.fixture
            else:
                found.skipped += 1
    return Evidence(info, bases, counts, not_reported, errors=errors)


def _judged_problem(evidence: Evidence) -> str | None:
    best = max((len(b.observed) for b in evidence.bases.values()), default=0)
    if best >= MIN_JUDGED:
        return None
    c = evidence.counts
    why = f"{evidence.cut_short}, " if evidence.cut_short else ""
    return (
        f"too little judged to tell: {why}{c['passed'] + c['failed']} of {sum(c.values())} "
        f"cases judged ({c['errored']} errored, {c['skipped']} skipped)"
    )
