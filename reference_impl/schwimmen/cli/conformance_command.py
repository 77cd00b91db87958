"""``schwimmen conformance``: run the suite (default), ``lint`` it, or show its ``coverage``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from schwimmen.conformance import report
from schwimmen.conformance.coverage import coverage
from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.conformance.harness import Options, default_rulesets, resolve_all, run_suite
from schwimmen.conformance.lint import lint
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog


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
        help="a program that speaks the protocol (default: the in-process reference)",
    )
    p.add_argument(
        "--ruleset",
        action="append",
        default=[],
        metavar="RULESET[+HOUSE...]",
        help="only these rulesets (repeatable; default: all, and every house rule)",
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
    p.add_argument("--format", choices=("pretty", "json", "junit", "markdown"), default="pretty")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE")
    p.add_argument(
        "--track",
        metavar="FILE",
        help="compare with the run stored in FILE, report only what changed, "
        "and store this run there",
    )
    p.add_argument("-j", "--jobs", type=int, default=1, help="implementation processes")
    p.add_argument(
        "--max-fail",
        type=int,
        default=None,
        metavar="N",
        help="stop after N failed or errored cases (the rest are skipped)",
    )
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
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


def _emit(text: str, output: str | None) -> None:
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


def run(args: argparse.Namespace, console: Console) -> int:
    catalog = Catalog.load()
    if args.action == "lint":
        errors, count = lint(catalog)
        for error in errors:
            print(error)
        for notice in catalog.notices:
            print(notice, file=sys.stderr)
        if errors:
            print(f"{len(errors)} problem(s) in {count} fixtures", file=sys.stderr)
            return 1
        if args.mutations:
            from schwimmen.conformance.mutations import hidden_dependencies

            fixtures, _ = load_fixtures()
            hidden, tried = hidden_dependencies(fixtures)
            for item in hidden:
                print(item)
            if hidden:
                print(
                    f"{len(hidden)} hidden dependencies ({tried} mutated rulesets)", file=sys.stderr
                )
                return 1
            print(f"OK: no case depends on a parameter it does not pin ({tried} mutated rulesets)")
        print(f"OK: {count} fixtures lint clean")
        return 0
    try:
        names = args.ruleset or default_rulesets(catalog)
        rulesets = resolve_all(catalog, names)
    except SpecErrors as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        return 2
    if args.action == "coverage":
        fixtures, errors = load_fixtures()
        for error in errors:
            print(error, file=sys.stderr)
        cov = coverage(fixtures, rulesets)
        return _print_coverage(console, cov, args.format)
    options = Options(
        impl=args.impl,
        rulesets=names,
        pattern=args.pattern,
        kinds=args.kind,
        jobs=args.jobs,
        max_fail=args.max_fail,
        timeout=args.timeout,
        validate_protocol=args.validate_protocol,
    )
    suite = run_suite(catalog, options)
    if args.track:
        changes = report.track(suite, Path(args.track))
        report.print_changes(console, changes)
    elif args.format == "json":
        _emit(json.dumps(report.to_json(suite), indent=2, ensure_ascii=False) + "\n", args.output)
    elif args.format == "junit":
        _emit(report.to_junit(suite) + "\n", args.output)
    elif args.format == "markdown":
        _emit(report.to_markdown(suite), args.output)
    else:
        report.print_pretty(console, suite, show_passed=args.show_passed)
    return 0 if suite.ok else 1


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
