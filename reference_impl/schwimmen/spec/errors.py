"""Located errors: every problem with a spec file points at a file, a line, a column and a
JSON path, so a person can jump straight to it (``file:line:col: $.path: message``).

An error quotes what it found (a file name, a title, a ``why`` text), so its one line is
passed through :func:`~schwimmen.spec.printable.printable` before anyone prints it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from schwimmen.spec.printable import printable

JsonPath = tuple[str | int, ...]


def format_path(path: Sequence[str | int]) -> str:
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("_", "").replace("-", "").isalnum() and not part[:1].isdigit():
            out += f".{part}"
        else:
            out += "[" + repr(part) + "]"
    return out


@dataclass(frozen=True, order=True)
class SpecError:
    file: str
    line: int
    col: int
    path: str
    message: str

    def __str__(self) -> str:
        return printable(f"{self.file}:{self.line}:{self.col}: {self.path}: {self.message}")


@dataclass(frozen=True, order=True)
class SpecWarning:
    """Something a composition makes doubtful, not wrong: it loads and plays, and the
    reader is told what is suspected and where (the file and line of the first parameter
    named; ``parameters`` are all the parameters the warning names)."""

    file: str
    line: int
    col: int
    path: str
    message: str
    parameters: tuple[str, ...] = ()

    def __str__(self) -> str:
        return printable(
            f"{self.file}:{self.line}:{self.col}: warning: {self.path}: {self.message}"
        )


@dataclass(frozen=True)
class Notice:
    """Something a reader should know that is not an error (a skipped check)."""

    message: str

    def __str__(self) -> str:
        return printable(f"note: {self.message}")


class SpecErrors(Exception):
    """Raised with every error found, sorted by file and position."""

    def __init__(self, errors: Iterable[SpecError]) -> None:
        self.errors: tuple[SpecError, ...] = tuple(sorted(set(errors)))
        super().__init__("\n".join(str(e) for e in self.errors))
