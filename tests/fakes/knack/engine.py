"""knack: a small Schwimmen engine with fixed rules of its own (pagat's game with a few
changes), speaking the schwimmen conformance protocol, version 1, on stdin and stdout.

Its rules and habits are in README.md; it never reads a case's ``ruleset.parameters``.
Python 3.11 standard library only.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from typing import Any

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["C", "S", "H", "D"]
POINTS = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
HAND = 3
TRIPLE = 30.5
MAXIMUM = 31
LIVES = 3
PLAYERS = (2, 8)
CHAIRS = 5
CARD = re.compile(r"^(10|[2-9JQKA])([CSHD])$")


class BadRequest(Exception):
    """A request that is no position or no action: the case is answered errored."""


class Refused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def rank(card: str) -> str:
    m = CARD.match(card)
    if not m or m.group(1) not in RANKS:
        raise BadRequest(f"not a card of the pack: {card}")
    return m.group(1)


def suit(card: str) -> str:
    rank(card)
    return card[-1]


def value(hand: list[str]) -> dict[str, Any]:
    """A triple counts 30½ (three aces too); otherwise the best suit, the first one in hand
    order that reaches it."""
    ranks = [rank(c) for c in hand]
    if len(set(ranks)) == 1:
        return {"points": TRIPLE, "hand": "triple", "suit": None, "maximum": False}
    best, best_suit = -1, None
    for card in hand:
        total = sum(POINTS[rank(c)] for c in hand if suit(c) == suit(card))
        if total > best:
            best, best_suit = total, suit(card)
    return {"points": best, "hand": "suit", "suit": best_suit, "maximum": best == MAXIMUM}


def strength(hand: list[str]) -> tuple[float, int]:
    v = value(hand)
    return (v["points"], RANKS.index(rank(hand[0])) if v["hand"] == "triple" else -1)


def showdown_losses(hands: dict[str, list[str]]) -> dict[str, int]:
    """The lowest hand loses one; equal hands all lose; a higher triple beats a lower one."""
    low = min(strength(h) for h in hands.values())
    return {s: 1 for s, h in hands.items() if strength(h) == low}


def parse(action: str) -> tuple[str, list[str], list[str], bool]:
    """(kind, cards given, cards taken, knock) of an action of the grammar."""
    words = action.split(" ")
    knock = len(words) > 1 and words[-1] == "knock"
    if knock:
        words = words[:-1]
    head = words[0] if words else ""
    if head == "swap" and len(words) == 3:
        give, take = words[1].split("+"), words[2].split("+")
        for c in give + take:
            if not CARD.match(c):
                raise BadRequest(f"not an action: {action}")
        return "swap", give, take, knock
    if head in ("swap-all", "pass") and len(words) == 1:
        return head, [], [], knock
    if action == "knock":
        return "pass", [], [], True
    if (
        not knock
        and len(words) == 1
        and head
        in ("keep", "take-extra", "show", "decline", "turn-up", "draw-stock", "draw-discard")
    ):
        return head, [], [], False
    if not knock and head == "discard" and len(words) == 2 and CARD.match(words[1]):
        return head, [words[1]], [], False
    raise BadRequest(f"not an action: {action}")


class Match:
    def __init__(self, c: dict[str, Any]) -> None:
        self.seats = [f"P{i + 1}" for i in range(c["seats"])]
        lives = c.get("lives", LIVES)
        self.lives = {
            s: lives if isinstance(lives, int) else lives.get(s, LIVES) for s in self.seats
        }
        self.out = set(c.get("eliminated", []))
        for s in self.out:
            self.lives[s] = 0
        self.dealer = c.get("dealer", self.seats[-1])
        self.decks = list(c.get("decks", []))
        self.deals = list(c.get("deals", []))
        self.rng = random.Random(7)
        self.rounds: list[dict[str, Any]] = []
        self.step = 0
        self.over = False
        self.winners: list[str] = []
        if "deck" in c:
            self.deal_pack(c["deck"])
        else:
            self.set_position(
                c.get("hands", {}), c.get("middle"), c.get("extra"), c.get("stock", [])
            )

    def playing(self) -> list[str]:
        return [s for s in self.seats if s not in self.out]

    def left_of(self, seat: str) -> str:
        i = self.seats.index(seat)
        for k in range(1, len(self.seats) + 1):
            s = self.seats[(i + k) % len(self.seats)]
            if s not in self.out:
                return s
        raise BadRequest("nobody at the table")

    def right_of(self, seat: str) -> str:
        i = self.seats.index(seat)
        for k in range(1, len(self.seats) + 1):
            s = self.seats[(i - k) % len(self.seats)]
            if s not in self.out:
                return s
        raise BadRequest("nobody at the table")

    def from_left_of_dealer(self) -> list[str]:
        first = self.left_of(self.dealer)
        order = [first]
        while (s := self.left_of(order[-1])) != first:
            order.append(s)
        return order

    def deal_pack(self, pack: list[str]) -> None:
        order = self.from_left_of_dealer()
        if len(pack) < (len(order) + 1) * HAND:
            raise BadRequest("the pack is too short")
        piles: dict[str, list[str]] = {s: [] for s in [*order, "extra"]}
        it = iter(pack)
        for _ in range(HAND):
            for s in [*order, "extra"]:
                piles[s].append(next(it))
        extra = piles.pop("extra")
        self.set_position(piles, None, extra, list(it))

    def set_position(
        self,
        hands: dict[str, list[str]],
        middle: list[str] | None,
        extra: list[str] | None,
        stock: list[str],
    ) -> None:
        seen: list[str] = []
        for s in self.playing():
            if len(hands.get(s, [])) != HAND:
                raise BadRequest(f"no hand of three for {s}")
            seen += hands[s]
        seen += (middle or []) + (extra or []) + stock
        if len(set(seen)) != len(seen):
            raise BadRequest("a card is dealt twice")
        for c in seen:
            rank(c)
        if middle is None and extra is None:
            raise BadRequest("neither a middle nor an extra hand")
        self.hands = {s: list(hands[s]) for s in self.playing()}
        self.middle = list(middle or []) if extra is None else []
        self.extra = list(extra) if extra is not None else None
        self.stock = list(stock)
        self.knocker: str | None = None
        self.last_cycle: list[str] | None = None
        if self.extra is not None:
            self.phase, self.to_move = "dealer-choice", self.dealer
        else:
            self.phase, self.to_move = "turn", self.left_of(self.dealer)
        self.dealt_maximum(self.from_left_of_dealer())

    def dealt_maximum(self, order: list[str]) -> None:
        holders = [s for s in order if value(self.hands[s])["maximum"]]
        if holders:
            self.end_round("maximum", True, holders[0])

    def end_round(self, reason: str, at_deal: bool, by: str | None) -> None:
        losses = showdown_losses(self.hands)
        record: dict[str, Any] = {
            "reason": reason,
            "at_deal": at_deal,
            "after_step": self.step,
            "by": by,
            "knocker": self.knocker,
            "losses": losses,
            "lives_lost": {},
        }
        self.rounds.append(record)
        after = dict(self.lives)
        gone = []
        for s, n in losses.items():
            for _ in range(n):
                if after[s] > 0:
                    after[s] -= 1
                elif s not in gone:
                    gone.append(s)
        left = [s for s in self.playing() if s not in gone]
        if left:
            record["lives_lost"] = {
                s: self.lives[s] - after[s] for s in after if after[s] < self.lives[s]
            }
            self.lives = after
            self.out.update(gone)
        if len(left) == 1:
            self.over, self.winners, self.to_move, self.phase = True, left, None, "match-over"
            return
        self.dealer = self.right_of(self.dealer)
        if self.decks:
            self.deal_pack(self.decks.pop(0))
        elif self.deals:
            d = self.deals.pop(0)
            self.set_position(d["hands"], d.get("middle"), d.get("extra"), d.get("stock", []))
        else:
            pack = [r + s for s in SUITS for r in RANKS]
            self.rng.shuffle(pack)
            self.deal_pack(pack)

    def play(self, seat: str, action: str) -> None:
        kind, give, take, knock = parse(action)
        if self.over:
            raise Refused("match-over")
        if seat != self.to_move:
            raise Refused("not-your-turn")
        if kind in ("draw-stock", "draw-discard", "discard"):
            raise Refused("no-draw")
        choosing = self.phase == "dealer-choice"
        if choosing != (kind in ("keep", "take-extra")) or kind in ("show", "decline", "turn-up"):
            raise Refused("wrong-phase")
        if kind in ("keep", "take-extra"):
            assert self.extra is not None
            if kind == "keep":
                self.middle = self.extra
            else:
                self.middle, self.hands[seat] = self.hands[seat], self.extra
            self.extra, self.phase = None, "turn"
            self.to_move = self.left_of(self.dealer)
            self.dealt_maximum([seat])
            return
        hand = self.hands[seat]
        if kind == "swap":
            if len(give) != len(take) or len(set(give)) != len(give) or len(set(take)) != len(take):
                raise Refused("malformed")
            if any(c not in hand for c in give):
                raise Refused("not-in-hand")
            if any(c not in self.middle for c in take):
                raise Refused("not-in-middle")
        if kind == "swap-all" or (kind == "swap" and len(give) == HAND):
            raise Refused("unsupported")
        if kind == "swap" and len(give) != 1:
            raise Refused("two-card-swap")
        if kind == "pass":
            raise Refused("no-pass")
        if knock and self.knocker is not None:
            raise Refused("second-knock")
        i, j = hand.index(give[0]), self.middle.index(take[0])
        hand[i], self.middle[j] = self.middle[j], hand[i]
        if value(hand)["maximum"]:
            # The 31 is shown as soon as the swap makes it: a close written after it never
            # takes effect.
            self.end_round("maximum", False, seat)
            return
        if knock:
            self.knocker = seat
            self.last_cycle = []
            s = self.left_of(seat)
            while s != seat:
                self.last_cycle.append(s)
                s = self.left_of(s)
        if self.last_cycle is not None:
            if self.last_cycle:
                self.to_move = self.last_cycle.pop(0)
            else:
                self.end_round("knock", False, self.knocker)
        else:
            self.to_move = self.left_of(seat)

    def next_match(self) -> None:
        raise Refused("match-over" if self.over else "wrong-phase")

    def legal(self) -> list[str]:
        if self.over:
            return []
        if self.phase == "dealer-choice":
            return ["keep", "take-extra"]
        moves = [f"swap {h} {m}" for h in self.hands[str(self.to_move)] for m in self.middle]
        if self.knocker is None:
            moves += [f"{m} knock" for m in moves]
        return moves

    def state(self) -> dict[str, Any]:
        return {
            "to_move": self.to_move,
            "phase": self.phase,
            "dealer": self.dealer,
            "middle": list(self.middle),
            "hands": {s: list(h) for s, h in self.hands.items()},
            "values": {s: value(h) for s, h in self.hands.items()},
            "knocker": self.knocker,
            "legal": self.legal(),
            "lives": dict(self.lives),
            "swimming": [s for s in self.playing() if self.lives[s] == 0],
            "eliminated": [s for s in self.seats if s in self.out],
            "match_over": self.over,
            "winners": list(self.winners),
            "points": {},
        }


def play_case(c: dict[str, Any]) -> dict[str, Any]:
    match = Match(c)
    steps: list[dict[str, Any]] = []
    states: dict[str, Any] = {}
    checkpoints = set(c.get("checkpoints", []))
    for step in c.get("steps", []):
        ((who, action),) = step.items()
        match.step += 1
        try:
            if who == "table":
                if action != "next-match":
                    raise BadRequest(f"not a table step: {action}")
                match.next_match()
            else:
                match.play(who, action)
            steps.append({"accepted": True})
        except Refused as refusal:
            steps.append({"accepted": False, "reason": refusal.code})
        if match.step in checkpoints:
            states[str(match.step)] = match.state()
    return {"steps": steps, "rounds": match.rounds, **match.state(), "states": states}


def run_case(c: dict[str, Any]) -> dict[str, Any]:
    if c["seats"] > CHAIRS:
        return {"status": "errored", "message": "only five chairs"}
    kind = c["kind"]
    if kind == "setup":
        ok = PLAYERS[0] <= c["seats"] <= PLAYERS[1]
        return {"status": "ok", "outcome": {"accepted": ok, "pack": len(RANKS) * len(SUITS)}}
    if kind == "hand-evaluation":
        return {"status": "ok", "outcome": {"values": {s: value(h) for s, h in c["hands"].items()}}}
    if kind == "showdown":
        hands = c["hands"]
        values = {s: value(h) for s, h in hands.items()}
        return {"status": "ok", "outcome": {"values": values, "losses": showdown_losses(hands)}}
    return {"status": "ok", "outcome": play_case(c)}


def start_answer() -> dict[str, Any]:
    """The start answer; WILD_START (a JSON object) is merged into it, for tests."""
    answer: dict[str, Any] = {
        "ok": True,
        "version": 1,
        "implementation": {"name": "knack", "version": "1.4", "language": "python"},
        "rulesets": [],
        "any_ruleset": True,
        "not_reported": ["rounds.hands", "rounds.values"],
    }
    answer.update(json.loads(os.environ.get("WILD_START") or "{}"))
    return answer


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("cmd") == "stop":
            break
        if message.get("cmd") == "start":
            reply = start_answer()
        else:
            try:
                reply = {"seq": message["seq"], **run_case(message["case"])}
            except (BadRequest, KeyError, ValueError) as err:
                print(f"knack: {err!r}", file=sys.stderr)
                reply = {"seq": message.get("seq"), "status": "errored", "message": str(err)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
