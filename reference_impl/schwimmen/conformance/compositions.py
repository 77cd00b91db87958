"""Composition lint: every ruleset a tinkerer can put together gets right expectations.

A house rule can be laid on any ruleset it fits, and house rules stack; every case whose
predicates a composition meets runs against it (FIXTURES.md, Cases). A case that leaves
open a parameter its expectation depends on is then wrong for some composition, and tells
every implementer who plays it that a correct engine is wrong. So the lint builds the
compositions (every house rule on every ruleset where it resolves, every pair of house
rules on the origin of either, and a seeded sample of triples), runs the suite on each
against the reference engine, and names, for each failure, the parameter the case depends
on and does not pin: the one that, set as on a ruleset where the case passes, makes it pass.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from schwimmen.conformance.fixtures import Case, Fixture, parameter_values
from schwimmen.conformance.runner import CaseResult, Status, planned, run_in_process
from schwimmen.engine.adapter import run_case
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Ruleset

TRIPLES = 24
"""How many triples of house rules the seeded sample draws (pairs and singles are all)."""

SEED = 19


@dataclass(frozen=True)
class Plan:
    """The compositions to check, by how they were made."""

    singles: tuple[str, ...]
    pairs: tuple[str, ...]
    triples: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return (*self.singles, *self.pairs, *self.triples)


def _resolves(catalog: Catalog, name: str) -> bool:
    try:
        catalog.resolve(name)
    except SpecErrors:
        return False
    return True


def compositions(catalog: Catalog, *, triples: int = TRIPLES, seed: int = SEED) -> Plan:
    """Every house rule on every ruleset where it resolves (as ``schwimmen show`` accepts
    it), every pair of house rules on the origin of either, and ``triples`` triples drawn
    by ``seed`` from those whose three rules resolve together on the origin of one."""
    rules = sorted(catalog.house_rules)
    origin = {h: str(catalog.house_rules[h].data["origin"]) for h in rules}
    singles = tuple(
        f"{base}{SEPARATOR}{h}"
        for base in sorted(catalog.rulesets)
        for h in rules
        if _resolves(catalog, f"{base}{SEPARATOR}{h}")
    )
    pairs = tuple(
        sorted(
            {
                SEPARATOR.join((base, a, b))
                for a, b in itertools.combinations(rules, 2)
                for base in {origin[a], origin[b]}
                if _resolves(catalog, SEPARATOR.join((base, a, b)))
            }
        )
    )
    fitting = {p.split(SEPARATOR, 1)[1] for p in pairs}
    candidates = [
        (base, trio)
        for trio in itertools.combinations(rules, 3)
        if all(SEPARATOR.join(two) in fitting for two in itertools.combinations(trio, 2))
        for base in sorted({origin[h] for h in trio})
    ]
    rng = random.Random(seed)
    drawn: list[str] = []
    for base, trio in rng.sample(candidates, len(candidates)):
        if len(drawn) >= triples:
            break
        name = SEPARATOR.join((base, *trio))
        if _resolves(catalog, name):
            drawn.append(name)
    return Plan(singles, pairs, tuple(sorted(drawn)))


def sample(plan: Plan, count: int, seed: int = SEED) -> list[str]:
    """``count`` compositions of ``plan`` drawn by ``seed`` (the fast tests' share)."""
    names = list(plan.names)
    return sorted(random.Random(seed).sample(names, min(count, len(names))))


@dataclass(frozen=True)
class Failure:
    """A case the reference fails on a composition, and what it depends on unpinned."""

    fixture: str
    case: str
    ruleset: str
    message: str
    unpinned: tuple[tuple[str, Any, Any, str], ...]
    """Each parameter that alone makes the case pass: (parameter, its value here, the
    value where the case passes, the ruleset it passes on). A parameter the case pins is
    among them when its predicate admits a value under which the expectation fails."""
    pinned: tuple[str, ...] = ()
    differing: tuple[str, ...] = ()
    """Where no single parameter does: those on which this ruleset differs from the
    nearest one where the case passes (``nearest``), one or more of which it rests on."""
    nearest: str = ""

    def __str__(self) -> str:
        head = f"{self.fixture} ({self.case}) fails on {self.ruleset}"
        if self.unpinned:
            parts = [
                f"{p} (here {json.dumps(here)}; it passes with {json.dumps(there)} as on {on})"
                + (", a value its predicate admits" if p in self.pinned else "")
                for p, here, there, on in self.unpinned
            ]
            loose = all(p in self.pinned for p, _, _, _ in self.unpinned)
            tail = "which its case pins too loosely" if loose else "which its case does not pin"
            return f"{head}: it depends on {', '.join(parts)}, {tail}"
        if self.differing:
            return (
                f"{head}: it depends on more than one of {', '.join(self.differing)} (where it "
                f"differs from {self.nearest}, on which the case passes; no one of them alone "
                f"makes it pass), which its case does not pin tightly enough ({self.message})"
            )
        return f"{head}: {self.message}"


def _message(result: CaseResult) -> str:
    text = "; ".join(str(m) for m in result.mismatches) or result.message
    return text if len(text) <= 300 else text[:300] + " [...]"


def _passes(fixture: Fixture, case: Case, ruleset: Ruleset) -> bool:
    if fixture.applicable_case(ruleset) is not case:
        return False
    (result,) = run_in_process([(fixture, case, ruleset)], run_case)
    return result.status is Status.PASSED


def diagnose(
    catalog: Catalog, result: CaseResult, passing: Sequence[Ruleset], *, tries: int = 3
) -> Failure:
    """What ``result``'s case depends on and does not pin (or pins too loosely): the
    rulesets of ``passing`` where the case applies are tried nearest first (fewest
    differing parameters, at most ``tries``); on each, every parameter on which it differs
    is set, alone, as there, and those with which the case then passes are named."""
    fixture, case = result.fixture, result.case
    assert result.spec is not None
    here = parameter_values(result.spec)
    nearest: list[tuple[int, Ruleset, list[str]]] = []
    for other in passing:
        if fixture.applicable_case(other) is not case:
            continue
        there = parameter_values(other)
        differ = sorted(p for p in set(here) | set(there) if here.get(p) != there.get(p))
        nearest.append((len(differ), other, differ))
    nearest.sort(key=lambda item: (item[0], item[1].id))
    # The composition as one set of changes to its base, so that a parameter its house
    # rules set can be set otherwise too (a house rule over it would conflict).
    base = parameter_values(catalog.resolve(result.spec.base))
    own = {p: v for p, v in here.items() if base.get(p) != v}
    found: list[tuple[str, Any, Any, str]] = []
    differing: tuple[str, ...] = ()
    closest = ""
    for _, other, differ in nearest[:tries]:
        there = parameter_values(other)
        for path in differ:
            if path not in there or path not in here:
                continue
            try:
                mutant = catalog.mutant(result.spec.base, {**own, path: there[path]})
            except SpecErrors:
                continue
            if _passes(fixture, case, mutant):
                found.append((path, here[path], there[path], other.id))
        if found:
            break
        if not differing:
            differing, closest = tuple(differ), other.id
    pinned = tuple(p for p, _, _, _ in found if p in case.where)
    if found:
        differing, closest = (), ""
    return Failure(
        fixture.id,
        case.label(),
        result.ruleset,
        _message(result),
        tuple(found),
        pinned,
        differing,
        closest,
    )


def _key(ruleset: Ruleset, named: frozenset[str]) -> str:
    """Rulesets with the same parameters get the same cases (and answers), except where a
    case without predicates names one of them."""
    values = json.dumps(parameter_values(ruleset), sort_keys=True, default=str)
    return values + (ruleset.id if ruleset.id in named else "")


@dataclass(frozen=True)
class CaseFailure:
    """One case the reference fails on some compositions: the first diagnosed, all named."""

    failure: Failure
    rulesets: tuple[str, ...]

    def __str__(self) -> str:
        others = [r for r in self.rulesets if r != self.failure.ruleset]
        if not others:
            return str(self.failure)
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        return f"{self.failure}; it fails on {shown} too"


def check(
    catalog: Catalog,
    fixtures: Sequence[Fixture],
    names: Iterable[str],
    passing: Sequence[Ruleset],
) -> tuple[list[CaseFailure], int]:
    """Every case the reference fails on some of the compositions ``names``, diagnosed on
    the first of them against ``passing`` (the rulesets of the default run), and the number
    of distinct rulesets run: compositions with the same parameters are run once."""
    named = frozenset(n for f in fixtures for c in f.cases if not c.where for n in c.rulesets)
    seen: set[str] = set()
    failing: dict[tuple[str, int], list[CaseResult]] = {}
    for name in names:
        ruleset = catalog.resolve(name)
        key = _key(ruleset, named)
        if key in seen:
            continue
        seen.add(key)
        for result in run_in_process(planned(fixtures, [ruleset]), run_case):
            if result.status is not Status.PASSED:
                failing.setdefault((result.fixture.id, result.case.index), []).append(result)
    out = []
    for _, results in sorted(failing.items()):
        first = min(results, key=lambda r: (r.ruleset.count(SEPARATOR), len(r.ruleset)))
        failure = diagnose(catalog, first, passing)
        out.append(CaseFailure(failure, tuple(r.ruleset for r in results)))
    return out, len(seen)
