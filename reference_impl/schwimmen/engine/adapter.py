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
from collections.abc import Mapping
from typing import Any

from schwimmen.engine.hands import evaluator_for, value_json
from schwimmen.engine.match import Match, Position, SetupError
from schwimmen.engine.reasons import IllegalAction
from schwimmen.engine.rounds import Round, RoundResult
from schwimmen.protocol.actions import ActionSyntaxError, parse_text
from schwimmen.protocol.cards import Card, parse, parse_seat, seat_name, text
from schwimmen.spec.rules import Rules, build_rules

KINDS = ("hand-evaluation", "showdown", "round", "match", "setup")


class CaseError(ValueError):
    """A request the reference cannot run (bad cards, impossible position)."""


def _cards(values: Any) -> list[Card]:
    try:
        return [parse(v) for v in values]
    except (TypeError, ValueError) as exc:
        raise CaseError(str(exc)) from None


def _seat_map(raw: Mapping[str, Any] | None) -> dict[int, Any]:
    return {parse_seat(k): v for k, v in (raw or {}).items()}


_RULES: dict[str, Rules] = {}


def _rules(request: Mapping[str, Any]) -> Rules:
    """The rules of the request, one object per distinct set of parameter values, so that
    the hand table of a ruleset is built once however many cases run under it."""
    parameters = request["ruleset"]["parameters"]
    key = json.dumps(parameters, sort_keys=True)
    rules = _RULES.get(key)
    if rules is None:
        if len(_RULES) > 256:
            _RULES.clear()
        rules = _RULES[key] = build_rules(parameters)
    return rules


def _result_json(result: RoundResult, after_step: int) -> dict[str, Any]:
    return {
        "reason": result.reason.value,
        "at_deal": result.at_deal,
        "after_step": after_step,
        "by": None if result.by is None else seat_name(result.by),
        "knocker": None if result.knocker is None else seat_name(result.knocker),
        "losses": {seat_name(s): n for s, n in sorted(result.losses.items())},
        "values": {seat_name(s): value_json(v) for s, v in sorted(result.values.items())},
        "hands": {seat_name(s): [text(c) for c in h] for s, h in sorted(result.hands.items())},
    }


def run_case(request: Mapping[str, Any]) -> dict[str, Any]:
    """Run one case; the answer is ``{"status": "ok", "outcome": ...}`` or
    ``{"status": "errored", "message": ...}`` when the case cannot be run."""
    try:
        kind = request["kind"]
        if kind not in KINDS:
            return {"status": "skipped", "reason": f"unknown case kind {kind!r}"}
        rules = _rules(request)
        if kind == "hand-evaluation":
            outcome = _evaluate(rules, request)
        elif kind == "showdown":
            outcome = _showdown(rules, request)
        elif kind == "setup":
            outcome = _setup(rules, request)
        else:
            outcome = _play(rules, request)
    except (CaseError, SetupError, KeyError, TypeError, ValueError) as exc:
        return {"status": "errored", "message": f"{type(exc).__name__}: {exc}"}
    return {"status": "ok", "outcome": outcome}


def _evaluate(rules: Rules, request: Mapping[str, Any]) -> dict[str, Any]:
    evaluator = evaluator_for(rules)
    values = {}
    for seat, cards in _seat_map(request["hands"]).items():
        hand = _cards(cards)
        if len(hand) != rules.cards.hand_size or any(c not in evaluator.values for c in hand):
            raise CaseError(f"{seat_name(seat)}'s hand does not fit this ruleset's pack")
        value = evaluator.evaluate(hand)
        values[seat_name(seat)] = {**value_json(value), "maximum": value.is_maximum}
    return {"values": values}


def _showdown(rules: Rules, request: Mapping[str, Any]) -> dict[str, Any]:
    """Final hands straight to the showdown, with no special hand ending anything."""
    hands = {s: _cards(c) for s, c in _seat_map(request["hands"]).items()}
    seats = sorted(hands)
    evaluator = evaluator_for(rules)
    for seat, hand in hands.items():
        if len(hand) != rules.cards.hand_size or any(c not in evaluator.values for c in hand):
            raise CaseError(f"{seat_name(seat)}'s hand does not fit this ruleset's pack")
    rnd = Round(rules, evaluator, int(request.get("seats", len(seats))), seats, seats[-1])
    rnd.hands = {s: list(h) for s, h in hands.items()}
    knocker = request.get("knocker")
    rnd.knocker = None if knocker is None else parse_seat(knocker)
    rnd.reached = {s: int(v) for s, v in _seat_map(request.get("reached")).items()}
    values = {s: rnd.value(s) for s in seats}
    losses, why = rnd.showdown_losses(values)
    return {
        "losses": {seat_name(s): n for s, n in sorted(losses.items())},
        "values": {seat_name(s): value_json(v) for s, v in values.items()},
        "why": why,
    }


def _setup(rules: Rules, request: Mapping[str, Any]) -> dict[str, Any]:
    seats = int(request["seats"])
    try:
        match = Match(rules, seats, seed=0, record=False)
    except SetupError as exc:
        return {"accepted": False, "reason": "players", "message": str(exc)}
    return {"accepted": True, "pack": len(match.evaluator.pack)}


def _play(rules: Rules, request: Mapping[str, Any]) -> dict[str, Any]:
    seats = int(request["seats"])
    dealer = parse_seat(request.get("dealer", seat_name(seats - 1)))
    lives_raw = request.get("lives")
    lives: list[int] | None = None
    if isinstance(lives_raw, int):
        lives = [lives_raw] * seats
    elif isinstance(lives_raw, Mapping):
        lives = [rules.lives.count] * seats
        for s, n in _seat_map(lives_raw).items():
            lives[s] = int(n)
    eliminated = [parse_seat(s) for s in request.get("eliminated", ())]
    position = None
    decks = [_cards(d) for d in request.get("decks", ())]
    if "deck" in request:
        decks.insert(0, _cards(request["deck"]))
    if "hands" in request:
        position = Position(
            hands={s: _cards(c) for s, c in _seat_map(request["hands"]).items()},
            middle=_cards(request.get("middle", ())),
            extra=_cards(request.get("extra", ())),
            stock=_cards(request.get("stock", ())),
            discard=_cards(request.get("discard", ())),
        )
    match = Match(
        rules,
        seats,
        first_dealer=dealer,
        lives=lives,
        seed=int(request.get("seed", 0)),
        decks=decks,
        position=position,
        eliminated=eliminated,
        record=bool(request.get("events")),
    )
    steps: list[dict[str, Any]] = []
    ended: list[dict[str, Any]] = []
    seen = 0

    def collect(after_step: int) -> None:
        nonlocal seen
        for result in match.results[seen:]:
            ended.append(_result_json(result, after_step))
        seen = len(match.results)

    checkpoints = {int(n) for n in request.get("checkpoints", ())}
    states: dict[str, dict[str, Any]] = {}
    collect(0)
    for index, step in enumerate(request.get("steps", ()), start=1):
        seat_raw, action_text = _step(step)
        try:
            if seat_raw == TABLE:
                if action_text != NEXT_MATCH:
                    raise CaseError(f"step {index}: the table can only start the {NEXT_MATCH}")
                match.next_match()
            else:
                match.apply(parse_text(action_text), parse_seat(seat_raw))
            steps.append({"accepted": True})
        except ActionSyntaxError as exc:
            raise CaseError(f"step {index}: {exc}") from None
        except IllegalAction as exc:
            steps.append({"accepted": False, "reason": exc.reason.value})
        collect(index)
        if index in checkpoints:
            states[str(index)] = _state(match)
    outcome: dict[str, Any] = {"steps": steps, "rounds": ended, **_state(match)}
    if states:
        outcome["states"] = states
    if request.get("events"):
        outcome["events"] = [e.to_json() for e in match.events]
    return outcome


def _state(match: Match) -> dict[str, Any]:
    """The state fields of an outcome: after the last step, or after a checkpoint."""
    rnd = match.round
    to_move = match.to_move()
    return {
        "to_move": None if to_move is None else seat_name(to_move),
        "phase": "match-over" if match.over else rnd.phase.value,
        "dealer": seat_name(match.dealer),
        "middle": None if rnd.middle_hidden else [text(c) for c in rnd.middle],
        "hands": {seat_name(s): [text(c) for c in h] for s, h in sorted(rnd.hands.items())},
        "stock": len(rnd.stock),
        "discard_top": text(rnd.discard[-1]) if rnd.discard else None,
        "knocker": None if rnd.knocker is None else seat_name(rnd.knocker),
        "legal": [str(a) for a in match.legal_actions()],
        "lives": {seat_name(s): match.lives[s] for s in range(match.table_size)},
        "swimming": [seat_name(s) for s in match.swimming()],
        "eliminated": [seat_name(s) for s in sorted(match.eliminated)],
        "match_over": match.over,
        "winners": [seat_name(s) for s in match.winners],
        "points": {seat_name(s): p for s, p in enumerate(match.points) if p},
    }


TABLE = "table"
NEXT_MATCH = "next-match"


def _step(step: Any) -> tuple[str, str]:
    """``{P1: action}`` (or ``{seat, action}``), or ``{table: next-match}``: the table
    starts the next match of a series (U34)."""
    if isinstance(step, Mapping):
        if "seat" in step and "action" in step:
            return str(step["seat"]), str(step["action"])
        if len(step) == 1:
            seat, action = next(iter(step.items()))
            return str(seat), str(action)
    raise CaseError(f"a step is {{seat: action}}, not {step!r}")
