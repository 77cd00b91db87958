"""``schwimmen score`` lays its table out itself (:mod:`schwimmen.cli.grid`) for speed, and
must print exactly what rich's ``Table`` printed before: the same characters to a pipe or
a file, and the same characters in the same styles on a colour terminal, at any width,
for any hands, in either language. The reference here is the table the command built
before, cell for cell."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.markup import escape
from rich.style import Style
from rich.table import Table
from rich.text import Text

from schwimmen.cli import grid, lang
from schwimmen.cli.console import PrintableConsole, print_table
from schwimmen.cli.score_command import (
    NOT_A_HAND,
    _losers_text,
    parse_hands,
    print_text,
    value_text,
)
from schwimmen.engine.handscore import Score, ruleset_names, score
from schwimmen.protocol.cards import seat_name
from schwimmen.spec.loader import Catalog

PACK = [f"{r}{s}" for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]


def _rich_table(
    names: Sequence[str], results: Sequence[Score], hands: Sequence[Sequence[object]], w: lang.Words
) -> Table:
    """The table ``score`` printed through rich before it laid it out itself."""
    several = len(hands) > 1
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column(w.calc("ruleset", "ruleset"), style="cyan", no_wrap=True)
    for i, hand in enumerate(hands):
        cards = " ".join(lang.pretty(c, w.language) for c in hand)  # type: ignore[arg-type]
        table.add_column(f"{seat_name(i)} {cards}" if several else cards)
    if several:
        table.add_column(w.calc("loses", "loses"))
    for name, result in zip(names, results, strict=True):
        cells = [
            w.calc("not-a-hand", NOT_A_HAND) if v is None else value_text(v, w)
            for v in result.values
        ]
        if several:
            cells.append(_losers_text(result, w))
        table.add_row(escape(name), *(escape(c) for c in cells))
    return table


def _console(width: int | None, colour: bool) -> PrintableConsole:
    console = PrintableConsole(
        highlight=False,
        soft_wrap=False,
        file=io.StringIO(),
        width=width,
        force_terminal=colour,
        color_system="truecolor" if colour else None,
    )
    return console


def _styled(output: str) -> list[tuple[str, Style]]:
    """Each character printed with the style it is shown in (however the escape codes
    group it)."""
    text = Text.from_ansi(output)
    styles = [Style()] * len(text.plain)
    for span in text.spans:
        style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
        for i in range(span.start, span.end):
            styles[i] = styles[i] + style
    return list(zip(text.plain, styles, strict=True))


def _printed(width: int | None, colour: bool, draw: object) -> str:
    console = _console(width, colour)
    if isinstance(draw, Table):
        print_table(console, draw)
    else:
        assert callable(draw)
        draw(console)
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


@st.composite
def _cases(draw: st.DrawFn) -> tuple[list[str], int | None, str, int]:
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    cards = rng.sample(PACK, 32)
    count = draw(st.integers(1, 10))
    sizes = [draw(st.sampled_from([3, 3, 3, 2, 4])) for _ in range(count)]
    words: list[str] = []
    for size in sizes:
        if len(cards) < size:
            break  # ten hands of four are more than a pack: no empty hand after a "/"
        if words:
            words.append("/")
        words += [cards.pop() for _ in range(size)]
    width = draw(st.one_of(st.none(), st.integers(1, 240)))
    language = draw(st.sampled_from(lang.LANGUAGES))
    return words, width, language, seed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=_cases(), colour=st.booleans())
def test_score_prints_what_richs_table_printed(
    catalog: Catalog, case: tuple[list[str], int | None, str, int], colour: bool
) -> None:
    words, width, language, seed = case
    hands = parse_hands([w for w in words if w])
    names = ruleset_names(catalog)
    names = random.Random(seed).sample(names, random.Random(seed + 1).randint(1, len(names)))
    results = [score(catalog.resolve(n).rules, hands) for n in names]
    w = lang.words(language)
    expected = _printed(width, colour, _rich_table(names, results, hands, w))
    got = _printed(width, colour, lambda c: print_text(c, names, results, hands, w))
    if colour:
        assert _styled(got) == _styled(expected)
    else:
        assert got == expected


@pytest.mark.parametrize("width", [None, 100, 80, 40, 12, 3])
def test_ten_hands_and_hostile_names_print_as_before(catalog: Catalog, width: int | None) -> None:
    """The benchmark's ten hands at the widths people have, and names a file could give:
    markup, a control character, wide characters, a word longer than any column."""
    hands = parse_hands(
        [
            "AC",
            "KC",
            "10C",
            "/",
            "7H",
            "8H",
            "9D",
            "/",
            "7S",
            "8S",
            "9S",
            "/",
            "JH",
            "QH",
            "KH",
            "/",
            "7C",
            "8C",
            "9C",
            "/",
            "JS",
            "QS",
            "KS",
            "/",
            "10S",
            "AS",
            "10H",
            "/",
            "AH",
            "10D",
            "JD",
            "/",
            "8D",
            "9H",
            "QC",
            "/",
            "JC",
            "QD",
            "KD",
        ]
    )
    names = [*ruleset_names(catalog), "[bold]x[/]", "a\x1b[2Jb", "漢字漢字+pagat", "x" * 70]
    rules = [catalog.resolve(n).rules for n in ruleset_names(catalog)]
    results = [score(r, hands) for r in rules] + [score(rules[0], hands)] * 4
    w = lang.words(lang.ENGLISH)
    for colour in (False, True):
        expected = _printed(width, colour, _rich_table(names, results, hands, w))
        got = _printed(width, colour, lambda c: print_text(c, names, results, hands, w))
        assert (_styled(got) == _styled(expected)) if colour else (got == expected)


def test_a_column_too_narrow_for_a_character_is_left_to_rich() -> None:
    console = _console(3, False)
    columns = [grid.Column("ruleset", "cyan", no_wrap=True), grid.Column("P1"), grid.Column("x")]
    assert grid.lines(console, columns, [["pagat", "31", "-"]]) is None
    assert grid.lines(_console(80, False), columns, [["pagat", "31", "-"]]) is not None
