"""The ``schwimmen`` command: a thin face over the loader, the engine and the harness."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from rich.console import Console, ConsoleOptions, RenderableType
from rich.protocol import rich_cast
from rich.segment import Segment
from rich.text import Text

from schwimmen import __version__
from schwimmen.cli import argtypes
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset
from schwimmen.spec.printable import printable
from schwimmen.spec.sources import NO_QUOTES_HELP, quote_check_skipped


class _Parser(argparse.ArgumentParser):
    """A parser whose every complaint is one line: ``schwimmen play: error: argument ...``.

    argparse prints the whole usage before the error; in a script's log or a terminal the
    one line that matters drowns in it, and ``--help`` is there for the usage. Subparsers
    are made of the parser's own class, so this holds for every command.
    """

    def error(self, message: str) -> NoReturn:
        line = printable(message).replace("\n", " ")
        self.exit(2, f"{self.prog}: error: {line}\n")


def _usage_error(args: argparse.Namespace, message: str) -> int:
    """A command-line value that only the resolved ruleset shows to be wrong: exit 2."""
    print(printable(f"schwimmen {args.command}: error: {message}"), file=sys.stderr)
    return 2


def _table_error(ruleset: Ruleset, players: int, seat: int | None = None) -> str | None:
    """What is wrong with ``--players`` (and ``--seat``, 1-based) for ``ruleset``, if anything."""
    low, high = ruleset.rules.players.min, ruleset.rules.players.max
    if not low <= players <= high:
        return (
            f"argument --players: {ruleset.id} is played by {low} to {high} players, not {players}"
        )
    if seat is not None and seat > players:
        return f"argument --seat: must be 1 to {players} (the number of players), not {seat}"
    return None


def _cmd_validate(args: argparse.Namespace) -> int:
    """Errors fail; so do quotes that could not be checked, unless ``--no-quotes`` says
    the check may be missed: an "OK" must not stand for a check that did not happen."""
    from schwimmen.spec.validate import validate_paths

    report = validate_paths([Path(p) for p in args.paths])
    for notice in report.notices:
        print(notice, file=sys.stderr)
    for error in report.errors:
        print(error)
    if not report.ok:
        print(f"{len(report.errors)} error(s) in {report.files} file(s)", file=sys.stderr)
        return 1
    if report.unchecked_quotes and not args.no_quotes:
        print(quote_check_skipped(report.unchecked_quotes), file=sys.stderr)
        return 1
    unchecked = report.unchecked_quotes
    skipped = f"; {unchecked} quote(s) NOT checked (--no-quotes)" if unchecked else ""
    print(f"OK: {report.files} file(s) valid{skipped}")
    return 0


class _PrintableConsole(Console):
    """A console that shows control characters in what it prints as ``\\u001b``.

    Titles, quotes, notes and ids come from YAML files anyone can write; every command
    prints through this console, so no file can drive the terminal. Each text is made
    printable before it is laid out, so a table's columns still wrap it; such a text loses
    its inner styles, which only a hostile file ever costs.
    """

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return _printable_text(super().render_str(text, **kwargs))

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        renderable = rich_cast(renderable)
        if isinstance(renderable, Text):
            renderable = _printable_text(renderable)
        return super().render(renderable, options)


def _printable_text(text: Text) -> Text:
    shown = printable(text.plain)
    return text if shown == text.plain else text.blank_copy(shown)


def _console() -> Console:
    return _PrintableConsole(highlight=False, soft_wrap=False)


def _catalog() -> Catalog:
    return Catalog.load()


def _report_spec_errors(exc: SpecErrors) -> int:
    for error in exc.errors:
        print(error, file=sys.stderr)
    return 1


def _cmd_list(args: argparse.Namespace) -> int:
    from schwimmen.cli.spec_commands import print_list

    print_list(_console(), _catalog(), args.format)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from schwimmen.cli.spec_commands import print_show

    try:
        ruleset = _catalog().resolve(args.ruleset)
    except SpecErrors as exc:
        return _report_spec_errors(exc)
    print_show(_console(), ruleset, args.format)
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from schwimmen.cli.spec_commands import print_diff

    catalog = _catalog()
    try:
        a, b = catalog.resolve(args.a), catalog.resolve(args.b)
    except SpecErrors as exc:
        return _report_spec_errors(exc)
    print_diff(_console(), a, b, args.format)
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from schwimmen.cli.simulate_command import print_simulation, run_simulation

    try:
        ruleset = _catalog().resolve(args.ruleset)
    except SpecErrors as exc:
        return _report_spec_errors(exc)
    problem = _table_error(ruleset, args.players)
    if problem:
        return _usage_error(args, problem)
    data = run_simulation(
        ruleset, args.players, args.matches, args.seed, args.jobs, args.sample, args.json
    )
    print_simulation(_console(), data, "json" if args.json else "text")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from schwimmen.cli.play_command import play

    try:
        ruleset = _catalog().resolve(args.ruleset)
    except SpecErrors as exc:
        return _report_spec_errors(exc)
    problem = _table_error(ruleset, args.players, args.seat)
    if problem:
        return _usage_error(args, problem)
    return play(ruleset, args.players, args.seat - 1, args.seed, args.bot, _console())


def _cmd_conformance(args: argparse.Namespace) -> int:
    from schwimmen.cli.conformance_command import run

    return run(args, _console())


def _cmd_fuzz(args: argparse.Namespace) -> int:
    from schwimmen.cli.fuzz_command import run

    return run(args)


def _cmd_serve(args: argparse.Namespace) -> int:
    from schwimmen.protocol.server import main as serve

    if args.play is None:
        if args.set or args.fixed_rules:
            flag = "--set" if args.set else "--fixed-rules"
            print(f"schwimmen serve: error: {flag} needs --play RULESET", file=sys.stderr)
            return 2
        return serve()
    changes: dict[str, Any] = args.set
    try:
        catalog = _catalog()
        played = catalog.mutant(args.play, changes) if changes else catalog.resolve(args.play)
    except SpecErrors as exc:
        _report_spec_errors(exc)
        return 2
    name = f"schwimmen-reference playing {played.id}"
    return serve(played.values(), name, played.id, args.fixed_rules)


def _cmd_fingerprint(args: argparse.Namespace) -> int:
    from schwimmen.cli.fingerprint_command import run

    return run(args)


def _cmd_score(args: argparse.Namespace) -> int:
    from schwimmen.cli.score_command import run

    return run(args, _console(), _catalog())


def _format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default text)"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="schwimmen",
        description="Schwimmen (31): the rulesets as data, the reference engine and the "
        "conformance suite.",
    )
    parser.add_argument("--version", action="version", version=f"schwimmen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    p = sub.add_parser("list", help="list the rulesets and house rules")
    _format_option(p)
    p.set_defaults(func=_cmd_list)
    p = sub.add_parser(
        "show",
        help="show a resolved ruleset with the provenance of every rule",
        description="RULESET is a ruleset id, optionally followed by house rules: "
        "pagat+knocker-loses-two+pass-once-per-round. A house rule may also be a path to a "
        ".yaml file.",
    )
    p.add_argument("ruleset", metavar="RULESET[+HOUSE...]")
    _format_option(p)
    p.set_defaults(func=_cmd_show)
    p = sub.add_parser("diff", help="show only the rules in which two rulesets differ")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    _format_option(p)
    p.set_defaults(func=_cmd_diff)
    from schwimmen.cli.score_command import add_arguments as add_score_arguments

    p = sub.add_parser(
        "score",
        help="what a hand is worth under every ruleset, and who loses a showdown",
        description="Shows the value of the hand under every ruleset and every house rule "
        "on its own ruleset (origin+house-rule), or under the rulesets given with --ruleset; "
        "with several hands, separated by /, also who loses the showdown under each "
        "(nobody knocked). Cards that are no hand of a ruleset (too few or too many for its "
        "hand size, or not in its pack) are shown as not a hand in this ruleset. Exit "
        "status 2 for a card that is not one, a card given twice or an unknown ruleset.",
    )
    add_score_arguments(p)
    p.set_defaults(func=_cmd_score)
    p = sub.add_parser("validate", help="check ruleset and house-rule files")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    p.add_argument("--no-quotes", action="store_true", help=NO_QUOTES_HELP)
    p.set_defaults(func=_cmd_validate)
    p = sub.add_parser(
        "simulate",
        help="play many random-bot matches and print how they go",
        description="Random bots (knock with probability 0.1, otherwise a random legal "
        "action) play on the compiled rounds; the same seed gives the same figures for any "
        "number of jobs.",
    )
    p.add_argument("ruleset", metavar="RULESET[+HOUSE...]")
    p.add_argument("--players", type=int, default=4, help="players at the table (default 4)")
    p.add_argument(
        "--matches", type=argtypes.at_least(1), default=1000, help="matches to play (default 1000)"
    )
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument(
        "--jobs",
        type=argtypes.at_least(1),
        default=None,
        help="worker processes (default: all cores)",
    )
    p.add_argument(
        "--sample",
        type=argtypes.at_least(0),
        default=2000,
        help="showdowns sampled with the full engine for mean hand values (default 2000; 0: none)",
    )
    p.add_argument("--json", action="store_true", help="print JSON for tools")
    p.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("play", help="play against bots in the terminal")
    p.add_argument("ruleset", metavar="RULESET[+HOUSE...]")
    p.add_argument("--players", type=int, default=4, help="players at the table (default 4)")
    p.add_argument(
        "--seat",
        type=argtypes.at_least(1),
        default=1,
        help="your seat, 1 = left of the first dealer",
    )
    p.add_argument("--seed", type=int, default=None, help="random seed for a repeatable game")
    p.add_argument("--bot", choices=("greedy", "random"), default="greedy", help="opponents")
    p.set_defaults(func=_cmd_play)
    from schwimmen.cli.conformance_command import add_arguments

    p = sub.add_parser(
        "conformance",
        help="run the conformance suite against the reference or any implementation",
        description="Runs every fixture under every ruleset (and house rule) it applies to. "
        "Exit status 1 when any case fails or errors.",
    )
    add_arguments(p)
    p.set_defaults(func=_cmd_conformance)
    from schwimmen.cli.fuzz_command import add_arguments as add_fuzz_arguments

    p = sub.add_parser(
        "fuzz",
        help="differential fuzzing: find, shrink and write where an implementation differs",
        description="Plays seeded random cases (and actions the reference refuses) under "
        "RULESET on the implementation and on the reference; each difference is shrunk to "
        "a small case and written as a fixture that the reference passes and the "
        "implementation fails. Exit status 1 when differences were found, 0 when none was "
        "(which is no proof of conformance).",
    )
    add_fuzz_arguments(p)
    p.set_defaults(func=_cmd_fuzz)
    p = sub.add_parser(
        "serve",
        help="the reference engine speaking the conformance protocol on stdin/stdout",
        description="Runs the reference engine as an implementation under test: it reads "
        "one JSON request per line on stdin and answers one per line on stdout, in the "
        "protocol of conformance/PROTOCOL.md, until stop or the end of its input. Its start "
        "answer claims any ruleset (any_ruleset: true), so the harness runs every case; "
        'try it with: schwimmen conformance --impl "schwimmen serve". With --play it '
        "plays another ruleset whatever the case names, while claiming the case's: a "
        "test double of an engine that plays something else than it says.",
    )
    p.add_argument(
        "--play",
        metavar="RULESET[+HOUSE...]",
        help="answer every case by playing this ruleset (or composition), whatever ruleset "
        "the case names",
    )
    p.add_argument(
        "--set",
        action=argtypes.SetOnce,
        type=argtypes.setting,
        default={},
        metavar="PARAMETER=VALUE",
        help="with --play: change one parameter of it (repeatable; the value is YAML: "
        "penalties.knocker_lowest=2, comparison.suit_order=[C,S,H,D])",
    )
    p.add_argument(
        "--fixed-rules",
        action="store_true",
        help="with --play: say so in the start answer (fixed_rules: true) instead of claiming "
        "every ruleset: the test double of an engine that plays rules of its own",
    )
    p.set_defaults(func=_cmd_serve)
    from schwimmen.cli.fingerprint_command import add_arguments as add_fingerprint_arguments

    p = sub.add_parser(
        "fingerprint",
        help="which ruleset an implementation plays, and which parameters it changes",
        description="Runs the suite against the implementation under every candidate base "
        "and explains the failures by parameters, not by pass rate: the closest ruleset and "
        "the fewest parameter values that, changed, make the suite's expectations agree with "
        "the implementation. Exit status 1 when too little was judged to tell.",
    )
    add_fingerprint_arguments(p)
    p.set_defaults(func=_cmd_fingerprint)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "jobs", 0) is None:
        from schwimmen.cli.simulate_command import default_jobs

        args.jobs = default_jobs()
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        # The reader went away (``schwimmen conformance | head``): stop quietly, as a
        # Unix filter does, instead of a traceback; later flushes go nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    return code


if __name__ == "__main__":
    raise SystemExit(main())
