"""Trying the fingerprint on engines whose rules are known: its test and its benchmark.

A trial is a ruleset with some parameters changed (or a house rule on its origin), played
by the reference whatever ruleset a case names: ``schwimmen serve --play`` over the
protocol, or the same thing in-process (:func:`played_in_process`, answering each
position once: such an engine's answer does not depend on the ruleset the request
names). The fingerprint should name what it plays: the trial's base and exactly its
changed parameter values. Its verdict on a trial is one of

* ``hit``: the closest explanation plays exactly the trial's parameter values (a base
  with changes, or a composition of the catalog that is the same ruleset);
* ``not observable``: under its own base the trial passes every fixture; the suite
  cannot see the change at all, so no fingerprint can find it;
* ``suite inconsistent``: the reference playing the trial fails a case that applies to
  the trial's ruleset (a case whose predicates pin the changed parameter but not another
  one its outcome depends on: the mutation lint, which ignores failures of cases that pin
  the changed parameter, does not see it); the truth itself leaves a failure unexplained,
  and :func:`inconsistencies` lists them;
* ``seen in part``: the fingerprint found some of the trial's changes on its base and
  nothing else, and that explains everything: the suite cannot see the others there
  (no fixture's outcome depends on them once the first are made);
* ``indistinguishable``: the fingerprint chose something else, but the truth would not
  rank better on the suite's evidence (as few unexplained failures and as few changes):
  a change with the same effect on every fixture as another;
* ``cannot tell``: the trial's changes make failing fixtures pass by no case: they only
  take them out of judgement (the suite has no case for the value there), so the
  fingerprint must claim nothing on the base and list the change as "cannot tell";
* ``miss``: the truth would have ranked better, and the search did not find it.

Whatever the verdict, :func:`false_claims` lists every claimed value on the trial's base
that the trial does not play: there must be none.
"""

from __future__ import annotations

import json
import random
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from schwimmen.conformance.fingerprint.analysis import Fingerprint, check, value_changes
from schwimmen.conformance.fingerprint.evidence import Implementation
from schwimmen.conformance.mutations import alternatives
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Ruleset

HIT = "hit"
NOT_OBSERVABLE = "not observable"
INCONSISTENT = "suite inconsistent"
IN_PART = "seen in part"
INDISTINGUISHABLE = "indistinguishable"
CANNOT_TELL = "cannot tell"
MISS = "miss"


@dataclass(frozen=True)
class Trial:
    """A ruleset ``base`` played with ``changes`` (a house rule: ``base`` is its origin
    and ``played`` the composition)."""

    base: str
    changes: Mapping[str, Any] = field(default_factory=dict)
    played: str | None = None

    @property
    def label(self) -> str:
        if self.played:
            return self.played
        shown = ", ".join(f"{p}={json.dumps(v)}" for p, v in self.changes.items())
        return f"{self.base}+{{{shown}}}"

    def ruleset(self, catalog: Catalog) -> Ruleset:
        if self.played:
            return catalog.resolve(self.played)
        return catalog.mutant(self.base, self.changes)

    def explicit_changes(self, catalog: Catalog) -> dict[str, Any]:
        """The parameter values the trial sets (a house rule's, as its file writes them)."""
        if not self.played:
            return dict(self.changes)
        out: dict[str, Any] = {}
        for name in self.played.split(SEPARATOR)[1:]:
            rules = catalog.house_rules[name].data["rules"]
            for group, params in rules.items():
                for param, entry in params.items():
                    out[f"{group}.{param}"] = entry["value"]
        return out

    def serve_command(self, python: str = sys.executable) -> str:
        """The ``schwimmen serve --play`` command that plays this trial."""
        words = [python, "-m", "schwimmen", "serve", "--play", self.played or self.base]
        for param, value in self.changes.items():
            words += ["--set", f"{param}={json.dumps(value)}"]
        return shlex.join(words)


def house_rule_trials(catalog: Catalog) -> list[Trial]:
    """Every house rule of the catalog, played on its origin."""
    return [
        Trial(name.split(SEPARATOR)[0], played=name)
        for name in catalog.standard_names()
        if SEPARATOR in name
    ]


def sample(trials: list[Trial], count: int, seed: int) -> list[Trial]:
    """``count`` of ``trials``, the same for a seed (for a quick run)."""
    return random.Random(seed).sample(trials, min(count, len(trials)))


def mutant_trials(catalog: Catalog, seed: int, ones: int, twos: int) -> list[Trial]:
    """For each ruleset, ``ones`` random one-parameter and ``twos`` two-parameter
    mutants (valid ones, from the mutation lint's alternatives), the same for a seed."""
    rng = random.Random(seed)
    space = alternatives()
    out: list[Trial] = []
    for base in sorted(catalog.rulesets):
        values = catalog.resolve(base).values()
        choices = sorted(
            (
                (p, v)
                for p, vs in space.items()
                if p in values
                for v in vs
                if json.dumps(v) != json.dumps(values[p])
            ),
            key=lambda pv: (pv[0], json.dumps(pv[1], sort_keys=True)),
        )
        for size, count in ((1, ones), (2, twos)):
            seen: set[str] = set()
            for _ in range(count * 50):
                if len(seen) >= count:
                    break
                picked = rng.sample(choices, size)
                if len({p for p, _ in picked}) < size:
                    continue
                trial = Trial(base, dict(sorted(picked)))
                if trial.label in seen:
                    continue
                try:
                    trial.ruleset(catalog)
                except SpecErrors:
                    continue
                seen.add(trial.label)
                out.append(trial)
    return out


def played_in_process(catalog: Catalog, trial: Trial) -> Implementation:
    """An in-process implementation playing ``trial`` whatever the request names, as
    ``serve --play`` does; it answers each position once."""
    from schwimmen.engine.adapter import run_case
    from schwimmen.protocol.server import playing

    run = playing(trial.ruleset(catalog).values(), run_case)
    answers: dict[str, Mapping[str, Any]] = {}

    def implementation(request: Mapping[str, Any]) -> Mapping[str, Any]:
        key = json.dumps({k: v for k, v in request.items() if k != "ruleset"}, sort_keys=True)
        if key not in answers:
            answers[key] = run(request)
        return answers[key]

    return implementation


def _values(ruleset: Ruleset) -> str:
    return json.dumps(ruleset.values(), sort_keys=True)


def verdict(catalog: Catalog, trial: Trial, found: Fingerprint) -> str:
    """hit, not observable, indistinguishable or miss (module docstring)."""
    truth = trial.ruleset(catalog)
    best = found.closest
    if best is not None and _values(best.ruleset) == _values(truth):
        return HIT
    evidence = found.evidence
    seen = evidence.bases.get(trial.base) if evidence is not None else None
    if seen is not None and all(o.passed for o in seen.observed.values()) and not seen.errored:
        return NOT_OBSERVABLE
    if best is None or evidence is None or seen is None:
        return MISS
    changes = trial.explicit_changes(catalog)
    scored = check(catalog, evidence, trial.base, changes)
    if scored is None:
        return MISS
    if scored.disagree or scored.errored:
        return INCONSISTENT
    if not _shown(catalog, found, trial, scored) and not false_claims(catalog, trial, found):
        return CANNOT_TELL
    truth_rank = (len(scored.disagree) + len(scored.errored), len(changes))
    if best.rank()[:2] > truth_rank:
        return MISS
    named = _keys(value_changes(best.base_ruleset, best.ruleset))
    wanted = _keys(value_changes(catalog.resolve(trial.base), truth))
    if best.base == trial.base and named < wanted:
        return IN_PART
    return INDISTINGUISHABLE


def _shown(catalog: Catalog, found: Fingerprint, trial: Trial, scored: Any) -> bool:
    """Does some fixture failing under the trial's base pass under the truth (and not
    only as an idle engine would)? Otherwise the suite cannot tell the trial's values."""
    evidence = found.evidence
    assert evidence is not None
    base = check(catalog, evidence, trial.base, {})
    if base is None:
        return False
    moved = (scored.agree - base.agree) & base.disagree
    return bool(moved)


def false_claims(catalog: Catalog, trial: Trial, found: Fingerprint) -> list[str]:
    """Everything the fingerprint told that the trial does not play: another ruleset,
    a house rule of the closest base whose value the trial does not play, a claimed
    value that is not the trial's (unless the trial's value is among the alternatives
    named with it, which the suite cannot tell apart). Nothing, when nothing was told."""
    best = found.closest
    if best is None or not found.told:
        return []
    truth = trial.ruleset(catalog).values()
    origin = best.base.split(SEPARATOR)[0]
    if origin != trial.base:
        return [f"the ruleset {origin} (the trial plays {trial.base})"]
    out = []
    for param, (was, value) in value_changes(catalog.resolve(origin), best.base_ruleset).items():
        if param not in best.changes and _key(value) != _key(truth.get(param)):
            out.append(f"{param} = {json.dumps(value)} (house rule of {best.base}; was {was})")
    for deviation in best.deviations:
        told = (deviation.changes, *deviation.alternatives)
        if not any(all(_key(truth.get(c.parameter)) == _key(c.value) for c in t) for t in told):
            out += [f"{c.parameter} = {json.dumps(c.value)}" for c in deviation.changes]
    return out


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _keys(changes: Mapping[str, Any]) -> set[str]:
    return {json.dumps([p, v], sort_keys=True) for p, v in changes.items()}


def inconsistencies(catalog: Catalog, trial: Trial, found: Fingerprint) -> list[str]:
    """The fixtures whose case under the trial's ruleset its own play fails: the suite
    contradicts the reference there (``fixture: case``)."""
    evidence = found.evidence
    if evidence is None or trial.base not in evidence.bases:
        return []
    scored = check(catalog, evidence, trial.base, trial.explicit_changes(catalog))
    if scored is None:
        return []
    seen = evidence.bases[trial.base].observed
    out = []
    for fid in sorted(scored.disagree):
        case = seen[fid].fixture.applicable_case(scored.ruleset)
        out.append(f"{fid}: {case.label() if case is not None else '?'}")
    return out
