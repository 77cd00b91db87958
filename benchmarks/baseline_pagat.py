"""A minimal, hard-coded pagat-only round loop: the yardstick for the engine's speed.

Everything is fixed in the code: 32 cards as small ints, a precomputed value table,
four seats, the dealer's blind choice, 31 and Feuer at the deal and in play, swap one,
swap all, pass, closing after a move, the middle replaced after a round of passes, the
last cycle, the showdown with pagat's tie-breaks. No events, no checks, no generality.
The workload is the benchmark's: a random legal move, closing with probability 0.1.

It is deliberately not built from the spec: it is what a person would write for one
ruleset, so that the engine's generality has a price that can be measured.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations

SUITS = 4
RANKS = 8  # 7 8 9 10 J Q K A
VALUES = [7, 8, 9, 10, 10, 10, 10, 11]
ACE = 7


def _key(a: int, b: int, c: int) -> int:
    """pagat's order: Feuer > 31 > triples (by rank) > suit totals, higher suit first."""
    ranks = (a & 7, b & 7, c & 7)
    if ranks[0] == ranks[1] == ranks[2]:
        if ranks[0] == ACE:
            return 1 << 30
        return (61 << 12) | ((ranks[0] + 1) << 4)
    best = 0
    for suit in range(SUITS):
        total = sum(VALUES[x & 7] for x in (a, b, c) if x >> 3 == suit)
        if total:
            best = max(best, ((total * 2) << 12) | (SUITS - suit))
    return best


KEY = [0] * (32 * 32 * 32)
for _combo in combinations(range(32), 3):
    _k = _key(*_combo)
    for _p in permutations(_combo):
        KEY[_p[0] << 10 | _p[1] << 5 | _p[2]] = _k
FEUER = 1 << 30
MAX31 = 62 << 12
DECK = list(range(32))


def play_round(rng: random.Random, seats: int = 4) -> list[int]:
    """One round; returns the seats that lose a token."""
    rand = rng.random
    deck = DECK[:]
    rng.shuffle(deck)
    hands = [deck[i * 3 : i * 3 + 3] for i in range(seats)]
    extra = deck[seats * 3 : seats * 3 + 3]
    stock = deck[seats * 3 + 3 :]
    key = KEY

    def k(h: list[int]) -> int:
        return key[h[0] << 10 | h[1] << 5 | h[2]]

    def special(s: int) -> list[int] | None:
        v = k(hands[s])
        if v >= FEUER:
            return [x for x in range(seats) if x != s]
        if v >= MAX31:
            return showdown()
        return None

    def showdown() -> list[int]:
        keys = [k(h) for h in hands]
        low = min(keys)
        return [s for s in range(seats) if keys[s] == low]

    dealer = seats - 1
    for s in range(seats):
        r = special(s)
        if r is not None:
            return r
    if rand() < 0.5:
        middle = hands[dealer]
        hands[dealer] = extra
        r = special(dealer)
        if r is not None:
            return r
    else:
        middle = extra
    seat = 0
    passes = 0
    last: list[int] | None = None
    while True:
        hand = hands[seat]
        move = int(rand() * 11)
        if move < 9:
            i, j = divmod(move, 3)
            hand[i], middle[j] = middle[j], hand[i]
            passes = 0
        elif move == 9:
            hands[seat], middle = middle, hand
            passes = 0
        else:
            passes += 1
        if move < 10:
            r = special(seat)
            if r is not None:
                return r
        if last is None:
            if passes == seats:
                passes = 0
                if len(stock) >= 3:
                    middle = [stock.pop(), stock.pop(), stock.pop()]
                else:
                    return showdown()
            if rand() < 0.1:
                last = [(seat + d) % seats for d in range(1, seats)]
        if last is not None:
            if not last:
                return showdown()
            seat = last.pop(0)
        else:
            seat = (seat + 1) % seats


def play_match(rng: random.Random, seats: int = 4, lives: int = 3) -> int:
    """A match with three tokens and swimming; returns the number of rounds."""
    left = [lives] * seats
    out = [False] * seats
    rounds = 0
    while out.count(False) > 1:
        active = [s for s in range(seats) if not out[s]]
        rounds += 1
        losers = play_round(rng, len(active))
        if len(losers) == len(active) and all(left[active[x]] == 0 for x in losers):
            continue
        for x in losers:
            s = active[x]
            if left[s] == 0:
                out[s] = True
            else:
                left[s] -= 1
    return rounds
