"""Where an implementation's outcome first differs from the reference's, in time.

The fuzzer compares whole outcomes (not a fixture's partial expectation): every step's
verdict, every round that ended, and the state after the last step. Once two engines
part, everything after differs too, so only the *first* difference means anything: the
one at the earliest step, a step's verdict before the round it ended, a round before
the state after the last step. Its field, with seat names and indices left out
(``rounds.losses``, ``steps``, ``legal``), is the difference's signature: the reducer
keeps a smaller case only if it still differs first in the same field, and the fuzzer
tells differences apart by it.

Fields the implementation declared it does not report (``not_reported``) are not
compared, and neither is an answer no rule decides: the ``suit`` of a hand whose two suits
count alike where the ruleset orders no suits (``latitude.suits_that_may_count``); any of
them is right, so naming another is no difference. An outcome that is not the protocol's
shape raises :class:`Malformed`: that is an error of the implementation, not a difference
in the rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from schwimmen.conformance.fields import STATE_FIELDS, covering
from schwimmen.conformance.latitude import suits_that_may_count

ROUND_FIELDS = ("reason", "at_deal", "after_step", "by", "knocker", "losses", "values")
VALUE_PARTS = ("points", "hand", "suit", "maximum")
SETS = {"swimming", "eliminated", "winners", "legal"}


MISSING = "not reported"
"""The value shown for a field the implementation left out."""


class Malformed(ValueError):
    """The implementation's outcome is not shaped as the protocol says."""


@dataclass(frozen=True)
class Difference:
    """The first difference: ``path`` as a report shows it (``rounds[0].losses``),
    ``field`` without indices (``rounds.losses``), ``time`` the step after which it
    shows (the number of steps + 1 for the final state), ``index`` the round's index for
    a round field, and both sides' values."""

    path: str
    field: str
    time: int
    index: int
    expected: Any
    actual: Any

    def position(self) -> tuple[int, int, int, int]:
        """Where the difference stands in time: its step, then a step's verdict before
        the round it ended, a round before the state after the last step, and within a
        round or the state the order in which the fields are compared."""
        key = self.field.partition(".")[2]
        if self.field == "steps":
            return (self.time, 0, 0, 0)
        if self.field.startswith("rounds"):
            order = ROUND_FIELDS.index(key) if key in ROUND_FIELDS else -1
            return (self.time, 1, self.index, order)
        return (self.time, 2, 0, STATE_FIELDS.index(self.field))

    @property
    def signature(self) -> str:
        """What a smaller case must keep to differ "in the same way"."""
        if self.field == "steps":
            return f"steps:{_verdict_word(self.expected)}/{_verdict_word(self.actual)}"
        return self.field

    def __str__(self) -> str:
        if self.field == "legal" and isinstance(self.expected, list):
            theirs = self.actual if isinstance(self.actual, list) else []
            only_ref = sorted(set(self.expected) - set(theirs))
            only_impl = sorted(set(theirs) - set(self.expected))
            return (
                f"legal: only the reference allows {_show(only_ref, '')}, only the "
                f"implementation {_show(only_impl, '')}"
            )
        none = "no such round" if self.field in ("rounds.extra", "rounds.missing") else "null"
        ref, got = _show(self.expected, none), _show(self.actual, none)
        return f"{self.path}: the reference {ref}, the implementation {got}"


def _show(value: Any, none: str) -> str:
    if value is None:
        return none
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 200 else text[:197] + "..."


def _verdict_word(verdict: Any) -> str:
    if verdict == "accepted":
        return "accepted"
    return "refused" if isinstance(verdict, Mapping) else "missing"


def _need(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(value, kind):
        raise Malformed(f"outcome {where} has the wrong type ({type(value).__name__})")
    return value


def _num_same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return bool(type(a) is type(b) and a == b)


def _same(a: Any, b: Any) -> bool:
    kind = type(a)
    if kind is type(b):  # JSON's own types first: a string, a dict, a list
        if kind is str:
            return bool(a == b)
        if kind is dict:
            return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
        if kind is list:
            return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return _num_same(a, b)


def _nonzero(value: Any, where: str) -> dict[str, Any]:
    return {k: v for k, v in _need(value, Mapping, where).items() if v}


@lru_cache(maxsize=4096)
def _covered(path: tuple[str, ...], declared: frozenset[str]) -> bool:
    """Whether a declared field covers ``path`` (asked for every field of every case,
    with the same few paths and the one declaration of a run: worked out once)."""
    return covering(path, declared) is not None


class _Differ:
    def __init__(self, declared: frozenset[str], parameters: Mapping[str, Any]) -> None:
        self.declared = declared
        self.parameters = parameters

    def skipped(self, *path: str) -> bool:
        return bool(self.declared) and _covered(path, self.declared)

    def steps(self, ref: Sequence[Any], got: Any, count: int) -> Difference | None:
        if self.skipped("steps") or not count:
            return None
        if got is None:
            return Difference("steps", "steps", 1, -1, _verdict(ref[0], True), MISSING)
        got = _need(got, list, "steps")
        reasons = not self.skipped("steps", "reason")
        for i in range(count):
            r = _verdict(ref[i], True)
            g = _verdict(got[i], reasons) if i < len(got) else "missing"
            if not reasons and isinstance(r, Mapping):
                r = {"rejected": None}
            if not _same(r, g):
                return Difference(f"steps.{i + 1}", "steps", i + 1, -1, r, g)
        return None

    def rounds(self, ref: Sequence[Any], got: Any) -> list[Difference]:
        if self.skipped("rounds"):
            return []
        if got is None:
            return [Difference("rounds", "rounds.missing", 0, 0, ref[:1], MISSING)]
        got = _need(got, list, "rounds")
        out = []
        for i in range(max(len(ref), len(got))):
            r = ref[i] if i < len(ref) else None
            g = _need(got[i], Mapping, f"rounds[{i}]") if i < len(got) else None
            if r is None or g is None:
                both = [x for x in (r, g) if x is not None]
                time = min(int(x.get("after_step", 0) or 0) for x in both)
                field = "rounds.extra" if r is None else "rounds.missing"
                out.append(Difference(f"rounds[{i}]", field, time, i, r, g))
                break
            found = self.round(i, r, g)
            if found is not None:
                out.append(found)
                break
        return out

    def round(self, i: int, ref: Mapping[str, Any], got: Mapping[str, Any]) -> Difference | None:
        time = int(ref["after_step"])
        for key in ROUND_FIELDS:
            if self.skipped("rounds", key):
                continue
            r: Any = ref.get(key)
            g: Any = got.get(key, MISSING)
            if g is MISSING:
                pass
            elif key == "losses":
                r, g = _nonzero(r, "losses"), _nonzero(g, f"rounds[{i}].losses")
            elif key == "values":
                r, g = self.values(r), self.values(_need(g, Mapping, f"rounds[{i}].values"))
                g = self.open_suits(ref.get("hands"), r, g)
            if not _same(r, g):
                return Difference(f"rounds[{i}].{key}", f"rounds.{key}", time, i, r, g)
        return None

    def values(self, values: Mapping[str, Any]) -> dict[str, Any]:
        parts = [p for p in VALUE_PARTS if not self.skipped("values", p)]
        return {
            seat: {p: v.get(p) for p in parts} if isinstance(v, Mapping) else v
            for seat, v in values.items()
        }

    def open_suits(self, hands: Any, ref: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
        """``got`` with every ``suit`` no rule decides taken as the reference's."""
        if not isinstance(hands, Mapping) or not self.parameters:
            return got
        out = dict(got)
        for seat, mine in ref.items():
            theirs = got.get(seat)
            if not (isinstance(mine, Mapping) and isinstance(theirs, Mapping)):
                continue
            if mine.get("suit") == theirs.get("suit") or "suit" not in mine:
                continue
            cards = hands.get(seat)
            if not isinstance(cards, list):
                continue
            open_ = suits_that_may_count(cards, self.parameters)
            if mine.get("suit") in open_ and theirs.get("suit") in open_:
                out[seat] = {**theirs, "suit": mine["suit"]}
        return out

    def state(self, ref: Mapping[str, Any], got: Mapping[str, Any], time: int) -> Difference | None:
        for key in STATE_FIELDS:
            if self.skipped(key):
                continue
            r: Any = ref.get(key)
            g: Any = got.get(key, MISSING)
            if g is MISSING:
                pass
            elif key == "points":
                r, g = _nonzero(r, key), _nonzero(g, key)
            elif key in SETS:
                r, g = sorted(r), sorted(_need(g, list, key))
            if not _same(r, g):
                return Difference(key, key, time, -1, r, g)
        return None


def _verdict(step: Any, reasons: bool) -> Any:
    if not isinstance(step, Mapping) or not isinstance(step.get("accepted"), bool):
        raise Malformed("a step's verdict is not {accepted, reason}")
    if step["accepted"]:
        return "accepted"
    return {"rejected": step.get("reason") if reasons else None}


def first_difference(
    ref: Mapping[str, Any],
    got: Mapping[str, Any],
    steps: int,
    declared: frozenset[str] = frozenset(),
    parameters: Mapping[str, Any] | None = None,
) -> Difference | None:
    """The earliest difference between the reference's outcome ``ref`` and ``got``, or
    None when they agree on everything compared. ``parameters`` are the ruleset's (for
    the answers no rule decides). Raises :class:`Malformed`."""
    differ = _Differ(declared, parameters or {})
    _need(got, Mapping, "")
    found = [d for d in (differ.steps(ref["steps"], got.get("steps"), steps),) if d]
    found += differ.rounds(ref["rounds"], got.get("rounds"))
    state = differ.state(ref, got, steps + 1)
    if state is not None:
        found.append(state)
    if not found:
        return None
    return min(found, key=Difference.position)


def compares_anything(declared: frozenset[str]) -> bool:
    """Whether an implementation that reports none of ``declared`` leaves anything the
    fuzzer compares: an engine that declares everything not reported can differ in
    nothing, and fuzzing it would be a pass that judged nothing."""
    differ = _Differ(declared, {})
    if not differ.skipped("steps") or any(not differ.skipped(k) for k in STATE_FIELDS):
        return True
    return not differ.skipped("rounds") and any(
        not differ.skipped("rounds", k) for k in ROUND_FIELDS
    )
