"""The ``schwimmen`` command: a thin face over the loader, the engine and the harness."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from schwimmen import __version__


def _cmd_validate(args: argparse.Namespace) -> int:
    from schwimmen.spec.validate import validate_paths

    report = validate_paths([Path(p) for p in args.paths])
    for notice in report.notices:
        print(notice, file=sys.stderr)
    for error in report.errors:
        print(error)
    if report.ok:
        print(f"OK: {report.files} file(s) valid")
        return 0
    print(f"{len(report.errors)} error(s) in {report.files} file(s)", file=sys.stderr)
    return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="schwimmen",
        description="Schwimmen (31): the rulesets as data, the reference engine and the "
        "conformance suite.",
    )
    parser.add_argument("--version", action="version", version=f"schwimmen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("validate", help="check ruleset and house-rule files")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    p.set_defaults(func=_cmd_validate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
