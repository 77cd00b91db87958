"""Matching an implementation's outcome against a case's expectations.

Matching is partial: only what a case states is checked, so a fixture about who loses
does not also pin the event wording. Within what is stated it is exact: ``losses`` lists
every seat that loses (an unmentioned seat must lose nothing), card lists keep their
order, and seat lists (swimming, eliminated, winners) are compared as sets. States
``after_step`` are matched like the state after the last step, against the outcome's
``states``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SET_KEYS = {"swimming", "eliminated", "winners"}
EXACT_MAPPINGS = {"losses", "lives", "points"}


@dataclass(frozen=True)
class Mismatch:
    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return f"{self.path}: expected {_show(self.expected)}, got {_show(self.actual)}"


def _show(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    import json

    return json.dumps(value, ensure_ascii=False)


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


def _num_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    return bool(a == b)


def _match(expected: Any, actual: Any, path: str, out: list[Mismatch], key: str = "") -> None:
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            out.append(Mismatch(path, expected, actual))
            return
        if key in EXACT_MAPPINGS and key == "losses":
            extra = {k: v for k, v in actual.items() if k not in expected and v}
            if extra:
                out.append(Mismatch(path, dict(expected), dict(actual)))
                return
        for k, v in expected.items():
            _match(v, actual.get(k, _MISSING), f"{path}.{k}", out, k)
        return
    if key in SET_KEYS and isinstance(expected, list):
        if not isinstance(actual, list) or sorted(expected) != sorted(actual):
            out.append(Mismatch(path, expected, actual))
        return
    if isinstance(expected, list):
        if (
            not isinstance(actual, list)
            or len(expected) != len(actual)
            or not all(_num_equal(e, a) for e, a in zip(expected, actual, strict=False))
        ):
            out.append(Mismatch(path, expected, actual))
        return
    if actual is _MISSING or not _num_equal(expected, actual):
        out.append(Mismatch(path, expected, actual))


def compare(
    expect: Mapping[str, Any], outcome: Mapping[str, Any], steps: int = 0
) -> list[Mismatch]:
    """Every way ``outcome`` differs from ``expect``; a step the case does not mention must
    have been accepted."""
    out: list[Mismatch] = []
    if steps:
        stated = dict(expect.get("steps", {}))
        _steps(
            {str(i): stated.get(str(i), "accepted") for i in range(1, steps + 1)},
            outcome.get("steps", []),
            out,
        )
    for key, expected in expect.items():
        if key == "after_step":
            states = outcome.get("states")
            for number, state_expected in expected.items():
                state = states.get(number) if isinstance(states, Mapping) else None
                if not isinstance(state, Mapping):
                    out.append(Mismatch(f"after_step.{number}", state_expected, _MISSING))
                    continue
                for m in compare(state_expected, state):
                    out.append(Mismatch(f"after_step.{number}.{m.path}", m.expected, m.actual))
        elif key == "steps":
            if not steps:
                _steps(expected, outcome.get("steps", []), out)
        elif key == "end":
            rounds = outcome.get("rounds") or []
            _match(expected, rounds[0] if rounds else _MISSING, "end", out)
        elif key == "rounds":
            actual = outcome.get("rounds") or []
            for i, exp in enumerate(expected):
                _match(exp, actual[i] if i < len(actual) else _MISSING, f"rounds[{i}]", out)
        elif key == "round_over":
            over = bool(outcome.get("rounds"))
            if over != expected:
                out.append(Mismatch("round_over", expected, over))
        elif key == "legal_includes":
            legal = set(outcome.get("legal") or [])
            missing = [a for a in expected if a not in legal]
            if missing:
                out.append(Mismatch("legal_includes", missing, sorted(legal)))
        elif key == "legal_excludes":
            legal = set(outcome.get("legal") or [])
            present = [a for a in expected if a in legal]
            if present:
                out.append(Mismatch("legal_excludes", [], present))
        elif key == "losses" and "losses" not in outcome and outcome.get("rounds"):
            _match(expected, outcome["rounds"][0].get("losses", {}), "losses", out, "losses")
        else:
            _match(expected, outcome.get(key, _MISSING), key, out, key)
    return out


def _steps(expected: Mapping[str, Any], actual: list[Any], out: list[Mismatch]) -> None:
    for number, result in expected.items():
        index = int(number) - 1
        got = actual[index] if 0 <= index < len(actual) else _MISSING
        if got is _MISSING:
            out.append(Mismatch(f"steps.{number}", result, got))
            continue
        if result == "accepted":
            if not got.get("accepted"):
                out.append(Mismatch(f"steps.{number}", "accepted", {"rejected": got.get("reason")}))
        elif got.get("accepted") or got.get("reason") != result["rejected"]:
            shown = "accepted" if got.get("accepted") else {"rejected": got.get("reason")}
            out.append(Mismatch(f"steps.{number}", result, shown))
