"""Mutation lint: does any expectation depend on a parameter its case does not pin?

A case applies to every ruleset that meets its ``where`` predicates, so a house rule
written tomorrow is checked against it. That is only right if the case's outcome does
not depend on any parameter the predicates leave open. To find such hidden dependencies,
every ruleset is changed in one parameter at a time (every other value of every
behavioural parameter with a list of choices, and a few representative values of every
number and open value: points, lives, suit orders, triple ranks, penalties; as a
throw-away house rule) and the suite is run against the reference engine: a case that
then fails, although its predicates do not mention the changed parameter, depends on it
silently. The fix is a predicate pinning the values under which the outcome holds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.runner import Status, planned, run_in_process
from schwimmen.engine.adapter import run_case
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.parameters import PARAMETERS

SKIPPED = {
    "turns.swaps",
    "protection.hands",
    "turns.first_player",
    "turns.direction",
    "draw.stock_exhausted",
}
"""Parameters with choices that are not varied: one choice only, or a list of choices
(``turns.swaps``, ``protection.hands``: varied below by representative values)."""

_PENALTIES: list[Any] = [
    {"kind": "showdown"},
    {"kind": "all-others", "lives": 1},
    {"kind": "all-others", "lives": 2},
]

OPEN_VALUES: dict[str, list[Any]] = {
    "penalties.knocker_lowest": [1, 2],
    "penalties.lowest": [1, 2],
    "lives.count": [2, 3, 6],
    "three_aces.points": [31, 32, 33, "none"],
    "triples.points": [30, 30.5, "none"],
    "triples.ranks": ["all", ["J", "Q", "K"]],
    "comparison.suit_order": ["none", ["C", "S", "H", "D"], ["D", "H", "S", "C"]],
    "protection.hands": [[], ["three-sixes", "six-seven-eight-suited"]],
    "maximum.penalty_at_deal": _PENALTIES,
    "maximum.penalty_in_play": _PENALTIES,
    "three_aces.penalty": _PENALTIES,
    "three_aces.penalty_at_deal": _PENALTIES,
    "three_sevens.penalty": _PENALTIES,
}
"""A few representative values of each number and open value: both ends of what the
catalog plays and one beyond (Feuer at 31 or 33, two lives, triples at 30, no suit order or
the reverse one, a penalty of one or two lives for the others or a showdown). Not varied:
the pack, the hand and middle sizes, the card values, the players and ``maximum.points``,
which define the game a fixture's cards are written in (the catalog's checks tie the
maximum to the pack and hand size, so no mutant of it resolves)."""


@dataclass(frozen=True)
class HiddenDependency:
    fixture: str
    case: str
    parameter: str
    value: Any
    ruleset: str

    def __str__(self) -> str:
        return (
            f"{self.fixture} ({self.case}) fails when {self.parameter} is "
            f"{json.dumps(self.value)} on {self.ruleset}, but its case does not pin "
            f"{self.parameter}"
        )


def alternatives() -> dict[str, list[Any]]:
    """Every parameter varied by the mutation lint, with the values it takes."""
    out: dict[str, list[Any]] = {
        p.path: list(p.choices) for p in PARAMETERS if p.choices and p.path not in SKIPPED
    }
    out.update({path: list(values) for path, values in OPEN_VALUES.items()})
    return out


def hidden_dependencies(
    fixtures: list[Fixture], bases: Sequence[str] | None = None
) -> tuple[list[HiddenDependency], int]:
    """Every hidden dependency found, and the number of mutated rulesets tried.

    ``bases`` are the rulesets mutated: by default every ruleset of the catalog; the lint
    in CI adds every house rule on its own ruleset, so that a case is checked next to
    compositions too. A mutant with the same parameters as one tried already is skipped."""
    catalog = Catalog.load()
    found: list[HiddenDependency] = []
    tried = 0
    seen: set[str] = set()
    for base in bases if bases is not None else sorted(catalog.rulesets):
        values = catalog.resolve(base).values()
        for path, choices in alternatives().items():
            if path not in values:
                continue
            for value in choices:
                if value == values[path]:
                    continue
                try:
                    ruleset = catalog.mutant(base, {path: value})
                except SpecErrors:
                    continue
                key = json.dumps(ruleset.values(), sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                tried += 1
                for result in run_in_process(planned(fixtures, [ruleset]), run_case):
                    case = result.case
                    if result.status is Status.PASSED or path in case.where:
                        continue
                    if not case.where:
                        continue
                    found.append(
                        HiddenDependency(result.fixture.id, case.label(), path, value, base)
                    )
    return found, tried
