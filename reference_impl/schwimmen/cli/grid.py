"""A borderless table of plain texts, laid out exactly as rich lays out its ``Table`` (no box,
no edge padding, one space of padding each side between columns, a bold header), at a
fraction of the cost.

``schwimmen score`` with ten hands prints 45 rows of 12 cells; rich measures every cell
twice when the table must shrink to the terminal and renders each through four layers of
renderables, about a third of the command's time. Here rich still decides the column
widths (its own algorithm, fed one precomputed measurement per column) and still wraps
each cell (``Text.wrap``, the call its table makes), but the cells are assembled into lines
directly. The result is the same characters in the same styles; where a column is too
narrow to hold a character (a terminal a few columns wide), or rich no longer offers what
this relies on, the table is handed to rich whole (:func:`fallback`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from schwimmen.cli.console import print_table, whole
from schwimmen.spec.printable import printable

HEADER_STYLE = "bold"
_PADDING = 1  # spaces between a column's text and its neighbour's (rich's (0, 1))


@dataclass(frozen=True)
class Column:
    """A column: its header, the style of its body cells, and whether it may wrap."""

    header: str
    style: str = ""
    no_wrap: bool = False


def fallback(columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> Table:
    """The same table as a rich ``Table``: what :func:`lines` lays out, cell by cell."""
    table = Table(box=None, pad_edge=False, show_header=True, header_style=HEADER_STYLE)
    for column in columns:
        table.add_column(Text(printable(column.header)), style=column.style, no_wrap=column.no_wrap)
    for row in rows:
        table.add_row(*(Text(printable(cell)) for cell in row))
    return table


class _Measured:
    """A column's measurement standing in for its cells: rich measures a column as the
    widest of its cells' minimum and maximum widths, so one stand-in with both gives the
    column rich's own width, in whatever room it is offered."""

    def __init__(self, texts: Sequence[str]) -> None:
        lines = [line for text in texts for line in text.splitlines()]
        self.widest = max((cell_len(line) for line in lines), default=0)
        words = [word for text in texts for word in text.split()]
        self.longest_word = max((cell_len(word) for word in words), default=self.widest)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.longest_word, self.widest)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        raise NotImplementedError("only measured")  # pragma: no cover


def _widths(
    console: Console, columns: Sequence[Sequence[str]], no_wrap: Sequence[bool]
) -> list[int]:
    """Each column's width with its padding, by rich's ``Table`` itself."""
    table = Table(box=None, pad_edge=False, show_header=False)
    for flag in no_wrap:
        table.add_column(no_wrap=flag)
    table.add_row(*(_Measured(texts) for texts in columns))
    calculate = table._calculate_column_widths  # rich's own layout, not public
    return list(calculate(console, console.options.update_width(console.width)))


def lines(
    console: Console, columns: Sequence[Column], rows: Sequence[Sequence[str]]
) -> Text | None:
    """The table as one text of lines, as rich would print it on ``console`` (the same
    characters, each in the same style), or None where :func:`fallback` must print it."""
    header = [printable(c.header) for c in columns]
    body = [[printable(cell) for cell in row] for row in rows]
    texts = [[header[i], *(row[i] for row in body)] for i in range(len(columns))]
    try:
        widths = _widths(console, texts, [c.no_wrap for c in columns])
    except AttributeError:  # a rich without the method: it lays the table out itself
        return None
    last = len(columns) - 1
    pads = [(0 if i == 0 else _PADDING, 0 if i == last else _PADDING) for i in range(len(columns))]
    if any(width - left - right < 1 for width, (left, right) in zip(widths, pads, strict=True)):
        return None
    shown: list[Text] = []
    for index, row in enumerate([header, *body]):
        blocks = [
            _wrapped(console, text, width, pad, column.no_wrap)
            for text, width, pad, column in zip(row, widths, pads, columns, strict=True)
        ]
        height = max(len(block) for block in blocks)
        for block, width in zip(blocks, widths, strict=True):
            at = 0 if index == 0 else len(block)  # a header sits low, a cell high
            block[at:at] = [" " * width] * (height - len(block))
        styles = [HEADER_STYLE if index == 0 else column.style for column in columns]
        for line_no in range(height):
            line = Text()
            for block, style in zip(blocks, styles, strict=True):
                line.append(block[line_no], style=style or None)
            shown.append(line)
    return Text("\n").join(shown)


def _wrapped(
    console: Console, text: str, width: int, pad: tuple[int, int], no_wrap: bool
) -> list[str]:
    """A cell's lines, padded to the column's ``width``: a text that fits as it is, any
    other wrapped (or cut with an ellipsis) by rich, as its table wraps a cell."""
    left, right = pad
    room = width - left - right
    size = cell_len(text)
    if size <= room and "\n" not in text and "\t" not in text:
        parts = [text + " " * (room - size)]  # what wrapping a text that fits gives
    else:
        wrapped = Text(text).wrap(
            console,
            room,
            justify="left",
            overflow="ellipsis",
            tab_size=console.tab_size,
            no_wrap=no_wrap,
        )
        parts = [line.plain for line in wrapped]
    return [" " * left + part + " " * right for part in parts]


def print_grid(console: Console, columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> None:
    """Print the table whole (see :func:`schwimmen.cli.console.print_table`)."""
    with whole(console):
        text = lines(console, columns, rows)
        if text is not None:
            Console.print(console, text, no_wrap=True, overflow="ignore")
            return
    print_table(console, fallback(columns, rows))
