"""The console every command prints through: nothing a spec file says can drive the terminal."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.protocol import rich_cast
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from schwimmen.spec.printable import printable


class PrintableConsole(Console):
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


def printable_console() -> Console:
    return PrintableConsole(highlight=False, soft_wrap=False)


WIDEST = 1000  # columns: wider than any table the commands print


def print_table(console: Console, table: Table) -> None:
    """Print ``table`` whole where the output is no terminal (a pipe, a file): as wide as
    it needs instead of the 80 columns a terminal without a size gets, so no ruleset id is
    cut to ``pagat+…`` for a script or a log. ``COLUMNS`` still sets the width."""
    if not console.is_terminal and "COLUMNS" not in os.environ and not table.expand:
        console.width = max(console.width, WIDEST)  # the table takes only what it needs
    console.print(table)
