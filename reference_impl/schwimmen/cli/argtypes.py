"""Argument types shared by the commands (``conformance``, ``fingerprint``, ``fuzz``,
``simulate``, ``play``).

A bad value must be one line naming what was wrong, and exit 2 like every other usage
error (argparse does both for an ``ArgumentTypeError``), never a traceback; so every
option that takes a number, a folder or a command line is parsed by one of these.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

MAX_SECONDS = 86400.0  # a day: any longer budget or timeout is a typo


def at_least(low: int) -> Callable[[str], int]:
    """A whole number of at least ``low``: a count, a seat, a seed."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return parse


positive_int = at_least(1)  # processes, failures to stop after, differences to find
seed = at_least(0)  # a random seed: any whole number from 0


def seconds(text: str) -> float:
    """A time limit: more than nothing, at most a day, and never NaN or infinity."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most {MAX_SECONDS:g} seconds, not {text}"
        )
    return value


def folder(text: str) -> Path:
    """A folder that exists (of fixtures to run, say)."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a folder: {text}")
    return path


def command(text: str) -> str:
    """The implementation's command line, split as the harness will split it."""
    from schwimmen.conformance.process import command_argv

    try:
        command_argv(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text
