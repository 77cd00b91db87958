"""Which rule parameters a minimal difference depends on, and which one explains it.

A fixture applies to every ruleset that meets its ``where`` predicates, so a fuzzed
fixture must pin every parameter its expected outcome depends on, and no more (pinning
everything would make it apply to its own ruleset only). The reference tells which: the
case is run under *one-parameter mutants* of the ruleset (``Catalog.mutant``), each
parameter set to every other value it can take, and a parameter whose change changes
the checked outcome is pinned, with the ruleset's value.

The values tried are ``mutations.alternatives()`` (every choice of every behavioural
parameter), and the values the catalog's own rulesets and house rules use: a house rule
may change a parameter that has no list of choices (a penalty of two lives, a pack with
sixes), and a fixture must not apply to it when it gives another answer.

The same mutants say what the implementation most likely does: a mutant under which
the reference answers the whole case as the implementation did, and fails the fixture
exactly as the implementation does (the reference without the change passing it),
*explains* the difference ("it plays as if penalties.knocker_lowest were 2"). That
parameter names the difference, and two differences with the same field and
explanation are one; one that only agrees up to the difference explains nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from schwimmen.conformance.compare import compare
from schwimmen.conformance.fixtures import parameter_values, predicate_holds
from schwimmen.conformance.fuzz.diff import Malformed, first_difference
from schwimmen.conformance.mutations import alternatives
from schwimmen.engine.adapter import run_case
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import PARAMETERS

_ORDER = {p.path: i for i, p in enumerate(PARAMETERS)}

Outcome = Mapping[str, Any]


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@cache
def _catalog_values(catalog: Catalog) -> dict[str, tuple[Any, ...]]:
    """Every value of every parameter that the choices or the catalog's rulesets and
    house rules give, in the registry's order."""
    found: dict[str, dict[str, Any]] = {p.path: {} for p in PARAMETERS}
    for path, choices in alternatives().items():
        for value in choices:
            found.setdefault(path, {})[_key(value)] = value
    for name in catalog.standard_names():
        try:
            values = parameter_values(catalog.resolve(name))
        except SpecErrors:
            continue
        for path, value in values.items():
            found.setdefault(path, {})[_key(value)] = value
    return {path: tuple(v.values()) for path, v in found.items() if v}


@dataclass(frozen=True)
class Mutant:
    """A ruleset that differs from the fuzzed one: in one parameter, or by a house rule
    of the catalog laid over it (several parameters at once). ``changes`` are the
    parameters it changes that the fuzzed ruleset has, with the mutant's values."""

    label: str
    changes: Mapping[str, Any]
    ruleset: Ruleset

    def __str__(self) -> str:
        return self.label

    def describe(self) -> str:
        """The mutant in words: "penalties.lowest is 2", "with the house rule X"."""
        if self.label.startswith("+"):
            return f"with the house rule {self.label[1:]} laid over it"
        path, _, value = self.label.partition("=")
        return f"when {path} is {value}"


class Mutants:
    """The mutants of one ruleset, each built once (``Catalog.mutant`` checks the values
    like any house rule's; a change the base cannot take is left out).

    Single parameters come first. Some differences need two parameters changed together
    (three sevens as Feuer light need a kind and a penalty), which no single mutant
    shows; the catalog's house rules, each laid over the ruleset, are such changes."""

    def __init__(self, catalog: Catalog, ruleset: Ruleset) -> None:
        self.catalog = catalog
        self.ruleset = ruleset
        self.values = parameter_values(ruleset)
        self._built: dict[tuple[str, str], Ruleset | None] = {}
        self._all: list[Mutant] | None = None

    def of(self, path: str, value: Any) -> Ruleset | None:
        key = (path, _key(value))
        if key not in self._built:
            try:
                self._built[key] = self.catalog.mutant(self.ruleset.id, {path: value})
            except SpecErrors:
                self._built[key] = None
        return self._built[key]

    def each(self) -> list[Mutant]:
        if self._all is None:
            singles = self._singles()
            seen = {_key(m.changes) for m in singles}
            houses = [m for m in self._house_rules() if _key(m.changes) not in seen]
            self._all = singles + houses
        return self._all

    def _singles(self) -> list[Mutant]:
        out = []
        for path, choices in _catalog_values(self.catalog).items():
            if path not in self.values:
                continue
            for value in choices:
                if predicate_holds([value], self.values[path]):
                    continue
                mutant = self.of(path, value)
                if mutant is not None:
                    label = f"{path}={json.dumps(value, ensure_ascii=False)}"
                    out.append(Mutant(label, {path: value}, mutant))
        return out

    def _house_rules(self) -> list[Mutant]:
        out = []
        for house in sorted(self.catalog.house_rules):
            if house in self.ruleset.overlays:
                continue
            try:
                composed = self.catalog.resolve(f"{self.ruleset.id}+{house}")
            except SpecErrors:
                continue
            theirs = parameter_values(composed)
            changes = {
                p: theirs[p] for p in self.values if p in theirs and theirs[p] != self.values[p]
            }
            if changes:
                out.append(Mutant(f"+{house}", changes, composed))
        return out


def run_under(case: Mapping[str, Any], ruleset: Ruleset) -> Outcome | None:
    """The reference's outcome of ``case`` played by ``ruleset`` (None: it cannot be)."""
    request = {**case, "ruleset": {"id": ruleset.id, "parameters": parameter_values(ruleset)}}
    answer = run_case(request)
    outcome = answer.get("outcome")
    return outcome if answer.get("status") == "ok" and isinstance(outcome, Mapping) else None


def dependencies(
    mutants: Mutants,
    case: Mapping[str, Any],
    expect: Mapping[str, Any],
    fits: Callable[[Ruleset], bool],
) -> list[str]:
    """The parameters whose change changes the checked outcome (or makes the case
    impossible to play, where the position still fits the mutant), in registry order.
    A house rule that changes the outcome while no parameter it changes is pinned yet
    has all of them pinned: only together do they make the difference."""
    steps = len(case.get("steps", ()))
    pinned: list[str] = []
    for mutant in mutants.each():
        if any(p in pinned for p in mutant.changes) or not fits(mutant.ruleset):
            continue
        outcome = run_under(case, mutant.ruleset)
        if outcome is None or compare(expect, outcome, steps).mismatches:
            pinned.extend(mutant.changes)
    return sorted(pinned, key=_ORDER.__getitem__)


def explanations(
    mutants: Mutants,
    case: Mapping[str, Any],
    got: Outcome,
    declared: frozenset[str],
    expect: Mapping[str, Any],
) -> list[Mutant]:
    """The mutants that explain how the implementation's outcome ``got`` differs from
    the reference's: under each, the
    reference plays the whole case as the implementation did (a mutant that agrees only
    up to the difference merely happens to match it there: a stacked pack dealt another
    way can give the next dealer the implementation's hands by chance), and, by the
    fixture's expectation ``expect`` (which the reference without the change passes),
    it fails exactly where and as the implementation fails. Both are checked; a
    difference no mutant explains is named by its field and phase alone."""
    steps = len(case.get("steps", ()))
    values = parameter_values(mutants.ruleset)
    try:
        wanted = _said(compare(expect, got, steps, declared).mismatches)
    except ValueError:
        return []
    reference = run_under(case, mutants.ruleset)
    if not wanted or reference is None or compare(expect, reference, steps).mismatches:
        return []  # the implementation passes it, or the reference without a change fails it
    out = []
    for mutant in mutants.each():
        outcome = run_under(case, mutant.ruleset)
        if outcome is None:
            continue
        try:
            if first_difference(outcome, got, steps, declared, values) is not None:
                continue
            if _said(compare(expect, outcome, steps, declared).mismatches) != wanted:
                continue
        except (Malformed, KeyError, TypeError, ValueError):
            continue
        out.append(mutant)
    return out


def _said(mismatches: Any) -> set[tuple[str, str]]:
    """Where an outcome differs from an expectation, and what it says there."""
    from schwimmen.conformance.compare import show

    return {(m.path, show(m.actual)) for m in mismatches}
