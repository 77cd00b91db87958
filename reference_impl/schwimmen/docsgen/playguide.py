"""The guide "Play and simulate": ``schwimmen play`` and ``schwimmen simulate``.

The options are the CLI parser's own; the game shown is a real game of the terminal
front end (``schwimmen.cli.play_command.play``) with scripted answers, and the simulator's
table is the real output of ``schwimmen simulate`` for one ruleset, both made while the
site builds.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator

from rich.console import Console
from rich.text import Text

from schwimmen.docsgen.markup import (
    CLI_REFERENCE,
    COMPARISON,
    GUIDE_PLAY,
    HOUSE_RULES_INDEX,
    STATISTICS,
    code,
    link,
    table,
)
from schwimmen.docsgen.reference import subcommand
from schwimmen.docsgen.testguide import options_rows
from schwimmen.spec.model import Ruleset

# The sample game is played in the ruleset of the guide's example house rule.
GAME_SEED = 3
GAME_ANSWERS = ("pass", "2k")
SIMULATE_MATCHES = 300
SIMULATE_SEED = 1
SIMULATE_SAMPLE = 300


def play_transcript(ruleset: Ruleset, seed: int = GAME_SEED) -> str:
    """The first round of a real game, the human answering ``GAME_ANSWERS`` and then
    quitting; the output is cut after the round's result."""
    from schwimmen.cli.play_command import play

    buffer = io.StringIO()
    console = Console(file=buffer, width=78, color_system=None, force_terminal=False)
    answers: Iterator[str] = iter(GAME_ANSWERS)

    def read(prompt: str) -> str:
        answer = next(answers, "quit")
        console.print(Text(prompt + answer))
        return answer

    play(ruleset, 4, 0, seed, "greedy", console, read)
    lines = buffer.getvalue().rstrip().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Next dealer"):
            lines = lines[: i + 1]
            break
    return "\n".join(line.rstrip() for line in lines)


def simulate_output(ruleset: Ruleset) -> tuple[str, str]:
    """The command and the table ``schwimmen simulate`` prints for it."""
    from schwimmen.cli.simulate_command import print_simulation, run_simulation

    data = run_simulation(
        ruleset, 4, SIMULATE_MATCHES, SIMULATE_SEED, 1, SIMULATE_SAMPLE, quiet=True
    )
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None, force_terminal=False)
    print_simulation(console, data, "text")
    command = (
        f"schwimmen simulate {ruleset.id} --matches {SIMULATE_MATCHES} --seed {SIMULATE_SEED} "
        f"--sample {SIMULATE_SAMPLE}"
    )
    return command, buffer.getvalue().rstrip()


def _options(parser: argparse.ArgumentParser | None, notes: dict[str, str]) -> str:
    if parser is None:
        return ""
    return options_rows(parser, list(notes.items()))


PLAY_NOTES = {
    "RULESET[+HOUSE...]": "The ruleset to play, with any house rules on top: `pagat`, "
    "`rules-page+knocker-loses-two+pass-once-per-round`.",
    "--players": "Players at the table, you included; the ruleset must allow the number.",
    "--seat": "Where you sit: 1 is left of the first dealer and moves first.",
    "--seed": "The same seed deals the same cards and makes the bots play the same way, so a "
    "game can be replayed (or shown to a friend).",
    "--bot": "`greedy` opponents swap towards their best hand and knock on a good one; "
    "`random` opponents play any legal move.",
}
SIMULATE_NOTES = {
    "RULESET[+HOUSE...]": "The ruleset to simulate, with any house rules on top.",
    "--players": "Players at the table (the ruleset must allow the number).",
    "--matches": "Matches to play; each match runs until one player is left.",
    "--seed": "The seed. Match number *i* draws from its own generator seeded by the seed "
    "and *i*, so the figures are the same for any number of jobs.",
    "--jobs": "Worker processes; by default every core. `--jobs 1` and `--jobs 8` print the "
    "same numbers.",
    "--sample": "Showdowns to play with the full engine for the mean hand values (the fast "
    "simulation reports only who loses); 0 skips them.",
    "--json": "Print every figure as JSON, for tools.",
}


def play_guide_markdown(
    parser: argparse.ArgumentParser,
    transcript: str | None,
    simulated: tuple[str, str] | None,
    game: str = "",
) -> str:
    """The guide; ``game`` is the ruleset the sample game and simulation were played in."""
    here = GUIDE_PLAY
    out = [
        "# Play and simulate",
        "",
        "The reference engine plays every ruleset and every combination of house rules. Play "
        "a match against bots in your terminal to get a feel for a ruleset, or let bots play "
        "thousands of matches to see what a rule does to the game.",
        "",
        "## Play against bots {#play}",
        "",
        "```sh",
        "schwimmen play RULESET[+HOUSE...]",
        "schwimmen play pagat",
        "schwimmen play rules-page+knocker-loses-two --players 3 --seed 7",
        "```",
        "",
        _options(subcommand(parser, "play"), PLAY_NOTES),
        "",
        "After every move of yours the table is drawn: the middle (or the discard pile), "
        "your hand and what it is worth, everybody's lives, who has knocked. The bots' moves "
        "are told as they happen. Your legal moves are listed with numbers. Type:",
        "",
        "- **the number** of a move: `3`;",
        "- **the number and k** to knock right after that move, where the ruleset lets you "
        "close after a move: `3k`;",
        "- **the move's text**, as shown in brackets: `swap QC 10H`, `pass`, `knock`, "
        "`swap QC 10H knock`, `swap-all` (cards are rank then suit: `QC` queen of clubs "
        "(Kreuz), `10H` ten of hearts (Herz), `AS` ace of spades (Pik), `7D` seven of "
        "diamonds (Karo));",
        "- `help` to see this again, `quit` to leave.",
        "",
        "A move the rules forbid is refused with the reason and you are asked again. At the "
        "end of a round every hand is shown with its value, who loses and why.",
        "",
    ]
    if transcript:
        out += [
            f"The first round of {code(f'schwimmen play {game} --seed {GAME_SEED}')}, "
            f"answering {', '.join(code(a) for a in GAME_ANSWERS)} (played while this page was "
            "built):",
            "",
            "```text",
            transcript,
            "```",
            "",
        ]
    out += [
        f"Any house rule can be put on top: see the {link(here, HOUSE_RULES_INDEX, 'house rules')}"
        " and where each fits.",
        "",
        "## Simulate many matches {#simulate}",
        "",
        "```sh",
        "schwimmen simulate RULESET[+HOUSE...]",
        "schwimmen simulate pagat --matches 10000",
        "schwimmen simulate pagat+no-triples --players 5 --json",
        "```",
        "",
        "Random bots play the matches (each knocks with probability 0.1 whenever it may and "
        "otherwise plays a uniformly random legal move) on a compiled form of the rules that "
        "plays thousands of matches per second per core.",
        "",
        _options(subcommand(parser, "simulate"), SIMULATE_NOTES),
        "",
    ]
    if simulated:
        command, output = simulated
        out += [
            "```text",
            f"$ {command}",
            output,
            "```",
            "",
        ]
    out += [
        "What each figure means:",
        "",
        table(
            ["figure", "meaning"],
            [
                [
                    "rounds per match",
                    "rounds played until one player is left (or the last share the win): "
                    "mean, median and the longest match",
                ],
                [
                    "rounds ending by …",
                    "how the rounds ended: *knock* (the last cycle after a knock), *maximum* "
                    "(a 31, or 41, shown), *feuer*, *feuer-light*, *all-passed* (the middle "
                    "could not be replaced), *stock-exhausted*, *two-open* (Dutch closing), "
                    "*one-open* (Dutch closing where the last two play on)",
                ],
                [
                    "of them at the deal",
                    "the share of all rounds that ended that way at the deal, before anybody moved",
                ],
                [
                    "a 31 dealt, Feuer dealt",
                    "hands dealt with the maximum, or with Feuer, per round (all players together)",
                ],
                [
                    "replayed rounds",
                    "rounds replayed because they would have put out every player left",
                ],
                [
                    "lives lost by seat, wins by seat",
                    "over all matches; P1 sits left of the first dealer, so a seat advantage "
                    "shows here",
                ],
                [
                    "mean hand value at showdown, mean lowest hand",
                    "from a separate sample of showdowns (--sample) played with the full "
                    "engine: all hands shown, and the lowest (losing) one",
                ],
            ],
        ),
        "",
        "**Determinism.** The same command prints the same figures on any machine and for "
        "any number of jobs: match *i* is played with its own random generator, seeded by "
        f"{code('--seed')} and *i*, and the matches are merged in order. Change the seed to "
        "see how much a figure moves by chance.",
        "",
        f"The {link(here, STATISTICS, 'statistics')} page shows these figures for every "
        f"ruleset, drawn as charts; the {link(here, COMPARISON, 'comparison')} shows the rules "
        "that make the difference. Every option: "
        f"{link(here, CLI_REFERENCE + '#play', code('play'))} and "
        f"{link(here, CLI_REFERENCE + '#simulate', code('simulate'))} in the command-line "
        "reference.",
        "",
    ]
    return "\n".join(out)
