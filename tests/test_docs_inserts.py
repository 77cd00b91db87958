"""Hand-written pages get their generated parts where a marker line asks for them."""

from __future__ import annotations

from schwimmen.docsgen.inserts import fill, markers


def test_a_marker_line_is_replaced_in_the_page_language() -> None:
    page = "# Title\n\nIntro.\n\n<!-- insert: table -->\n\nAfter.\n"
    filled, problems = fill(page, {"table": lambda lang: f"| {lang} |\n"}, "x.md", "de")
    assert problems == []
    assert filled == "# Title\n\nIntro.\n\n| de |\n\nAfter.\n"


def test_an_unknown_marker_is_reported_with_file_and_line_and_kept() -> None:
    page = "a\n<!-- insert: tabel -->\n"
    filled, problems = fill(page, {"table": lambda lang: "T"}, "guide.md")
    assert filled == page
    assert [str(p) for p in problems] == [
        "docs/guide.md:2: no generated part named 'tabel' (known: table)"
    ]


def test_a_marker_inside_a_sentence_is_text() -> None:
    page = "See <!-- insert: table --> here.\n"
    assert markers(page) == []
    assert fill(page, {}, "x.md")[0] == page


def test_an_indented_marker_indents_its_part() -> None:
    page = "!!! info\n\n    <!-- insert: table -->\n"
    filled, problems = fill(page, {"table": lambda lang: "| a |\n\n| b |\n"}, "x.md")
    assert problems == []
    assert filled == "!!! info\n\n    | a |\n\n    | b |\n"
