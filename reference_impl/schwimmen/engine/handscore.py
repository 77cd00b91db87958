"""The hand calculator's two questions, answered by the engine itself: what is this hand
worth under a ruleset, and who loses when these hands are laid down at a showdown?

``schwimmen score`` and the site's calculator tables are built on these functions, so
that neither evaluates a hand nor decides a showdown on its own: the value is the
evaluator's, the losers are those of the round's own showdown (:meth:`Round.showdown_losses`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from schwimmen.engine.hands import HandValue, evaluator_for
from schwimmen.protocol.cards import Card, text
from schwimmen.spec.loader import Catalog
from schwimmen.spec.rules import Rules


@dataclass(frozen=True)
class Showdown:
    """Who loses how many lives when the hands are compared (hand ``i`` is seat ``i``),
    and the engine's reason. Nobody knocked, and no hand was reached before another."""

    losses: Mapping[int, int]
    why: str


@dataclass(frozen=True)
class Score:
    """The hands under one ruleset: a value per hand (None where the cards are no hand of
    this ruleset, with the reason in ``problems``), and the showdown when there are
    several hands and all of them are hands of this ruleset."""

    values: tuple[HandValue | None, ...]
    problems: tuple[str | None, ...]
    showdown: Showdown | None


def ruleset_names(catalog: Catalog) -> list[str]:
    """What the calculator answers for: every ruleset and every house rule on its own
    ruleset (``origin+house-rule``, as ``schwimmen conformance`` runs them), each house
    rule right after the ruleset it comes from."""
    return sorted(catalog.standard_names())


def not_a_hand(rules: Rules, hand: Sequence[Card]) -> str | None:
    """Why ``hand`` is no hand of this ruleset (a hand has ``cards.hand_size`` cards of
    its pack), or None when it is one."""
    size = rules.cards.hand_size
    if len(hand) != size:
        return f"a hand holds {size} cards in this ruleset, not {len(hand)}"
    in_pack = evaluator_for(rules, table=False).values  # the worth of each card of the pack
    outside = [text(c) for c in hand if c not in in_pack]
    if outside:
        return f"{', '.join(outside)} not in this ruleset's pack"
    return None


def showdown(rules: Rules, hands: Sequence[Sequence[Card]]) -> Showdown:
    """The round's own showdown over ``hands`` (seat ``i`` holds ``hands[i]``): a round
    with these hands and nobody knocking decides who loses."""
    from schwimmen.engine.rounds import Round  # the whole round engine: only for a showdown

    evaluator = evaluator_for(rules, table=False)
    seats = list(range(len(hands)))
    rnd = Round(rules, evaluator, len(hands), seats, seats[-1])
    rnd.hands = {s: list(hand) for s, hand in zip(seats, hands, strict=True)}
    losses, why = rnd.showdown_losses({s: rnd.value(s) for s in seats})
    return Showdown(dict(losses), why)


def score(rules: Rules, hands: Sequence[Sequence[Card]]) -> Score:
    """Every hand's value under ``rules`` and, for several hands, the showdown."""
    evaluator = evaluator_for(rules, table=False)
    problems = tuple(not_a_hand(rules, hand) for hand in hands)
    values = tuple(
        None if problem else evaluator.value(hand)
        for hand, problem in zip(hands, problems, strict=True)
    )
    decided = None
    if len(hands) > 1 and not any(problems):
        decided = showdown(rules, hands)
    return Score(values, problems, decided)
