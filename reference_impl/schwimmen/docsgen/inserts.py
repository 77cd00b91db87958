"""Generated parts placed into pages whose prose is written by hand in Markdown.

A page under ``docs/`` is Markdown a writer or translator edits without Python; where it
needs something only the spec can say (a table, a list of rulesets, an example run), it
holds a line of its own reading ``<!-- insert: NAME -->``. At build time the hook replaces
that line with the markdown generated under NAME, indented as the marker is (so a marker
may stand inside a list item, a definition or an admonition). An unknown NAME, or a
generated part no page asks for, stops the build with the file and the line, so a typo
never leaves a page silently without its table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

MARKER = re.compile(r"^[ \t]*<!--[ \t]*insert:[ \t]*([a-z0-9][a-z0-9-]*)[ \t]*-->[ \t]*$")

# A generated part: given the page's language ("en", "de", ...), its markdown.
Insert = Callable[[str], str]


@dataclass(frozen=True)
class InsertProblem:
    """A marker that cannot be filled, with where it stands."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"docs/{self.path}:{self.line}: {self.message}"


def markers(text: str) -> list[tuple[int, str]]:
    """The (line number, name) of every marker in a page, in order."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = MARKER.match(line)
        if match:
            found.append((number, match.group(1)))
    return found


def fill(
    text: str, inserts: Mapping[str, Insert], path: str, language: str = "en"
) -> tuple[str, list[InsertProblem]]:
    """``text`` with every marker replaced by its generated part, and the markers that
    name no generated part (left in place, so nothing is dropped unseen)."""
    problems: list[InsertProblem] = []
    out: list[str] = []
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        match = MARKER.match(line.rstrip("\r\n"))
        if match is None:
            out.append(line)
            continue
        name = match.group(1)
        make = inserts.get(name)
        if make is None:
            known = ", ".join(sorted(inserts)) or "none"
            problems.append(
                InsertProblem(path, number, f"no generated part named {name!r} (known: {known})")
            )
            out.append(line)
            continue
        pad = line[: len(line) - len(line.lstrip(" \t"))]
        out.append(_indented(make(language).rstrip("\n"), pad) + "\n")
    return "".join(out), problems


def _indented(part: str, pad: str) -> str:
    """``part`` with ``pad`` (the marker's indentation) before every line that has text."""
    return "\n".join(pad + line if line.strip() else "" for line in part.split("\n"))
