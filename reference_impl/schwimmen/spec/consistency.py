"""Checks across parameters that no schema can express.

Each check returns the parameter to blame and a message; the loader places the
message at the line that set that parameter. They run on the resolved values, so a
house rule that breaks its base (a triple rank the pack does not have, passing that
could go on forever) is caught whichever file is at fault.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

PROBLEM = tuple[str, str]


def _deck_size(values: Mapping[str, Any]) -> int:
    return len(values["cards.ranks"]) * len(values["cards.suits"])


def _cards_needed(values: Mapping[str, Any], players: int) -> int:
    hand = int(values["cards.hand_size"])
    procedure = values["dealing.procedure"]
    if procedure == "hands-then-upcard":
        return players * hand + 2
    middle = int(values.get("cards.middle_size") or hand)
    return players * hand + middle


def problems(values: Mapping[str, Any]) -> list[PROBLEM]:
    return list(_problems(values))


def _problems(values: Mapping[str, Any]) -> Iterator[PROBLEM]:
    ranks = list(values["cards.ranks"])
    suits = list(values["cards.suits"])
    card_values = dict(values["cards.values"])
    hand = int(values["cards.hand_size"])

    missing = [r for r in ranks if r not in card_values]
    extra = [r for r in card_values if r not in ranks]
    if missing:
        yield "cards.values", f"no points given for rank(s) {', '.join(missing)}"
    if extra:
        yield "cards.values", f"points given for rank(s) {', '.join(extra)} not in cards.ranks"

    rng = values["players.range"]
    if rng["min"] > rng["max"]:
        yield "players.range", f"min {rng['min']} is larger than max {rng['max']}"
    needed = _cards_needed(values, int(rng["max"]))
    if needed > _deck_size(values):
        yield (
            "players.range",
            f"{rng['max']} players need {needed} cards, but the pack has {_deck_size(values)}",
        )

    procedure = values["dealing.procedure"]
    draw_game = values["turns.move"] == "draw-and-discard"
    if draw_game != (procedure == "hands-then-upcard"):
        yield (
            "dealing.procedure",
            "the draw-and-discard game is dealt with 'hands-then-upcard', and only it",
        )
    if not draw_game and values.get("cards.middle_size") not in (None, hand):
        yield "cards.middle_size", f"the middle must hold as many cards as a hand ({hand})"

    triple_ranks = values.get("triples.ranks")
    if isinstance(triple_ranks, tuple | list):
        bad = [r for r in triple_ranks if r not in ranks]
        if bad:
            yield "triples.ranks", f"rank(s) {', '.join(bad)} are not in the pack"

    order = values.get("comparison.suit_order")
    if isinstance(order, tuple | list) and sorted(order) != sorted(suits):
        yield "comparison.suit_order", "must list every suit of the pack exactly once"

    best_suit = sum(sorted((card_values.get(r, 0) for r in ranks), reverse=True)[:hand])
    if int(values["maximum.points"]) != best_suit:
        yield (
            "maximum.points",
            f"the best suit total of this pack and hand size is {best_suit}, not "
            f"{values['maximum.points']}",
        )

    aces = values["three_aces.kind"]
    if aces != "ordinary" and "A" not in ranks:
        yield "three_aces.kind", "three aces as a special hand need aces in the pack"
    if aces == "fixed-points" and values.get("three_aces.points") == "none":
        yield "three_aces.points", "three aces with fixed points need a number of points"
    if values["three_sevens.kind"] != "ordinary" and ("7" not in ranks or hand != 3):
        yield "three_sevens.kind", "three sevens as a special hand need sevens and three-card hands"
    for protecting in values["protection.hands"]:
        needs = ["6"] if protecting == "three-sixes" else ["6", "7", "8"]
        if hand != 3 or any(r not in ranks for r in needs):
            yield (
                "protection.hands",
                f"{protecting} needs three-card hands and rank(s) {', '.join(needs)}",
            )

    if values.get("all_pass.no_replacement") == "play-on" and values.get("turns.passing") == "free":
        yield (
            "all_pass.no_replacement",
            "with free passing and no replacement, everybody could pass forever; "
            "choose 'showdown' or limit passing",
        )

    if values["maximum.at_deal"] == "on-own-move" and values["maximum.in_play"] != "must-show":
        yield (
            "maximum.at_deal",
            "a dealt 31 that takes effect on its holder's move needs maximum.in_play "
            "'must-show'; where a 31 reached by a move does nothing, choose 'no-effect'",
        )
