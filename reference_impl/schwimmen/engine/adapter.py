"""The reference engine behind the conformance protocol: one case request in, one outcome
out, both plain JSON data.

This is the only door through which the harness reaches the engine, in-process or over
``schwimmen serve``; a foreign implementation answers the same requests. The request
carries the resolved rule parameters, so any ruleset or house rule can be run without the
engine knowing its name.

Request kinds: ``hand-evaluation`` (values of given hands), ``showdown`` (who loses with
the given final hands), ``round`` and ``match`` (a position or a stacked pack, then steps),
``setup`` (is a table of this many players allowed).
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Mapping, Set
from typing import Any

from schwimmen.engine import casefields as f
from schwimmen.engine.casefields import CaseError
from schwimmen.engine.hands import HandValue, evaluator_for, value_json
from schwimmen.engine.match import MAX_LIVES, Match, Position, SetupError
from schwimmen.engine.reasons import MATCH_OVER_PHASE, IllegalAction, Reason
from schwimmen.engine.rounds import Round, RoundResult
from schwimmen.protocol.actions import Action, ActionSyntaxError, parse_text
from schwimmen.protocol.cards import Card, seat_name, text
from schwimmen.spec.rules import Rules, build_rules

KINDS = ("hand-evaluation", "showdown", "round", "match", "setup")

__all__ = ["KINDS", "CaseError", "Played", "run_case"]

_RULES: dict[str, Rules] = {}
_SEEN: dict[bytes, Rules] = {}


def _rules(request: Mapping[str, Any]) -> Rules:
    """The rules of the request, one object per distinct set of parameter values, so that
    the hand table of a ruleset is built once however many cases run under it (and the
    values are checked once, too).

    Every case of a run names the same values, so the values are first looked up by
    their ``marshal`` bytes (exact for JSON's types, and several times quicker to make
    than the sorted JSON text that keys the rules otherwise): the same values, held in the
    same order, read as they were read before."""
    parameters = f.rule_parameters(request)
    raw: Any = parameters  # marshal takes what it can and refuses the rest
    try:
        seen = marshal.dumps(raw)
    except (TypeError, ValueError):  # not JSON's types: the slow way says what is wrong
        seen = b""
    rules = _SEEN.get(seen) if seen else None
    if rules is not None:
        return rules
    try:
        key = json.dumps(parameters, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        raise CaseError("case.ruleset.parameters must be plain JSON data") from None
    rules = _RULES.get(key)
    if rules is None:
        f.check_parameters(parameters)
        try:
            built = build_rules(parameters)
        except (KeyError, TypeError, ValueError) as exc:
            raise CaseError(f"case.ruleset.parameters cannot be read: {exc}") from None
        if len(_RULES) > 256:
            _RULES.clear()
        rules = _RULES[key] = built
    if seen:
        if len(_SEEN) > 256:
            _SEEN.clear()
        _SEEN[seen] = rules
    return rules


def _value(value: HandValue) -> dict[str, Any]:
    """A hand value as the protocol reports it, everywhere: points, hand, suit, maximum."""
    return {**value_json(value), "maximum": value.is_maximum}


def _result_json(result: RoundResult, after_step: int, lost: Mapping[int, int]) -> dict[str, Any]:
    """A round record: ``losses`` what the round's rules impose, ``lives_lost`` what the
    match took (PROTOCOL.md: they differ for a replayed round and a seat with too few
    lives)."""
    return {
        "reason": result.reason.value,
        "at_deal": result.at_deal,
        "after_step": after_step,
        "by": None if result.by is None else seat_name(result.by),
        "knocker": None if result.knocker is None else seat_name(result.knocker),
        "losses": {seat_name(s): n for s, n in sorted(result.losses.items())},
        "lives_lost": {seat_name(s): n for s, n in sorted(lost.items())},
        "values": {seat_name(s): _value(v) for s, v in sorted(result.values.items())},
        "hands": {seat_name(s): [text(c) for c in h] for s, h in sorted(result.hands.items())},
    }


def run_case(request: Mapping[str, Any]) -> dict[str, Any]:
    """Run one case; the answer is ``{"status": "ok", "outcome": ...}`` or
    ``{"status": "errored", "message": ...}`` when the case cannot be run.

    Whatever the request holds, this answers: a case that is not what the protocol
    describes is errored with a sentence naming the field, and a failure of the engine
    itself is errored too, named as such, rather than raised into the harness."""
    try:
        if type(request) is not dict and not isinstance(request, Mapping):
            raise CaseError(f"a case is an object, not {f.show(request)}")
        kind = request.get("kind")
        if not isinstance(kind, str):
            raise CaseError(f"case.kind must be one of {', '.join(KINDS)}, not {f.show(kind)}")
        if kind not in KINDS:
            return {"status": "skipped", "reason": f"unknown case kind {f.show(kind)}"}
        rules = _rules(request)
        seats = f.integer(request.get("seats"), "case.seats", 1, f.MAX_SEATS)
        if kind == "hand-evaluation":
            outcome = _evaluate(rules, request, seats)
        elif kind == "showdown":
            outcome = _showdown(rules, request, seats)
        elif kind == "setup":
            outcome = _setup(rules, seats)
        else:
            outcome = _play(rules, request, seats)
    except (CaseError, SetupError) as exc:
        return {"status": "errored", "message": f.clip(str(exc))}
    except Exception as exc:  # the reference must answer, whatever the request
        problem = f.clip(f"{type(exc).__name__}: {exc}", 300)
        return {"status": "errored", "message": f"the reference engine failed: {problem}"}
    return {"status": "ok", "outcome": outcome}


def _hands(
    rules: Rules, request: Mapping[str, Any], seats: int, at: str = "case"
) -> dict[int, list[Card]]:
    """``case.hands`` (or the hands of a later deal, ``at``): a hand of the ruleset's size
    and pack for each seat named."""
    pack = evaluator_for(rules).values
    size = rules.cards.hand_size
    hands = {}
    for seat, raw in f.seat_map(request.get("hands"), f"{at}.hands", seats).items():
        where = f"{at}.hands.{seat_name(seat)}"
        hand = f.cards(raw, where, pack)
        if len(hand) != size:
            raise CaseError(f"{where} has {len(hand)} cards; a hand here has {size}")
        hands[seat] = hand
    if not hands:
        raise CaseError(f"{at}.hands names no seat")
    return hands


def _evaluate(rules: Rules, request: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Each hand on its own: they need not come from one deal, but none holds a card twice."""
    evaluator = evaluator_for(rules)
    values = {}
    for seat, hand in _hands(rules, request, seats).items():
        f.no_card_twice([(f"case.hands.{seat_name(seat)}", hand)])
        values[seat_name(seat)] = _value(evaluator.evaluate(hand))
    return {"values": values}


def _showdown(rules: Rules, request: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """Final hands straight to the showdown, with no special hand ending anything."""
    hands = _hands(rules, request, seats)
    if len(hands) < 2:
        raise CaseError("a showdown needs the hands of at least two seats")
    f.no_card_twice((f"case.hands.{seat_name(s)}", h) for s, h in hands.items())
    playing = sorted(hands)
    rnd = Round(rules, evaluator_for(rules), seats, playing, playing[-1])
    rnd.hands = {s: list(h) for s, h in hands.items()}
    knocker = request.get("knocker")
    rnd.knocker = None if knocker is None else f.seat(knocker, "case.knocker", seats)
    rnd.reached = {
        s: f.integer(n, f"case.reached.{seat_name(s)}", 0, f.MAX_STEPS)
        for s, n in f.seat_map(request.get("reached", {}), "case.reached", seats).items()
    }
    values = {s: rnd.value(s) for s in playing}
    losses, why = rnd.showdown_losses(values)
    return {
        "losses": {seat_name(s): n for s, n in sorted(losses.items())},
        "values": {seat_name(s): _value(v) for s, v in values.items()},
        "why": why,
    }


def _setup(rules: Rules, seats: int) -> dict[str, Any]:
    try:
        match = Match(rules, seats, seed=0, record=False)
    except SetupError as exc:
        return {"accepted": False, "reason": "players", "message": str(exc)}
    return {"accepted": True, "pack": len(match.evaluator.pack)}


def _lives(rules: Rules, raw: Any, seats: int) -> list[int] | None:
    """``case.lives``: one number for everybody, or per seat (the others: the ruleset's)."""
    if raw is None:
        return None
    if isinstance(raw, Mapping):
        lives = [rules.lives.count] * seats
        for s, n in f.seat_map(raw, "case.lives", seats).items():
            lives[s] = f.integer(n, f"case.lives.{seat_name(s)}", 0, MAX_LIVES)
        return lives
    return [f.integer(raw, "case.lives", 0, MAX_LIVES)] * seats


def _decks(rules: Rules, request: Mapping[str, Any]) -> list[list[Card]]:
    """``case.deck`` and ``case.decks``: the stacked packs, each a part of one pack."""
    pack = evaluator_for(rules).values
    places = [("case.deck", request["deck"])] if "deck" in request else []
    raw = f.listed(request.get("decks", []), "case.decks", f.MAX_DECKS, "decks")
    places += [(f"case.decks[{i}]", deck) for i, deck in enumerate(raw)]
    decks = []
    for where, deck in places:
        cards = f.cards(deck, where, pack)
        f.no_card_twice([(where, cards)])
        decks.append(cards)
    return decks


def _position(rules: Rules, request: Mapping[str, Any], seats: int, at: str = "case") -> Position:
    """The cards as dealt (the first round's, or a later deal's at ``at``), every one of
    them from one pack."""
    pack = evaluator_for(rules).values
    hands = _hands(rules, request, seats, at)
    rest = {
        name: f.cards(request.get(name, []), f"{at}.{name}", pack)
        for name in ("middle", "extra", "stock", "discard")
    }
    groups = [(f"{at}.hands.{seat_name(s)}", h) for s, h in sorted(hands.items())]
    f.no_card_twice([*groups, *((f"{at}.{name}", c) for name, c in rest.items())])
    return Position(hands, rest["middle"], rest["extra"], rest["stock"], rest["discard"])


DEAL_KEYS = frozenset({"hands", "middle", "extra", "stock", "discard"})


def _deals(rules: Rules, request: Mapping[str, Any], seats: int) -> list[Position]:
    """``case.deals``: the rounds after the first as dealt, each a position like the
    first round's, so that a later round's hands do not hang on the dealing procedure."""
    raw = f.listed(request.get("deals", []), "case.deals", f.MAX_DECKS, "positions")
    deals = []
    for i, deal in enumerate(raw):
        at = f"case.deals[{i}]"
        unknown = sorted(set(f.mapping(deal, at)) - DEAL_KEYS)
        if unknown:
            raise CaseError(f"{at} has {unknown[0]!r}; a deal gives {', '.join(sorted(DEAL_KEYS))}")
        deals.append(_position(rules, deal, seats, at))
    return deals


def _points(rules: Rules, raw: Any, seats: int) -> list[int] | None:
    """``case.points``: the match points of a series at the start (seats not named: 0)."""
    if raw is None:
        return None
    points = [0] * seats
    for s, n in f.seat_map(raw, "case.points", seats).items():
        points[s] = f.integer(n, f"case.points.{seat_name(s)}", 0, MAX_LIVES)
    return points


def _steps(request: Mapping[str, Any], seats: int) -> list[tuple[int | None, Action | None]]:
    """``case.steps`` as (seat, action), or (None, None) for the table starting the next
    match. All are read before play starts, so a malformed step is the request's fault
    however far down the list it is. A game has a few thousand distinct steps, so a
    ``{seat: action}`` pair read once at a table of this size is not read again."""
    raw = f.listed(request.get("steps", []), "case.steps", f.MAX_STEPS, "{seat: action} objects")
    steps: list[tuple[int | None, Action | None]] = []
    known = _READ
    for index, step in enumerate(raw):
        if type(step) is dict and len(step) == 1:
            ((who, text),) = step.items()
            if type(who) is str and type(text) is str:
                found = known.get((who, text, seats))
                if found is not None:
                    steps.append(found)
                    continue
        read = _read_step(step, f"case.steps[{index}]", seats)
        if type(step) is dict and len(step) == 1:
            if len(known) >= _READ_LIMIT:
                known.clear()
            ((who, text),) = step.items()
            known[(who, text, seats)] = read
        steps.append(read)
    return steps


_READ: dict[tuple[str, str, int], tuple[int | None, Action | None]] = {}
_READ_LIMIT = 1 << 16


def _read_step(step: Any, where: str, seats: int) -> tuple[int | None, Action | None]:
    who, action = _step(step, where)
    if who == TABLE:
        return None, None
    try:
        return f.seat(who, where, seats), parse_text(action)
    except ActionSyntaxError as exc:
        raise CaseError(f"{where}: {exc}") from None


def _checkpoints(request: Mapping[str, Any], steps: int) -> set[int]:
    raw = f.listed(request.get("checkpoints", []), "case.checkpoints", f.MAX_CHECKPOINTS, "steps")
    return {f.integer(n, f"case.checkpoints[{i}]", 1, steps) for i, n in enumerate(raw)}


def _play(rules: Rules, request: Mapping[str, Any], seats: int) -> dict[str, Any]:
    low, high = rules.players.min, rules.players.max
    if not low <= seats <= high:
        raise CaseError(f"case.seats: this ruleset is played by {low} to {high}, not {seats}")
    dealer = seats - 1
    if "dealer" in request:
        dealer = f.seat(request["dealer"], "case.dealer", seats)
    lives = _lives(rules, request.get("lives"), seats)
    eliminated = [
        f.seat(s, f"case.eliminated[{i}]", seats)
        for i, s in enumerate(f.listed(request.get("eliminated", []), "case.eliminated", seats))
    ]
    if "deck" in request and "hands" in request:
        raise CaseError("case.deck and case.hands: a case gives the cards as dealt or a pack")
    decks = _decks(rules, request)
    position = _position(rules, request, seats) if "hands" in request else None
    deals = _deals(rules, request, seats)
    if decks[1 if "deck" in request else 0 :] and deals:
        raise CaseError("case.decks and case.deals: a case gives later rounds one way")
    points = _points(rules, request.get("points"), seats)
    seed = f.integer(request.get("seed", 0), "case.seed", 0, f.MAX_SEED)
    record = request.get("events", False)
    if not isinstance(record, bool):
        raise CaseError(f"case.events must be true or false, not {f.show(record)}")
    steps = _steps(request, seats)
    checkpoints = _checkpoints(request, len(steps))
    match = Match(
        rules,
        seats,
        first_dealer=dealer,
        lives=lives,
        seed=seed,
        decks=decks,
        position=position,
        eliminated=eliminated,
        record=record,
        points=points,
        deals=deals,
    )
    played = Played(match, checkpoints)
    for who, action in steps:
        try:
            if action is None:
                match.next_match()
            else:
                match.apply(action, who)
            played.step(None)
        except IllegalAction as exc:
            played.step(exc.reason)
    return played.outcome(events=record)


class Played:
    """The outcome of a case, gathered step by step while ``match`` plays it: the
    answer to every step, the rounds as they end, and a state at each checkpoint.

    The adapter fills it as it replays a case's steps; the fuzzer fills it while it
    plays the case it generates, so that the reference's answer to a generated case
    needs no second playthrough (the match must then be made as :func:`run_case` makes
    it from the case)."""

    def __init__(self, match: Match, checkpoints: Set[int] = frozenset()) -> None:
        self.match = match
        self.checkpoints = checkpoints
        self.answers: list[dict[str, Any]] = []
        self.ended: list[dict[str, Any]] = []
        self.states: dict[str, dict[str, Any]] = {}
        self._seen = 0
        self._collect(0)

    def _collect(self, after_step: int) -> None:
        match = self.match
        seen = self._seen
        if len(match.results) > seen:
            for result, lost in zip(match.results[seen:], match.lives_lost[seen:], strict=True):
                self.ended.append(_result_json(result, after_step, lost))
            self._seen = len(match.results)

    def step(self, refused: Reason | None) -> None:
        """The step just played was accepted (``refused`` None) or refused (its code read
        as ``_value_``: the ``value`` property costs several times more, every step)."""
        answers = self.answers
        if refused is None:
            answers.append({"accepted": True})
        else:
            answers.append({"accepted": False, "reason": refused._value_})
        index = len(answers)
        if len(self.match.results) > self._seen:
            self._collect(index)
        if index in self.checkpoints:
            self.states[str(index)] = _state(self.match)

    def outcome(self, *, events: bool = False) -> dict[str, Any]:
        match = self.match
        outcome: dict[str, Any] = {"steps": self.answers, "rounds": self.ended, **_state(match)}
        if self.states:
            outcome["states"] = self.states
        if events:
            outcome["events"] = [e.to_json() for e in match.events]
        return outcome


def _state(match: Match) -> dict[str, Any]:
    """The state fields of an outcome: after the last step, or after a checkpoint (the
    legal actions by their texts, which a decision the round counts gives without making
    its list)."""
    rnd = match.round
    to_move = match.to_move()
    return {
        "to_move": None if to_move is None else seat_name(to_move),
        "phase": MATCH_OVER_PHASE if match.over else rnd.phase._value_,
        "dealer": seat_name(match.dealer),
        "middle": None if rnd.middle_hidden else [text(c) for c in rnd.middle],
        "hands": {seat_name(s): [text(c) for c in h] for s, h in sorted(rnd.hands.items())},
        "values": {seat_name(s): _hand_value(match, h) for s, h in sorted(rnd.hands.items())},
        "stock": len(rnd.stock),
        "discard_top": text(rnd.discard[-1]) if rnd.discard else None,
        "knocker": None if rnd.knocker is None else seat_name(rnd.knocker),
        "legal": [] if match.over else match.round.legal_texts(),
        "lives": {seat_name(s): match.lives[s] for s in range(match.table_size)},
        "swimming": [seat_name(s) for s in match.swimming()],
        "eliminated": [seat_name(s) for s in sorted(match.eliminated)],
        "match_over": match.over,
        "winners": [seat_name(s) for s in match.winners],
        "points": {seat_name(s): p for s, p in enumerate(match.points) if p},
    }


def _hand_value(match: Match, hand: list[Card]) -> dict[str, Any] | None:
    """A hand's value in a state; null while a drawn card makes it one card too long
    (the draw-and-discard game, between the draw and the discard)."""
    if len(hand) != match.rules.cards.hand_size:
        return None
    return _value(match.evaluator.value(hand))


TABLE = "table"
NEXT_MATCH = "next-match"
MAX_ACTION = 100
"""The longest action text read (the longest action, a four-card swap with a knock, has
fewer than fifty characters); a longer one would only be copied into the message."""
_STEP_FORM = 'a step is one {seat: action} object, such as {"P1": "knock"}'


def _step(step: Any, where: str) -> tuple[str, str]:
    """``{P1: action}`` (or ``{seat, action}``), or ``{table: next-match}``: the table
    starts the next match of a series (U34)."""
    if isinstance(step, Mapping):
        if len(step) == 2 and "seat" in step and "action" in step:
            who, action = step["seat"], step["action"]
        elif len(step) == 1:
            who, action = next(iter(step.items()))
        else:
            raise CaseError(f"{where}: {_STEP_FORM}, not {f.show(step)}")
        if not isinstance(who, str) or not isinstance(action, str):
            raise CaseError(f"{where}: the seat and the action are strings, not {f.show(step)}")
        if len(action) > MAX_ACTION:
            raise CaseError(f"{where}: {f.show(action)} is no action; none is that long")
        if who == TABLE and action != NEXT_MATCH:
            raise CaseError(f"{where}: the table can only start the {NEXT_MATCH}")
        return who, action
    raise CaseError(f"{where}: {_STEP_FORM}, not {f.show(step)}")
