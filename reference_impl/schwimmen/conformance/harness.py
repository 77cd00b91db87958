"""Run the suite: choose the rulesets and fixtures, plan the cases, run them against an
implementation (the in-process reference or processes speaking the protocol), classify.

The harness never reaches into the engine: the in-process reference is the same
request → answer function that ``schwimmen serve`` exposes over the protocol.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schwimmen.conformance.fixtures import Fixture, load_fixtures, select
from schwimmen.conformance.process import ProcessImplementation, Started
from schwimmen.conformance.runner import CaseResult, Status, judge, planned
from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset


@dataclass
class Options:
    impl: str | None = None
    rulesets: Sequence[str] = ()
    pattern: str | None = None
    kinds: Sequence[str] = ()
    jobs: int = 1
    max_fail: int | None = None
    timeout: float = 10.0
    validate_protocol: bool = False
    fixtures_dir: Path | None = None


@dataclass
class SuiteResult:
    implementation: dict[str, Any]
    rulesets: list[str]
    results: list[CaseResult]
    seconds: float
    load_errors: list[SpecError] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = {s.value: 0 for s in Status}
        for r in self.results:
            out[r.status.value] += 1
        return out

    @property
    def ok(self) -> bool:
        return not self.load_errors and all(
            r.status in (Status.PASSED, Status.SKIPPED) for r in self.results
        )


def default_rulesets(catalog: Catalog) -> list[str]:
    """The ten rulesets and every house rule on the ruleset it comes from."""
    names = sorted(catalog.rulesets)
    names += [f"{sf.data['origin']}+{hid}" for hid, sf in sorted(catalog.house_rules.items())]
    return names


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
    if options.impl is None:
        from schwimmen.engine.adapter import run_case

        impl_info: dict[str, Any] = {"name": "schwimmen-reference (in-process)", "version": ""}
        results = _run_in_process(plan, implementation or run_case, options, progress)
    else:
        impl_info, results = _run_processes(plan, options, progress)
    return SuiteResult(impl_info, names, results, time.perf_counter() - started, load_errors)


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


def _stopped(fixture: Fixture, case: Any, ruleset: Ruleset, limit: int | None) -> CaseResult:
    message = f"not run: stopped after {limit} failures (--max-fail)"
    return CaseResult(fixture, case, ruleset.id, Status.SKIPPED, message=message)


def _run_in_process(
    plan: list[tuple[Fixture, Any, Ruleset]],
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


def _supported(info: Started, ruleset: Ruleset) -> bool:
    return info.any_ruleset or ruleset.id in info.rulesets


def _run_processes(
    plan: list[tuple[Fixture, Any, Ruleset]], options: Options, progress: Progress | None
) -> tuple[dict[str, Any], list[CaseResult]]:
    assert options.impl is not None
    jobs = max(1, options.jobs)
    workers = [
        ProcessImplementation(
            options.impl, timeout=options.timeout, validate=options.validate_protocol
        )
        for _ in range(jobs)
    ]
    first = workers[0].start()
    results: list[CaseResult | None] = [None] * len(plan)
    if first is None:
        message = workers[0].start_error or "the implementation did not start"
        for i, (fixture, case, ruleset) in enumerate(plan):
            results[i] = CaseResult(fixture, case, ruleset.id, Status.ERRORED, message=message)
            if progress:
                progress(results[i])  # type: ignore[arg-type]
        workers[0].close()
        return {"name": options.impl, "error": message}, [r for r in results if r]
    info: dict[str, Any] = {
        "name": first.name,
        "version": first.version,
        "command": options.impl,
        "any_ruleset": first.any_ruleset,
        "rulesets": list(first.rulesets),
    }
    budget = _Budget(options.max_fail)
    next_index = 0
    lock = threading.Lock()

    def work(worker: ProcessImplementation) -> None:
        nonlocal next_index
        while True:
            with lock:
                if next_index >= len(plan):
                    return
                i = next_index
                next_index += 1
            fixture, case, ruleset = plan[i]
            if budget.spent():
                result = _stopped(fixture, case, ruleset, options.max_fail)
            elif not _supported(first, ruleset):
                result = CaseResult(
                    fixture,
                    case,
                    ruleset.id,
                    Status.SKIPPED,
                    message=f"{first.name} does not implement {ruleset.id}",
                )
            else:
                answer = worker.run(fixture.request(ruleset))
                result = judge(fixture, case, ruleset, answer)
                if answer.get("stderr"):
                    result = CaseResult(
                        result.fixture,
                        result.case,
                        result.ruleset,
                        result.status,
                        result.mismatches,
                        (result.message + " " if result.message else "")
                        + f"[stderr: {answer['stderr'][-300:]}]",
                        result.outcome,
                    )
                budget.record(result)
            results[i] = result
            if progress:
                with lock:
                    progress(result)

    threads = [threading.Thread(target=work, args=(w,), daemon=True) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for w in workers:
        w.close()
    info["restarts"] = sum(w.restarts for w in workers)
    final = [r for r in results if r is not None]
    assert len(final) == len(plan), "a case was lost"
    return info, final
