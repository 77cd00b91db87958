"""The console every command prints through: nothing a spec file says can drive the terminal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.protocol import rich_cast
from rich.segment import Segment
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
