"""stammtisch: a fixed-rules Schwimmen engine speaking the conformance protocol.

It plays one pub table's rules (README.md beside this file), whatever ruleset a case
names. It was written from the rules description and the public protocol documents only;
it shares no code with the reference engine. Python standard library only.
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
CARD_POINTS = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
HAND_SIZE = 3
MIDDLE_SIZE = 3
LIVES = 3
TRIPLE = 30.5
KNOCK_MINIMUM = 20
KNOCKER_LOSES = 2
FEUER_RANK = 1000.0


CARD = r"(?:[2-9]|10|[JQKA])[CSHD]"
CARDS = rf"{CARD}(?:\+{CARD})*"
MOVE = rf"(?:swap {CARDS} {CARDS}|swap-all|pass)"
ACTION = re.compile(
    rf"{MOVE}(?: knock)?|knock|keep|take-extra|show|decline|turn-up"
    rf"|draw-stock|draw-discard|discard {CARD}"
)


class Refused(Exception):
    """A step the table does not allow; its argument is the protocol's reason code."""


def start_answer() -> dict[str, Any]:
    """What the engine claims at the handshake; WILD_START (a JSON object) is merged in."""
    answer: dict[str, Any] = {
        "ok": True,
        "version": 1,
        "implementation": {"name": "stammtisch", "version": "1.0", "language": "python"},
        "rulesets": [],
        "any_ruleset": True,
        "not_reported": ["legal"],
    }
    extra = os.environ.get("WILD_START")
    if extra:
        answer.update(json.loads(extra))
    return answer


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def value(hand: list[str]) -> dict[str, Any]:
    """Best one-suit sum; three of a kind 30.5; three aces are Feuer, without points."""
    ranks = {rank(c) for c in hand}
    if len(ranks) == 1:
        if ranks == {"A"}:
            return {"points": None, "hand": "feuer", "suit": None, "maximum": False}
        return {"points": TRIPLE, "hand": "triple", "suit": None, "maximum": False}
    best, best_suit = -1, "C"
    for s in SUITS:
        total = sum(CARD_POINTS[rank(c)] for c in hand if suit(c) == s)
        if total > best:
            best, best_suit = total, s
    return {"points": best, "hand": "suit", "suit": best_suit, "maximum": best == 31}


def strength(hand: list[str]) -> float:
    v = value(hand)
    return FEUER_RANK if v["hand"] == "feuer" else float(v["points"])


def is_feuer(hand: list[str]) -> bool:
    return {rank(c) for c in hand} == {"A"}


def showdown_losses(hands: dict[str, list[str]], knocker: str | None) -> dict[str, int]:
    """The lowest hand loses one, all tied lowest lose one, a lowest knocker loses two."""
    low = min(strength(h) for h in hands.values())
    losers = [s for s, h in hands.items() if strength(h) == low]
    return {s: KNOCKER_LOSES if s == knocker else 1 for s in losers}


def full_pack() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


class Match:
    def __init__(self, case: dict[str, Any]) -> None:
        n = case["seats"]
        self.seats = [f"P{i}" for i in range(1, n + 1)]
        self.eliminated = set(case.get("eliminated", []))
        given = case.get("lives", LIVES)
        self.lives = {
            s: (given if isinstance(given, int) else given.get(s, LIVES)) for s in self.seats
        }
        for s in self.eliminated:
            self.lives[s] = 0
        self.dealer = case.get("dealer", self.seats[-1])
        self.decks = list(case.get("decks", []))
        self.deals = list(case.get("deals", []))
        self.rng = random.Random(0)
        self.rounds: list[dict[str, Any]] = []
        self.match_over = False
        self.winners: list[str] = []
        self.step_no = 0
        if "deck" in case:
            self.deal_pack(case["deck"])
        else:
            self.set_position(case["hands"], case["middle"], case.get("stock", []))

    def active(self) -> list[str]:
        return [s for s in self.seats if s not in self.eliminated]

    def next_active(self, seat: str) -> str:
        i = self.seats.index(seat)
        for k in range(1, len(self.seats) + 1):
            s = self.seats[(i + k) % len(self.seats)]
            if s not in self.eliminated:
                return s
        return seat

    def from_left_of_dealer(self) -> list[str]:
        order, s = [], self.dealer
        for _ in self.active():
            s = self.next_active(s)
            order.append(s)
        return order

    def deal_pack(self, pack: list[str]) -> None:
        order = self.from_left_of_dealer()
        hands: dict[str, list[str]] = {s: [] for s in order}
        i = 0
        for _ in range(HAND_SIZE):
            for s in order:
                hands[s].append(pack[i])
                i += 1
        middle = pack[i : i + MIDDLE_SIZE]
        self.set_position(hands, middle, pack[i + MIDDLE_SIZE :])

    def set_position(
        self, hands: dict[str, list[str]], middle: list[str], stock: list[str]
    ) -> None:
        self.hands = {s: list(hands[s]) for s in self.active()}
        self.middle = list(middle)
        self.stock = list(stock)
        self.to_move = self.next_active(self.dealer)
        self.knocker: str | None = None
        self.passes = 0

    def deal_next(self) -> None:
        if self.deals:
            d = self.deals.pop(0)
            self.set_position(d["hands"], d["middle"], d.get("stock", []))
        elif self.decks:
            self.deal_pack(self.decks.pop(0))
        else:
            pack = full_pack()
            self.rng.shuffle(pack)
            self.deal_pack(pack)

    def play(self, seat: str, text: str) -> dict[str, Any]:
        self.step_no += 1
        try:
            self.act(seat, text)
        except Refused as refusal:
            return {"accepted": False, "reason": str(refusal)}
        return {"accepted": True}

    def act(self, seat: str, text: str) -> None:
        if seat != "table" and not ACTION.fullmatch(text):
            raise ValueError(f"not an action of the grammar: {text!r}")
        words = text.split(" ")
        if self.match_over:
            raise Refused("match-over")
        if seat == "table":
            raise Refused("match-over" if self.match_over else "wrong-phase")
        if seat != self.to_move:
            raise Refused("not-your-turn")
        head = words[0]
        if head in ("draw-stock", "draw-discard", "discard"):
            raise Refused("no-draw")
        if head in ("keep", "take-extra", "show", "decline", "turn-up"):
            raise Refused("wrong-phase")
        knock = words[-1] == "knock"
        move = words[:-1] if knock else words
        hand = self.hands[seat]
        if move and move[0] == "swap":
            give, take = move[1].split("+"), move[2].split("+")
            if len(give) != len(take) or len(set(give)) < len(give) or len(set(take)) < len(take):
                raise Refused("malformed")
            if any(c not in hand for c in give):
                raise Refused("not-in-hand")
            if any(c not in self.middle for c in take):
                raise Refused("not-in-middle")
            if 1 < len(give) < HAND_SIZE:
                raise Refused("two-card-swap")
            if len(give) == HAND_SIZE:
                move = ["swap-all"]
        if move and knock:
            raise Refused("knock-with-move")
        if knock:
            if self.knocker is not None:
                raise Refused("second-knock")
            if strength(hand) < KNOCK_MINIMUM:
                raise Refused("knock-needs-maximum")
        self.apply(seat, move, knock)

    def apply(self, seat: str, move: list[str], knock: bool) -> None:
        hand = self.hands[seat]
        if knock:
            self.knocker = seat
        elif move[0] == "swap-all":
            self.hands[seat], self.middle = list(self.middle), hand
        elif move[0] == "swap":
            give, take = move[1], move[2]
            h, m = hand.index(give), self.middle.index(take)
            hand[h], self.middle[m] = take, give
        if is_feuer(self.hands[seat]):
            losses = {s: 1 for s in self.hands if s != seat}
            self.end_round("feuer", seat, losses)
            return
        if move and move[0] == "pass" and self.knocker is None:
            self.passes += 1
            if self.passes == len(self.hands):
                self.passes = 0
                if len(self.stock) < MIDDLE_SIZE:
                    self.end_round("all-passed", None, showdown_losses(self.hands, None))
                    return
                self.middle = self.stock[:MIDDLE_SIZE]
                self.stock = self.stock[MIDDLE_SIZE:]
        elif not knock:
            self.passes = 0
        self.to_move = self.next_active(seat)
        if self.knocker is not None and self.to_move == self.knocker:
            self.end_round("knock", self.knocker, showdown_losses(self.hands, self.knocker))

    def end_round(self, reason: str, by: str | None, losses: dict[str, int]) -> None:
        record: dict[str, Any] = {
            "reason": reason,
            "at_deal": False,
            "after_step": self.step_no,
            "by": by,
            "knocker": self.knocker if reason != "all-passed" else None,
            "losses": losses,
            "lives_lost": {},
            "values": {s: value(h) for s, h in self.hands.items()},
            "hands": {s: list(h) for s, h in self.hands.items()},
        }
        self.rounds.append(record)
        players = self.active()
        out = [s for s in players if losses.get(s, 0) > self.lives[s]]
        if len(out) == len(players):
            self.dealer = self.next_active(self.dealer)
            self.deal_next()
            return
        for s, n in losses.items():
            before = self.lives[s]
            self.lives[s] = max(0, before - n)
            if before - n < 0:
                self.eliminated.add(s)
            if before - self.lives[s]:
                record["lives_lost"][s] = before - self.lives[s]
        left = self.active()
        if len(left) == 1:
            self.match_over = True
            self.winners = left
            return
        self.dealer = self.next_dealer(losses)
        self.deal_next()

    def next_dealer(self, losses: dict[str, int]) -> str:
        """The loser deals: the first from the old dealer's left; if he is out, the next seat in."""
        n = len(self.seats)
        i = self.seats.index(self.dealer)
        for k in range(1, n + 1):
            s = self.seats[(i + k) % n]
            if losses.get(s, 0) > 0:
                return s if s not in self.eliminated else self.next_active(s)
        return self.next_active(self.dealer)

    def state(self) -> dict[str, Any]:
        over = self.match_over
        return {
            "to_move": None if over else self.to_move,
            "phase": "match-over" if over else "turn",
            "dealer": self.dealer,
            "middle": list(self.middle),
            "hands": {s: list(h) for s, h in self.hands.items()},
            "values": {s: value(h) for s, h in self.hands.items()},
            "knocker": self.knocker,
            "lives": dict(self.lives),
            "swimming": [s for s in self.active() if self.lives[s] == 0],
            "eliminated": sorted(self.eliminated),
            "match_over": over,
            "winners": list(self.winners),
            "points": {},
        }


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    kind = case["kind"]
    if kind == "setup":
        return {"status": "skipped", "reason": "no table setup in this engine"}
    if "extra" in case:
        return {"status": "skipped", "reason": "no dealer's choice in this engine"}
    check_position(case)
    if kind == "hand-evaluation":
        return {
            "status": "ok",
            "outcome": {"values": {s: value(h) for s, h in case["hands"].items()}},
        }
    if kind == "showdown":
        hands = case["hands"]
        outcome = {
            "values": {s: value(h) for s, h in hands.items()},
            "losses": showdown_losses(hands, case.get("knocker")),
        }
        return {"status": "ok", "outcome": outcome}
    match = Match(case)
    checkpoints = set(case.get("checkpoints", []))
    steps, states = [], {}
    for i, step in enumerate(case.get("steps", []), start=1):
        ((seat, text),) = step.items()
        steps.append(match.play(seat, text))
        if i in checkpoints:
            states[str(i)] = match.state()
    outcome = {"steps": steps, "rounds": match.rounds, **match.state()}
    if checkpoints:
        outcome["states"] = states
    return {"status": "ok", "outcome": outcome}


def check_position(case: dict[str, Any]) -> None:
    """A position this engine cannot lay out is answered errored, with the reason."""
    playing = case["kind"] in ("round", "match")
    if playing and "deck" not in case and "middle" not in case and "extra" not in case:
        raise ValueError("no middle: this engine has no draw-and-discard game")
    piles = [*case.get("hands", {}).values(), case.get("middle", []), case.get("stock", [])]
    piles += [case.get("deck", []), *case.get("decks", [])]
    for deal in case.get("deals", []):
        piles += [*deal["hands"].values(), deal.get("middle", []), deal.get("stock", [])]
    pack = {r + s for r in CARD_POINTS for s in SUITS}
    for pile in piles:
        for card in pile:
            if card not in pack:
                raise ValueError(f"{card} is not in this engine's pack of 32")
    for hand in case.get("hands", {}).values():
        if len(hand) != HAND_SIZE:
            raise ValueError(f"a hand of {len(hand)} cards: this engine deals {HAND_SIZE}")


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
            except Exception as error:  # one bad case must not stop the run
                print(f"stammtisch: {error!r}", file=sys.stderr)
                reply = {"seq": message.get("seq"), "status": "errored", "message": repr(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
