"""The simulation mode in lockstep: thousands of random-bot rounds of one ruleset at once,
as numpy arrays.

The compiled round (:mod:`schwimmen.engine.compiled`) plays one round at a time in Python
and is held back by the interpreter: each turn costs a few dozen bytecodes however little
it does. Here every round of a batch takes its turn in the same step, each step is a
few dozen array operations over all rounds still going, and a round that ends leaves
the batch. The rounds are independent (the random bot looks at no lives), so a batch is
exactly as many independent rounds as the compiled round would play one by one.

The rules are read once, as in the compiled round: every behaviour that the spec makes
variable is a switch from :func:`schwimmen.engine.compiled.rule_flags`, tested once per
step, never per round. A ruleset that needs a behaviour this module does not play (see
:data:`UNSUPPORTED`) is played by the compiled round instead; :func:`unsupported` says
which. With ``trace`` a batch records every round's actions in the canonical text form,
so a test can replay each of them through the full engine (differential testing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from schwimmen.engine.compiled import REASONS, _penalty, rule_flags
from schwimmen.engine.dealing import deal_pattern
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.rounds import EndReason
from schwimmen.engine.turncap import MAX_TURNS, RoundTooLong
from schwimmen.protocol.cards import text
from schwimmen.spec import vocabulary as v
from schwimmen.spec.rules import Rules

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]

# The switches of rule_flags that this module does not play (the compiled round does).
UNSUPPORTED = (
    "SET_ASIDE",
    "HIDDEN",
    "WASHOUT",
    "OWN_MOVE",
    "AT_DEAL_MAY",
    "PUNISH",
    "PROTECT",
    "TIED_LAST",
    "PASS_ONCE",
    "PASS_MUST",
    "CLOSE_BY_PASSING",
    "REQ_MAX",
    "CYCLE_KNOCK",
    "NL",
    "UNDER_STOCK",
    "PLAY_ON",
)

R = {reason: i for i, reason in enumerate(REASONS)}


def unsupported(rules: Rules) -> list[str]:
    """The switches this ruleset needs that lockstep play lacks (empty: it plays it)."""
    flags = rule_flags(rules)
    missing = [name for name in UNSUPPORTED if flags[name]]
    if rules.cards.hand_size != 3:
        missing.append("four-card hands")
    penalties = [rules.penalties.lowest, rules.penalties.knocker_lowest]
    for p in (
        rules.three_aces.penalty,
        rules.three_aces.penalty_at_deal,
        rules.three_sevens.penalty,
        rules.maximum.penalty_at_deal,
        rules.maximum.penalty_in_play,
    ):
        penalties += _penalty(p)[:2]
    if max(penalties) > 15 or rules.players.max > 14:
        missing.append("a round's outcome in 64 bits (over 15 lives or 14 players)")
    if not flags["DRAW"] and rules.cards.middle_size != 3:
        missing.append("a middle of other than three cards")
    return missing


@dataclass(frozen=True)
class Batch:
    """Rounds played in lockstep, row ``i`` one round: the reason (index into
    :data:`REASONS`), whether it ended at the deal, lives lost by each player in deal
    order, how many dealt hands were a 31 and a Feuer; with ``trace`` the packs and each
    round's actions as (player, canonical text)."""

    reason: Ints
    at_deal: Bools
    losses: Ints
    dealt_maximum: Ints
    dealt_feuer: Ints
    decks: Ints | None = None
    traces: list[list[tuple[int, str]]] | None = None


class Lockstep:
    """One ruleset's rounds, many at a time. A batch whose rounds are not all over after
    ``max_turns`` steps (a parameter of the simulation, see
    :data:`schwimmen.engine.turncap.MAX_TURNS`) raises
    :class:`~schwimmen.engine.turncap.RoundTooLong` for its first round still going."""

    def __init__(self, rules: Rules, *, max_turns: int = MAX_TURNS) -> None:
        missing = unsupported(rules)
        if missing:
            raise ValueError("lockstep play lacks " + ", ".join(missing))
        self.rules = rules
        self.max_turns = max_turns
        ev = evaluator_for(rules)
        self.f = rule_flags(rules)
        self.flat = np.asarray(ev.flat, dtype=np.int64)
        self.pack = np.asarray(ev.pack, dtype=np.int64)
        self.text = {c: text(c) for c in ev.pack}
        m = rules.cards.middle_size
        self.m = m
        swaps = rules.turns.swaps
        self.n_one = rules.cards.hand_size * m if v.Swap.ONE in swaps else 0
        self.n_swaps = self.n_one + (1 if v.Swap.ALL in swaps else 0)
        self.lowest = rules.penalties.lowest
        self.knocker_lowest = rules.penalties.knocker_lowest
        self.pen_feuer = _penalty(rules.three_aces.penalty)
        self.pen_feuer_deal = _penalty(rules.three_aces.penalty_at_deal)
        self.pen_light = _penalty(rules.three_sevens.penalty)
        self.pen_max_deal = _penalty(rules.maximum.penalty_at_deal)
        self.pen_max_play = _penalty(rules.maximum.penalty_in_play)
        self._specials_found = self._specials()
        self._special_bits = 0
        for bit, *_ in self._specials_found:
            self._special_bits |= bit

    # ------------------------------------------------------------------ endings
    def _showdown(self, keys: Ints, knocker: Ints) -> Ints:
        """Lives lost at a showdown, row by row (rules-matrix 2.21-2.23)."""
        k = keys >> 8
        low = k.min(axis=1)
        losers = k == low[:, None]
        rows = np.arange(len(k))
        if self.f["KNOCKER_TIED_ORDINARY"]:
            knocker = np.where(losers.sum(axis=1) > 1, -1, knocker)
        losses = np.where(losers, self.lowest, 0)
        hit = (knocker >= 0) & losers[rows, np.maximum(knocker, 0)]
        losses[rows[hit], knocker[hit]] = self.knocker_lowest
        if self.f["NOBODY_ON_TIE"]:
            points = keys >> 31  # the tier and the points, without the tie-breaks
            losses[(points == points[:, :1]).all(axis=1)] = 0
        return losses

    def _special(
        self,
        keys: Ints,
        holders: Bools,
        pen: tuple[int, int, bool],
        maximum_event: bool,
        knocker: Ints,
    ) -> Ints:
        lives, maxh, plain_only = pen
        if lives == 0:
            return self._showdown(keys, knocker)
        losses = np.full(keys.shape, lives, dtype=np.int64)
        if maxh >= 0 and not maximum_event:
            losses[(keys & 1) != 0] = maxh
        if plain_only:
            losses[(keys & 16) != 0] = 0
        losses[holders] = 0
        return losses

    # ------------------------------------------------------------------ a batch
    def loss_codes(self, batch: Batch) -> Ints:
        """Each round's losses as one integer: the lives each player lost, 4 bits each in
        deal order (all a match needs to know of a round)."""
        code = np.zeros(len(batch.reason), dtype=np.int64)
        for i in range(batch.losses.shape[1]):
            code |= batch.losses[:, i] << (4 * i)
        return code

    def play(self, n: int, count: int, gen: np.random.Generator, *, trace: bool = False) -> Batch:
        """``count`` rounds of ``n`` players."""
        f = self.f
        pat = deal_pattern(self.rules, n)
        size = len(self.pack)
        deck = gen.permuted(np.broadcast_to(self.pack, (count, size)), axis=1)
        hands = deck[:, np.asarray(pat.hands)]
        keys = self.flat[hands[..., 0] << 12 | hands[..., 1] << 6 | hands[..., 2]]
        reason = np.full(count, -1, dtype=np.int64)
        at_deal = np.zeros(count, dtype=np.bool_)
        losses = np.zeros((count, n), dtype=np.int64)
        out = Batch(
            reason,
            at_deal,
            losses,
            ((keys & 1) != 0).sum(axis=1),
            ((keys & 2) != 0).sum(axis=1),
            deck.copy() if trace else None,
            [[] for _ in range(count)] if trace else None,
        )
        no_knocker = np.full(count, -1, dtype=np.int64)
        done = np.zeros(count, dtype=np.bool_)

        def end_at_deal(mask: Bools, why: EndReason, new: Ints) -> None:
            reason[mask] = R[why]
            at_deal[mask] = True
            losses[mask] = new[mask]
            done[mask] = True

        def check_deal(seats: slice) -> None:
            if f["FEUER_AT_DEAL"]:
                hit = ((keys[:, seats] & 2) != 0).any(axis=1) & ~done
                if hit.any():
                    holders = np.zeros_like(keys, dtype=np.bool_)
                    holders[:, seats] = (keys[:, seats] & 2) != 0
                    pen = self._special(keys, holders, self.pen_feuer_deal, False, no_knocker)
                    end_at_deal(hit, EndReason.FEUER, pen)
            if f["LIGHT"]:
                hit = ((keys[:, seats] & 4) != 0).any(axis=1) & ~done
                if hit.any():
                    holders = np.zeros_like(keys, dtype=np.bool_)
                    holders[:, seats] = (keys[:, seats] & 4) != 0
                    pen = self._special(keys, holders, self.pen_light, False, no_knocker)
                    end_at_deal(hit, EndReason.FEUER_LIGHT, pen)
            if f["AT_DEAL_MUST"]:
                holders = (keys & 1) != 0
                hit = holders.any(axis=1) & ~done
                if hit.any():
                    pen = self._special(keys, holders, self.pen_max_deal, True, no_knocker)
                    end_at_deal(hit, EndReason.MAXIMUM, pen)

        if f["DRAW"]:
            middle = np.zeros((count, 0), dtype=np.int64)
        else:
            middle = deck[:, np.asarray(pat.middle, dtype=np.int64)]
        if f["CHECK_DEAL"]:
            check_deal(slice(None))
        if f["CHOICE"]:
            extra = deck[:, np.asarray(pat.extra)]
            take = (gen.random(count) < 0.5) & ~done
            if trace:
                assert out.traces is not None
                for i in np.flatnonzero(~done):
                    out.traces[i].append((n - 1, "take-extra" if take[i] else "keep"))
            middle = np.where(take[:, None], hands[:, n - 1], extra)
            hands[take, n - 1] = extra[take]
            keys[:, n - 1] = self.flat[
                hands[:, n - 1, 0] << 12 | hands[:, n - 1, 1] << 6 | hands[:, n - 1, 2]
            ]
            if f["CHECK_DEAL"]:
                before = done.copy()
                check_deal(slice(n - 1, n))
                assert not (done & ~before & ~take).any()
        live = np.flatnonzero(~done)
        state = _State(n, live, deck, hands[live], middle[live])
        state.sp[:] = pat.rest
        if f["DRAW"]:
            self._draw_game(state, pat.upcard, gen, out)
        else:
            self._swap_game(state, gen, out)
        return out

    def _count_turn(self, s: _State, turns: int) -> int:
        """One more step of the batch; past the cap, the first round still going is
        reported (its row, the batch's size, its pack) rather than played for ever."""
        turns += 1
        if turns > self.max_turns:
            row = int(s.lane[0])
            deal = " ".join(self.text[int(c)] for c in s.deck[row])
            where = f"round {row + 1} of a batch of {len(s.deck)} played in lockstep"
            raise RoundTooLong(self.max_turns, where, s.n, deal)
        return turns

    def _finish(self, out: Batch, lanes: Ints, why: int, new: Ints) -> None:
        out.reason[lanes] = why
        out.losses[lanes] = new

    def _specials(self) -> list[tuple[int, EndReason, tuple[int, int, bool], bool]]:
        """What a hand made by a move can end the round with: (flag, reason, penalty,
        whether the penalty is that of a 31)."""
        f = self.f
        found = []
        if f["FEUER"]:
            found.append((2, EndReason.FEUER, self.pen_feuer, False))
        if f["LIGHT"]:
            found.append((4, EndReason.FEUER_LIGHT, self.pen_light, False))
        if f["IN_PLAY_MUST"]:
            found.append((1, EndReason.MAXIMUM, self.pen_max_play, True))
        return found

    def _end_by_move(self, out: Batch, s: _State, key: Ints, moving: Bools, ended: Bools) -> None:
        """Rounds ended by the hand a move made (Feuer, Feuer light, a 31 in play)."""
        if not self._special_bits:
            return
        moving = moving & ((key & self._special_bits) != 0)
        if not moving.any():
            return
        for bit, why, pen, maximum_event in self._specials_found:
            hit = moving & ((key & bit) != 0) & ~ended
            if hit.any():
                holders = np.zeros((int(hit.sum()), s.n), dtype=np.bool_)
                holders[np.arange(len(holders)), s.cur[hit]] = True
                keys = self.flat[s.hc[hit]]
                self._finish(
                    out,
                    s.lane[hit],
                    R[why],
                    self._special(keys, holders, pen, maximum_event, s.knocker[hit]),
                )
                ended |= hit

    def _knock_and_advance(self, out: Batch, s: _State, knock: Bools, ended: Bools) -> None:
        """A knock starts the last cycle; a turn of the last cycle counts it down, and the
        last one ends the round in a showdown; then the next player is on turn."""
        knocked = knock & ~ended
        if knocked.any():
            s.knocker = np.where(knocked & (s.knocker < 0), s.cur, s.knocker)
            after = s.n - 1 - s.cur if self.f["UNTIL_DEALER"] else s.n - 1
            s.left = np.where(knocked, after, s.left)
        in_cycle = (s.left >= 0) & ~knocked & ~ended
        s.left = s.left - in_cycle
        last = (s.left == 0) & ~ended
        if last.any():
            keys = self.flat[s.hc[last]]
            self._finish(
                out, s.lane[last], R[EndReason.KNOCK], self._showdown(keys, s.knocker[last])
            )
            ended |= last
        s.cur = s.cur + 1
        s.cur[s.cur == s.n] = 0

    def _swap_game(self, s: _State, gen: np.random.Generator, out: Batch) -> None:
        f = self.f
        n, deck = s.n, s.deck
        size = deck.shape[1]
        n_one, n_swaps = self.n_one, self.n_swaps
        choices = n_swaps + (0 if f["PASS_FORBIDDEN"] else 1)
        flat = self.flat
        # the bits of the card a move gives and takes (move + 1: -1 is a knock alone)
        shift_hand = np.zeros(n_swaps + 2, dtype=np.int64)
        shift_middle = np.zeros(n_swaps + 2, dtype=np.int64)
        for mv in range(n_one):
            shift_hand[mv + 1] = (2 - mv // 3) * 6
            shift_middle[mv + 1] = (2 - mv % 3) * 6
        traces = out.traces
        turns = 0
        while len(s.lane):
            turns = self._count_turn(s, turns)
            count = len(s.lane)
            rows = np.arange(count)
            pos = rows * n + s.cur
            flat_hands = s.hc.reshape(-1)
            h = flat_hands[pos]
            mc = s.mc
            knock_ok = s.left < 0
            if f["NO_FIRST_KNOCK"]:
                knock_ok &= s.moves > 0
            u = gen.random((2, count))
            knock = knock_ok & (u[0] < 0.1)
            move = (u[1] * choices).astype(np.int64)
            if not f["AFTER_MOVE"]:
                move[knock] = -1
            one = (move >= 0) & (move < n_one)
            every = move == n_one if n_swaps > n_one else None
            is_pass = move == n_swaps
            sh = shift_hand[move + 1]
            sm = shift_middle[move + 1]
            given = (h >> sh) & 63
            taken = (mc >> sm) & 63
            if traces is not None:
                self._trace_swaps(s, traces, knock, move, given, taken)
            x = np.where(one, given ^ taken, 0)
            h2 = h ^ (x << sh)
            mc2 = mc ^ (x << sm)
            if every is not None:
                h2 = np.where(every, mc, h2)
                mc2 = np.where(every, h, mc2)
                changed = one | every
            else:
                changed = one
            flat_hands[pos] = h2
            s.mc = mc2
            key = flat[h2]
            if f["NO_FIRST_KNOCK"]:
                s.moves += 1
            ended = np.zeros(count, dtype=np.bool_)
            self._end_by_move(out, s, key, changed, ended)
            open_round = s.left < 0
            s.streak = np.where(open_round, np.where(is_pass, s.streak + 1, 0), s.streak)
            full = open_round & (s.streak >= n) & ~ended
            if full.any():
                s.streak[full] = 0
                if f["REPLACE"]:
                    can = full & (s.sp + 3 <= size)
                    lanes, at = s.lane[can], s.sp[can]
                    s.mc[can] = (
                        deck[lanes, at] << 12 | deck[lanes, at + 1] << 6 | deck[lanes, at + 2]
                    )
                    s.sp[can] += 3
                    stop = full & ~can
                else:
                    stop = full
                if stop.any():
                    keys = flat[s.hc[stop]]
                    why = R[EndReason.ALL_PASSED]
                    self._finish(out, s.lane[stop], why, self._showdown(keys, s.knocker[stop]))
                    ended |= stop
            self._knock_and_advance(out, s, knock, ended)
            if ended.any():
                s.keep(~ended)

    def _trace_swaps(
        self,
        s: _State,
        traces: list[list[tuple[int, str]]],
        knock: Bools,
        move: Ints,
        given: Ints,
        taken: Ints,
    ) -> None:
        name = self.text
        for r in range(len(s.lane)):
            word = " knock" if knock[r] else ""
            if 0 <= move[r] < self.n_one:
                act = f"swap {name[int(given[r])]} {name[int(taken[r])]}{word}"
            elif move[r] == self.n_one and self.n_swaps > self.n_one:
                act = "swap-all" + word
            elif move[r] == self.n_swaps:
                act = "pass" + word
            else:
                act = "knock"
            traces[s.lane[r]].append((int(s.cur[r]), act))

    def _draw_game(
        self, s: _State, upcard: tuple[int, ...], gen: np.random.Generator, out: Batch
    ) -> None:
        f = self.f
        n, deck = s.n, s.deck
        size = deck.shape[1]
        flat = self.flat
        # the stock is deck[row, sp:], its top at sp; a turned discard pile is written back
        # into the drawn end of the deck. The discard pile is pile[row, :dl], top at dl - 1.
        pile = np.zeros(deck.shape, dtype=np.int64)
        if upcard:
            pile[:, : len(upcard)] = deck[:, np.asarray(upcard)]
        s.dl = np.full(len(s.lane), len(upcard), dtype=np.int64)
        shift = np.asarray([12, 6, 0, 0], dtype=np.int64)
        traces = out.traces
        name = self.text
        turns = 0
        while len(s.lane):
            turns = self._count_turn(s, turns)
            count = len(s.lane)
            rows = np.arange(count)
            lane = s.lane
            pos = rows * n + s.cur
            flat_hands = s.hc.reshape(-1)
            h = flat_hands[pos]
            knock_ok = (s.left < 0) & (s.knocker < 0)
            if f["NO_FIRST_KNOCK"]:
                knock_ok &= s.moves > 0
            u = gen.random((3, count))
            knock = knock_ok & (u[0] < 0.1)
            on_pile = s.dl
            from_pile = ~knock & (on_pile > 0) & (u[1] < 0.5)
            from_stock = ~knock & ~from_pile
            ended = np.zeros(count, dtype=np.bool_)
            empty = from_stock & (s.sp >= size)
            if empty.any():
                stop = empty & (on_pile < 2)
                if stop.any():
                    if traces is not None:
                        for r in np.flatnonzero(stop):
                            traces[lane[r]].append((int(s.cur[r]), "draw-stock"))
                    keys = flat[s.hc[stop]]
                    why = R[EndReason.STOCK_EXHAUSTED]
                    self._finish(out, lane[stop], why, self._showdown(keys, s.knocker[stop]))
                    ended |= stop
                for r in np.flatnonzero(empty & ~stop):
                    # the pile turned over, its top card staying: its bottom card is drawn first
                    row, under = lane[r], int(on_pile[r]) - 1
                    deck[row, size - under :] = pile[row, :under]
                    s.sp[r] = size - under
                    pile[row, 0] = pile[row, under]
                    on_pile[r] = 1
                from_stock &= ~ended
            moving = from_pile | from_stock
            card = np.where(
                from_pile,
                pile[lane, np.maximum(on_pile - 1, 0)],
                deck[lane, np.minimum(s.sp, size - 1)],
            )
            on_pile = on_pile - from_pile
            s.sp = s.sp + from_stock
            w = u[2]
            if f["REDISCARD_FORBIDDEN"]:
                pick = (w * np.where(from_pile, 3, 4)).astype(np.int64)
            else:
                pick = (w * 4).astype(np.int64)
            sh = shift[pick]
            kept = pick < 3
            thrown = np.where(kept, (h >> sh) & 63, card)
            h2 = np.where(kept, h ^ ((thrown ^ card) << sh), h)
            if traces is not None:
                for r in np.flatnonzero(knock | moving):
                    seat = int(s.cur[r])
                    if knock[r]:
                        traces[lane[r]].append((seat, "knock"))
                        continue
                    source = "draw-discard" if from_pile[r] else "draw-stock"
                    traces[lane[r]].append((seat, source))
                    traces[lane[r]].append((seat, "discard " + name[int(thrown[r])]))
            flat_hands[pos] = np.where(moving, h2, h)
            # a knocker discards nothing: what is written above his pile's top is never read
            pile[lane, on_pile] = thrown
            s.dl = on_pile + moving
            key = flat[h2]
            if f["NO_FIRST_KNOCK"]:
                s.moves += 1
            self._end_by_move(out, s, key, moving, ended)
            self._knock_and_advance(out, s, knock, ended)
            if ended.any():
                s.keep(~ended)


class _State:
    """The rounds of a batch still going, one entry each: the row of the batch, every
    hand as one integer (its three cards' bits, as the hand table is indexed), the middle
    likewise, who is on turn, the passes in a row, the knocker, the turns left in the last
    cycle (-1: nobody knocked), the moves made, where the stock begins."""

    def __init__(self, n: int, lane: Ints, deck: Ints, hands: Ints, middle: Ints) -> None:
        self.n = n
        self.deck = deck
        self.lane = lane
        self.hc = hands[..., 0] << 12 | hands[..., 1] << 6 | hands[..., 2]
        if middle.shape[1] == 3:
            self.mc = middle[:, 0] << 12 | middle[:, 1] << 6 | middle[:, 2]
        else:
            self.mc = np.zeros(len(lane), dtype=np.int64)
        count = len(lane)
        self.cur = np.zeros(count, dtype=np.int64)
        self.streak = np.zeros(count, dtype=np.int64)
        self.knocker = np.full(count, -1, dtype=np.int64)
        self.left = np.full(count, -1, dtype=np.int64)
        self.moves = np.zeros(count, dtype=np.int64)
        self.sp = np.zeros(count, dtype=np.int64)
        self.dl = self.sp  # the discard pile's height (the draw game sets its own)

    def keep(self, mask: Bools) -> None:
        self.lane = self.lane[mask]
        self.hc = self.hc[mask]
        self.mc = self.mc[mask]
        self.cur = self.cur[mask]
        self.streak = self.streak[mask]
        self.knocker = self.knocker[mask]
        self.left = self.left[mask]
        self.moves = self.moves[mask]
        self.sp = self.sp[mask]
        self.dl = self.dl[mask]
