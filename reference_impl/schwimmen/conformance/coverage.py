"""What the suite pins down: every value of every parameter, every disagreement.

A behavioural value (a passing rule, a tie rule, Feuer's penalty) counts as exercised
when some case states it in its ``where`` predicates and applies to a ruleset that has
it: that case's expectation depends on the value. A structural value (the pack, the hand
size, the number of lives) counts when some case runs under a ruleset that has it, since
a position must be built for that pack. Gaps are listed with the reason, never hidden.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from schwimmen.conformance.fixtures import Case, Fixture, predicate_holds
from schwimmen.spec.disagreements import scenario_ids
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import PARAMETERS

STRUCTURAL = {
    "players.range",
    "cards.ranks",
    "cards.suits",
    "cards.values",
    "cards.hand_size",
    "cards.middle_size",
    "maximum.points",
    "lives.count",
    "lives.counting",
    "turns.first_player",
    "turns.direction",
}


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


@dataclass
class ValueCoverage:
    param: str
    value: Any
    used_by: list[str]
    cases: list[str]

    @property
    def covered(self) -> bool:
        return bool(self.cases)

    def reason(self) -> str:
        if self.covered:
            return ""
        if not self.used_by:
            return "no shipped ruleset or house rule uses this value, so no case can run it"
        return "used by " + ", ".join(self.used_by[:4]) + ", but no case pins it"


@dataclass
class Coverage:
    values: list[ValueCoverage]
    # scenario (spec/disagreements.yaml) -> the fixtures whose ``disagreement`` names it
    disagreements: dict[str, list[str]]
    cases: int
    fixtures: int
    # scenario -> fixtures that only mention it in their title or description
    mentioned: dict[str, list[str]] = field(default_factory=dict)

    @property
    def gaps(self) -> list[ValueCoverage]:
        return [v for v in self.values if not v.covered]

    @property
    def unpinned(self) -> list[str]:
        return [f for f, ids in self.disagreements.items() if not ids]


def _candidate_values(rulesets: list[Ruleset]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = defaultdict(dict)
    for p in PARAMETERS:
        if p.choices and p.path not in ("turns.swaps", "protection.hands"):
            for choice in p.choices:
                out[p.path][_key(choice)] = choice
    for r in rulesets:
        for path, value in r.values().items():
            out[path].setdefault(_key(value), value)
    return out


def coverage(
    fixtures: list[Fixture],
    rulesets: list[Ruleset],
    scenarios: Sequence[str] | None = None,
    case_of: Callable[[Fixture, Ruleset], Case | None] | None = None,
) -> Coverage:
    """What ``fixtures`` pin under ``rulesets``: every parameter value, and every scenario
    of ``scenarios`` (by default those of ``spec/disagreements.yaml``). A scenario is
    pinned by a fixture whose ``disagreement`` names it; one that is only named in a
    fixture's words is listed apart, as mentioned. ``case_of`` answers as
    :meth:`Fixture.applicable_case` does (a caller that has asked already passes its
    answers)."""
    applicable = case_of or Fixture.applicable_case
    if scenarios is None:
        scenarios = scenario_ids()
    values_of = {r.id: r.values() for r in rulesets}
    # each value's canonical text once per ruleset: the loops below ask it per case
    keys_of = {rid: {p: _key(v) for p, v in values.items()} for rid, values in values_of.items()}
    exercised: dict[tuple[str, str], list[str]] = defaultdict(list)
    cases = 0
    for f in fixtures:
        for r in rulesets:
            case = applicable(f, r)
            if case is None:
                continue
            cases += 1
            values = values_of[r.id]
            keys = keys_of[r.id]
            label = f"{f.id}[{r.id}]"
            for path in STRUCTURAL:
                if path in values:
                    exercised[(path, keys[path])].append(label)
            for path, pred in case.where.items():
                if path in values and predicate_holds(pred, values[path]):
                    exercised[(path, keys[path])].append(label)
    report: list[ValueCoverage] = []
    for path, candidates in _candidate_values(rulesets).items():
        for key, value in sorted(candidates.items()):
            used = [r.id for r in rulesets if keys_of[r.id].get(path) == key]
            report.append(ValueCoverage(path, value, used, sorted(set(exercised[(path, key)]))))
    order = {p.path: i for i, p in enumerate(PARAMETERS)}
    report.sort(key=lambda v: (order.get(v.param, 999), _key(v.value)))
    pinned: dict[str, list[str]] = {d: [] for d in scenarios}
    mentioned: dict[str, list[str]] = {}
    for f in fixtures:
        if f.disagreement in pinned:
            pinned[f.disagreement].append(f.id)
        for extra in re.findall(r"\bF\d{2}\b", f.description + " " + f.title):
            if extra in pinned and extra != f.disagreement:
                ids = mentioned.setdefault(extra, [])
                if f.id not in ids:
                    ids.append(f.id)
    return Coverage(report, pinned, cases, len(fixtures), mentioned)


@dataclass(frozen=True)
class RuleTest:
    """A case that tests a house rule: it names a parameter the rule changes, or the base
    gets another expectation of its fixture (another case, or none)."""

    fixture: str
    case: str
    base_case: str | None
    pins: tuple[str, ...]

    @property
    def differs(self) -> bool:
        return self.base_case != self.case


@dataclass(frozen=True)
class HouseRuleCoverage:
    """The tinkerer's question for one composition: does anything test my rule?"""

    ruleset: str
    base: str
    changed: tuple[tuple[str, Any, Any], ...]
    """(parameter, the base's value, this composition's value) for every value changed."""
    tests: tuple[RuleTest, ...]

    @property
    def differing(self) -> list[RuleTest]:
        return [t for t in self.tests if t.differs]

    def fuzz_command(self) -> str:
        play = f"schwimmen serve --play {self.ruleset}"
        return f'schwimmen fuzz --impl "{play}" --ruleset {self.base}'

    def lines(self) -> list[str]:
        """What the report says, one line each (plain text; the caller styles it)."""
        if not self.changed:
            base = self.base
            return [f"{self.ruleset} changes no parameter of {base}: its cases are {base}'s."]
        shown = ", ".join(
            f"{p} ({json.dumps(old, ensure_ascii=False)} -> {json.dumps(new, ensure_ascii=False)})"
            for p, old, new in self.changed
        )
        out = [f"{self.ruleset} changes {shown} of {self.base}."]
        if not self.tests:
            out.append(
                f"No case depends on the parameters it changes: every case that ran checks "
                f"{self.base}'s rules only, and a pass says nothing about the house rule. "
                f"To write the first case: {self.fuzz_command()}"
            )
            return out
        out.append(
            f"{len(self.tests)} case(s) depend on them; {len(self.differing)} expect "
            f"otherwise than on {self.base}:"
        )
        for t in self.tests:
            pins = f" (pins {', '.join(t.pins)})" if t.pins else ""
            if not t.differs:
                out.append(f"  {t.fixture}: {t.case!r}, as on {self.base}{pins}")
            elif t.base_case is None:
                out.append(f"  {t.fixture}: {t.case!r}; {self.base} gets no case of it{pins}")
            else:
                out.append(f"  {t.fixture}: {t.case!r}; on {self.base} {t.base_case!r}{pins}")
        return out


def house_rule_coverage(
    fixtures: Sequence[Fixture], ruleset: Ruleset, base: Ruleset
) -> HouseRuleCoverage:
    """Which cases test what ``ruleset``'s house rules change from ``base``: those whose
    predicates name a changed parameter, and those whose fixture expects otherwise on the
    base (another case applies there, or none)."""
    here, there = ruleset.values(), base.values()
    changed = tuple(
        (p.path, there.get(p.path), here[p.path])
        for p in PARAMETERS
        if p.path in here and _key(here[p.path]) != _key(there.get(p.path))
    )
    paths = {p for p, _, _ in changed}
    tests = []
    for f in fixtures:
        case = f.applicable_case(ruleset)
        if case is None:
            continue
        other = f.applicable_case(base)
        pins = tuple(sorted(paths & set(case.where)))
        if pins or other is not case:
            label = other.label() if other is not None else None
            tests.append(RuleTest(f.id, case.label(), label, pins))
    return HouseRuleCoverage(ruleset.id, base.id, changed, tuple(tests))
