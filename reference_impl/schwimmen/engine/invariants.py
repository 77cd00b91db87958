"""The engine's invariants as checks, for property tests and soak runs.

Each raises :class:`AssertionError` with a plain message when the state breaks a rule that
must hold at all times, whatever the ruleset: every card of the pack in exactly one place,
every hand of the ruleset's size, lives that never come back, events that show a seat
nothing it may not see, and the compiled simulation ending a round as the full engine does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from schwimmen.engine.compiled import REASONS, CompiledRound
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.match import Match
from schwimmen.engine.rounds import Phase, Round
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import parse_text
from schwimmen.protocol.cards import parse, seat_name
from schwimmen.spec.rules import Rules

if TYPE_CHECKING:
    from schwimmen.engine.lockstep import Batch


def check_cards(match: Match) -> None:
    """Every card of the pack in exactly one place; every hand of the right size."""
    rnd = match.round
    places: list[int] = []
    for hand in rnd.hands.values():
        places.extend(hand)
    places += rnd.middle + rnd.stock + rnd.discard + rnd.out + rnd.set_aside + (rnd.extra or [])
    if Counter(places) != Counter(match.evaluator.pack):
        raise AssertionError("a card is missing or doubled")
    size = match.rules.cards.hand_size
    for seat, hand in rnd.hands.items():
        drawn = rnd.phase is Phase.DISCARD and seat == rnd.current
        if len(hand) != size + drawn:
            raise AssertionError(f"seat {seat} holds {len(hand)} cards, not {size + drawn}")


def check_lives(before: Sequence[int], after: Sequence[int]) -> None:
    """Within a match lives are only ever lost."""
    if any(a > b for a, b in zip(after, before, strict=True)):
        raise AssertionError("a life came back")


def check_secrecy(match: Match, since: int = 0) -> int:
    """Nothing in any seat's view of the log (from event ``since`` on) or in its observation
    shows a card hidden from it. Returns the log's length, to pass as ``since`` next time."""
    new = match.events[since:]
    for seat in range(match.table_size):
        for raw in new:
            event = raw.for_seat(seat)
            if isinstance(event, ev.Dealt) and event.seat != seat and event.cards is not None:
                raise AssertionError("another seat's dealt cards are visible")
            if isinstance(event, ev.ExtraDealt) and event.cards is not None:
                raise AssertionError("the unseen extra hand is visible")
            if isinstance(event, ev.MiddleDealt) and not event.face_up and event.cards is not None:
                raise AssertionError("the face-down middle is visible")
            if (
                isinstance(event, ev.Drew)
                and event.seat != seat
                and event.source == "stock"
                and event.card is not None
            ):
                raise AssertionError("a card drawn from the stock by another seat is visible")
        observation = match.observation(seat)
        own = sorted(match.round.hands.get(seat, []))
        if sorted(parse(c) for c in observation["hand"]) != own:
            raise AssertionError("the observation shows another hand than the seat's own")
        if match.round.middle_hidden and observation["middle"] is not None:
            raise AssertionError("the observation shows the face-down middle")
        _check_match_view(match, observation)
    return len(match.events)


def _check_match_view(match: Match, observation: dict[str, object]) -> None:
    """The observation's match part (kept from the round's start) is still the match's."""
    name = seat_name
    lives = match.lives
    expected = {
        "dealer": name(match.dealer),
        "round": match.round_no,
        "lives": {name(s): n for s, n in enumerate(lives)},
        "swimming": [name(s) for s in match.swimming()],
        "eliminated": [name(s) for s in sorted(match.eliminated)],
        "match_over": match.over,
        "winners": [name(s) for s in match.winners],
    }
    seen = {key: observation[key] for key in expected}
    if seen != expected:
        raise AssertionError(f"the observation shows {seen}, the match is {expected}")


def check_compiled_round(
    compiled: CompiledRound, seats: int, deck: Sequence[int], rand: Callable[[], float]
) -> None:
    """Differential check: play one compiled round (``compile_round(rules, trace=True)``)
    on ``deck`` and replay its actions through the full engine, which must accept each of
    them from the same seat and end the round the same way, with the same losses."""
    trace: list[tuple[int, str]] = []
    reason, at_deal, losses = compiled.play(list(deck), seats, rand, trace)
    check_replay(compiled.rules, seats, deck, trace, reason, at_deal, losses)


def check_batch(rules: Rules, seats: int, batch: Batch, count: int) -> None:
    """Replay the first ``count`` rounds of a traced lockstep batch through the full engine
    (:func:`check_replay`): the soak and the differential test check batches alike."""
    assert batch.decks is not None and batch.traces is not None
    for i in range(count):
        check_replay(
            rules,
            seats,
            batch.decks[i].tolist(),
            batch.traces[i],
            int(batch.reason[i]),
            bool(batch.at_deal[i]),
            batch.losses[i].tolist(),
        )


def check_replay(
    rules: Rules,
    seats: int,
    deck: Sequence[int],
    trace: Sequence[tuple[int, str]],
    reason: int,
    at_deal: bool,
    losses: Sequence[int],
) -> None:
    """Replay a simulated round's actions (``trace``, dealt from ``deck``) through the full
    engine, which must accept each of them from the same seat and end the round with
    ``reason`` (an index into ``REASONS``), ``at_deal`` and ``losses``."""
    rnd = Round.deal(rules, evaluator_for(rules), seats, list(range(seats)), seats - 1, deck)
    for seat, action in trace:
        if rnd.to_move() != seat:
            raise AssertionError(f"simulated seat {seat}, full engine {rnd.to_move()}: {trace}")
        rnd.apply(parse_text(action))
    result = rnd.result
    if (
        result is None
        or result.reason is not REASONS[reason]
        or result.at_deal != at_deal
        or [result.losses.get(i, 0) for i in range(seats)] != list(losses)
    ):
        found = None if result is None else (result.reason, result.at_deal, result.losses)
        raise AssertionError(
            f"simulation and full engine disagree after {list(trace[-3:])}: simulated "
            f"{REASONS[reason]}, at deal {at_deal}, {list(losses)}; full engine {found}"
        )
