"""pagat (``spec/pagat.yaml``) written by hand for speed: the yardstick a user would set.

Plain Python, no engine code, every rule fixed in the code as a person who plays only
pagat would write it: 32 cards as small integers (suit * 8 + rank), one precomputed
table of hand keys, the deck shuffled lazily (a partial Fisher-Yates: only the cards that
are dealt or drawn get a random position), one random number per decision.

The rules, from the spec: every player and an extra hand get three cards; the dealer
keeps his hand or takes the extra one blind, the other goes face up to the middle.
Three aces (Feuer) end the round at once, at the deal and in play, and every other player
loses a life; a 31 does the same and the lowest hand loses. A turn swaps one card or all
three with the middle, or passes, and may close at its end (one close a round, then
everybody else moves once more). When all have passed in a row the middle is replaced
from the stock, out of play; with fewer than three cards left the round ends in a
showdown. Lowest hand loses a life, all of the tied lose (the knocker too, like anyone);
ties are broken by the triple's rank and then by suit (clubs, spades, hearts, diamonds);
any triple counts 30½. Three lives, then swimming; a round that would put out everybody
left is played again.

The workload is the benchmark's random bot: a close with probability 0.1 where one is
legal, otherwise a uniformly random legal action; the dealer's choice is a coin flip.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations

RANKS = 8  # 7 8 9 10 J Q K A
VALUES = (7, 8, 9, 10, 10, 10, 10, 11)
ACE = 7
SUIT_RANK = (4, 3, 2, 1)  # clubs beat spades beat hearts beat diamonds on equal points
FEUER = 1 << 40
MAX31 = 62 << 16  # 31 points, doubled


def _key(a: int, b: int, c: int) -> int:
    """Feuer above all, then points (doubled: a triple is 30½), triple rank, suit."""
    ra, rb, rc = a & 7, b & 7, c & 7
    if ra == rb == rc:
        if ra == ACE:
            return FEUER
        return (61 << 16) | ((ra + 1) << 4)
    best = 0
    for suit in range(4):
        total = sum(VALUES[x & 7] for x in (a, b, c) if x >> 3 == suit)
        if total:
            best = max(best, (total * 2) << 16 | SUIT_RANK[suit])
    return best


KEY = [0] * (32 << 10)
for _combo in combinations(range(32), 3):
    _k = _key(*_combo)
    for _a, _b, _c in permutations(_combo):
        KEY[_a << 10 | _b << 5 | _c] = _k
NEXT = {n: [(i + 1) % n for i in range(n)] for n in range(2, 9)}
SWAP_I = [m // 3 for m in range(9)]
SWAP_J = [m % 3 for m in range(9)]
ALL_LOSE_BUT = {n: [[int(s != h) for s in range(n)] for h in range(n)] for n in range(2, 9)}


def play_round(rand: random.Random, n: int) -> list[int]:
    """One round for ``n`` players in deal order (dealer last): lives lost by each."""
    r = rand.random
    key = KEY
    d = list(range(32))
    # deal 3n + 3 cards by a partial Fisher-Yates; the stock is the rest, drawn lazily
    dealt = 3 * n + 3
    for p in range(dealt):
        j = p + int(r() * (32 - p))
        d[p], d[j] = d[j], d[p]
    pos = dealt
    hands = [d[3 * i : 3 * i + 3] for i in range(n)]
    keys = [key[h[0] << 10 | h[1] << 5 | h[2]] for h in hands]
    for s in range(n):
        if keys[s] >= FEUER:
            return [0 if keys[x] >= FEUER else 1 for x in range(n)]
    for s in range(n):
        if keys[s] >= MAX31:
            low = min(keys)
            return [int(k == low) for k in keys]
    dealer = n - 1
    if r() < 0.5:
        middle = hands[dealer]
        hands[dealer] = h = d[3 * n : 3 * n + 3]
        k = key[h[0] << 10 | h[1] << 5 | h[2]]
        keys[dealer] = k
        if k >= FEUER:
            return ALL_LOSE_BUT[n][dealer]
        if k >= MAX31:
            low = min(keys)
            return [int(k == low) for k in keys]
    else:
        middle = d[3 * n : 3 * n + 3]
    nxt = NEXT[n]
    si, sj = SWAP_I, SWAP_J
    cur = 0
    streak = 0
    left = -1  # turns still to come after a close
    while True:
        u = r()
        if left < 0:
            closing = u < 0.1
            move = int(u * 110) if closing else int((u - 0.1) * 12.222222222222221)
        else:
            closing = False
            move = int(u * 11)
        if move < 10:
            hand = hands[cur]
            if move < 9:
                i = si[move]
                j = sj[move]
                hand[i], middle[j] = middle[j], hand[i]
            else:
                hands[cur] = middle
                middle = hand
                hand = hands[cur]
            k = key[hand[0] << 10 | hand[1] << 5 | hand[2]]
            keys[cur] = k
            if k >= MAX31:
                if k >= FEUER:
                    return ALL_LOSE_BUT[n][cur]
                low = min(keys)
                return [int(k == low) for k in keys]
            streak = 0
        elif left < 0:
            streak += 1
            if streak == n:
                streak = 0
                if pos > 29:
                    low = min(keys)
                    return [int(k == low) for k in keys]
                for p in range(pos, pos + 3):
                    j = p + int(r() * (32 - p))
                    d[p], d[j] = d[j], d[p]
                middle = d[pos : pos + 3]
                pos += 3
        if closing:
            left = n - 1
        elif left >= 0:
            left -= 1
            if left == 0:
                low = min(keys)
                return [int(k == low) for k in keys]
        cur = nxt[cur]


def play_match(rand: random.Random, seats: int = 4) -> int:
    """A match of three lives and swimming, the deal passing clockwise; returns the
    number of rounds played."""
    lives = [3] * seats
    active = list(range(seats))
    dealer = seats - 1
    rounds = 0
    while len(active) > 1:
        rounds += 1
        start = active.index(dealer) + 1
        order = active[start:] + active[:start]
        losses = play_round(rand, len(order))
        losers = [order[i] for i, x in enumerate(losses) if x]
        if len(losers) == len(order) and all(lives[s] == 0 for s in losers):
            dealer = order[0]
            continue  # everybody would be out: the round is played again
        out = False
        for s in losers:
            if lives[s] == 0:
                lives[s] = -1
                out = True
            else:
                lives[s] -= 1
        if out:
            active = [s for s in active if lives[s] >= 0]
        probe = dealer
        while True:
            probe = (probe + 1) % seats
            if lives[probe] >= 0:
                break
        dealer = probe
    return rounds
