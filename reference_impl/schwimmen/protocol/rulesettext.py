"""A request's ruleset read once per distinct text: the server's requests in a run mostly
name the same ruleset, whose parameters are about half of each line's bytes.

A run request carries its ruleset as ``"ruleset":{...}`` (PROTOCOL.md, the case). A text
read before is found at that place by comparing the bytes, and stands in the line as a
placeholder while the rest is read; the value read the first time is then put back in the
placeholder's place. The request so read equals the one read whole: the placeholder is
the string ``"\\u0000"``, used only where the line holds no ``\\u0000`` of its own (a
control character can reach a JSON string only written so), and only when it comes back
exactly as the case's ``ruleset``; any other line, and any line that is no good JSON, is
read whole as before, so that an error names the places in the line as sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

KEY = '"ruleset":{'
"""How a case's ruleset begins in a request line, as the harness writes it."""
PLACEHOLDER = '"\\u0000"'
_STANDS_IN = "\0"
KEPT = 8
"""Distinct ruleset texts kept: a fuzzing run has one, a conformance run a few at a time."""

Decode = Callable[[str], Any]


class RulesetTexts:
    """The ruleset texts read so far (the most recent first) and the values read from them.

    The values are shared by every request that names the same text: the server only
    reads them (``run_case`` takes a case's parameters as they are)."""

    def __init__(self, decoder: json.JSONDecoder) -> None:
        self.decoder = decoder
        self.kept: list[tuple[str, Any]] = []

    def read(self, line: str) -> Any:
        """``line`` read as JSON with the decoder: what ``decoder.decode(line)`` gives."""
        at = line.find(KEY)
        if at < 0 or "\\u0000" in line:
            return self.decoder.decode(line)
        start = at + len(KEY) - 1
        found = self._known(line, start)
        if found is None:
            try:
                value, end = self.decoder.raw_decode(line, start)
            except ValueError:  # the whole line is read below, and the error told there
                return self.decoder.decode(line)
            found = (line[start:end], value)
            self.kept.insert(0, found)
            del self.kept[KEPT:]
        text, value = found
        try:
            message = self.decoder.decode(line[:start] + PLACEHOLDER + line[start + len(text) :])
        except ValueError:
            return self.decoder.decode(line)
        case = message.get("case") if type(message) is dict else None
        if type(case) is not dict or case.get("ruleset") != _STANDS_IN:
            return self.decoder.decode(line)
        case["ruleset"] = value
        return message

    def _known(self, line: str, start: int) -> tuple[str, Any] | None:
        kept = self.kept
        for i, found in enumerate(kept):
            if line.startswith(found[0], start):
                if i:
                    kept.insert(0, kept.pop(i))
                return found
        return None
