"""Argument types shared by the commands that drive an implementation (``conformance``,
``fingerprint``, ``fuzz``).

A bad value must be one line naming what was wrong, and exit 2 like every other usage
error (argparse does both for an ``ArgumentTypeError``), never a traceback; so every
option that takes a number, a folder or a command line is parsed by one of these.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from schwimmen.conformance.process import command_argv

MAX_SECONDS = 86400.0  # a day: any longer budget or timeout is a typo


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be {least} or more, not {value}")
    return value


def positive_int(text: str) -> int:
    """A count: processes, failures to stop after, differences to find."""
    return _whole(text, 1)


def seed(text: str) -> int:
    """A random seed: any whole number from 0."""
    return _whole(text, 0)


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
    try:
        command_argv(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text
