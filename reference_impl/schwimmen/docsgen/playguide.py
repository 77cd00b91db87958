"""The generated parts of the guide "Play and simulate" (its prose is
``docs/guides/play-and-simulate.md``).

The game shown is a real game of the terminal front end
(``schwimmen.cli.play_command.play``) with scripted answers, and the simulator's table is
the real output of ``schwimmen simulate`` for one ruleset, both made while the site builds.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from rich.console import Console
from rich.text import Text

from schwimmen.docsgen.markup import (
    code,
)
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


def guide_parts(
    transcript: str | None, simulated: tuple[str, str] | None, game: str
) -> dict[str, str]:
    """The generated parts of ``docs/guides/play-and-simulate.md``: the sample game (played
    in ``game``) and the simulator's output; left out when they were not made."""
    parts: dict[str, str] = {}
    if transcript:
        parts["play-guide-command"] = code(f"schwimmen play {game} --seed {GAME_SEED}")
        parts["play-guide-answers"] = ", ".join(code(a) for a in GAME_ANSWERS)
        parts["play-guide-transcript"] = f"```text\n{transcript}\n```"
    if simulated:
        command, output = simulated
        parts["play-guide-simulation"] = f"```text\n$ {command}\n{output}\n```"
    return parts
