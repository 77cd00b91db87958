"""nurgeben ("just deals"): an engine that gets no further than the deal.

It lays out the position of a case, values hands by their best suit, compares them at a
showdown, and refuses every step as unsupported (README.md beside this file). Written
from the public protocol documents only; Python standard library only.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

SUITS = ["C", "S", "H", "D"]
CARD_POINTS = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
HAND_SIZE = 3
MIDDLE_SIZE = 3
LIVES = 3
PLAYERS = (2, 8)
PACK = 32


def start_answer() -> dict[str, Any]:
    """What the engine claims at the handshake; WILD_START (a JSON object) is merged in."""
    answer: dict[str, Any] = {
        "ok": True,
        "version": 1,
        "implementation": {"name": "nurgeben", "version": "0.1", "language": "python"},
        "rulesets": [],
        "any_ruleset": True,
    }
    extra = os.environ.get("WILD_START")
    if extra:
        answer.update(json.loads(extra))
    return answer


def value(hand: list[str]) -> dict[str, Any]:
    """The best sum of one suit; nothing else is special, not even 31 beyond its flag."""
    best, best_suit = -1, "C"
    for s in SUITS:
        total = sum(CARD_POINTS[c[:-1]] for c in hand if c[-1] == s)
        if total > best:
            best, best_suit = total, s
    return {"points": best, "hand": "suit", "suit": best_suit, "maximum": best == 31}


def values(hands: dict[str, list[str]]) -> dict[str, dict[str, Any]]:
    return {s: value(h) for s, h in hands.items()}


def seats_of(case: dict[str, Any]) -> list[str]:
    return [f"P{i}" for i in range(1, case["seats"] + 1)]


def next_in(seats: list[str], after: str, out: set[str]) -> str:
    i = seats.index(after)
    for k in range(1, len(seats) + 1):
        seat = seats[(i + k) % len(seats)]
        if seat not in out:
            return seat
    return after


def dealt(case: dict[str, Any], seats: list[str], dealer: str, out: set[str]) -> tuple[Any, Any]:
    """The hands and the middle: as given, or a stacked pack dealt hands first, then middle."""
    if "deck" not in case:
        return case["hands"], case.get("middle", [])
    order, seat = [], dealer
    for _ in range(len(seats) - len(out)):
        seat = next_in(seats, seat, out)
        order.append(seat)
    pack = case["deck"]
    hands = {s: [pack[r * len(order) + i] for r in range(HAND_SIZE)] for i, s in enumerate(order)}
    start = HAND_SIZE * len(order)
    return hands, pack[start : start + MIDDLE_SIZE]


def state(case: dict[str, Any]) -> dict[str, Any]:
    seats = seats_of(case)
    out = set(case.get("eliminated", []))
    dealer = case.get("dealer", seats[-1])
    given = case.get("lives", LIVES)
    lives = {s: (given if isinstance(given, int) else given.get(s, LIVES)) for s in seats}
    for s in out:
        lives[s] = 0
    hands, middle = dealt(case, seats, dealer, out)
    return {
        "to_move": next_in(seats, dealer, out),
        "phase": "turn",
        "dealer": dealer,
        "middle": list(middle),
        "hands": {s: list(h) for s, h in hands.items()},
        "values": values(hands),
        "knocker": None,
        "legal": [],
        "lives": lives,
        "swimming": [s for s in seats if s not in out and lives[s] == 0],
        "eliminated": sorted(out),
        "match_over": False,
        "winners": [],
        "points": {},
    }


def outcome(case: dict[str, Any]) -> dict[str, Any]:
    kind = case["kind"]
    if kind == "setup":
        return {"accepted": PLAYERS[0] <= case["seats"] <= PLAYERS[1], "pack": PACK}
    check_position(case)
    if kind == "hand-evaluation":
        return {"values": values(case["hands"])}
    if kind == "showdown":
        worth = {s: value(h)["points"] for s, h in case["hands"].items()}
        low = min(worth.values())
        losses = {s: 1 for s, p in worth.items() if p == low}
        return {"values": values(case["hands"]), "losses": losses}
    now = state(case)
    refused = {"accepted": False, "reason": "unsupported"}
    answer = {"steps": [refused for _ in case.get("steps", [])], "rounds": [], **now}
    if "checkpoints" in case:
        answer["states"] = {str(n): now for n in case["checkpoints"]}
    return answer


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
                reply = {"seq": message["seq"], "status": "ok", "outcome": outcome(message["case"])}
            except Exception as error:  # one bad case must not stop the run
                print(f"nurgeben: {error!r}", file=sys.stderr)
                reply = {"seq": message.get("seq"), "status": "errored", "message": repr(error)}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
