"""Scat (``spec/scat.yaml``) written by hand for speed: the yardstick a user would set.

Plain Python, no engine code, every rule fixed in the code as a person who plays only
Scat would write it: 52 cards as small integers (suit * 16 + rank), one precomputed table
of hand values, the deck shuffled lazily (a partial Fisher-Yates: only the cards that are
dealt or drawn get a random position), as few random numbers per decision as the choice
needs.

The rules, from the spec: three cards each, one card face up starts the discard pile, the
rest is the stock. A 31 (ace and two tens of one suit) ends the round at once, at the
deal and in play, and every other player loses a life. A turn knocks instead of moving
(one knock a round, then everybody else moves once more), or draws the top card of the
stock or of the discard pile and discards a card, never the one just taken from the
pile. An empty stock is the discard pile turned over, its top card staying; with nothing
to turn the round ends in a showdown. The best suit counts, no suit beats another; the
lowest hand loses a life, the knocker two if he is among the lowest. Three lives, then
swimming; a round that would put out everybody left is played again.

The workload is the benchmark's random bot: a knock with probability 0.1 where one is
legal, otherwise a uniformly random legal action.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations

VALUES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11)  # 2 .. 10, J, Q, K, A
PACK = [s * 16 + r for s in range(4) for r in range(13)]


def _points(a: int, b: int, c: int) -> int:
    best = 0
    for suit in range(4):
        total = sum(VALUES[x & 15] for x in (a, b, c) if x >> 4 == suit)
        best = max(best, total)
    return best


POINTS = [0] * (64 << 12)
for _combo in combinations(PACK, 3):
    _p = _points(*_combo)
    for _a, _b, _c in permutations(_combo):
        POINTS[_a << 12 | _b << 6 | _c] = _p
NEXT = {n: [(i + 1) % n for i in range(n)] for n in range(2, 10)}
ALL_LOSE_BUT = {n: [[int(s != h) for s in range(n)] for h in range(n)] for n in range(2, 10)}


def _showdown(hands: list[list[int]], knocker: int) -> list[int]:
    pts = POINTS
    values = [pts[h[0] << 12 | h[1] << 6 | h[2]] for h in hands]
    low = min(values)
    out = [int(v == low) for v in values]
    if knocker >= 0 and out[knocker]:
        out[knocker] = 2
    return out


def play_round(rand: random.Random, n: int) -> list[int]:
    """One round for ``n`` players in deal order (dealer last): lives lost by each."""
    r = rand.random
    pts = POINTS
    d = PACK[:]
    dealt = 3 * n + 1
    for p in range(dealt):
        j = p + int(r() * (52 - p))
        d[p], d[j] = d[j], d[p]
    pos = dealt
    hands = [d[3 * i : 3 * i + 3] for i in range(n)]
    holders = [i for i in range(n) if pts[d[3 * i] << 12 | d[3 * i + 1] << 6 | d[3 * i + 2]] == 31]
    if holders:
        return [int(i not in holders) for i in range(n)]
    discard = [d[3 * n]]
    stock: list[int] = []  # the turned discard pile, once the pack is drawn
    nxt = NEXT[n]
    cur = 0
    knocker = -1
    left = -1  # turns still to come after the knock
    while True:
        u = r()
        if left < 0 and u < 0.1:
            knocker = cur
            left = n - 1
            cur = nxt[cur]
            continue
        hand = hands[cur]
        if (u < 0.55 if left < 0 else u < 0.5) and discard:
            took = discard.pop()
            hand.append(took)
            out = int(r() * 3)  # never the card just taken, the last in the hand
        else:
            if pos < 52:
                j = pos + int(r() * (52 - pos))
                card = d[j]
                d[j] = d[pos]
                pos += 1
            elif stock:
                card = stock.pop()
            elif len(discard) < 2:
                return _showdown(hands, knocker)
            else:
                top = discard.pop()
                stock = discard
                stock.reverse()
                discard = [top]
                card = stock.pop()
            hand.append(card)
            out = int(r() * 4)
        discard.append(hand.pop(out))
        if pts[hand[0] << 12 | hand[1] << 6 | hand[2]] == 31:
            return ALL_LOSE_BUT[n][cur]
        if left >= 0:
            left -= 1
            if left == 0:
                return _showdown(hands, knocker)
        cur = nxt[cur]


def play_match(rand: random.Random, seats: int = 4) -> int:
    """A match of three lives and swimming, lives lost one at a time, the deal passing
    clockwise; returns the number of rounds played."""
    lives = [3] * seats
    active = list(range(seats))
    dealer = seats - 1
    rounds = 0
    while len(active) > 1:
        rounds += 1
        start = active.index(dealer) + 1
        order = active[start:] + active[:start]
        losses = play_round(rand, len(order))
        lost = [(order[i], x) for i, x in enumerate(losses) if x]
        if len(lost) == len(order) and all(lives[s] < x for s, x in lost):
            dealer = order[0]
            continue  # everybody would be out: the round is played again
        out = False
        for s, x in lost:
            if lives[s] < x:
                lives[s] = -1
                out = True
            else:
                lives[s] -= x
        if out:
            active = [s for s in active if lives[s] >= 0]
        probe = dealer
        while True:
            probe = (probe + 1) % seats
            if lives[probe] >= 0:
                break
        dealer = probe
    return rounds
