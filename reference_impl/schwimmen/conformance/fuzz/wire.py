"""The fuzzer's cases and answers as the protocol carries them, each written with as little
work per case as the bytes allow.

Every case of a run names the same ruleset, whose parameters are about half of a
request's bytes: their JSON is written once per run and set into each request in place
of a marker (the same request, byte for byte, as writing the whole case each time).

The reference's own answer to a case is known before the implementation gives its own:
written the way ``schwimmen serve`` writes an answer (PROTOCOL.md: one compact JSON
object per line), it is the line an implementation that agrees and writes alike sends
back. A reply equal to it byte for byte needs no parse and no comparison field by field
(:class:`~schwimmen.conformance.process.Expected`); any other reply is read and compared
as always, so an implementation that writes its JSON otherwise loses only this shortcut.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from schwimmen.conformance.fixtures import parameter_values
from schwimmen.conformance.process import Expected
from schwimmen.spec.model import Ruleset

_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False)
"""Compact strict JSON, as the harness writes a request and ``serve`` an answer. A case
and an outcome are trees made here (no value holds itself), so the encoder keeps no
record of the containers it is inside (a fifth of its work); a value that did hold
itself would end in a RecursionError instead of a ValueError."""
_MARK = "\0ruleset"
"""Stands in for the ruleset while a case is written: no case holds a NUL character."""
_MARK_TEXT = _ENCODER.encode(_MARK)


class Wire:
    """Requests and expected answers for cases that name ``ruleset`` as
    :func:`~schwimmen.conformance.fuzz.cases.to_case` names it."""

    def __init__(self, ruleset: Ruleset) -> None:
        self._id = ruleset.id
        self._parameters = parameter_values(ruleset)
        entry = {"id": ruleset.id, "parameters": self._parameters}
        self._entry_text = _ENCODER.encode(entry)

    def request(self, case: Mapping[str, Any]) -> str:
        """``case`` as compact JSON; its ruleset, when it is this run's, written once."""
        entry = case.get("ruleset")
        if (
            type(entry) is dict
            and len(entry) == 2
            and entry.get("parameters") is self._parameters
            and entry.get("id") == self._id
        ):
            text = _ENCODER.encode({**case, "ruleset": _MARK})
            return text.replace(_MARK_TEXT, self._entry_text, 1)
        return _ENCODER.encode(case)

    @staticmethod
    def expected(seq: int, outcome: Mapping[str, Any]) -> Expected | None:
        """The answer line to request ``seq`` that carries ``outcome``, as ``serve``
        writes it; None when the outcome cannot be written as strict JSON."""
        try:
            text = _ENCODER.encode(outcome)
        except (TypeError, ValueError, RecursionError):
            return None
        line = f'{{"seq":{seq},"status":"ok","outcome":{text}}}\n'.encode()
        return Expected(line, {"seq": seq, "status": "ok", "outcome": outcome})
