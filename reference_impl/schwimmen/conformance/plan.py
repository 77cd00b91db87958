"""The plan of the default run: which case of which fixture applies to which ruleset of
the default run, computed through the fixture loader (the site lists it on its pages).

The fixtures are never read as YAML here: :func:`schwimmen.conformance.fixtures.load_fixtures`
parses and validates them, :meth:`Fixture.fits` says where a position cannot exist and
:meth:`Fixture.applicable_case` picks the case for a ruleset, exactly as the harness does.
So a fixture page lists the same (fixture, ruleset) pairs that ``schwimmen conformance``
runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from schwimmen.conformance.coverage import Coverage, coverage
from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.conformance.harness import default_rulesets, resolve_all
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Ruleset


@dataclass(frozen=True)
class FixtureRuns:
    """Where one fixture runs in the default run."""

    fixture: Fixture
    # case index -> the names (``pagat``, ``pagat+no-triples``) the case applies to
    applies: Mapping[int, tuple[str, ...]]
    # name -> why the position cannot exist under it (the matrix's "n/a")
    misfits: Mapping[str, str]
    # names under which the position exists but no case states an outcome
    unstated: tuple[str, ...]

    @property
    def names(self) -> list[str]:
        return [n for names in self.applies.values() for n in names]

    def case_for(self, name: str) -> Case | None:
        for index, names in self.applies.items():
            if name in names:
                return self.fixture.cases[index]
        return None


@dataclass(frozen=True)
class Suite:
    fixtures: tuple[Fixture, ...]
    names: tuple[str, ...]
    runs: Mapping[str, FixtureRuns]
    coverage: Coverage
    # scenario -> fixture ids whose ``disagreement`` names it (the coverage report's)
    pinned: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # F number -> fixture ids that mention it in their title or description only
    mentioned: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def cases(self) -> int:
        return sum(len(r.names) for r in self.runs.values())

    def areas(self) -> dict[str, list[Fixture]]:
        out: dict[str, list[Fixture]] = {}
        for fixture in self.fixtures:
            out.setdefault(area_of(fixture.id), []).append(fixture)
        return out

    def applying_to(self, name: str) -> list[tuple[Fixture, Case]]:
        """Every fixture run under ``name``, with its case."""
        out = []
        for fixture in self.fixtures:
            case = self.runs[fixture.id].case_for(name)
            if case is not None:
                out.append((fixture, case))
        return out

    def decisions(self) -> dict[str, list[str]]:
        """U number -> the fixtures whose cases rest on it as a stated default."""
        out: dict[str, list[str]] = {}
        for fixture in self.fixtures:
            for case in fixture.cases:
                for decision in case.defaults:
                    ids = out.setdefault(decision, [])
                    if fixture.id not in ids:
                        ids.append(fixture.id)
        return out


def area_of(fid: str) -> str:
    return fid.split("/", 1)[0]


def name_of(fid: str) -> str:
    return fid.split("/", 1)[-1]


def house_rule_of(name: str) -> str | None:
    """The last house rule of a composed name (``pagat+no-triples`` → ``no-triples``)."""
    return name.rsplit(SEPARATOR, 1)[1] if SEPARATOR in name else None


def build_suite(
    fixtures: Iterable[Fixture], rulesets: Sequence[Ruleset], scenarios: Sequence[str] | None = None
) -> Suite:
    """Plan the default run: every fixture against every ruleset, as the harness does; the
    scenarios they pin are counted as ``schwimmen conformance coverage`` counts them."""
    ordered = tuple(sorted(fixtures, key=lambda f: f.id))
    settings = {r.id: json.dumps(r.values(), sort_keys=True).encode() for r in rulesets}
    runs: dict[str, FixtureRuns] = {}
    for fixture in ordered:
        applies: dict[int, list[str]] = {}
        misfits: dict[str, str] = {}
        unstated: list[str] = []
        for ruleset in rulesets:
            why, case = _planned(fixture, ruleset, settings[ruleset.id])
            if why is not None:
                misfits[ruleset.id] = why
                continue
            if case is None:
                unstated.append(ruleset.id)
            else:
                applies.setdefault(case.index, []).append(ruleset.id)
        runs[fixture.id] = FixtureRuns(
            fixture, {i: tuple(n) for i, n in applies.items()}, misfits, tuple(unstated)
        )
    # remembered in this process while the fixtures and the rulesets' values are the same
    key = repr(([id(f) for f in ordered], sorted(settings.items()), scenarios))
    last = _COVERAGE.get("last")
    if last is None or last[0] != key:
        last = _COVERAGE["last"] = (key, _coverage(ordered, rulesets, scenarios, settings))
    cov = last[1][1]
    return Suite(
        fixtures=ordered,
        names=tuple(r.id for r in rulesets),
        runs=runs,
        coverage=cov,
        pinned={k: tuple(v) for k, v in cov.disagreements.items() if v},
        mentioned={k: tuple(v) for k, v in cov.mentioned.items()},
    )


# The last coverage computed in this process, by what it was made of (``mkdocs serve``
# plans the suite again after each edit of the spec).
_COVERAGE: dict[str, tuple[str, tuple[Sequence[Fixture], Coverage]]] = {}


def default_suite(
    catalog: Catalog, fixtures: Sequence[Fixture], scenarios: Sequence[str] | None = None
) -> Suite:
    """Every fixture against the rulesets of the default run (the ten rulesets and each
    house rule on its origin), as ``schwimmen conformance`` runs them; ``scenarios`` are
    the disagreements counted (by default those of ``spec/disagreements.yaml``)."""
    return build_suite(fixtures, resolve_all(catalog, default_rulesets(catalog)), scenarios)


def _coverage(
    fixtures: Sequence[Fixture],
    rulesets: Sequence[Ruleset],
    scenarios: Sequence[str] | None,
    settings: Mapping[str, bytes],
) -> tuple[Sequence[Fixture], Coverage]:
    """:func:`coverage`, with the fixtures it was made of (kept alive while it is
    remembered by their ``id``)."""
    found = coverage(
        list(fixtures), list(rulesets), scenarios, lambda f, r: _planned(f, r, settings[r.id])[1]
    )
    return fixtures, found


# (fixture, ruleset id, ruleset's values) -> where the fixture stands under the ruleset;
# ``mkdocs serve`` plans the suite again after each edit of the spec, and an edit changes
# the values of a ruleset or two at most (the fixtures are the loader's, the same objects
# while their files are unchanged).
_PLANS: dict[tuple[int, str, bytes], tuple[Fixture, str | None, Case | None]] = {}


def _planned(fixture: Fixture, ruleset: Ruleset, settings: bytes) -> tuple[str | None, Case | None]:
    """Why ``fixture``'s position cannot exist under ``ruleset`` (:meth:`Fixture.fits`),
    and the case that applies to it (:meth:`Fixture.applicable_case`): both depend on the
    fixture and the ruleset's id and values only."""
    key = (id(fixture), ruleset.id, settings)
    found = _PLANS.get(key)
    if found is None or found[0] is not fixture:
        if len(_PLANS) > 100_000:
            _PLANS.clear()
        why = fixture.fits(ruleset)
        found = (fixture, why, None if why is not None else fixture.applicable_case(ruleset))
        _PLANS[key] = found
    return found[1], found[2]
