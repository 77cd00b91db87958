"""The ``schwimmen`` command: a thin face over the loader, the engine and the harness."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from schwimmen import __version__
from schwimmen.cli import argtypes
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.printable import printable
from schwimmen.spec.sources import NO_QUOTES_HELP

if TYPE_CHECKING:
    from rich.console import Console

    from schwimmen.spec.loader import Catalog
    from schwimmen.spec.model import Ruleset

# Every command imports what it needs when it runs, and the parser gives only the command
# named its options (``build_parser(command)``): ``schwimmen list`` must not pay for the
# harness, the fuzzer, jsonschema or the engine.


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
    the check may be missed: an "OK" must not stand for a check that did not happen. A
    warning is printed and does not fail, unless ``--strict`` makes it."""
    from schwimmen.cli.spec_commands import warning_lines
    from schwimmen.spec.sources import quote_check_skipped
    from schwimmen.spec.validate import validate_paths

    report = validate_paths([Path(p) for p in args.paths])
    for notice in report.notices:
        print(notice, file=sys.stderr)
    for error in report.errors:
        print(error)
    for line in warning_lines(report.warnings):
        print(line)
    warned = f"{len(report.warnings)} warning(s)"
    if not report.ok:
        print(f"{len(report.errors)} error(s) in {report.files} file(s)", file=sys.stderr)
        return 1
    if report.warnings and args.strict:
        print(f"{warned} in {report.files} file(s) (--strict)", file=sys.stderr)
        return 1
    if report.unchecked_quotes and not args.no_quotes:
        print(quote_check_skipped(report.unchecked_quotes), file=sys.stderr)
        return 1
    unchecked = report.unchecked_quotes
    skipped = f"; {unchecked} quote(s) NOT checked (--no-quotes)" if unchecked else ""
    skipped += f"; {warned}" if report.warnings else ""
    print(f"OK: {report.files} file(s) valid{skipped}")
    return 0


def _console() -> Console:
    from schwimmen.cli.console import printable_console

    return printable_console()


def _catalog() -> Catalog:
    """The catalog every command reads: checked once per content, then from the cache."""
    from schwimmen.spec.cache import cached_catalog

    return cached_catalog()


def _report_spec_errors(exc: SpecErrors) -> int:
    for error in exc.errors:
        print(error, file=sys.stderr)
    return 1


def _cmd_list(args: argparse.Namespace) -> int:
    from schwimmen.cli.spec_commands import print_list

    print_list(_console(), _catalog(), args.format)
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from schwimmen.cli.lang import chosen, words
    from schwimmen.cli.spec_commands import print_show, ruleset_texts, warning_lines

    catalog = _catalog()
    try:
        ruleset = catalog.resolve(args.ruleset)
    except SpecErrors as exc:
        return _report_spec_errors(exc)
    w = words(chosen(args))
    print_show(_console(), ruleset, args.format, w, ruleset_texts(catalog, ruleset, w))
    for line in warning_lines(ruleset.warnings):
        print(line, file=sys.stderr)
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from schwimmen.cli.spec_commands import print_diff

    catalog = _catalog()
    try:
        a, b = catalog.resolve(args.a), catalog.resolve(args.b)
    except SpecErrors as exc:
        return _report_spec_errors(exc)
    from schwimmen.cli.lang import chosen, words

    print_diff(_console(), a, b, args.format, words(chosen(args)))
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
    from schwimmen.engine.compiled import RoundTooLong

    try:
        data = run_simulation(
            ruleset,
            args.players,
            args.matches,
            args.seed,
            args.jobs,
            args.sample,
            args.json,
            args.bot,
        )
    except RoundTooLong as exc:
        print(printable(f"schwimmen simulate: error: {exc.named(ruleset.id)}"), file=sys.stderr)
        return 1
    print_simulation(_console(), data, "json" if args.json else "text")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from schwimmen.cli.lang import chosen, words
    from schwimmen.cli.play_command import play
    from schwimmen.cli.spec_commands import ruleset_texts

    catalog = _catalog()
    try:
        ruleset = catalog.resolve(args.ruleset)
    except SpecErrors as exc:
        return _report_spec_errors(exc)
    problem = _table_error(ruleset, args.players, args.seat)
    if problem:
        return _usage_error(args, problem)
    w = words(chosen(args))
    title = ruleset_texts(catalog, ruleset, w).title
    return play(
        ruleset, args.players, args.seat - 1, args.seed, args.bot, _console(), w=w, title=title
    )


def _cmd_conformance(args: argparse.Namespace) -> int:
    from schwimmen.cli.conformance_command import run

    return run(args, _console())


def _cmd_fuzz(args: argparse.Namespace) -> int:
    from schwimmen.cli.fuzz_command import run

    return run(args)


def _cmd_serve(args: argparse.Namespace) -> int:
    """A suspected composition is played as the loader admits it, and its warning goes to
    stderr in ``validate``'s and ``show``'s words: stdout is the protocol's."""
    from schwimmen.cli.spec_commands import warning_lines
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
    for line in warning_lines(played.warnings):
        print(line, file=sys.stderr)
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


def _lang_option(parser: argparse.ArgumentParser) -> None:
    from schwimmen.cli.lang import add_option

    add_option(parser)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or (``command``) every command with only that one's options:
    the options of ``score``, ``conformance``, ``fuzz`` and ``fingerprint`` are declared
    beside their code, which a command that does not run them need not import."""

    def full(name: str) -> bool:
        return command is None or command == name

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
    _lang_option(p)
    p.set_defaults(func=_cmd_show)
    p = sub.add_parser("diff", help="show only the rules in which two rulesets differ")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    _format_option(p)
    _lang_option(p)
    p.set_defaults(func=_cmd_diff)
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
    if full("score"):
        from schwimmen.cli.score_command import add_arguments as add_score_arguments

        add_score_arguments(p)
    p.set_defaults(func=_cmd_score)
    p = sub.add_parser("validate", help="check ruleset and house-rule files")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    p.add_argument("--no-quotes", action="store_true", help=NO_QUOTES_HELP)
    p.add_argument(
        "--strict",
        action="store_true",
        help="fail on a warning too (a composition the search over small positions saw no "
        "round of end, without a proof that none can)",
    )
    p.set_defaults(func=_cmd_validate)
    p = sub.add_parser(
        "simulate",
        help="play many bot matches and print how they go",
        description="Bots play many matches: random bots (knock with probability 0.1, "
        "otherwise a random legal action) on the fastest engine that plays the ruleset, or "
        "greedy bots that play as people do on the full engine. The same seed gives the "
        "same figures for any number of jobs.",
    )
    p.add_argument("ruleset", metavar="RULESET[+HOUSE...]")
    p.add_argument("--players", type=int, default=4, help="players at the table (default 4)")
    p.add_argument(
        "--matches", type=argtypes.at_least(1), default=1000, help="matches to play (default 1000)"
    )
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument(
        "--bot",
        choices=["auto", "greedy", "random"],
        default="auto",
        metavar="BOT",
        help="who plays: random, greedy (keeps the best hand, knocks on a good one), or auto "
        "(default: random, greedy where a knock needs a 31)",
    )
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
    _lang_option(p)
    p.set_defaults(func=_cmd_play)
    p = sub.add_parser(
        "conformance",
        help="run the conformance suite against the reference or any implementation",
        description="Runs every fixture under every ruleset (and house rule) it applies to. "
        "Exit status 1 when any case fails or errors.",
    )
    if full("conformance"):
        from schwimmen.cli.conformance_command import add_arguments

        add_arguments(p)
    p.set_defaults(func=_cmd_conformance)

    p = sub.add_parser(
        "fuzz",
        help="differential fuzzing: find, shrink and write where an implementation differs",
        description="Plays seeded random cases (and actions the reference refuses) under "
        "RULESET on the implementation and on the reference; each difference is shrunk to "
        "a small case and written as a fixture that the reference passes and the "
        "implementation fails. Exit status 1 when differences were found, 0 when none was "
        "(which is no proof of conformance).",
    )
    if full("fuzz"):
        from schwimmen.cli.fuzz_command import add_arguments as add_fuzz_arguments

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
    p = sub.add_parser(
        "fingerprint",
        help="which ruleset an implementation plays, and which parameters it changes",
        description="Runs the suite against the implementation under every candidate base "
        "and explains the failures by parameters, not by pass rate: the closest ruleset and "
        "the fewest parameter values that, changed, make the suite's expectations agree with "
        "the implementation. Exit status 1 when too little was judged to tell.",
    )
    if full("fingerprint"):
        from schwimmen.cli.fingerprint_command import add_arguments as add_fingerprint_arguments

        add_fingerprint_arguments(p)
    p.set_defaults(func=_cmd_fingerprint)
    return parser


def _command_in(argv: Sequence[str]) -> str | None:
    """The command word: the first argument that is no option (the options before it,
    ``--help`` and ``--version``, take no value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_command_in(argv) or "")  # no command: only the list of commands
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
