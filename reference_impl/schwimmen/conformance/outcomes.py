"""What the reference engine answers for a fixture's position under every ruleset, in the
shape of what the fixture asks.

The site's disagreements page shows each scenario's outcome under every ruleset of the default
run. Nothing of it is typed: the position of a pinning fixture is run through the engine's
one door (:func:`schwimmen.engine.adapter.run_case`, handed in as ``engine``) under each
ruleset, and the answer is cut down to what the fixture's cases state (who loses, whether
a step is refused, who is to move, ...), so that the page says what the fixture pins and
not the whole state of the table. A ruleset the fixture's cases pin is cut to its own
case's shape and checked against it: a page that contradicts its own fixture would be
wrong, so that is a problem for the build, not a cell. A ruleset no case speaks for is
cut to the shape of the case its answer is nearest to, and marked as not pinned.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from schwimmen.conformance.compare import compare
from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.spec.model import Ruleset

Engine = Callable[[Mapping[str, Any]], Mapping[str, Any]]

# Keys whose value is every seat that lost something (a seat left out lost nothing).
_LOSS_KEYS = frozenset({"losses", "lives_lost"})
# Keys that describe the round in progress; said only while no round has ended.
_IN_PLAY = frozenset({"to_move", "legal_includes", "legal_excludes", "knocker", "middle"})


@dataclass(frozen=True)
class Answer:
    """The engine's answer for one ruleset (or composed name), as the page shows it."""

    name: str
    # the answer cut to what the fixture asks; None when there is no answer
    outcome: Mapping[str, Any] | None = None
    # why the position cannot be set up under this ruleset (the matrix's "n/a")
    misfit: str | None = None
    # the engine could not run the case (never for a fixture the suite runs cleanly)
    error: str | None = None
    # some case of the fixture states this ruleset's outcome
    pinned: bool = False
    # for a ruleset no case speaks for: the first step the engine refused, as
    # (step number, reason); the fixture's steps were written for other rulesets
    stuck: tuple[int, str] | None = None

    @property
    def key(self) -> str:
        """Equal for answers that read the same on the page."""
        return json.dumps(
            [self.outcome, self.misfit, self.error, self.stuck, self.pinned],
            sort_keys=True,
            ensure_ascii=False,
        )


@dataclass(frozen=True)
class Group:
    """Rulesets whose answers read the same, in the order they were asked."""

    answers: tuple[Answer, ...]

    @property
    def first(self) -> Answer:
        return self.answers[0]


def step_pairs(fixture: Fixture) -> list[tuple[str, str]]:
    """The fixture's steps as (seat, action) pairs, in the order they are played."""
    out = []
    for step in fixture.setup.get("steps", ()):
        for seat, act in dict(step).items():
            out.append((str(seat), str(act)))
    return out


def answers(
    fixture: Fixture, rulesets: Sequence[Ruleset], engine: Engine
) -> tuple[list[Answer], list[str]]:
    """The engine's answer under each ruleset, and the problems found: a pinned ruleset
    whose answer differs from the fixture's case."""
    found = [answer(fixture, ruleset, engine) for ruleset in rulesets]
    return [a for a, _ in found], [p for _, p in found if p is not None]


def answer(fixture: Fixture, ruleset: Ruleset, engine: Engine) -> tuple[Answer, str | None]:
    """The engine's answer under one ruleset, and the problem, if its case says otherwise."""
    misfit = fixture.fits(ruleset)
    if misfit is not None:
        return Answer(ruleset.id, misfit=misfit), None
    reply = engine(fixture.request(ruleset))
    if reply.get("status") != "ok":
        message = str(reply.get("message") or reply.get("reason") or reply.get("status"))
        return Answer(ruleset.id, error=message), None
    outcome: Mapping[str, Any] = reply["outcome"]
    steps = len(step_pairs(fixture))
    case = fixture.applicable_case(ruleset)
    problem = None
    if case is not None:
        verdict = compare(case.expect, outcome, steps)
        if verdict.mismatches:
            shown = "; ".join(str(m) for m in verdict.mismatches[:3])
            problem = (
                f"{fixture.id} under {ruleset.id}: the reference engine differs from "
                f"case {case.label()!r}: {shown}"
            )
        shape = case.expect
    else:
        stuck = _first_refused(outcome)
        if stuck is not None:
            return Answer(ruleset.id, stuck=stuck), None
        shape = _nearest(fixture.cases, outcome, steps).expect
    projected = project(shape, outcome, fixture)
    return Answer(ruleset.id, outcome=projected, pinned=case is not None), problem


def _first_refused(outcome: Mapping[str, Any]) -> tuple[int, str] | None:
    for index, step in enumerate(outcome.get("steps") or (), start=1):
        if not step.get("accepted", True):
            return index, str(step.get("reason"))
    return None


def _nearest(cases: Sequence[Case], outcome: Mapping[str, Any], steps: int) -> Case:
    """The case whose expectation the outcome meets best (fewest differences)."""

    def misses(case: Case) -> int:
        try:
            return len(compare(case.expect, outcome, steps).mismatches)
        except ValueError:
            return 1_000

    return min(cases, key=misses)


def project(
    shape: Mapping[str, Any], outcome: Mapping[str, Any], fixture: Fixture
) -> dict[str, Any]:
    """``outcome`` cut down to the keys of ``shape`` (a case's ``expect``), in the form an
    expectation has, so that the fixture pages' wording reads it."""
    found = outcome.get("rounds")
    rounds: list[Mapping[str, Any]] = found if isinstance(found, list) else []
    ended = bool(rounds)
    out: dict[str, Any] = {}
    for key, wanted in shape.items():
        if key == "after_step":
            out[key] = {
                number: _state(state, outcome, int(number), fixture)
                for number, state in wanted.items()
            }
        elif key == "steps" or key == "round_over":
            continue  # said below, once
        elif key == "end":
            if ended:
                out[key] = _mapping(wanted, rounds[0])
        elif key == "rounds":
            out[key] = [
                _mapping(wanted[min(i, len(wanted) - 1)] if wanted else {}, record)
                for i, record in enumerate(rounds)
            ]
        elif key in _IN_PLAY and ended and fixture.kind == "round":
            continue
        elif key in ("legal_includes", "legal_excludes"):
            continue  # said below, once
        else:
            out[key] = _value(key, wanted, _actual(key, outcome, fixture))
    if "steps" in shape or fixture.kind in ("round", "match"):
        refused = _steps(shape.get("steps", {}), outcome)
        if refused or "steps" in shape:
            out = {"steps": refused, **out}
    if "round_over" in shape or ("end" in shape and not ended):
        out["round_over"] = ended
    legal = _legal(shape, outcome)
    if legal and not (ended and fixture.kind == "round"):
        out.update(legal)
    return out


def _actual(key: str, outcome: Mapping[str, Any], fixture: Fixture) -> Any:
    """The outcome's value for ``key``; a played position's ``losses`` are its first
    round's (as the harness reads them)."""
    if key == "losses" and "losses" not in outcome:
        rounds = outcome.get("rounds")
        if isinstance(rounds, list) and rounds:
            return rounds[0].get("losses", {})
        return {}
    return outcome.get(key)


def _value(key: str, wanted: Any, actual: Any) -> Any:
    if key in _LOSS_KEYS and isinstance(actual, Mapping):
        return {seat: n for seat, n in actual.items() if n}
    if key == "values" and isinstance(wanted, Mapping) and isinstance(actual, Mapping):
        return {seat: _worth(sub, actual.get(seat)) for seat, sub in wanted.items()}
    if isinstance(wanted, Mapping) and isinstance(actual, Mapping):
        return _mapping(wanted, actual)
    return actual


def _worth(wanted: Any, actual: Any) -> Any:
    """A hand's value: what the case asks of it, and always its points and kind (and its
    suit for a suit hand), so that a reader sees what the hand is worth."""
    if not isinstance(actual, Mapping):
        return actual
    keys = ["points", "hand", *(wanted if isinstance(wanted, Mapping) else ())]
    if actual.get("hand") == "suit":
        keys.append("suit")
    return {k: actual[k] for k in dict.fromkeys(keys) if k in actual}


def _mapping(wanted: Mapping[str, Any], actual: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: _value(key, sub, actual.get(key))
        for key, sub in wanted.items()
        if key in actual or key in _LOSS_KEYS
    }


def _state(
    wanted: Mapping[str, Any], outcome: Mapping[str, Any], number: int, fixture: Fixture
) -> dict[str, Any]:
    """A state after a step, cut to what the case says of it."""
    states = outcome.get("states", {})
    state: Mapping[str, Any] = states.get(str(number), {}) if isinstance(states, Mapping) else {}
    out: dict[str, Any] = {}
    for key, sub in wanted.items():
        if key == "round_over":
            rounds = outcome.get("rounds") or ()
            out[key] = any(int(r.get("after_step", 0)) <= number for r in rounds)
        elif key in ("legal_includes", "legal_excludes"):
            continue
        else:
            out[key] = _value(key, sub, state.get(key))
    out.update(_legal(wanted, state))
    return out


def _steps(wanted: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
    """The steps a case speaks of, and every step the engine refused."""
    verdicts: dict[str, Any] = {}
    for index, step in enumerate(outcome.get("steps") or (), start=1):
        number = str(index)
        if not step.get("accepted", True):
            verdicts[number] = {"rejected": step.get("reason")}
        elif number in wanted:
            verdicts[number] = "accepted"
    return dict(sorted(verdicts.items(), key=lambda item: int(item[0])))


def _legal(wanted: Mapping[str, Any], state: Mapping[str, Any]) -> dict[str, Any]:
    """The actions a case asks about, split into those allowed and those not."""
    asked = [*wanted.get("legal_includes", ()), *wanted.get("legal_excludes", ())]
    if not asked:
        return {}
    legal = set(state.get("legal") or ())
    out: dict[str, Any] = {}
    allowed = [a for a in asked if a in legal]
    refused = [a for a in asked if a not in legal]
    if allowed:
        out["legal_includes"] = allowed
    if refused:
        out["legal_excludes"] = refused
    return out


def grouped(found: Sequence[Answer], origins: Mapping[str, str]) -> list[Group]:
    """Answers that read the same, together; a house rule (``pagat+no-triples``, its
    origin in ``origins``) only where it answers otherwise than the ruleset it is on."""
    by_name = {a.name: a for a in found}
    groups: dict[str, list[Answer]] = {}
    for answer in found:
        origin = origins.get(answer.name)
        base = by_name.get(origin) if origin is not None else None
        if base is not None and base.key == answer.key:
            continue
        groups.setdefault(answer.key, []).append(answer)
    return [Group(tuple(members)) for members in groups.values()]
