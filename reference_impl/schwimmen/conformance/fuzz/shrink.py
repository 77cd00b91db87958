"""The reducer: a case that shows a difference, made as small as it will go while the
implementation still differs from the reference in the same way.

A fuzzed case is long (dozens of steps, several rounds, full packs, up to eight seats),
and nobody can read what went wrong in it. Delta debugging (Zeller's ddmin) takes steps
away in ever smaller chunks; the table is cut down (fewer seats, the default dealer, no
eliminated seat, the ruleset's lives); each pack is cut short; every choice is made the
simplest. Each try is played again on the reference (``fuzz.play``), so it stays a real
playthrough, and is kept only if the implementation's first difference is still in the
same field (``Difference.signature``). The passes repeat until none makes the case
smaller or the budget (tries and seconds) is spent; what is left is the smallest case
found, never one that lost the difference.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from schwimmen.conformance.fuzz.cases import Decision, Plan, Playthrough, play
from schwimmen.conformance.fuzz.diff import Difference
from schwimmen.engine.dealing import cached_pattern
from schwimmen.spec.model import Ruleset

T = TypeVar("T")

Check = Callable[[dict[str, object]], Difference | None]
"""Runs a case on both sides: the first difference, or None when they agree."""


class Budget:
    """How many tries, and until when, the reducer may spend."""

    def __init__(self, tries: int = 3000, seconds: float = 30.0) -> None:
        self.tries = tries
        self.deadline = time.monotonic() + seconds
        self.used = 0

    def take(self) -> bool:
        if self.used >= self.tries or time.monotonic() > self.deadline:
            return False
        self.used += 1
        return True


def ddmin(items: Sequence[T], test: Callable[[list[T]], list[T] | None]) -> list[T]:
    """Delta debugging: remove chunks of ``items`` (halves, then quarters, ...) as long
    as ``test`` accepts the rest. ``test`` returns the list to go on with (the caller may
    tidy it up) or None to refuse."""
    current = list(items)
    n = 2
    while current:
        if len(current) == 1:
            kept = test([])
            return current if kept is None else kept
        size = -(-len(current) // n)
        for start in range(0, len(current), size):
            kept = test(current[:start] + current[start + size :])
            if kept is not None:
                current = kept
                n = max(n - 1, 2)
                break
        else:
            if n >= len(current):
                return current
            n = min(2 * n, len(current))
    return current


@dataclass(frozen=True)
class Shrunk:
    playthrough: Playthrough
    difference: Difference
    tries: int
    seconds: float


def _size(p: Playthrough) -> tuple[int, int, int, int, int]:
    plan = p.plan
    cards = sum(len(pack) for pack in plan.packs)
    picks = sum(1 for d in plan.decisions if d.pick)
    return (p.steps, plan.seats, len(plan.packs), cards, picks)


class _Reducer:
    def __init__(
        self,
        ruleset: Ruleset,
        start: Playthrough,
        difference: Difference,
        check: Check,
        budget: Budget,
    ) -> None:
        self.ruleset = ruleset
        self.best = start
        self.difference = difference
        self.signature = difference.signature
        self.check = check
        self.budget = budget

    def test(self, plan: Plan) -> bool:
        """Keep ``plan`` if it still differs the same way and is no bigger."""
        if not self.budget.take():
            return False
        done = play(self.ruleset, plan)
        if done is None or _size(done) > _size(self.best):
            return False
        found = self.check(done.case)
        if found is None or found.signature != self.signature:
            return False
        self.best, self.difference = done, found
        return True

    @property
    def plan(self) -> Plan:
        return self.best.plan

    # ------------------------------------------------------------------ passes
    def cut_after_difference(self) -> None:
        if self.difference.time <= len(self.plan.decisions):
            self.test(replace(self.plan, decisions=self.plan.decisions[: self.difference.time]))

    def later_start(self) -> None:
        """Leave out whole rounds: start the case at a later round, with the dealer,
        lives and seats out that the table had then (latest first)."""
        for start in reversed(self.best.starts):
            plan = self.plan
            if start.decisions >= len(plan.decisions):
                continue
            later = Plan(
                plan.seats,
                start.dealer,
                start.lives,
                start.eliminated,
                plan.packs[start.pack :],
                plan.decisions[start.decisions :],
            )
            if self.test(later):
                return

    def steps(self) -> None:
        def test(decisions: list[Decision]) -> list[Decision] | None:
            return (
                list(self.plan.decisions)
                if self.test(replace(self.plan, decisions=tuple(decisions)))
                else None
            )

        ddmin(self.plan.decisions, test)

    def table(self) -> None:
        low = self.ruleset.rules.players.min
        for seats in range(low, self.plan.seats):
            if self.test(_seated(self.plan, seats)):
                break
        if self.plan.eliminated and not self.test(_without_eliminated(self.plan)):
            self.test(replace(self.plan, eliminated=()))
        if self.plan.dealer is not None:
            self.test(replace(self.plan, dealer=None))
        if self.plan.lives is not None and not self.test(replace(self.plan, lives=None)):
            for lives in _simpler_lives(self.plan.lives):
                if self.test(replace(self.plan, lives=lives)):
                    break

    def packs(self) -> None:
        rules = self.ruleset.rules
        for i in range(len(self.plan.packs)):
            if i >= len(self.plan.packs):
                break
            active = self.plan.seats - len(self.plan.eliminated)
            rest = cached_pattern(rules, active).rest
            length = len(self.plan.packs[i])
            for cut in _lengths(rest, length):
                packs = list(self.plan.packs)
                packs[i] = packs[i][:cut]
                if self.test(replace(self.plan, packs=tuple(packs))):
                    break

    def choices(self) -> None:
        plan = self.plan
        if not any(d.pick for d in plan.decisions):
            return
        simple = tuple(Decision(d.what, 0) for d in plan.decisions)
        if self.test(replace(plan, decisions=simple)):
            return
        for i in range(len(self.plan.decisions)):
            decisions = list(self.plan.decisions)
            if i >= len(decisions) or not decisions[i].pick:
                continue
            decisions[i] = Decision(decisions[i].what, 0)
            self.test(replace(self.plan, decisions=tuple(decisions)))


def _seated(plan: Plan, seats: int) -> Plan:
    """``plan`` at a smaller table: seats beyond it, and what names them, left out."""
    dealer = plan.dealer if plan.dealer is not None and plan.dealer < seats else None
    lives = plan.lives
    if isinstance(lives, tuple):
        lives = lives[:seats]
    eliminated = tuple(s for s in plan.eliminated if s < seats)
    return replace(plan, seats=seats, dealer=dealer, lives=lives, eliminated=eliminated)


def _without_eliminated(plan: Plan) -> Plan:
    """``plan`` with the seats that are out taken from the table: the others keep their
    order, so they are dealt and play exactly as before."""
    keep = [s for s in range(plan.seats) if s not in plan.eliminated]
    index = {s: i for i, s in enumerate(keep)}
    dealer = plan.seats - 1 if plan.dealer is None else plan.dealer
    lives = plan.lives
    if isinstance(lives, tuple):
        lives = tuple(lives[s] for s in keep)
    mapped = index[dealer]
    return Plan(
        len(keep),
        None if mapped == len(keep) - 1 else mapped,
        lives,
        (),
        plan.packs,
        plan.decisions,
    )


def _simpler_lives(lives: int | tuple[int, ...]) -> list[int | tuple[int, ...]]:
    if isinstance(lives, int):
        return list(range(lives))
    return sorted(set(lives))


def _lengths(rest: int, length: int) -> list[int]:
    """Shorter packs to try, shortest first: only the cards the deal uses, then a few
    more, then half of what is left, ..."""
    out = {rest, rest + 1, rest + 2, rest + 3, rest + 6}
    step = length - rest
    while step > 1:
        step //= 2
        out.add(length - step)
    return sorted(n for n in out if rest <= n < length)


def shrink(
    ruleset: Ruleset,
    start: Playthrough,
    difference: Difference,
    check: Check,
    budget: Budget | None = None,
) -> Shrunk:
    """The smallest case found that still differs in ``difference``'s field."""
    began = time.monotonic()
    budget = budget or Budget()
    reducer = _Reducer(ruleset, start, difference, check, budget)
    reducer.cut_after_difference()
    while True:
        before = _size(reducer.best)
        reducer.later_start()
        reducer.steps()
        reducer.table()
        reducer.packs()
        reducer.choices()
        reducer.cut_after_difference()
        if _size(reducer.best) >= before or budget.used >= budget.tries:
            break
    return Shrunk(reducer.best, reducer.difference, budget.used, time.monotonic() - began)
