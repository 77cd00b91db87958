"""Where each card of a stacked pack goes, for every dealing procedure (rules-matrix 2.5).

One card at a time, clockwise from the dealer's left, the dealer last (U32, F46):

* middle-card-each-round: each round the other players, then a face-up middle card,
  then the dealer (Altenburg; Tri Palki "wie bei Altenburg");
* extra-hand-blind-choice: each round every player, then the extra hand (pagat);
* two-packets-look-at-one: three rounds to the other players, then the dealer's packet A
  (the one he looks at) and packet B (rules page s001);
* hands-then-middle: three rounds to everybody, then the middle (s002, s003);
* hands-then-upcard: three rounds to everybody, then the first discard (Scat).

The pattern is computed once per number of players and shared by the full engine and the
compiled simulation, so both deal the same pack identically.
"""

from __future__ import annotations

from dataclasses import dataclass

from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import DealProcedure


@dataclass(frozen=True)
class DealPattern:
    """Positions in the pack (top = 0) for each player in deal order (dealer last), the
    middle, the dealer's extra hand, the upcard; ``rest`` is where the stock begins."""

    hands: tuple[tuple[int, ...], ...]
    middle: tuple[int, ...]
    extra: tuple[int, ...]
    upcard: tuple[int, ...]
    rest: int


def deal_pattern(rules: Rules, players: int) -> DealPattern:
    h = rules.cards.hand_size
    hands: list[list[int]] = [[] for _ in range(players)]
    middle: list[int] = []
    extra: list[int] = []
    upcard: list[int] = []
    pos = 0

    def take() -> int:
        nonlocal pos
        pos += 1
        return pos - 1

    dealer = players - 1
    procedure = rules.dealing.procedure
    if procedure is DealProcedure.MIDDLE_CARD_EACH_ROUND:
        for _ in range(h):
            for i in range(dealer):
                hands[i].append(take())
            middle.append(take())
            hands[dealer].append(take())
    elif procedure is DealProcedure.EXTRA_HAND_BLIND_CHOICE:
        for _ in range(h):
            for i in range(players):
                hands[i].append(take())
            extra.append(take())
    elif procedure is DealProcedure.TWO_PACKETS_LOOK_AT_ONE:
        for _ in range(h):
            for i in range(dealer):
                hands[i].append(take())
        hands[dealer] = [take() for _ in range(h)]
        extra = [take() for _ in range(h)]
    else:
        for _ in range(h):
            for i in range(players):
                hands[i].append(take())
        if procedure is DealProcedure.HANDS_THEN_MIDDLE:
            middle = [take() for _ in range(rules.cards.middle_size)]
        else:
            upcard = [take()]
    return DealPattern(
        tuple(tuple(x) for x in hands), tuple(middle), tuple(extra), tuple(upcard), pos
    )


_PATTERNS: dict[tuple[int, int], tuple[Rules, DealPattern]] = {}


def cached_pattern(rules: Rules, players: int) -> DealPattern:
    """:func:`deal_pattern`, computed once per rules object and number of players."""
    key = (id(rules), players)
    found = _PATTERNS.get(key)
    if found is None or found[0] is not rules:
        found = _PATTERNS[key] = (rules, deal_pattern(rules, players))
    return found[1]
