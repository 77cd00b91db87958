"""Argument types shared by the commands (``conformance``, ``fingerprint``, ``fuzz``,
``simulate``, ``play``).

A bad value must be one line naming what was wrong, and exit 2 like every other usage
error (argparse does both for an ``ArgumentTypeError``), never a traceback; so every
option that takes a number, a folder or a command line is parsed by one of these.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

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


def setting(text: str) -> tuple[str, Any]:
    """``PARAMETER=VALUE`` with the value read as a spec file's YAML is read, within the
    same limits (size, nesting depth, alias expansion, 64-bit numbers, no NaN or infinity):
    a value given on the command line is no more trusted than one in a file."""
    from schwimmen.spec.yamlread import YamlError, read_text  # only where --set is given

    path, sep, raw = text.partition("=")
    path = path.strip()
    if not sep or not path:
        raise argparse.ArgumentTypeError(f"{text[:60]!r}: write PARAMETER=VALUE")
    if not raw.strip():
        raise argparse.ArgumentTypeError(f"{path}: no value after '='")
    try:
        value = read_text(f"--set {path}", raw).data
    except YamlError as exc:
        problem = exc.error.message.replace("the document", "the value").replace("file ", "")
        raise argparse.ArgumentTypeError(f"{path}: {problem}") from None
    return path, value


class SetOnce(argparse.Action):
    """Collects ``--set P=V`` into a mapping; a parameter set twice is a usage error (the
    last one silently winning would test another engine than the one asked for)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        path, value = values if isinstance(values, tuple) else setting(str(values))
        changes = dict(getattr(namespace, self.dest, None) or {})
        if path in changes:
            parser.error(
                f"argument {option_string}: {path} is set twice "
                f"({json.dumps(changes[path])} and {json.dumps(value)}); set it once"
            )
        changes[path] = value
        setattr(namespace, self.dest, changes)
