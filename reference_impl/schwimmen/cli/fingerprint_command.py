"""``schwimmen fingerprint --impl CMD``: which ruleset an engine plays, and where it deviates.

Every file the command will write is checked before the suite runs (minutes against a
slow engine), and a house rule is never written over an existing file without
``--force``; every argument error is one line with exit status 2. An engine that cannot
be fingerprinted (it crashes, hangs, errors everything), or of which too little was
judged to tell (it passes nothing, answers garbage or at random, or the time budget ran
out), gets a one-line reason and exit status 1, no claim and no house rule, never a
traceback. The whole run is bounded by ``--timeout-total`` (default 600 s: a conformance
run of a fixed-rules engine takes under a minute, every base of an engine that reads
the parameters a few minutes), with a progress line on stderr every few seconds; what was
judged when the budget ran out is reported.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from schwimmen.cli import argtypes
from schwimmen.conformance import process
from schwimmen.conformance.fingerprint import fingerprint, report
from schwimmen.conformance.harness import Options
from schwimmen.conformance.output import OutputError, check_writable, write_atomically
from schwimmen.spec.cache import cached_catalog
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.printable import printable

PROG = "schwimmen fingerprint"
TOTAL = 600.0  # seconds for the whole run, by default


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--impl",
        metavar="COMMAND",
        type=argtypes.command,
        required=True,
        help="the program to fingerprint; it speaks the protocol of conformance/PROTOCOL.md",
    )
    p.add_argument(
        "--base",
        action="append",
        default=[],
        metavar="RULESET[+HOUSE...]",
        help="only these candidate bases (repeatable). The default is every ruleset, every "
        "house rule on its ruleset and every composition the engine's start answer names",
    )
    p.add_argument(
        "-j", "--jobs", type=argtypes.positive_int, default=1, help="implementation processes"
    )
    p.add_argument(
        "--timeout",
        type=argtypes.seconds,
        default=10.0,
        help="seconds per request, writing it and reading the answer (default 10)",
    )
    p.add_argument(
        "--timeout-total",
        type=argtypes.seconds,
        default=TOTAL,
        help=f"seconds for the whole run; then it stops and reports what was judged so far "
        f"(exit 1; default {TOTAL:g})",
    )
    p.add_argument("--format", choices=("pretty", "json"), default="pretty")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    p.add_argument(
        "--emit-house-rule",
        metavar="FILE",
        help="write the deviations found as a house rule on the closest ruleset to FILE "
        "(schwimmen validate accepts it; run the suite with --ruleset RULESET+FILE); only "
        "when enough was judged to tell, never over an existing file without --force",
    )
    p.add_argument(
        "--force", action="store_true", help="let --emit-house-rule replace an existing file"
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def _error(message: str) -> int:
    print(printable(f"{PROG}: error: {message}").replace("\n", " "), file=sys.stderr)
    return 2


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _progress(line: str) -> None:
    print(printable(f"{PROG}: {line}"), file=sys.stderr, flush=True)


def _clean_up() -> None:
    """End what the engine left running, also what left its process group and session
    (setsid'd grandchildren): the harness is their subreaper and finds them."""
    process.end_all()


def run(args: argparse.Namespace) -> int:
    catalog = cached_catalog()
    for name in args.base:
        try:
            catalog.resolve(name)
        except SpecErrors as exc:
            problems = "; ".join(e.message for e in exc.errors) or str(exc)
            return _error(f"argument --base: {name}: {problems}")
    output = Path(args.output) if args.output else None
    emit = Path(args.emit_house_rule) if args.emit_house_rule else None
    try:
        if output is not None:
            check_writable(output, "--output")
        if emit is not None:
            check_writable(emit, "--emit-house-rule")
    except OutputError as exc:
        return _error(str(exc))
    if emit is not None and emit.exists() and not args.force:
        return _error(f"argument --emit-house-rule: {emit} exists; add --force to replace it")
    if emit is not None and (emit.suffix != ".yaml" or not report.ID.match(emit.stem)):
        return _error(
            f"argument --emit-house-rule: {emit.name}: the file is named by the house rule's "
            "id, lowercase words joined by '-', ending in .yaml (my-engine.yaml)"
        )
    options = Options(impl=args.impl, jobs=args.jobs, timeout=args.timeout)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None
    try:
        found = fingerprint(
            catalog,
            options,
            bases=list(dict.fromkeys(args.base)),
            budget=args.timeout_total,
            progress=None if args.quiet else _progress,
        )
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
        _clean_up()
    if args.format == "json":
        shown = report.dumps(report.to_json(found, catalog)) + "\n"
    else:
        shown = report.text(found, catalog)
    code = 0
    if found.problem == "interrupted":
        code = 130
    elif not found.told:
        code = 1
    if emit is not None:
        rule = report.house_rule(found, catalog, emit.stem)
        if rule is None:
            why = "no deviation claimed" if found.told else "too little judged to tell"
            print(f"{PROG}: {why}; {emit} not written", file=sys.stderr)
        elif emit.exists() and not args.force:
            print(f"{PROG}: {emit} appeared during the run; not replaced", file=sys.stderr)
            code = max(code, 1)
        else:
            try:
                write_atomically(emit, rule)
            except OSError as exc:
                print(
                    f"{PROG}: error: cannot write --emit-house-rule {emit}: {exc}", file=sys.stderr
                )
                code = 2
    if output is not None:
        try:
            write_atomically(output, shown)
        except OSError as exc:
            print(
                f"{PROG}: error: cannot write --output {output}: {exc}; the report follows",
                file=sys.stderr,
            )
            sys.stdout.write(shown)
            return 2
        print(f"{report.summary(found)} (report in {output})")
        return code
    sys.stdout.write(shown)
    return code
