"""The console every command prints through: nothing a spec file says can drive the terminal."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.protocol import rich_cast
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from schwimmen.spec.printable import printable


class PrintableConsole(Console):
    """A console that shows control characters in what it prints as ``\\u001b``, and
    prints a table whole where the output is no terminal (see :func:`print_table`).

    Titles, quotes, notes and ids come from YAML files anyone can write; every command
    prints through this console, so no file can drive the terminal. Each text is made
    printable before it is laid out, so a table's columns still wrap it; such a text loses
    its inner styles, which only a hostile file ever costs. A report written by a library
    (the conformance suite's) prints its tables with ``print`` and is kept whole the same.
    """

    def print(self, *objects: Any, **kwargs: Any) -> None:
        tables = [o for o in objects if isinstance(o, Table)]
        if len(tables) != len(objects) or not tables:
            super().print(*objects, **kwargs)
            return
        with whole(self, tables):
            super().print(*objects, **kwargs)

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


def printable_console() -> Console:
    return PrintableConsole(highlight=False, soft_wrap=False)


WIDEST = 1000  # columns: wider than any table the commands print


def print_table(console: Console, table: Table) -> None:
    """Print ``table`` whole where the output is no terminal (a pipe, a file): as wide as
    it needs instead of the 80 columns a terminal without a size gets, so no ruleset id is
    cut to ``pagat+…`` for a script or a log. ``COLUMNS`` still sets the width."""
    with whole(console, [table]):
        Console.print(console, table)


@contextmanager
def whole(console: Console, tables: Sequence[Table] = ()) -> Iterator[None]:
    """While printing ``tables`` to no terminal, the console is wide enough for them (a
    table takes only the width it needs); then it is as it was, so that a panel or a
    line printed next still fits the width it had."""
    if console.is_terminal or "COLUMNS" in os.environ or any(t.expand for t in tables):
        yield
        return
    saved = console._width  # None: the console measures its width each time
    console.width = max(console.width, WIDEST)
    try:
        yield
    finally:
        console._width = saved
