"""The generated parts of the guide "Play and simulate" (its prose is
``docs/guides/play-and-simulate.md``).

The game shown is a real game of the terminal front end with scripted answers, and the
simulator's table is the real output of ``schwimmen simulate`` for one ruleset, both made
while the site builds. The hook runs the command line for them (``docs/hooks.py``: the
site's generator does not import the command line); here they are put on the page.
"""

from __future__ import annotations

from dataclasses import dataclass

from schwimmen.docsgen.markup import code

# The sample game is played in the ruleset of the guide's example house rule.
GAME_SEED = 3
GAME_ANSWERS = ("pass", "2k")
SIMULATE_MATCHES = 300
SIMULATE_SEED = 1
SIMULATE_SAMPLE = 300


@dataclass(frozen=True)
class PlayedExamples:
    """What the command line printed: the first round of ``schwimmen play`` (cut after
    the round's result) and ``schwimmen simulate``'s command and table."""

    transcript: str
    simulate_command: str
    simulated: str


def transcript_of(lines: list[str]) -> str:
    """A game's output cut after the round's result (the line naming the next dealer)."""
    for i, line in enumerate(lines):
        if line.startswith("Next dealer"):
            lines = lines[: i + 1]
            break
    return "\n".join(line.rstrip() for line in lines)


def simulate_command(ruleset: str) -> str:
    return (
        f"schwimmen simulate {ruleset} --matches {SIMULATE_MATCHES} --seed {SIMULATE_SEED} "
        f"--sample {SIMULATE_SAMPLE}"
    )


def guide_parts(played: PlayedExamples | None, game: str) -> dict[str, str]:
    """The generated parts of ``docs/guides/play-and-simulate.md``: the sample game (played
    in ``game``) and the simulator's output; left out when they were not made."""
    if played is None:
        return {}
    return {
        "play-guide-command": code(f"schwimmen play {game} --seed {GAME_SEED}"),
        "play-guide-answers": ", ".join(code(a) for a in GAME_ANSWERS),
        "play-guide-transcript": f"```text\n{played.transcript}\n```",
        "play-guide-simulation": (f"```text\n$ {played.simulate_command}\n{played.simulated}\n```"),
    }
