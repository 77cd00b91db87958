"""The simulation mode: a ruleset compiled into one specialised round function.

The full engine (:mod:`schwimmen.engine.rounds`) asks the rules at every step, builds
action objects and emits events, which is right for play, fixtures and observations and
too slow for millions of rounds. Here the resolved rules are read once: each behaviour
that the spec makes variable is a ``#if`` section of the template below, kept or dropped
when the ruleset is compiled, and the hand table is looked up inline. Playing a turn then
interprets nothing. The engine still never names a ruleset: the guards test parameters.

The random bot is built in (the benchmark workload): a knock with probability 0.1 where
one is legal, otherwise a uniformly random legal move; the dealer's choice and optional
reveals are coin flips. With ``trace`` the round records its actions in the canonical text
form, so a test can replay them through the full engine and compare outcomes
(differential testing: every rule is implemented twice and the two must agree).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from schwimmen.engine.dealing import deal_pattern
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.roundkit import own_move_flags
from schwimmen.engine.rounds import EndReason
from schwimmen.engine.turncap import MAX_TURNS as MAX_TURNS  # every engine's cap
from schwimmen.engine.turncap import RoundTooLong as RoundTooLong
from schwimmen.protocol.cards import text
from schwimmen.spec import vocabulary as v
from schwimmen.spec.rules import Penalty, Rules

REASONS: tuple[EndReason, ...] = tuple(EndReason)

TEMPLATE = r"""
def showdown(hands, n, knocker, reached):
    packed = [LOOK(h) for h in hands]
    losses = [0] * n
#if PUNISH
    if any(p & 32 for p in packed):
        for i in range(n):
            if not packed[i] & 16:
                losses[i] = LOWEST
        return losses
#endif
#if NOBODY_ON_TIE
    first = packed[0] >> 31
    if all(p >> 31 == first for p in packed):
        return losses
#endif
#if PROTECT
    cand = [i for i in range(n) if not packed[i] & 8]
    if not cand:
        return losses
#if PROTECT_EXEMPTS
    low = min(packed) >> 8
#else
    low = min(packed[i] >> 8 for i in cand)
#endif
    losers = [i for i in cand if packed[i] >> 8 == low]
#else
    low = min(packed) >> 8
    losers = [i for i in range(n) if packed[i] >> 8 == low]
#endif
#if KNOCKER_TIED_ORDINARY
    if len(losers) > 1:
        knocker = -1
#endif
#if TIED_LAST
    if len(losers) > 1:
        latest = max(reached[i] for i in losers)
        losers = [i for i in losers if reached[i] == latest]
#endif
    for i in losers:
        losses[i] = KNOCKER_LOWEST if i == knocker else LOWEST
    return losses


def special(hands, n, holders, pen, maximum_event, knocker, reached):
    lives, maxh, plain_only = pen
    if lives == 0:
        return showdown(hands, n, knocker, reached)
    losses = [0] * n
    for i in range(n):
        if i in holders:
            continue
        if plain_only and LOOK(hands[i]) & 16:
            continue
        if maxh >= 0 and not maximum_event and LOOK(hands[i]) & 1:
            losses[i] = maxh
        else:
            losses[i] = lives
    return losses


def check_deal(hands, n, seats, reached):
#if FEUER_AT_DEAL
    found = [i for i in seats if LOOK(hands[i]) & 2]
    if found:
        return R_FEUER, special(hands, n, found, PEN_FEUER_DEAL, False, -1, reached)
#endif
#if LIGHT
    found = [i for i in seats if LOOK(hands[i]) & 4]
    if found:
        return R_LIGHT, special(hands, n, found, PEN_LIGHT, False, -1, reached)
#endif
#if AT_DEAL_MUST
    found = [i for i in range(n) if LOOK(hands[i]) & 1]
    if found:
        return R_MAX, special(hands, n, found, PEN_MAX_DEAL, True, -1, reached)
#endif
    return None


def play_round(deck, n, r, trace):
    pat = PATTERNS[n]
    hands = [[deck[i] for i in idx] for idx in pat.hands]
    reached = [0] * n
#if DRAW
    discard = [deck[i] for i in pat.upcard]
    middle = []
#else
    middle = [deck[i] for i in pat.middle]
#endif
#if SET_ASIDE
    stock = []
#else
    stock = deck[pat.rest:]
    stock.reverse()
#endif
#if HIDDEN
    hidden = True
#endif
#if WASHOUT
    while len({c >> 4 for c in middle}) == 1 and len(stock) >= M:
        middle = [stock.pop() for _ in range(M)]
#endif
#if CHECK_DEAL
    found = check_deal(hands, n, range(n), reached)
    if found is not None:
        return found[0], True, found[1]
#endif
#if CHOICE
    extra = [deck[i] for i in pat.extra]
    if r() < 0.5:
#if TRACE
        trace.append((n - 1, "take-extra"))
#endif
        middle = hands[n - 1]
        hands[n - 1] = extra
#if WASHOUT
        while len({c >> 4 for c in middle}) == 1 and len(stock) >= M:
            middle = [stock.pop() for _ in range(M)]
#endif
#if CHECK_DEAL
        found = check_deal(hands, n, (n - 1,), reached)
        if found is not None:
            return found[0], True, found[1]
#endif
    else:
#if TRACE
        trace.append((n - 1, "keep"))
#endif
        middle = extra
#if WASHOUT
        while len({c >> 4 for c in middle}) == 1 and len(stock) >= M:
            middle = [stock.pop() for _ in range(M)]
#endif
#endif
#if AT_DEAL_MAY
    shown = []
    for i in range(n):
        if LOOK(hands[i]) & 1:
            if r() < 0.5:
                shown.append(i)
#if TRACE
                trace.append((i, "show"))
#endif
#if TRACE
            else:
                trace.append((i, "decline"))
#endif
    if shown:
        return R_MAX, True, special(hands, n, shown, PEN_MAX_DEAL, True, -1, reached)
#endif
    cur = 0
    moves = 0
#if CYCLE_KNOCK
    moved = [False] * n
    unmoved = n
#endif
    streak = 0
    knocker = -1
    last = None
    turns = 0
#if PASS_ONCE or PASS_MUST
    flagged = [False] * n
#endif
#if NL
    closed = [False] * n
    open_count = n
#endif
#if WASHOUT
    extra_turn = False
#endif
#if DRAW
    while True:
        turns += 1
        if turns > MAX_TURNS:
            raise TurnCap(MAX_TURNS)
        hand = hands[cur]
        knock_ok = last is None and knocker < 0
#if NO_FIRST_KNOCK
        knock_ok = knock_ok and moves > 0
#endif
#if CYCLE_KNOCK
        knock_ok = knock_ok and unmoved == 0
#endif
#if REQ_MAX
        knock_ok = knock_ok and LOOK(hand) & 1
#endif
        if knock_ok and r() < 0.1:
#if TRACE
            trace.append((cur, "knock"))
#endif
            moves += 1
#if OWN_MOVE
            flags = LOOK(hand) & OWN_MASK
            if flags & 2:
                return R_FEUER, False, special(hands, n, (cur,), PEN_FEUER, False, knocker, reached)
            if flags & 1:
                return R_MAX, False, special(hands, n, (cur,), PEN_MAX_PLAY, True, knocker, reached)
#endif
            knocker = cur
            last = [(cur + d) % n for d in range(1, n)]
#if UNTIL_DEALER
            last = [i for i in range(cur + 1, n)]
#endif
            if not last:
                return R_KNOCK, False, showdown(hands, n, knocker, reached)
            cur = last.pop(0)
            continue
        if discard and r() < 0.5:
            card = discard.pop()
            took = card
#if TRACE
            trace.append((cur, "draw-discard"))
#endif
        else:
#if TRACE
            trace.append((cur, "draw-stock"))
#endif
            if not stock:
                if len(discard) < 2:
                    return R_STOCK, False, showdown(hands, n, knocker, reached)
                top = discard.pop()
                stock = discard
                stock.reverse()
                discard = [top]
            card = stock.pop()
            took = -1
        hand.append(card)
#if REDISCARD_FORBIDDEN
        choices = [c for c in hand if c != took]
#else
        choices = hand
#endif
        thrown = choices[int(r() * len(choices))]
#if TRACE
        trace.append((cur, "discard " + TEXT[thrown]))
#endif
        hand.remove(thrown)
        discard.append(thrown)
        moves += 1
#if CYCLE_KNOCK
        if not moved[cur]:
            moved[cur] = True
            unmoved -= 1
#endif
        reached[cur] = moves
        flags = LOOK(hand)
#if FEUER
        if flags & 2:
            return R_FEUER, False, special(hands, n, (cur,), PEN_FEUER, False, knocker, reached)
#endif
#if LIGHT
        if flags & 4:
            return R_LIGHT, False, special(hands, n, (cur,), PEN_LIGHT, False, knocker, reached)
#endif
#if IN_PLAY_MUST
        if flags & 1:
            return R_MAX, False, special(hands, n, (cur,), PEN_MAX_PLAY, True, knocker, reached)
#endif
        if last is not None:
            if not last:
                return R_KNOCK, False, showdown(hands, n, knocker, reached)
            cur = last.pop(0)
        else:
            cur = (cur + 1) % n
#else
    while True:
        turns += 1
        if turns > MAX_TURNS:
            raise TurnCap(MAX_TURNS)
        hand = hands[cur]
#if PASS_FREE
        pass_ok = True
#endif
#if PASS_FORBIDDEN
        pass_ok = False
#endif
#if PASS_ONCE or PASS_MUST
        pass_ok = not flagged[cur]
#endif
        knock_ok = last is None
#if ONE_KNOCK
        knock_ok = knock_ok and knocker < 0
#endif
#if NO_FIRST_KNOCK
        knock_ok = knock_ok and moves > 0
#endif
#if CYCLE_KNOCK
        knock_ok = knock_ok and unmoved == 0
#endif
#if CLOSE_BY_PASSING
        knock_ok = knock_ok and pass_ok
#endif
#if REQ_MAX and AFTER_MOVE
        closers = []
        if knock_ok:
#if HIDDEN
            visible = not hidden
#else
            visible = True
#endif
            if visible:
                for mv in range(N_ONE):
                    i, j = divmod(mv, M)
                    after = hand[:]
                    after[i] = middle[j]
                    if LOOK(after) & 1:
                        closers.append(mv)
                if N_SWAPS > N_ONE and LOOK(middle) & 1:
                    closers.append(N_ONE)
            if pass_ok and LOOK(hand) & 1:
                closers.append(N_SWAPS)
        knock_ok = bool(closers)
#elif REQ_MAX
        knock_ok = knock_ok and bool(LOOK(hand) & 1)
#endif
#if HIDDEN
        if hidden:
            count = 1 + pass_ok
        else:
            count = N_SWAPS + pass_ok
#else
        count = N_SWAPS + pass_ok
#endif
        knock = False
        if knock_ok and r() < 0.1:
            knock = True
#if AFTER_MOVE and REQ_MAX
            move = closers[int(r() * len(closers))]
#elif AFTER_MOVE
#if HIDDEN
            if hidden:
                move = N_SWAPS
            else:
                move = int(r() * count)
#else
            move = int(r() * count)
#endif
#else
            move = -1
#endif
        else:
            move = int(r() * count)
#if HIDDEN
            if hidden and move == 0:
#if TRACE
                trace.append((cur, "turn-up"))
#endif
                hidden = False
                move = int(r() * N_SWAPS)
            elif hidden:
                move = N_SWAPS
#endif
        # move: 0..N_ONE-1 swap one, N_ONE swap all (if allowed), N_SWAPS pass, -1 knock only
        is_pass = move == N_SWAPS
#if CLOSE_BY_PASSING
        is_pass = is_pass or move < 0
#endif
        changed = 0 <= move < N_SWAPS
        if changed:
            if move < N_ONE:
                i, j = divmod(move, M)
#if TRACE
                word = " knock" if knock else ""
                trace.append((cur, "swap " + TEXT[hand[i]] + " " + TEXT[middle[j]] + word))
#endif
                hand[i], middle[j] = middle[j], hand[i]
            else:
#if TRACE
                trace.append((cur, "swap-all" + (" knock" if knock else "")))
#endif
                hands[cur] = middle
                middle = hand
                hand = hands[cur]
#if TRACE
        elif move == N_SWAPS:
            trace.append((cur, "pass" + (" knock" if knock else "")))
        else:
            trace.append((cur, "knock"))
#endif
        moves += 1
#if CYCLE_KNOCK
        if not moved[cur]:
            moved[cur] = True
            unmoved -= 1
#endif
        if changed:
            reached[cur] = moves
#if PASS_MUST
            flagged[cur] = False
#endif
            flags = LOOK(hand)
#if FEUER
            if flags & 2:
                return R_FEUER, False, special(hands, n, (cur,), PEN_FEUER, False, knocker, reached)
#endif
#if LIGHT
            if flags & 4:
                return R_LIGHT, False, special(hands, n, (cur,), PEN_LIGHT, False, knocker, reached)
#endif
#if IN_PLAY_MUST
            if flags & 1:
                return R_MAX, False, special(hands, n, (cur,), PEN_MAX_PLAY, True, knocker, reached)
#endif
#if OWN_MOVE
        else:
            flags = LOOK(hand) & OWN_MASK
            if flags & 2:
                return R_FEUER, False, special(hands, n, (cur,), PEN_FEUER, False, knocker, reached)
            if flags & 1:
                return R_MAX, False, special(hands, n, (cur,), PEN_MAX_PLAY, True, knocker, reached)
#endif
#if PASS_ONCE or PASS_MUST
        if is_pass:
            flagged[cur] = True
#endif
        again = False
#if WASHOUT
        if changed:
            washed = False
            while len({c >> 4 for c in middle}) == 1 and len(stock) >= M:
                middle = [stock.pop() for _ in range(M)]
                washed = True
            if washed:
                extra_turn = True
                again = True
#endif
        if last is None:
            if is_pass:
                streak += 1
            else:
                streak = 0
#if NL
            if streak >= open_count:
#else
            if streak >= n:
#endif
                streak = 0
#if REPLACE
                if len(stock) >= M:
#if UNDER_STOCK
                    stock[:0] = middle[::-1]
#endif
                    middle = [stock.pop() for _ in range(M)]
#if WASHOUT
                    while len({c >> 4 for c in middle}) == 1 and len(stock) >= M:
                        middle = [stock.pop() for _ in range(M)]
#endif
                else:
#if PLAY_ON
                    pass
#else
                    return R_ALL_PASSED, False, showdown(hands, n, knocker, reached)
#endif
#else
#if not PLAY_ON
                return R_ALL_PASSED, False, showdown(hands, n, knocker, reached)
#endif
#endif
        if knock or move < 0:
            if knocker < 0:
                knocker = cur
#if NL
            closed[cur] = True
            open_count -= 1
            if open_count <= OPEN_LEFT:
                return R_OPEN_END, False, showdown(hands, n, knocker, reached)
            again = False
#else
#if UNTIL_DEALER
            last = [i for i in range(cur + 1, n)]
#else
            last = [(cur + d) % n for d in range(1, n)]
#endif
            if not last:
                return R_KNOCK, False, showdown(hands, n, knocker, reached)
            again = False
#endif
#if WASHOUT
        if again and extra_turn:
            continue
        extra_turn = False
#endif
        if last is not None:
            if not last:
                return R_KNOCK, False, showdown(hands, n, knocker, reached)
            cur = last.pop(0)
        else:
#if NL
            cur = (cur + 1) % n
            while closed[cur]:
                cur = (cur + 1) % n
#else
            cur = (cur + 1) % n
#endif
#endif
"""

_LOOK = r"LOOK\((\w+(?:\[\w+\])?)\)"
_DIRECTIVE = re.compile(r"^#(if|elif|else|endif)\b(.*)$")


def preprocess(source: str, flags: Mapping[str, bool]) -> str:
    """Keep the lines whose ``#if`` guards hold; guards are Python expressions over
    ``flags`` (``#if A or not B``) and nest."""
    out: list[str] = []
    stack: list[tuple[bool, bool]] = []  # (this branch active, some branch taken)
    env = dict(flags)
    for line in source.splitlines():
        match = _DIRECTIVE.match(line)
        if match is None:
            if all(active for active, _ in stack):
                out.append(line)
            continue
        word, expr = match.group(1), match.group(2).strip()
        if word == "if":
            value = bool(eval(expr, {"__builtins__": {}}, env))
            stack.append((value, value))
        elif word == "elif":
            _, taken = stack.pop()
            value = not taken and bool(eval(expr, {"__builtins__": {}}, env))
            stack.append((value, taken or value))
        elif word == "else":
            _, taken = stack.pop()
            stack.append((not taken, True))
        else:
            stack.pop()
    if stack:
        raise ValueError("unbalanced #if in the template")
    return "\n".join(out) + "\n"


def _penalty(p: Penalty | None) -> tuple[int, int, bool]:
    """(lives, lives of a 31 holder or -1, only players without a special hand lose);
    0 lives: the ordinary showdown decides."""
    if p is None or p.kind is v.PenaltyKind.SHOWDOWN:
        return (0, -1, False)
    return (
        p.lives,
        -1 if p.maximum_holders is None else p.maximum_holders,
        p.kind is v.PenaltyKind.ALL_WITHOUT_SPECIAL,
    )


def rule_flags(rules: Rules) -> dict[str, bool]:
    """The compile-time switches: one per behaviour the template can leave out."""
    t, k = rules.turns, rules.knocking
    draw = t.move is v.MoveKind.DRAW_AND_DISCARD
    return {
        "DRAW": draw,
        "SET_ASIDE": rules.dealing.rest_of_pack is v.RestOfPack.SET_ASIDE,
        "HIDDEN": rules.dealing.middle_visibility is v.MiddleVisibility.HIDDEN_UNTIL_FIRST_SWAP,
        "WASHOUT": rules.washout.rule is v.Washout.SAME_SUIT_MIDDLE,
        "CHOICE": rules.dealing.procedure
        in (v.DealProcedure.EXTRA_HAND_BLIND_CHOICE, v.DealProcedure.TWO_PACKETS_LOOK_AT_ONE),
        "FEUER": rules.three_aces.kind is v.AcesKind.FEUER,
        "FEUER_AT_DEAL": rules.three_aces.kind is v.AcesKind.FEUER
        and rules.three_aces.at_deal is not v.AcesAtDeal.ON_OWN_MOVE,
        "OWN_MOVE": own_move_flags(rules) != 0,
        "LIGHT": rules.three_sevens.kind is v.SevensKind.FEUER_LIGHT,
        "AT_DEAL_MUST": rules.maximum.at_deal is v.AtDeal.MUST_SHOW,
        "AT_DEAL_MAY": rules.maximum.at_deal is v.AtDeal.MAY_SHOW,
        "IN_PLAY_MUST": rules.maximum.in_play is v.InPlay.MUST_SHOW,
        "CHECK_DEAL": (
            rules.three_aces.kind is v.AcesKind.FEUER
            and rules.three_aces.at_deal is not v.AcesAtDeal.ON_OWN_MOVE
        )
        or rules.three_sevens.kind is v.SevensKind.FEUER_LIGHT
        or rules.maximum.at_deal is v.AtDeal.MUST_SHOW,
        "PUNISH": rules.three_aces.kind is v.AcesKind.PUNISHES_ALL_WITHOUT_SPECIAL,
        "PROTECT": bool(rules.protection.hands),
        "PROTECT_EXEMPTS": rules.protection.effect is v.ProtectionEffect.EXEMPTS_HOLDER,
        "NOBODY_ON_TIE": rules.penalties.complete_tie is v.CompleteTie.NOBODY_LOSES,
        "TIED_LAST": rules.penalties.tied_lowest is v.TiedLowest.LAST_TO_REACH_LOSES,
        "KNOCKER_TIED_ORDINARY": rules.penalties.knocker_tied is v.KnockerTied.ORDINARY,
        "PASS_FREE": t.passing is v.Passing.FREE,
        "PASS_FORBIDDEN": t.passing is v.Passing.FORBIDDEN,
        "PASS_ONCE": t.passing is v.Passing.ONCE_PER_DEAL,
        "PASS_MUST": t.passing is v.Passing.THEN_MUST_SWAP,
        "CLOSE_BY_PASSING": k.form is v.KnockForm.CLOSE_BY_PASSING,
        "AFTER_MOVE": k.form is v.KnockForm.AFTER_MOVE,
        "REQ_MAX": k.requires is v.KnockRequires.MAXIMUM,
        "NO_FIRST_KNOCK": k.first_turn is v.KnockFirstTurn.NOT_ON_FIRST_TURN_OF_DEAL,
        "CYCLE_KNOCK": k.first_turn is v.KnockFirstTurn.NOT_IN_FIRST_CYCLE,
        "ONE_KNOCK": k.per_round is v.KnocksPerRound.ONE,
        "NL": k.then is not v.AfterKnock.LAST_CYCLE,
        "UNTIL_DEALER": k.last_cycle is v.LastCycle.UNTIL_DEALER,
        "REPLACE": rules.all_pass.replacement is v.Replacement.FROM_STOCK
        and rules.dealing.rest_of_pack is not v.RestOfPack.SET_ASIDE,
        "UNDER_STOCK": rules.all_pass.old_middle is v.OldMiddle.UNDER_STOCK,
        "PLAY_ON": rules.all_pass.no_replacement is v.NoReplacement.PLAY_ON,
        "REDISCARD_FORBIDDEN": rules.draw.rediscard is v.Rediscard.FORBIDDEN,
    }


RoundFn = Callable[[list[int], int, Callable[[], float], Any], tuple[int, bool, list[int]]]


class TurnCap(Exception):
    """Raised inside a round at the cap; :class:`RoundTooLong` says which round it was."""


@dataclass(frozen=True)
class CompiledRound:
    """A ruleset's round as one function: ``play(deck, players, random, trace)`` returns
    (index into :data:`REASONS`, ended at the deal, lives lost per player in deal order).
    A round still going after ``max_turns`` turns raises :class:`RoundTooLong` (the
    ``where`` of which counts the rounds this function played)."""

    rules: Rules
    source: str
    play: RoundFn
    max_turns: int = MAX_TURNS


def _capped(raw: RoundFn, names: Mapping[int, str]) -> RoundFn:
    played = [0]

    def play(
        deck: list[int], n: int, r: Callable[[], float], trace: Any
    ) -> tuple[int, bool, list[int]]:
        played[0] += 1
        try:
            return raw(deck, n, r, trace)
        except TurnCap as cap:
            deal = " ".join(names[c] for c in deck)
            where = f"round {played[0]} of this simulation"
            raise RoundTooLong(int(cap.args[0]), where, n, deal) from None

    return play


def compile_round(
    rules: Rules, *, trace: bool = False, max_turns: int = MAX_TURNS
) -> CompiledRound:
    evaluator = evaluator_for(rules)
    flags = rule_flags(rules)
    flags["TRACE"] = trace
    source = preprocess(TEMPLATE, flags)
    if rules.cards.hand_size == 3:
        source = re.sub(_LOOK, r"FLAT[\1[0] << 12 | \1[1] << 6 | \1[2]]", source)
    else:
        source = re.sub(r"LOOK\((\w+(?:\[\w+\])?)\)", r"BYSORTED[tuple(sorted(\1))]", source)
    swaps = rules.turns.swaps
    m = rules.cards.middle_size
    n_one = rules.cards.hand_size * m if v.Swap.ONE in swaps else 0
    namespace: dict[str, Any] = {
        "FLAT": evaluator.flat,
        "BYSORTED": evaluator.by_sorted,
        "PATTERNS": {p: deal_pattern(rules, p) for p in range(2, rules.players.max + 1)},
        "TEXT": {c: text(c) for c in evaluator.pack},
        "M": m,
        "N_ONE": n_one,
        "N_SWAPS": n_one + (1 if v.Swap.ALL in swaps else 0),
        "OWN_MASK": own_move_flags(rules),
        "LOWEST": rules.penalties.lowest,
        "KNOCKER_LOWEST": rules.penalties.knocker_lowest,
        "PEN_FEUER": _penalty(rules.three_aces.penalty),
        "PEN_FEUER_DEAL": _penalty(rules.three_aces.penalty_at_deal),
        "PEN_LIGHT": _penalty(rules.three_sevens.penalty),
        "PEN_MAX_DEAL": _penalty(rules.maximum.penalty_at_deal),
        "PEN_MAX_PLAY": _penalty(rules.maximum.penalty_in_play),
        # personal closing: how many players may still be open when a close ends the round
        "OPEN_LEFT": 1 if rules.knocking.then is v.AfterKnock.PLAY_UNTIL_ONE_OPEN else 2,
        "MAX_TURNS": max_turns,
        "TurnCap": TurnCap,
    }
    short = {
        EndReason.KNOCK: "R_KNOCK",
        EndReason.MAXIMUM: "R_MAX",
        EndReason.FEUER: "R_FEUER",
        EndReason.FEUER_LIGHT: "R_LIGHT",
        EndReason.ALL_PASSED: "R_ALL_PASSED",
        EndReason.STOCK_EXHAUSTED: "R_STOCK",
        EndReason.TWO_OPEN: "R_TWO_OPEN",
        EndReason.ONE_OPEN: "R_ONE_OPEN",
    }
    for i, reason in enumerate(REASONS):
        namespace[short[reason]] = i
    one_open = rules.knocking.then is v.AfterKnock.PLAY_UNTIL_ONE_OPEN
    namespace["R_OPEN_END"] = namespace["R_ONE_OPEN" if one_open else "R_TWO_OPEN"]
    exec(compile(source, f"<compiled round {id(rules):x}>", "exec"), namespace)
    play = _capped(namespace["play_round"], namespace["TEXT"])
    return CompiledRound(rules, source, play, max_turns)


def random_source(seed: int | None) -> random.Random:
    return random.Random(seed)
