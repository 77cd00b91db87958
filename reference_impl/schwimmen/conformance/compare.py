"""Matching an implementation's outcome against a case's expectations.

Matching is partial: only what a case states is checked, so a fixture about who loses
does not also pin the event wording. Within what is stated it is exact: ``losses`` lists
every seat that loses (an unmentioned seat must lose nothing), card lists keep their
order, and seat lists (swimming, eliminated, winners) are compared as sets. States
``after_step`` are matched like the state after the last step, against the outcome's
``states``; their ``round_over`` is read from the round records' ``after_step``.

A checked field the outcome leaves out is a failure ("not reported"): silence is never a
pass. The one exception is a field the implementation declared in its start answer as
one it does not report (``fields.py``); such a check is not judged, and the verdict
names the field.

A value of another JSON type than the expected one (a list where the case expects
``middle: null``, a number where it expects a seat) is an answer that differs: a
mismatch that says so ("expected null, got a list"). Only what is not the protocol's
shape at all, so that there is nothing to compare (``steps`` or ``rounds`` that are no
list, a round record or step result that is no object, ``legal`` that is no list of
texts), is ``BadReply``, which the runner turns into an errored case.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schwimmen.conformance.fields import covering
from schwimmen.conformance.latitude import suits_that_may_count

SET_KEYS = {"swimming", "eliminated", "winners"}
# Per seat, the lives a round costs: a seat left out lost none, so it must lose none.
LOSS_KEYS = {"losses", "lives_lost"}
SEAT = re.compile(r"^P[0-9]+$")
# The hand value of one seat: ``values.P2``, ``after_step.3.values.P2``, ``rounds[0].values.P2``.
HAND_VALUE = re.compile(r"(?:^|\.)values\.(P[0-9]+)$")


class BadReply(ValueError):
    """A field of the outcome has a JSON type the protocol does not allow there."""


class _Marker:
    def __init__(self, shown: str) -> None:
        self.shown = shown

    def __repr__(self) -> str:
        return f"<{self.shown}>"


NOT_REPORTED: Any = _Marker("not reported")
NOTHING: Any = _Marker("nothing")


@dataclass(frozen=True)
class Mismatch:
    path: str
    expected: Any
    actual: Any
    note: str = ""
    """Where the actual value is of another JSON type: "expected null, got a list"."""

    def __str__(self) -> str:
        note = f" ({self.note})" if self.note else ""
        return f"{self.path}: expected {show(self.expected)}, got {show(self.actual)}{note}"


def type_note(expected: Any, actual: Any) -> str:
    """ "expected null, got a list" when the two are of different JSON types, else ""."""
    if isinstance(expected, _Marker) or isinstance(actual, _Marker):
        return ""
    wanted, got = _kind(expected), _kind(actual)
    return "" if wanted == got else f"expected {wanted}, got {got}"


@dataclass
class Verdict:
    """Every difference found, how many checks were judged, and the declared fields
    whose checks were not judged."""

    mismatches: list[Mismatch] = field(default_factory=list)
    judged: int = 0
    unjudged: set[str] = field(default_factory=set)


def show(value: Any) -> str:
    """A value as the reports print it (JSON, or the words for a missing one)."""
    if isinstance(value, _Marker):
        return value.shown
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _bad(path: str, value: Any, wanted: str) -> BadReply:
    shown = show(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return BadReply(f"outcome {path} is {_kind(value)} ({shown}), the protocol wants {wanted}")


def _num_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b  # exact for ints and floats alike, never an overflow
    return bool(type(a) is type(b) and a == b)


class _Judge:
    def __init__(
        self,
        declared: frozenset[str],
        parameters: Mapping[str, Any] | None = None,
        hands: Mapping[str, Any] | None = None,
        excused: Mapping[tuple[str, ...], str] | None = None,
    ) -> None:
        self.declared = declared
        self.excused = excused or {}
        self.verdict = Verdict()
        self.parameters = parameters
        # The hands the values being compared belong to, innermost container last; in each,
        # the answer's own hands, the position's, the case's expected hands (the last wins).
        self.hands: list[tuple[Any, ...]] = [(hands,)]

    def open_suit(self, path: str, expected: Any, actual: Any) -> bool:
        """Whether ``actual`` is as right as the expected suit: both among the suits no rule
        decides between for this seat's hand (latitude.py; PROTOCOL.md, what may vary)."""
        if self.parameters is None or not isinstance(actual, str) or actual == expected:
            return False
        seat = HAND_VALUE.search(path)
        if seat is None:
            return False
        for source in reversed(self.hands[-1]):
            cards = source.get(seat.group(1)) if isinstance(source, Mapping) else None
            if isinstance(cards, list):
                allowed = suits_that_may_count(cards, self.parameters)
                return expected in allowed and actual in allowed
        return False

    # ------------------------------------------------------------------ leaves
    def missing(self, path: str, generic: tuple[str, ...], expected: Any) -> None:
        """A checked field that is not there: skipped if declared, otherwise a failure."""
        name = covering(generic, self.declared)
        if name is None:
            name = next((n for p, n in self.excused.items() if generic[: len(p)] == p), None)
        if name is not None:
            self.verdict.unjudged.add(name)
            return
        self.differs(path, expected, NOT_REPORTED)

    def differs(self, path: str, expected: Any, actual: Any, typed: bool = False) -> None:
        """A difference; ``typed`` when the two are compared as values of the same
        field, so that a difference in JSON type is named."""
        self.verdict.judged += 1
        note = type_note(expected, actual) if typed else ""
        self.verdict.mismatches.append(Mismatch(path, expected, actual, note))

    def agrees(self) -> None:
        self.verdict.judged += 1

    # ------------------------------------------------------------------ values
    def match(
        self, expected: Any, actual: Any, path: str, generic: tuple[str, ...], key: str = ""
    ) -> None:
        if actual is NOT_REPORTED:
            self.missing(path, generic, expected)
            return
        if actual is NOTHING:
            self.differs(path, expected, actual)
            return
        if isinstance(expected, Mapping):
            self._mapping(expected, actual, path, generic, key)
        elif isinstance(expected, list):
            self._list(expected, actual, path, key)
        elif _num_equal(expected, actual):
            self.agrees()
        else:
            self.differs(path, expected, actual, typed=True)

    def _mapping(
        self,
        expected: Mapping[str, Any],
        actual: Any,
        path: str,
        generic: tuple[str, ...],
        key: str,
    ) -> None:
        if not isinstance(actual, Mapping):
            self.differs(path, expected, actual, typed=True)
            return
        losses = key in LOSS_KEYS
        if losses:
            extra = {k: v for k, v in actual.items() if k not in expected and v}
            if extra:
                self.differs(path, dict(expected), dict(actual))
                return
        if not expected or losses:
            self.agrees()  # "nobody else loses" (or: nothing in here) is a check too
        # A seat that loses nothing may be left out of losses (PROTOCOL.md).
        absent = 0 if losses else NOT_REPORTED
        record = "values" in expected and key != "values"
        if record:  # a round record: its values are of its own hands
            self.hands.append((actual.get("hands"), expected.get("hands")))
        for k, v in expected.items():
            sub = generic if SEAT.match(k) else (*generic, k)
            got = actual.get(k, absent)
            if k == "suit" and self.open_suit(path, v, got):
                self.agrees()
                continue
            self.match(v, got, f"{path}.{k}", sub, k)
        if record:
            self.hands.pop()

    def _list(self, expected: list[Any], actual: Any, path: str, key: str) -> None:
        if not isinstance(actual, list):
            self.differs(path, expected, actual, typed=True)
            return
        if key in SET_KEYS:
            seats = all(isinstance(a, str) for a in actual)
            same = seats and sorted(map(str, expected)) == sorted(actual)
        else:
            same = len(expected) == len(actual) and all(
                _num_equal(e, a) for e, a in zip(expected, actual, strict=False)
            )
        if same:
            self.agrees()
        else:
            self.differs(path, expected, actual)

    # ------------------------------------------------------------------ outcome
    def outcome(
        self, expect: Mapping[str, Any], outcome: Mapping[str, Any], steps: int, prefix: str = ""
    ) -> None:
        root = ("states",) if prefix else ()
        position = () if prefix else self.hands[0]  # a state after a step has other hands
        self.hands.append((outcome.get("hands"), *position, expect.get("hands")))
        try:
            self._outcome(expect, outcome, steps, prefix, root)
        finally:
            self.hands.pop()

    def _outcome(
        self,
        expect: Mapping[str, Any],
        outcome: Mapping[str, Any],
        steps: int,
        prefix: str,
        root: tuple[str, ...],
    ) -> None:
        if steps:
            stated = dict(expect.get("steps", {}))
            self.steps(
                {str(i): stated.get(str(i), "accepted") for i in range(1, steps + 1)}, outcome
            )
        for key, expected in expect.items():
            path = f"{prefix}{key}"
            if key == "after_step":
                self.after_step(expected, outcome)
            elif key == "steps":
                if not steps:
                    self.steps(expected, outcome)
            elif key in ("end", "rounds", "round_over"):
                self.rounds(key, expected, outcome.get("rounds", NOT_REPORTED), path, root)
            elif key in ("legal_includes", "legal_excludes"):
                self.legal(key, expected, outcome.get("legal", NOT_REPORTED), path, root)
            elif key == "losses" and "losses" not in outcome and _ended(outcome):
                first = outcome["rounds"][0]
                if not isinstance(first, Mapping):
                    raise _bad(f"{prefix}rounds[0]", first, "an object")
                losses = first.get("losses", NOT_REPORTED)
                self.match(expected, losses, path, (*root, "losses"), "losses")
            else:
                self.match(expected, outcome.get(key, NOT_REPORTED), path, (*root, key), key)

    def after_step(self, expected: Mapping[str, Any], outcome: Mapping[str, Any]) -> None:
        states = outcome.get("states", NOT_REPORTED)
        if states is not NOT_REPORTED and not isinstance(states, Mapping):
            raise _bad("states", states, "an object of states by step number")
        for number, state_expected in expected.items():
            path = f"after_step.{number}"
            rest = {k: v for k, v in state_expected.items() if k != "round_over"}
            if "round_over" in state_expected:
                self.round_over_by(
                    int(number), state_expected["round_over"], outcome, f"{path}.round_over"
                )
            if not rest:
                continue
            state = NOT_REPORTED if states is NOT_REPORTED else states.get(number, NOT_REPORTED)
            if state is NOT_REPORTED:
                self.missing(path, ("states",), rest)
            elif not isinstance(state, Mapping):
                raise _bad(f"states.{number}", state, "an object")
            else:
                self.outcome(rest, state, 0, f"{path}.")

    def round_over_by(
        self, number: int, expected: bool, outcome: Mapping[str, Any], path: str
    ) -> None:
        """``round_over`` after step ``number``: whether a round has ended by then, read
        from the outcome's round records (``after_step``), not from a state."""
        rounds = outcome.get("rounds", NOT_REPORTED)
        if rounds is NOT_REPORTED:
            self.missing(path, ("rounds",), expected)
            return
        if not isinstance(rounds, list):
            raise _bad("rounds", rounds, "a list of the rounds that ended")
        over = False
        for i, record in enumerate(rounds):
            if not isinstance(record, Mapping):
                raise _bad(f"rounds[{i}]", record, "an object")
            step = record.get("after_step", NOT_REPORTED)
            if step is NOT_REPORTED:
                self.missing(path, ("rounds", "after_step"), expected)
                return
            if isinstance(step, bool) or not isinstance(step, int):
                raise _bad(f"rounds[{i}].after_step", step, "a whole number")
            over = over or step <= number
        if over is expected:
            self.agrees()
        else:
            self.differs(path, expected, over)

    def rounds(
        self, key: str, expected: Any, actual: Any, path: str, root: tuple[str, ...]
    ) -> None:
        generic = (*root, "rounds")
        if actual is NOT_REPORTED:
            self.missing(path, generic, expected)
            return
        if not isinstance(actual, list):
            raise _bad("rounds", actual, "a list of the rounds that ended")
        if key == "round_over":
            over = bool(actual)
            if over is expected:
                self.agrees()
            else:
                self.differs(path, expected, over)
        elif key == "end":
            if actual and not isinstance(actual[0], Mapping):
                raise _bad("rounds[0]", actual[0], "an object")
            self.match(expected, actual[0] if actual else NOTHING, path, generic)
        else:
            for i, exp in enumerate(expected):
                got = actual[i] if i < len(actual) else NOTHING
                if got is not NOTHING and not isinstance(got, Mapping):
                    raise _bad(f"rounds[{i}]", got, "an object")
                self.match(exp, got, f"{path}[{i}]", generic)

    def legal(
        self, key: str, expected: Sequence[str], actual: Any, path: str, root: tuple[str, ...]
    ) -> None:
        if actual is NOT_REPORTED:
            self.missing(path, (*root, "legal"), list(expected))
            return
        if not isinstance(actual, list) or not all(isinstance(a, str) for a in actual):
            raise _bad("legal", actual, "a list of actions in canonical text")
        legal = set(actual)
        if key == "legal_includes":
            missing = [a for a in expected if a not in legal]
            if missing:
                self.differs(path, missing, sorted(legal))
            else:
                self.agrees()
        else:
            present = [a for a in expected if a in legal]
            if present:
                self.differs(path, [], present)
            else:
                self.agrees()

    def steps(self, expected: Mapping[str, Any], outcome: Mapping[str, Any]) -> None:
        actual = outcome.get("steps", NOT_REPORTED)
        if actual is not NOT_REPORTED and not isinstance(actual, list):
            raise _bad("steps", actual, "a list with one entry per step")
        for number, result in expected.items():
            path = f"steps.{number}"
            index = int(number) - 1
            if actual is NOT_REPORTED or not 0 <= index < len(actual):
                self.missing(path, ("steps",), result)
                continue
            got = actual[index]
            if not isinstance(got, Mapping) or not isinstance(got.get("accepted"), bool):
                raise _bad(path, got, 'an object {"accepted": true|false, "reason": CODE}')
            accepted = got["accepted"]
            if result == "accepted":
                if accepted:
                    self.agrees()
                else:
                    self.differs(path, "accepted", {"rejected": got.get("reason")})
                continue
            if accepted:
                self.differs(path, result, "accepted")
                continue
            reason = got.get("reason", NOT_REPORTED)
            if reason is NOT_REPORTED and covering(("steps", "reason"), self.declared):
                self.verdict.unjudged.add("steps.reason")
                self.agrees()
            elif reason == result["rejected"]:
                self.agrees()
            else:
                self.differs(path, result, {"rejected": reason})


def _ended(outcome: Mapping[str, Any]) -> bool:
    rounds = outcome.get("rounds")
    return isinstance(rounds, list) and bool(rounds)


def compare(
    expect: Mapping[str, Any],
    outcome: Mapping[str, Any],
    steps: int = 0,
    not_reported: frozenset[str] = frozenset(),
    *,
    parameters: Mapping[str, Any] | None = None,
    hands: Mapping[str, Any] | None = None,
    excused: Mapping[tuple[str, ...], str] | None = None,
) -> Verdict:
    """Every way ``outcome`` differs from ``expect``; a step the case does not mention must
    have been accepted. Raises ``BadReply`` for an answer that is not the protocol's shape.

    With the ruleset's ``parameters``, a hand value's ``suit`` that no rule decides (two
    suits tie and no suit order breaks it) passes with any of the tied suits; ``hands`` are
    the position's hands the outcome's values are of (hand evaluations and showdowns).
    ``excused`` are checks (by path prefix) an adapter of an earlier protocol version could
    not know: where it leaves them out they are not judged, under the name given."""
    judge = _Judge(not_reported, parameters, hands, excused)
    judge.outcome(expect, outcome, steps)
    return judge.verdict
