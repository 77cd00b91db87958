"""``schwimmen conformance``: run the suite (default), ``lint`` it, or show its ``coverage``."""

from __future__ import annotations

import argparse
import io
import json
import signal
import sys
import threading
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from schwimmen.cli import argtypes
from schwimmen.conformance import history, report
from schwimmen.conformance.compositions import check, compositions
from schwimmen.conformance.compositions import sample as composition_sample
from schwimmen.conformance.coverage import coverage, house_rule_coverage
from schwimmen.conformance.fixtures import Fixture, load_fixtures, select
from schwimmen.conformance.harness import (
    Options,
    SuiteResult,
    default_rulesets,
    resolve_all,
    run_suite,
)
from schwimmen.conformance.history import HistoryError
from schwimmen.conformance.lint import lint
from schwimmen.conformance.output import OutputError, check_writable, write_atomically
from schwimmen.conformance.process import ending_all
from schwimmen.spec.cache import cached_catalog
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.sources import NO_QUOTES_HELP, quote_check_skipped

COMPOSITION_SAMPLE = 60
"""Compositions a plain ``lint`` checks (seconds); ``--mutations`` (CI) checks them all."""


ALL = -1


def _compositions(text: str) -> int:
    """``all`` (``ALL``), ``none`` (0) or a positive number of compositions."""
    if text == "all":
        return ALL
    if text == "none":
        return 0
    return argtypes.positive_int(text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "action",
        nargs="?",
        choices=("run", "lint", "coverage"),
        default="run",
        help="run the suite (default), lint the fixtures, or report what they cover",
    )
    p.add_argument(
        "--impl",
        metavar="COMMAND",
        type=argtypes.command,
        help="a program that speaks the protocol (default: the in-process reference)",
    )
    p.add_argument(
        "--ruleset",
        action="append",
        default=[],
        metavar="RULESET[+HOUSE...]",
        help="only these rulesets (repeatable). The default is every ruleset and every "
        "house rule on its own ruleset; a ruleset named here runs without house rules "
        "unless they are named with it (pagat+no-triples)",
    )
    p.add_argument(
        "-k",
        dest="pattern",
        metavar="PATTERN",
        help="only fixtures whose id or title contains PATTERN",
    )
    p.add_argument(
        "--kind",
        action="append",
        default=[],
        choices=("hand-evaluation", "showdown", "round", "match", "setup"),
        help="only fixtures of this kind (repeatable)",
    )
    p.add_argument(
        "--fixtures",
        metavar="DIR",
        type=argtypes.folder,
        help="the fixtures in DIR instead of the suite's own (for example the ones "
        "schwimmen fuzz wrote), for run, lint and coverage",
    )
    p.add_argument("--format", choices=("pretty", "json", "junit", "markdown"), default="pretty")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    p.add_argument(
        "--track",
        metavar="FILE",
        help="compare with the run stored in FILE, report only what changed, "
        "and store this run there",
    )
    p.add_argument(
        "-j", "--jobs", type=argtypes.positive_int, default=1, help="implementation processes"
    )
    p.add_argument(
        "--max-fail",
        type=argtypes.positive_int,
        default=None,
        metavar="N",
        help="stop after N failed or errored cases (the rest are skipped)",
    )
    p.add_argument(
        "--timeout",
        type=argtypes.seconds,
        default=10.0,
        help="seconds per request, writing it and reading the answer (default 10)",
    )
    p.add_argument(
        "--start-timeout",
        type=argtypes.seconds,
        default=30.0,
        metavar="SECONDS",
        help="seconds for the implementation to start and answer the handshake (default 30)",
    )
    p.add_argument(
        "--validate-protocol",
        action="store_true",
        help="check every message of the implementation against the protocol schema",
    )
    p.add_argument("--show-passed", action="store_true", help="list passed cases too")
    p.add_argument(
        "--mutations",
        action="store_true",
        help="lint: also change every ruleset one parameter at a time and report cases whose "
        "outcome depends on a parameter they do not pin (minutes)",
    )
    p.add_argument(
        "--compositions",
        metavar="all|N|none",
        type=_compositions,
        default=None,
        help="lint: run the suite on the reference for every house rule on every ruleset it "
        "fits, every pair on the origin of either and a seeded sample of triples (all), a "
        f"seeded sample of N of them, or none (default: a sample of {COMPOSITION_SAMPLE} for "
        "the suite's own fixtures, all with --mutations, none with --fixtures)",
    )
    p.add_argument("--no-quotes", action="store_true", help="lint: " + NO_QUOTES_HELP)


def _render(suite: SuiteResult, fmt: str, show_passed: bool) -> str:
    if fmt == "json":
        return report.dumps(report.to_json(suite)) + "\n"
    if fmt == "junit":
        return report.to_junit(suite) + "\n"
    if fmt == "markdown":
        return report.to_markdown(suite)
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=120, color_system=None, force_terminal=False, highlight=False
    )
    report.print_pretty(console, suite, show_passed=show_passed)
    return buffer.getvalue()


def _summary(suite: SuiteResult) -> str:
    verdict = suite.verdict()
    return f"{len(suite.results)} cases in {suite.seconds:.2f} s: {verdict.line}"


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _run_suite(
    args: argparse.Namespace, console: Console, catalog: Catalog, names: list[str]
) -> int:
    """Check every file the run will write, run, then report where asked."""
    output = Path(args.output) if args.output else None
    track = Path(args.track) if args.track else None
    try:
        if output is not None:
            check_writable(output, "--output")
        before = history.load(track) if track is not None else {}
        if track is not None:
            check_writable(track, "--track")
    except (OutputError, HistoryError) as exc:
        print(f"schwimmen conformance: error: {exc}", file=sys.stderr)
        return 2
    options = Options(
        impl=args.impl,
        rulesets=list(args.ruleset),
        pattern=args.pattern,
        kinds=args.kind,
        jobs=args.jobs,
        max_fail=args.max_fail,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
        validate_protocol=args.validate_protocol,
        fixtures_dir=args.fixtures,
    )
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if main_thread else None
    try:
        with ending_all():
            suite = run_suite(catalog, options)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)
    code = 130 if suite.interrupted else (0 if suite.ok else 1)
    changed = history.changes_text(history.changes(before, suite), suite) if track else ""
    if track is not None:
        try:
            history.save(track, suite, before)
        except OSError as exc:
            print(
                f"schwimmen conformance: error: cannot write --track {track}: {exc}",
                file=sys.stderr,
            )
            code = 2
    if output is not None:
        text = _render(suite, args.format, args.show_passed)
        try:
            write_atomically(output, text)
        except OSError as exc:
            print(
                f"schwimmen conformance: error: cannot write --output {output}: {exc}; "
                "the report follows on standard output",
                file=sys.stderr,
            )
            sys.stdout.write(text)
            return 2
        sys.stdout.write(changed or "")
        print(f"{_summary(suite)} (report in {output})")
    elif args.format == "pretty" and track is not None:
        sys.stdout.write(changed)
        print(_summary(suite))
    elif args.format == "pretty":
        report.print_pretty(console, suite, show_passed=args.show_passed)
        _print_house_rules(console, catalog, args)
    else:
        sys.stdout.write(_render(suite, args.format, args.show_passed))
        sys.stderr.write(changed)
    return code


def _lint_compositions(args: argparse.Namespace, catalog: Catalog, fixtures: list[Fixture]) -> bool:
    """The composition lint: the reference passes every case the suite selects for every
    composition checked; each failure names the parameter the case does not pin."""
    count = args.compositions
    if count is None:
        count = ALL if args.mutations else 0 if args.fixtures else COMPOSITION_SAMPLE
    if count == 0:
        return True
    plan = compositions(catalog)
    names = list(plan.names) if count == ALL else composition_sample(plan, count)
    passing = [catalog.resolve(n) for n in catalog.standard_names()]
    failures, distinct = check(catalog, fixtures, names, passing)
    for failure in failures:
        print(failure)
    shown = (
        f"{len(names)} compositions ({len(plan.singles)} house rules on a ruleset, "
        f"{len(plan.pairs)} pairs, {len(plan.triples)} triples; {distinct} distinct rulesets)"
        if count == ALL
        else f"{len(names)} of {len(plan.names)} compositions (a seeded sample; "
        f"{distinct} distinct rulesets; --compositions all for every one)"
    )
    if failures:
        print(f"{len(failures)} case(s) fail on the reference on {shown}", file=sys.stderr)
        return False
    print(f"OK: the reference passes every case the suite selects on {shown}")
    return True


def _print_house_rules(console: Console, catalog: Catalog, args: argparse.Namespace) -> None:
    """For each composition named with ``--ruleset``: how many cases test what its house
    rules change, and which expect otherwise than on its base (a pass equal to the base's
    says nothing about the rule)."""
    named = [catalog.resolve(n) for n in args.ruleset]
    compositions = [r for r in named if r.overlays]
    if not compositions:
        return
    fixtures, _ = load_fixtures(args.fixtures)
    fixtures = select(fixtures, pattern=args.pattern, kinds=args.kind)
    for ruleset in compositions:
        cov = house_rule_coverage(fixtures, ruleset, catalog.resolve(ruleset.base))
        lines = cov.lines()
        style = "bold" if cov.tests or not cov.changed else "bold yellow"
        console.print(Text(lines[0], style="bold"))
        for line in lines[1:]:
            console.print(Text(line, style=style if line is lines[1] else ""))


def run(args: argparse.Namespace, console: Console) -> int:
    catalog = cached_catalog()
    if args.action == "lint":
        errors, count = lint(catalog, args.fixtures)
        for error in errors:
            print(error)
        for notice in catalog.notices:
            print(notice, file=sys.stderr)
        if errors:
            print(f"{len(errors)} problem(s) in {count} fixtures", file=sys.stderr)
            return 1
        # A quote that could not be checked fails the lint unless --no-quotes allows it:
        # "lint clean" must not stand for a check that did not happen.
        unchecked = catalog.bibliography.unchecked_since(0)
        if unchecked and not args.no_quotes:
            print(quote_check_skipped(unchecked), file=sys.stderr)
            return 1
        fixtures, _ = load_fixtures(args.fixtures)
        if not _lint_compositions(args, catalog, fixtures):
            return 1
        if args.mutations:
            from schwimmen.conformance.mutations import hidden_dependencies

            hidden, tried = hidden_dependencies(fixtures, catalog.standard_names())
            for item in hidden:
                print(item)
            if hidden:
                print(
                    f"{len(hidden)} hidden dependencies ({tried} mutated rulesets)", file=sys.stderr
                )
                return 1
            print(
                f"OK: no case depends on a parameter it does not pin ({tried} mutated rulesets, "
                "of every ruleset and every house rule on its own)"
            )
        skipped = f"; {unchecked} quote(s) NOT checked (--no-quotes)" if unchecked else ""
        print(f"OK: {count} fixtures lint clean{skipped}")
        return 0
    try:
        names = args.ruleset or default_rulesets(catalog)
        rulesets = resolve_all(catalog, names)
    except SpecErrors as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        return 2
    if args.action == "coverage":
        fixtures, errors = load_fixtures(args.fixtures)
        for error in errors:
            print(error, file=sys.stderr)
        cov = coverage(fixtures, rulesets)
        return _print_coverage(console, cov, args.format)
    return _run_suite(args, console, catalog, names)


def _print_coverage(console: Console, cov: object, fmt: str) -> int:
    from schwimmen.conformance.coverage import Coverage

    assert isinstance(cov, Coverage)
    if fmt == "json":
        data = {
            "cases": cov.cases,
            "fixtures": cov.fixtures,
            "values": [
                {
                    "parameter": v.param,
                    "value": v.value,
                    "used_by": v.used_by,
                    "cases": len(v.cases),
                    "reason": v.reason(),
                }
                for v in cov.values
            ],
            "disagreements": cov.disagreements,
        }
        console.print_json(json.dumps(data, ensure_ascii=False))
        return 0
    table = Table(
        title=f"Parameter values pinned by the suite ({cov.cases} cases, {cov.fixtures} fixtures)"
    )
    table.add_column("parameter", style="bold")
    table.add_column("value")
    table.add_column("cases", justify="right")
    table.add_column("gap", style="yellow")
    for v in cov.values:
        shown = json.dumps(v.value, ensure_ascii=False)
        if len(shown) > 40:
            shown = shown[:37] + "..."
        table.add_row(
            v.param, shown, str(len(v.cases)), v.reason(), style="" if v.covered else "yellow"
        )
    console.print(table)
    pinned = sum(1 for ids in cov.disagreements.values() if ids)
    console.print(Text(f"Disagreements pinned: {pinned} of {len(cov.disagreements)}", style="bold"))
    if cov.unpinned:
        console.print(Text("Not pinned: " + ", ".join(cov.unpinned), style="yellow"))
    console.print(
        Text(
            f"Unexercised parameter values: {len(cov.gaps)} (listed with reasons above)",
            style="bold",
        )
    )
    return 0
