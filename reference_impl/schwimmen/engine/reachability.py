"""Can every round of a ruleset end? A search over small positions with the full engine.

A valid ruleset must let every round end: from every position a round can reach, some
sequence of legal actions ends it (issue 19: a composition such as "a knock counts as a
pass" with "passing is forbidden" validates, after which nobody may ever knock). Whether
that holds is a property of the whole position graph, which is far too large to walk for
a real pack; this search walks it where it is small and says only what it saw:

* from seeded deals at two and three seats, a random walk of legal actions visits
  positions; every position visited must offer a legal action (a position without one is a
  *dead end*, the engine could not go on);
* at sampled positions of the walk, two playouts look for the end of the round (one
  knocks and passes where it may, one builds the best hand: the way to a 31); where they
  find none, a breadth-first search over the actions, with positions that differ only in
  what cannot change the future merged (the move counter past the first move, when each
  hand was reached, the cards out of play, the order of the cards in a hand), either finds
  an end, or exhausts every position reachable from there (a proof that the round can never
  end from it: *never ends*), or runs out of its budget (*unknown*, never reported as
  either);
* along the way it notes what was ever possible (:data:`ABILITIES`: a knock, a pass, the
  end of a round), so that a rule that can never apply is seen as an ability gone missing.

Every finding carries the deal and the actions that lead to it, so it can be replayed.
"""

from __future__ import annotations

import copy
import random
from collections import Counter, deque
from collections.abc import Hashable
from dataclasses import dataclass, fields
from typing import Any

from schwimmen.engine.hands import FLAG_BITS, evaluator_for
from schwimmen.engine.rounds import Phase, Round
from schwimmen.protocol.actions import Action, ActionKind
from schwimmen.spec.rules import Rules

SEATS = (2, 3)
DEALS = 2
WALK = 60
SAMPLE_EVERY = 6
PLAYOUT_LENGTH = 60
BUDGET = 3_000
SEARCHES = 1

KNOCK = "knock"
PASS = "pass"
ROUND_ENDS = "round-ends"
ABILITIES: dict[str, str] = {
    KNOCK: "nobody may ever knock (or close)",
    PASS: "nobody may ever pass",
    ROUND_ENDS: "no round ends",
}
"""What the search notes as possible, and what it means when it never was."""

# Fields of a round that never change which actions are legal or whether the round can
# end: the table and the rules, the emitter, the cards out of play, when each hand was
# reached (it decides only who loses a tie). ``moves`` matters only as "somebody moved".
_SAME_FUTURE = frozenset(
    {"rules", "evaluator", "emit", "number", "table_size", "seats", "dealer", "result"}
    | {"reached", "out", "moves"}
)
_UNORDERED = frozenset({"middle", "extra"})


@dataclass(frozen=True)
class Witness:
    """A position the search found: the deal (seats, seed) and the actions that reach it."""

    seats: int
    seed: int
    actions: tuple[str, ...]

    def describe(self) -> str:
        path = " ".join(self.actions) if self.actions else "nothing"
        return f"{self.seats} players, deal seed {self.seed}, after: {path}"


@dataclass(frozen=True)
class Outcome:
    """What the search saw for one ruleset."""

    positions: int
    checked: int
    unknown: int
    seen: tuple[tuple[str, int], ...]
    dead_end: Witness | None = None
    never_ends: Witness | None = None
    searched: int = 0
    """Breadth-first searches made (each up to the budget of positions)."""

    @property
    def ok(self) -> bool:
        return self.dead_end is None and self.never_ends is None

    @property
    def abilities(self) -> frozenset[str]:
        return frozenset(name for name, count in self.seen if count)

    def share(self, ability: str) -> float:
        """How often the ability was seen: of the positions visited (a knock, a pass), of
        the positions checked (a round's end)."""
        count = dict(self.seen).get(ability, 0)
        return count / max(self.checked if ability == ROUND_ENDS else self.positions, 1)


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, set):
        return set(value)
    return value


_FIELDS = tuple(f.name for f in fields(Round))
_KEYED = tuple(n for n in _FIELDS if n not in _SAME_FUTURE and not n.startswith("_"))


def clone(rnd: Round) -> Round:
    """An independent copy of a round (its rules and evaluator shared, they are immutable)."""
    twin = copy.copy(rnd)
    for name in _FIELDS:
        value = getattr(rnd, name)
        if isinstance(value, list | dict | set):
            setattr(twin, name, _copied(value))
    return twin


def _frozen(value: Any) -> Hashable:
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, set | frozenset):
        return frozenset(value)
    return value  # type: ignore[no-any-return]


def signature(rnd: Round) -> Hashable:
    """The position as far as its future is concerned (see :data:`_SAME_FUTURE`); a
    hand, the middle and the extra hand are sets of cards (their order is only where a
    swap put each card)."""
    parts: list[Hashable] = [rnd.moves > 0]
    for name in _KEYED:
        value = getattr(rnd, name)
        if name in _UNORDERED and value is not None:
            value = sorted(value)
        elif name == "hands":
            value = {seat: sorted(cards) for seat, cards in value.items()}
        parts.append(_frozen(value))
    return tuple(parts)


def _is_knock(action: Action) -> bool:
    return action.kind is ActionKind.KNOCK or action.knock


def _closing_choice(legal: list[Action], rng: random.Random) -> Action:
    knocks = [a for a in legal if _is_knock(a)]
    if knocks:
        return knocks[0]
    for action in legal:
        if action.kind is ActionKind.PASS:
            return action
    return legal[int(rng.random() * len(legal))]


def _best_hand_choice(rnd: Round, legal: list[Action], rng: random.Random) -> Action:
    """A knock where one is legal, else the swap that leaves the best hand (towards a 31
    where only a 31 may close), else a random action."""
    knocks = [a for a in legal if _is_knock(a)]
    if knocks:
        return knocks[0]
    seat = rnd.current
    hand = rnd.hands.get(seat)
    best: Action | None = None
    best_key = -1
    if hand is not None:
        for action in legal:
            if action.kind is ActionKind.SWAP_ALL:
                after = list(rnd.middle)
            elif action.kind is ActionKind.SWAP and len(action.give) == 1:
                give, take = action.give[0], action.take[0]
                after = [take if c == give else c for c in hand]
            else:
                continue
            key = rnd.evaluator.packed(after) >> FLAG_BITS
            if key > best_key:
                best, best_key = action, key
    return best if best is not None else legal[int(rng.random() * len(legal))]


def _playouts_end(rnd: Round, rng: random.Random) -> bool:
    """Playouts towards the end: one that closes and passes where it may, one that
    builds the best hand (where only a 31 may close, or only a 31 ends the round)."""
    for policy in (_closing_choice, None):
        probe = clone(rnd)
        for _ in range(PLAYOUT_LENGTH):
            if probe.phase is Phase.OVER:
                return True
            legal = probe.legal_actions()
            if not legal:
                break
            if policy is None:
                probe.apply(_best_hand_choice(probe, legal, rng), checked=True)
            else:
                probe.apply(policy(legal, rng), checked=True)
        if probe.phase is Phase.OVER:
            return True
    return False


def search_end(rnd: Round, budget: int = BUDGET) -> bool | None:
    """Breadth-first over the actions from ``rnd``: True when some sequence ends the
    round, False when every position reachable from it was seen and none ends it, None
    when the budget of positions ran out first."""
    if rnd.phase is Phase.OVER:
        return True
    seen = {signature(rnd)}
    queue = deque([rnd])
    while queue:
        here = queue.popleft()
        for action in here.legal_actions():
            there = clone(here)
            there.apply(action, checked=True)
            if there.phase is Phase.OVER:
                return True
            key = signature(there)
            if key in seen:
                continue
            if len(seen) >= budget:
                return None
            seen.add(key)
            queue.append(there)
    return False


def _table_sizes(rules: Rules) -> list[int]:
    low, high = rules.players.min, rules.players.max
    return [n for n in SEATS if low <= n <= high] or [low]


def explore(
    rules: Rules,
    *,
    deals: int = DEALS,
    walk: int = WALK,
    searches: int = SEARCHES,
    budget: int = BUDGET,
) -> Outcome:
    """Walk seeded deals of ``rules`` and check the positions met (see the module doc);
    at most ``searches`` breadth-first searches are made (each up to :data:`BUDGET`
    positions), the other positions where no playout ended the round count as unknown."""
    evaluator = evaluator_for(rules)
    abilities: Counter[str] = Counter()
    positions = checked = unknown = searched = 0
    for seats in _table_sizes(rules):
        for seed in range(deals):
            rng = random.Random(seats * 1_000_003 + seed)
            pack = list(evaluator.pack)
            rng.shuffle(pack)
            rnd = Round.deal(rules, evaluator, seats, list(range(seats)), seats - 1, pack)
            path: list[str] = []
            for step in range(walk):
                if rnd.phase is Phase.OVER:
                    break
                positions += 1
                legal = rnd.legal_actions()
                if not legal:
                    dead_end = Witness(seats, seed, tuple(path))
                    return Outcome(
                        positions, checked, unknown, _seen(abilities), dead_end, None, searched
                    )
                if any(_is_knock(a) for a in legal):
                    abilities[KNOCK] += 1
                if any(a.kind is ActionKind.PASS and not a.knock for a in legal):
                    abilities[PASS] += 1
                if step % SAMPLE_EVERY == 0:
                    checked += 1
                    if _playouts_end(rnd, rng):
                        abilities[ROUND_ENDS] += 1
                    else:
                        found = None
                        if searched < searches:
                            found = search_end(rnd, budget)
                            searched += 1
                        if found:
                            abilities[ROUND_ENDS] += 1
                        elif found is None:
                            unknown += 1
                        elif not found:
                            never_ends = Witness(seats, seed, tuple(path))
                            return Outcome(
                                positions,
                                checked,
                                unknown,
                                _seen(abilities),
                                None,
                                never_ends,
                                searched,
                            )
                action = legal[int(rng.random() * len(legal))]
                path.append(action.text)
                rnd.apply(action, checked=True)
            if rnd.result is not None:
                abilities[ROUND_ENDS] += 1
    return Outcome(positions, checked, unknown, _seen(abilities), searched=searched)


def _seen(counts: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple((name, counts[name]) for name in ABILITIES)
