"""Differential fuzzing, the cases: seeded random playthroughs of the reference engine,
written as conformance ``round``/``match`` cases (stacked packs, steps).

A case is kept as a :class:`Plan`: the table (seats, dealer, lives, eliminated seats),
the packs of its rounds, and one :class:`Decision` per step. A decision records what
kind of action was chosen (a knock, a pass, a swap, a probe the reference refuses, ...)
and a number that picks one of them, not the step's text. Played again on a smaller
table or another pack, a decision still gives a step that makes sense there, so the
reducer (``shrink.py``) can take seats, rounds and steps away and the case stays a real
playthrough instead of a list of steps that no longer fit.

Everything comes from one ``random.Random`` per case, so a seed and a case number give
the same case on every machine and for any number of jobs.

The generator leans toward the situations where rulesets differ and random play seldom
goes: few seats, few lives (and swimming), knocking early and passing often, packs
stacked with a triple, a maximum (31) or two hands of equal value for a tie, and short
packs whose stock runs out. Each case draws its own mix of these, so plain play is
covered too.
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from schwimmen.conformance.fixtures import parameter_values
from schwimmen.conformance.fuzz.probes import Refused, choose, refusals
from schwimmen.engine.adapter import Played
from schwimmen.engine.dealing import cached_pattern
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.match import Match, RoundBegan, SetupError, shuffled
from schwimmen.engine.reasons import IllegalAction, Reason
from schwimmen.protocol.actions import Action, ActionKind
from schwimmen.protocol.cards import CARD_TEXT, SEAT_NAME, Card, make
from schwimmen.protocol.frozen import quick_init
from schwimmen.spec.model import Ruleset
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import AfterLast, Series

TABLE = "table"
PROBE = "probe"
CATEGORIES = ("knock", "pass", "swap", "draw", "discard", "other")
RESERVE = 2
"""Packs kept ready while generating: a step can end a round, and the rounds after it
can end at their deal, each taking a pack, before anybody acts again."""
_PICKS = 1 << 30
"""A decision's pick is drawn below this."""
_TEXT = CARD_TEXT.__getitem__


@quick_init
@dataclass(frozen=True, slots=True)
class Decision:
    """One step's intent: a category of legal action, ``probe`` (an action the reference
    refuses) or ``table`` (the next match of a series); ``pick`` chooses within it."""

    what: str
    pick: int


@dataclass(frozen=True)
class Plan:
    """Everything a case is made from; ``packs`` are the rounds' packs in order, top
    card first (``dealer`` None: the last seat deals, ``lives`` None: the ruleset's)."""

    seats: int
    dealer: int | None
    lives: int | tuple[int, ...] | None
    eliminated: tuple[int, ...]
    packs: tuple[tuple[Card, ...], ...]
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class Style:
    """How one case is played: the weight of each category of action, how often a step
    is a probe, and how long the case may get."""

    weights: Mapping[str, float]
    probe: float
    max_steps: int
    next_match: float = 0.6


@dataclass(frozen=True)
class RoundStart:
    """Where a round began in a playthrough: after ``decisions`` decisions, dealt from
    pack ``pack`` by ``dealer``, with these lives and these seats out. A case can start
    here instead, with the rounds before it left out."""

    decisions: int
    pack: int
    dealer: int
    lives: tuple[int, ...]
    eliminated: tuple[int, ...]


@dataclass
class Playthrough:
    """A plan played on the reference: the case to send, the plan as far as it was used
    (decisions that gave no step, and packs never dealt, left out), one decision per
    step, and where each round after the first began (:attr:`starts`)."""

    plan: Plan
    case: dict[str, Any]
    began: Sequence[tuple[int, RoundBegan]] = ()
    """Each round as the match noted it when it began, with the decisions made by then
    (what :attr:`starts` is read from, only when a case is shrunk)."""
    table: int = 0
    """The seats at the table."""
    outcome: dict[str, Any] | None = None
    """The reference's outcome of ``case``, gathered while it was played (None: the
    playthrough went further than the case, which must be run to know it)."""

    @property
    def steps(self) -> int:
        return len(self.case["steps"])

    @property
    def starts(self) -> list[RoundStart]:
        """The start of every round after the first: the dealer, the seats dealt in,
        and the lives then (none for a seat out of the match)."""
        seats = range(self.table)
        found = []
        for decisions, start in self.began:
            if start.number > 1:
                out = tuple(s for s in seats if s not in start.seats)
                lives = tuple(0 if s in out else n for s, n in enumerate(start.lives))
                found.append(RoundStart(decisions, start.number - 1, start.dealer, lives, out))
        return found


_CATEGORY: dict[tuple[ActionKind, bool], str] = {}


def category(action: Action) -> str:
    """The category of ``action`` (remembered by its kind and knock, all it depends on:
    it is asked for every legal action at every step)."""
    key = (action.kind, action.knock)
    found = _CATEGORY.get(key)
    if found is None:
        found = _CATEGORY[key] = _category(action)
    return found


def _category(action: Action) -> str:
    return _category_of(action.kind, action.knock)


def _category_of(kind: ActionKind, knock: bool) -> str:
    if knock or kind is ActionKind.KNOCK:
        return "knock"
    if kind is ActionKind.PASS:
        return "pass"
    if kind in (ActionKind.SWAP, ActionKind.SWAP_ALL):
        return "swap"
    if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
        return "draw"
    if kind is ActionKind.DISCARD:
        return "discard"
    return "other"


_MOVE_CATEGORY = {kind: _category_of(kind, False) for kind in ActionKind}
"""The category of an action of each kind that carries no knock."""
_KIND = attrgetter("kind")
_Shape = tuple[tuple[str, ...], dict[str, tuple[int, int]]]
_SHAPES: tuple[dict[tuple[ActionKind, ...], _Shape | None], ...] = ({}, {})


def _shape(kinds: tuple[ActionKind, ...], knocks: bool) -> _Shape | None:
    """For a legal list whose moves are of these kinds (``knocks``: knocks follow
    them): its categories in sorted order, and where each category's moves lie as a
    (start, stop) span of the moves (the knocks join category ``knock``); None where a
    category comes back after another (then grouped one by one). A game has a handful
    of such shapes (nine swaps, the whole hand, a pass), worked out once each."""
    shapes = _SHAPES[knocks]
    try:
        return shapes[kinds]  # one look-up for the shapes already known
    except KeyError:
        pass
    spans: dict[str, tuple[int, int]] = {}
    last = ""
    found: _Shape | None = None
    for i, kind in enumerate(kinds):
        what = _MOVE_CATEGORY[kind]
        if what == last:
            spans[what] = (spans[what][0], i + 1)
        elif what in spans:
            break
        else:
            spans[what] = (i, i + 1)
            last = what
    else:
        if knocks and "knock" not in spans:
            spans["knock"] = (0, 0)
        found = (tuple(sorted(spans)), spans)
    if len(shapes) < 4096:
        shapes[kinds] = found
    return found


# ---------------------------------------------------------------------------- packs
def _destinations(rules: Rules, players: int) -> list[tuple[int, ...]]:
    """The positions in the pack of every hand, the middle and the extra hand."""
    pattern = cached_pattern(rules, players)
    out = [p for p in pattern.hands if p]
    out += [p for p in (pattern.middle, pattern.extra) if p]
    return out


def _place(pack: list[Card], positions: Sequence[int], cards: Sequence[Card]) -> None:
    for pos, card in zip(positions, cards, strict=False):
        at = pack.index(card)
        pack[pos], pack[at] = pack[at], pack[pos]


def _triple(rules: Rules, rng: random.Random) -> list[Card]:
    ranks = list(rules.cards.ranks)
    weights = [4.0 if r in ("A", "7") else 1.0 for r in ranks]
    rank = rng.choices(ranks, weights)[0]
    suits = rng.sample(list(rules.cards.suits), min(3, len(rules.cards.suits)))
    return [make(rank, s) for s in suits]


def _maximum(rules: Rules, rng: random.Random) -> list[Card]:
    """The best cards of one suit: a 31 (a 41 with four cards)."""
    suit = rng.choice(rules.cards.suits)
    values = rules.cards.values
    ranks = sorted(rules.cards.ranks, key=lambda r: (-values[r], rng.random()))
    return [make(r, suit) for r in ranks[: rules.cards.hand_size]]


def _mirror(rules: Rules, rng: random.Random) -> tuple[list[Card], list[Card]]:
    """Two hands of the same ranks, the suits exchanged: equal values, for a tie."""
    size = rules.cards.hand_size
    ranks = rng.sample(list(rules.cards.ranks), size)
    suits = list(rules.cards.suits)
    first = [rng.choice(suits) for _ in ranks]
    if rng.random() < 0.7:  # mostly two cards of one suit: hands that count alike
        first = [first[0]] * (size - 1) + [first[-1]]
    turn = 1 + rng.randrange(len(suits) - 1)  # a rotation of the suits: no suit stays
    shift = {s: suits[(i + turn) % len(suits)] for i, s in enumerate(suits)}
    one = [make(r, s) for r, s in zip(ranks, first, strict=True)]
    two = [make(r, shift[s]) for r, s in zip(ranks, first, strict=True)]
    return one, two


def _same_suit_tie(rules: Rules, rng: random.Random) -> tuple[list[Card], list[Card]]:
    """Two hands whose counting cards are of one suit and add up alike (K+Q against
    J+10 of hearts): a tie that no suit order breaks."""
    suit = rng.choice(rules.cards.suits)
    values = rules.cards.values
    tens = [r for r in rules.cards.ranks if values[r] == 10]
    if len(tens) < 4:
        return _mirror(rules, rng)
    rng.shuffle(tens)
    return [make(r, suit) for r in tens[:2]], [make(r, suit) for r in tens[2:4]]


def make_pack(
    rules: Rules, players: int, seats: int, rng: random.Random, rig: float, short: float
) -> list[Card]:
    """A shuffled pack, sometimes stacked with special hands for ``players`` players,
    sometimes cut short (never shorter than a deal to all ``seats`` uses)."""
    pack = shuffled(evaluator_for(rules).pack, rng)
    if rng.random() < rig and (places := _destinations(rules, players)):
        how = rng.choice(("triple", "maximum", "mirror", "tie"))
        if how in ("triple", "maximum"):
            cards = _triple(rules, rng) if how == "triple" else _maximum(rules, rng)
            _place(pack, rng.choice(places), cards)
        elif len(places) >= 2:
            a, b = rng.sample(places, 2)
            one, two = _mirror(rules, rng) if how == "mirror" else _same_suit_tie(rules, rng)
            _place(pack, a, one)
            _place(pack, b, two)
    if rng.random() < short:
        rest = cached_pattern(rules, seats).rest
        pack = pack[: rest + rng.randrange(0, 2 * rules.cards.middle_size + 4)]
    return pack


# ---------------------------------------------------------------------------- the table
def _style(rng: random.Random) -> Style:
    weights = {
        "knock": rng.choice((0.05, 0.25, 0.6)),
        "pass": rng.choice((0.05, 0.25, 0.6)),
        "swap": 1.0,
        "draw": 1.0,
        "discard": 1.0,
        "other": 1.0,
    }
    return Style(weights, rng.choice((0.0, 0.05, 0.15, 0.3)), rng.choice((6, 15, 30, 60, 100)))


def _table(rules: Rules, rng: random.Random) -> tuple[int, int | None, Any, tuple[int, ...]]:
    low, high = rules.players.min, rules.players.max
    seats_choice = list(range(low, high + 1))
    seats = rng.choices(seats_choice, [1.0 / (1 + i) ** 1.5 for i in range(len(seats_choice))])[0]
    eliminated: tuple[int, ...] = ()
    if seats >= 3 and rng.random() < 0.1:
        eliminated = (rng.randrange(seats - 1),)
    dealer = None
    if rng.random() < 0.5:
        dealer = rng.choice([s for s in range(seats) if s not in eliminated])
    elif seats - 1 in eliminated:
        dealer = next(s for s in range(seats) if s not in eliminated)
    lives: int | tuple[int, ...] | None = None
    roll = rng.random()
    swim = rules.lives.after_last is AfterLast.SWIM
    if roll < 0.3:
        lives = 1
    elif roll < 0.45:
        lives = 0 if swim else 1
    elif roll < 0.55:
        lives = 2
    elif roll < 0.75:
        lives = tuple(rng.randrange(0 if swim else 1, 4) for _ in range(seats))
    return seats, dealer, lives, eliminated


class _Drawer:
    """Draws what a plan lacks while it is generated: packs, and decisions made from the
    style's weights over the categories of action legal at that point."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        self.rules = rules
        self.rng = rng
        self.style = _style(rng)
        self.max_steps, self.probe = self.style.max_steps, self.style.probe
        self.rig = rng.choice((0.0, 0.3, 0.7))
        self.short = rng.choice((0.0, 0.0, 0.25))
        self._running: dict[tuple[str, ...], tuple[list[float], float]] = {}

    def pack(self, players: int, seats: int) -> tuple[Card, ...]:
        return tuple(make_pack(self.rules, players, seats, self.rng, self.rig, self.short))

    def decision(self, match: Match, steps: int, legal: _Legal) -> Decision | None:
        rng = self.rng
        # rng.randrange(1 << 30), drawn alike: 31 bits, drawn again while out of range
        getrandbits = rng.getrandbits
        pick = getrandbits(31)
        while pick >= _PICKS:
            pick = getrandbits(31)
        if steps >= self.max_steps:
            return None
        if match.over:
            series = self.rules.match.series is Series.POINT_AND_NEW_MATCH
            if series and rng.random() < self.style.next_match:
                return Decision(TABLE, 0)
            return Decision(PROBE, pick) if rng.random() < 0.3 else None
        if rng.random() < self.probe:
            return Decision(PROBE, pick)
        present = legal.categories()
        if not present:
            return None
        # rng.choices(present, weights)[0], drawn alike (the same one random number,
        # the same bisection of the running totals) without its checks and list
        found = self._running.get(present)
        if found is None:
            total = 0.0
            running = []
            for c in present:
                total += self.style.weights[c]
                running.append(total)
            found = self._running[present] = (running, total)
        running, total = found
        return Decision(present[bisect(running, rng.random() * total, 0, len(present) - 1)], pick)


# ---------------------------------------------------------------------------- playing
class _Legal:
    """The legal actions at one point of play, by category, worked out once: both the
    generator's choice of a category and the step's choice within it need them.

    They are read as a bot reads them (``Round.options``): the round's own list, not
    copied, whose knocks are made only when a step asks for one. A step most often
    takes a move, so the knocks after every move (one per swap in the middle game)
    are seldom made at all. Where the round counts its decision without a list
    (``Round.counts``: the commonest, a swap against a middle face up, a draw, a
    discard) the kinds of its moves are read from the count (``Round.counted_kinds``)
    and only the move picked is made (``Round.move_option``), as a bot does."""

    __slots__ = ("_by", "_knocks", "_list", "_present", "_refused", "_spans", "match")

    def __init__(self, match: Match) -> None:
        self.match = match
        self._refused: Refused | None = None
        self._present: tuple[str, ...] | None = None  # the rest is set with it
        self._list: list[Action] | None  # None: counted, not made (Round.counts)
        self._knocks: int
        self._spans: dict[str, tuple[int, int]]
        self._by: dict[str, list[Action]] | None

    def categories(self) -> tuple[str, ...]:
        """The categories present, sorted. The knocks follow the moves in the legal
        list (``legal_split``); a move's category is its kind's."""
        present = self._present
        if present is None:
            match = self.match
            legal: list[Action] | None = _NOTHING
            kinds: tuple[ActionKind, ...] = ()
            knocks = 0
            if not match.over:
                rnd = match.round
                moves, knocks = rnd.counts()
                counted = rnd.counted_kinds(moves)
                legal = None
                if counted is not None:
                    kinds = counted
                else:
                    legal, split, knocks = rnd.options()
                    kinds = tuple(map(_KIND, legal if len(legal) == split else legal[:split]))
            self._list, self._knocks = legal, knocks
            shape = _shape(kinds, knocks > 0)
            if shape is None:
                by = self._by = self._grouped(*match.legal_split())
                present = tuple(sorted(by))
            else:
                present, self._spans = shape
                self._by = None
            self._present = present
        return present

    @staticmethod
    def _grouped(moves: list[Action], knocks: list[Action]) -> dict[str, list[Action]]:
        by: dict[str, list[Action]] = {}
        for action in moves:
            by.setdefault(_MOVE_CATEGORY[action.kind], []).append(action)
        if knocks:
            by["knock"] = by.get("knock", []) + knocks
        return by

    def refused(self) -> Refused:
        """The probes the reference refuses at this point (``probes.refusals``)."""
        found = self._refused
        if found is None:
            found = self._refused = refusals(self.match)
        return found

    def of(self, what: str) -> list[Action]:
        """The legal actions of category ``what`` in the legal order (all of them when
        none is of that category)."""
        self.categories()
        if self._by is not None:
            return self._by.get(what) or self.match.legal_actions()
        span = self._spans.get(what)
        if span is None:
            return self.match.legal_actions()
        start, stop = span
        legal = self._list
        if legal is None:
            legal = self._list = self.match.round.options()[0]
        if what == "knock" and self._knocks:
            return legal[start:stop] + self.match.legal_split()[1]
        return legal[start:stop]

    def pick(self, what: str, pick: int) -> Action | None:
        """``of(what)[pick % len(of(what))]`` (None when there is none), taken from the
        round (``Round.move_option``, ``Round.knock_option``) where the category's
        actions lie in one span of the legal list: the very object the list holds
        there, which the round then applies without looking for it in the list."""
        if self._present is None:
            self.categories()
        if self._by is None:
            span = self._spans.get(what)
            if span is not None:
                start, stop = span
                if what != "knock":
                    if stop <= start:
                        return None
                    return self.match.round.move_option(start + pick % (stop - start))
                if start == stop and self._knocks:  # the knocks alone, after the moves
                    return self.match.round.knock_option(pick % self._knocks)
        chosen = self.of(what)
        return chosen[pick % len(chosen)] if chosen else None


_NOTHING: list[Action] = []
"""No legal action: the match is over (never changed)."""


def _step(
    match: Match, decision: Decision, legal: _Legal | None = None
) -> tuple[int | None, Action | None, Reason | None] | None:
    """The step a decision makes now: (seat, action, refused), (None, None, refused) for
    the table's next match, or None when it makes none here (``legal``: the point's,
    when the caller has it, and with it the probes refused there). ``refused`` is the
    reason code of a probe (the reference refuses it, and asking the match again would
    only raise that refusal), None for a step that is still to be played."""
    if decision.what == TABLE:
        return None, None, None
    if decision.what == PROBE:
        probe = choose(match, decision.pick, None if legal is None else legal.refused())
        return None if probe is None else (probe.seat, probe.action, probe.reason)
    action = (legal or _Legal(match)).pick(decision.what, decision.pick)
    if action is None:
        return None
    return match.to_move(), action, None


def play(ruleset: Ruleset, plan: Plan, rng: random.Random | None = None) -> Playthrough | None:
    """Play ``plan`` on the reference and write it as a case; with ``rng``, draw the
    packs and decisions the plan lacks (generating). None when the plan cannot be played
    (a table the ruleset refuses, a round that would need a pack the plan lacks)."""
    rules = ruleset.rules
    drawer = _Drawer(rules, rng) if rng is not None else None
    active = plan.seats - len(plan.eliminated)
    packs = list(plan.packs)
    while drawer is not None and len(packs) < RESERVE:
        packs.append(drawer.pack(active, plan.seats))
    # the lives per seat, as run_case reads the case's: a whole number is every seat's
    # lives in this match only, and the next match of a series starts with the ruleset's
    lives: list[int] | None = None
    if isinstance(plan.lives, int):
        lives = [plan.lives] * plan.seats
    elif plan.lives is not None:
        lives = list(plan.lives)
    try:
        match = Match(
            rules,
            plan.seats,
            first_dealer=plan.dealer,
            lives=lives,
            seed=0,
            decks=[list(p) for p in packs],
            eliminated=plan.eliminated,
            record=True,
        )
    except SetupError:
        return None
    if match.round_no > len(packs):
        return None
    steps: list[tuple[int | None, Action | None]] = []
    used: list[Decision] = []
    played = Played(match)
    exact = True
    # each round as it began, with the decisions made by then (for the reducer, which
    # reads them only when a case is shrunk)
    began = match.began
    marks = [0] * len(began)
    rounds, over = match.round_no, match.over
    index = 0
    # A step the reference refuses (a probe) leaves the point of play as it was, and a
    # decision that makes no step too: what was worked out there holds for the next.
    legal = _Legal(match)
    decisions = plan.decisions
    given = len(decisions)
    while True:
        if index < given:
            decision: Decision | None = decisions[index]
        elif drawer is not None:
            decision = drawer.decision(match, len(steps), legal)
        else:
            decision = None
        if decision is None:
            break
        index += 1
        step = _step(match, decision, legal)
        if step is None:
            continue
        # Play the step: accepted (refused None), or refused as a probe should be (the
        # case expects the same refusal), or it needed a pack the plan does not have
        # (too short for the table: cut for fewer players than the next match seats).
        seat, action, refused = step
        if refused is None:
            try:
                if action is None:
                    match.next_match()
                else:
                    match.apply(action, seat)
            except IllegalAction as exc:
                refused = exc.reason
            except SetupError:
                exact = False
                break
        if match.round_no > len(packs):
            exact = False  # the match went a step further than the case
            break  # that step dealt a round from a pack the case would not give
        used.append(decision)
        steps.append((seat, action))
        played.step(refused)
        if refused is None:
            legal = _Legal(match)
        if match.round_no != rounds:  # no round began otherwise
            marks += [len(used)] * (len(began) - len(marks))
        rounds, over = match.round_no, match.over
        if drawer is not None:
            while len(packs) - match.round_no < RESERVE:
                packs.append(drawer.pack(len(match.active()), plan.seats))
                match.decks.append(list(packs[-1]))
    final = Plan(
        plan.seats, plan.dealer, plan.lives, plan.eliminated, tuple(packs[:rounds]), tuple(used)
    )
    case = to_case(ruleset, final, steps, rounds > 1 or over)
    noted = list(zip(marks, began, strict=False))
    return Playthrough(final, case, noted, plan.seats, played.outcome() if exact else None)


def to_case(
    ruleset: Ruleset,
    plan: Plan,
    steps: Sequence[tuple[int | None, Action | None]],
    match_kind: bool,
) -> dict[str, Any]:
    """The protocol's case for a played plan (the same request a fixture would make)."""
    case: dict[str, Any] = {
        "kind": "match" if match_kind else "round",
        "fixture": "fuzz/case",
        "ruleset": {"id": ruleset.id, "parameters": parameter_values(ruleset)},
        "seats": plan.seats,
    }
    name = SEAT_NAME
    if plan.dealer is not None:
        case["dealer"] = name[plan.dealer]
    if isinstance(plan.lives, int):
        case["lives"] = plan.lives
    elif plan.lives is not None:
        case["lives"] = {name[s]: n for s, n in enumerate(plan.lives)}
    if plan.eliminated:
        case["eliminated"] = [name[s] for s in plan.eliminated]
    case["deck"] = list(map(_TEXT, plan.packs[0]))
    if len(plan.packs) > 1:
        case["decks"] = [list(map(_TEXT, p)) for p in plan.packs[1:]]
    case["steps"] = [
        {TABLE: "next-match"} if action is None or seat is None else {name[seat]: action.text}
        for seat, action in steps
    ]
    return case


def generate(ruleset: Ruleset, rng: random.Random) -> Playthrough:
    """A new random case; tables the ruleset refuses are drawn again."""
    rules = ruleset.rules
    while True:
        seats, dealer, lives, eliminated = _table(rules, rng)
        plan = Plan(seats, dealer, lives, eliminated, (), ())
        done = play(ruleset, plan, rng)
        if done is not None and done.steps:
            return done


def case_rng(seed: int, number: int) -> random.Random:
    """The random source of case ``number`` of a run seeded ``seed``: the same on every
    machine and whichever worker takes the case."""
    return random.Random(f"schwimmen-fuzz:{seed}:{number}")


__all__ = [
    "CATEGORIES",
    "Decision",
    "Plan",
    "Playthrough",
    "Style",
    "case_rng",
    "category",
    "generate",
    "make_pack",
    "play",
    "to_case",
]
