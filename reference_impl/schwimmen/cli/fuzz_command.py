"""``schwimmen fuzz``: differential fuzzing of an implementation against the reference.

Progress goes to standard error while the run lasts; the summary (every finding, what
became of it, how long it took) to standard output. Exit status: 0 when cases were
compared and no difference was found within the budget, which proves nothing beyond the
cases tried and says so; 1 when differences were found, or the implementation could not
be fuzzed (it did not start, compared nothing, broke the protocol, or erred on most
cases); 2 for a bad argument; 130 when interrupted.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from schwimmen.cli import argtypes
from schwimmen.conformance.fuzz import GRACE, FuzzOptions, FuzzReport, fuzz
from schwimmen.conformance.process import ending_all
from schwimmen.spec.cache import cached_catalog
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.printable import printable

PROG = "schwimmen fuzz"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--impl",
        required=True,
        metavar="COMMAND",
        type=argtypes.command,
        help="the implementation: a program that speaks the conformance protocol",
    )
    p.add_argument(
        "--ruleset",
        required=True,
        metavar="RULESET[+HOUSE...]",
        help="the ruleset to fuzz; every case claims it, and the reference plays it",
    )
    p.add_argument(
        "--seconds",
        type=argtypes.seconds,
        default=60.0,
        help=(
            "the whole budget, the implementation's start included (default 60); the "
            f"finding in hand when it runs out gets about {GRACE:g} s more to be shrunk "
            "and written (one that would take longer is reported, not written)"
        ),
    )
    p.add_argument(
        "--seed",
        type=argtypes.seed,
        default=None,
        help="seed of the cases; the same seed makes the same cases (default: a new one, printed)",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=argtypes.positive_int,
        default=1,
        help="implementation processes, and as many worker processes making the cases "
        "(default 1: the cases are made in fuzz's own process)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        default="fuzz-fixtures",
        help="where the fixtures of the differences are written (default fuzz-fixtures)",
    )
    p.add_argument(
        "--max-differences",
        type=argtypes.positive_int,
        default=None,
        metavar="K",
        help="stop after K distinct findings (default: no limit, fuzz until the time is up)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=(
            "replace fixture files an earlier run left in --out (without it, a file that "
            "exists is never replaced: the finding gets the next free name)"
        ),
    )
    p.add_argument(
        "--timeout",
        type=argtypes.seconds,
        default=10.0,
        help="seconds per request, writing it and reading the answer (default 10)",
    )


def _error(message: str) -> int:
    print(printable(f"{PROG}: error: {message}").replace("\n", " "), file=sys.stderr)
    return 2


def _writable(text: str) -> str | None:
    if not text.strip():
        return "argument --out: the folder name is empty"
    out = Path(text)
    if out.exists() and not out.is_dir():
        return f"argument --out: {out} is a file, not a folder"
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".fuzz-", delete=True):
            pass
    except OSError as exc:
        return f"argument --out: cannot write to {out}: {exc.strerror or exc}"
    return None


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _say(started: float) -> Callable[[str], None]:
    def say(message: str) -> None:
        print(printable(f"fuzz [{time.monotonic() - started:6.1f} s] {message}"), file=sys.stderr)

    return say


def run(args: argparse.Namespace) -> int:
    began = time.monotonic()
    catalog = cached_catalog()
    try:
        ruleset = catalog.resolve(args.ruleset)
    except SpecErrors as exc:
        return _error(f"argument --ruleset: {exc.errors[0].message if exc.errors else exc}")
    problem = _writable(args.out)
    if problem:
        return _error(problem)
    out = Path(args.out)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    options = FuzzOptions(
        impl=args.impl,
        seconds=args.seconds,
        seed=seed,
        jobs=args.jobs,
        out=out,
        max_differences=args.max_differences,
        timeout=args.timeout,
        force=args.force,
        began=began,
    )
    started = began
    say = _say(started)
    say(f"fuzzing {ruleset.id} with seed {seed} for {args.seconds:g} s, {args.jobs} job(s)")
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None
    try:
        with ending_all():
            report = fuzz(catalog, ruleset, options, say)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    print_summary(report, ruleset.id, args.impl, out)
    if report.interrupted:
        return 130
    verdict = failure(report)
    if verdict is not None:
        print(printable(f"{PROG}: {verdict}"), file=sys.stderr)
        return 1
    return 1 if report.found or report.errored or report.unwritten else 0


def failure(report: FuzzReport) -> str | None:
    """Why the run could not judge the implementation, in one line, or None."""
    if report.fatal is not None:
        return report.fatal
    if report.compared == 0:
        parts = [f"{report.skipped} skipped"] if report.skipped else []
        parts += [f"{report.errored} errored"] if report.errored else []
        why = ", ".join(parts) or "no case was answered"
        return f"nothing compared: of {report.cases} cases, {why}; fuzzing judged nothing"
    if report.errored > report.compared:
        return (
            f"most cases errored ({report.errored} of {report.cases}, {report.compared} "
            "compared): the implementation was not fuzzed, only broken"
        )
    return None


def print_summary(report: FuzzReport, ruleset: str, impl: str, out: Path) -> None:
    rate = report.cases / report.seconds if report.seconds else 0.0
    found = report.found
    lines = [
        f"fuzzed {ruleset} for {report.seconds:.1f} s with seed {report.seed}: "
        f"{report.cases} cases ({rate:.0f}/s), {report.compared} compared, "
        f"{report.skipped} skipped, {report.errored} errored; "
        f"{len(found)} finding(s): {len(report.written)} fixture(s) written, "
        f"{len(report.rejected)} kept apart (not lint clean), {len(report.flaky)} flaky"
        + (f" ({report.stopped})" if report.stopped else "")
    ]
    for entry in found:
        w = entry.written
        steps, seats, rounds = entry.before
        steps2, seats2, rounds2 = entry.after
        lines.append(f"  {w.fixture_id} [{w.status}]: {entry.title}")
        lines.append(f"    first difference: {entry.difference}")
        if entry.explained:
            lines.append(f"    plays as the reference does with {' or '.join(entry.explained)}")
        lines.append(
            f"    found after {entry.found_after:.1f} s (case {entry.case_number}), done after "
            f"{entry.written_after:.1f} s; shrunk from {steps} steps, {seats} seats, "
            f"{rounds} round(s) to {steps2}, {seats2}, {rounds2} in {entry.tries} tries"
        )
        if entry.seen:
            shown = ", ".join(map(str, entry.seen[:8])) + (" ..." if len(entry.seen) > 8 else "")
            lines.append(f"    also shown by case(s) {shown}")
        lines.append(f"    pins {', '.join(w.pinned) or 'nothing'}")
        if w.path is not None:
            lines.append(f"    {'kept apart in' if w.status != 'written' else 'file'} {w.path}")
        for problem in w.problems:
            lines.append(f"    PROBLEM: {problem}")
    for message in report.unwritten:
        lines.append(f"  not written: {message}")
    for message in report.errors:
        lines.append(f"  errored: {message}")
    if report.written:
        lines.append(
            f"fixtures written to {out}/ (each passes on the reference and fails on {impl}); "
            f"rerun them with schwimmen conformance --fixtures {out}, or copy one under "
            "conformance/fixtures/ to make it part of the suite"
        )
    elif not found and failure(report) is None and not report.interrupted:
        lines.append(
            f"no difference found in {report.compared} compared cases. That is no proof of "
            "conformance: only these cases agree; fuzz longer or with other seeds"
        )
    for line in lines:
        print(printable(line))
