"""Text from a file made safe to print on a terminal.

Titles, notes, quotes, ids and file names come from YAML files that players write and
share. A control character in them (``ESC [2J`` clears the screen, ``ESC ] 0;...`` retitles
the window, a C1 ``CSI`` does the same in one byte) would be obeyed by the terminal
instead of being shown. Every command prints such text through :func:`printable`: the
console of the CLI for rich output, :class:`~schwimmen.spec.errors.SpecError` for the
one-line error messages.

The escape is written as JSON writes it (``\\u001b``), so text and ``--format json``
output show a character the same way, and a JSON document passed through stays valid
JSON that decodes to the same data.
"""

from __future__ import annotations

import re

# C0 without tab and newline, DEL, C1.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def printable(text: str) -> str:
    """``text`` with every control character but newline and tab shown as ``\\u00XX``."""
    return _CONTROL.sub(_escape, text)
