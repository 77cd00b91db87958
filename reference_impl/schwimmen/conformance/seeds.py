"""Seed lint: does any case pass or fail by luck?

Once the packs a case gives (``deck``/``decks``, or the positions of ``hands`` and
``deals``) run out, an engine deals whatever it likes: the reference shuffles a whole pack
with the request's ``seed`` (PROTOCOL.md, "Fields the harness never sends"). A case whose
verdict rests on such a deal passes one engine by luck and fails another, or the same one
another day. So every round and match case is run on the reference under a few seeds,
and a case whose verdict changes with the seed is reported: it must give the packs (or
the deals) its expectation rests on, or check nothing that follows them.

The reference shuffles nowhere else, so a few seeds are enough to see a dependence: a
shuffled pack that mattered to a check under one seed differs under the next. Running
every case under three seeds costs about two seconds beside the lint's other checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from schwimmen.conformance.fixtures import Case, Fixture
from schwimmen.conformance.runner import CaseResult, Status, judge
from schwimmen.engine.adapter import run_case
from schwimmen.spec.model import Ruleset

SEEDS = (0, 1, 2)
PLAYED = ("round", "match")


@dataclass(frozen=True)
class SeedProblem:
    """A case the reference cannot run, or whose verdict changes with the seed."""

    fixture: Fixture
    case: Case
    ruleset: str
    message: str


def seed_problems(
    plan: Iterable[tuple[Fixture, Case, Ruleset]], seeds: tuple[int, ...] = SEEDS
) -> list[SeedProblem]:
    """Every played case of ``plan`` that errors on the reference or whose verdict depends
    on the seed, at most one problem per fixture and case (the first ruleset found)."""
    found: dict[tuple[str, int], SeedProblem] = {}
    for fixture, case, ruleset in plan:
        if fixture.kind not in PLAYED or (fixture.id, case.index) in found:
            continue
        verdicts: list[tuple[int, CaseResult]] = []
        for seed in seeds:
            answer = run_case({**fixture.request(ruleset), "seed": seed})
            result = judge(fixture, case, ruleset, answer)
            if result.status is Status.ERRORED:
                message = f"the reference cannot run it under {ruleset.id}: {result.message}"
                verdicts = []
                found[fixture.id, case.index] = SeedProblem(fixture, case, ruleset.id, message)
                break
            verdicts.append((seed, result))
        passed = [seed for seed, r in verdicts if r.status is Status.PASSED]
        failed = [(seed, r) for seed, r in verdicts if r.status is not Status.PASSED]
        if passed and failed:
            seed, result = failed[0]
            why = "; ".join(str(m) for m in result.mismatches[:2])
            message = (
                f"passes under seed {passed[0]} but fails under seed {seed} on {ruleset.id} "
                f"({why}): it checks what a shuffled pack decides; give the packs (decks) "
                "or deals it rests on"
            )
            found[fixture.id, case.index] = SeedProblem(fixture, case, ruleset.id, message)
    return list(found.values())
