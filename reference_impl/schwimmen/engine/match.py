"""A match: rounds until one player is left, with lives, swimming and elimination.

This is the engine's public face, shaped like OpenSpiel's game state: ``to_move()``,
``legal_actions()``, ``apply(action)`` (raising :class:`IllegalAction` with a stable
reason code), ``observation(seat)``, ``clone()`` and a typed event log. A seed or an
explicit deck order makes every match reproducible.

Match rules (rules-matrix 2.24–2.27, U24–U31, U42): lives are lost one at a time and a
life lost while swimming eliminates (or, by option, a round can at most send a player
swimming); eliminated players get no cards and are skipped as dealer and in the last
cycle; the deal passes clockwise after every round, also after a replayed one (or, by
option, to the round's loser); when a showdown would put out every remaining player the
round is replayed (or they share the win, or, by option, all go out and nobody wins); the
online site's series gives the winner a point and starts a new match.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import starmap
from typing import Any

from schwimmen.engine.fastpath import Apply, FastPath, Finish, Pick, Step, fast_for, shuffler
from schwimmen.engine.hands import Evaluator, evaluator_for
from schwimmen.engine.lives import settle
from schwimmen.engine.reasons import MATCH_OVER_PHASE, IllegalAction, Reason
from schwimmen.engine.rotation import next_dealer
from schwimmen.engine.roundkit import kit_for
from schwimmen.engine.rounds import _AT6, _AT12, Emit, Phase, Round, RoundResult
from schwimmen.engine.turncap import MAX_TURNS, RoundTooLong
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import Action
from schwimmen.protocol.cards import CARD_TEXT, Card, seat_name, text
from schwimmen.protocol.frozen import quick_init
from schwimmen.spec.model import Ruleset
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import AfterLast, DealProcedure, MoveKind, Series

# Enum members read in the hot paths, as module constants (see engine.rounds).
_PHASE_DEALER_CHOICE = Phase.DEALER_CHOICE
_PHASE_OVER = Phase.OVER
# The dealing procedures after which the dealer chooses between two hands.
_CHOOSING = (DealProcedure.EXTRA_HAND_BLIND_CHOICE, DealProcedure.TWO_PACKETS_LOOK_AT_ONE)


class SetupError(ValueError):
    """A match that the ruleset does not allow (players, dealer, lives, cards)."""


MAX_LIVES = 99
"""The most lives a seat may start with. The rulesets give one to twelve; a match with a
million would never end, so a number beyond any table is refused as a mistake."""


@quick_init
@dataclass(frozen=True, slots=True)
class RoundBegan:
    """Where a round of a match began: its number (counted over the whole series), its
    dealer, every seat's lives as they stood then, and the seats dealt in. A tool that
    cuts a played match short (the fuzzer's reducer) starts a case here."""

    number: int
    dealer: int
    lives: tuple[int, ...]
    seats: tuple[int, ...]


@dataclass
class Position:
    """Cards as dealt, for a match that starts from a given position (fixtures).

    ``hands`` maps seats to their cards, ``stock`` is top first, ``discard`` bottom
    first; ``extra`` is the dealer's unseen extra hand or second packet.
    """

    hands: dict[int, list[Card]]
    middle: list[Card] = field(default_factory=list)
    extra: list[Card] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)


class Match:
    """One match (or, in the online site's series, a run of matches) of a ruleset.

    Seats are 0-based indices in the Python API: ``to_move()``, ``winners``, ``dealer``,
    ``eliminated``, ``lives[seat]``, ``points[seat]`` and every ``seat`` argument count
    from 0, clockwise from the first dealer's left. Texts, observations, the events' JSON
    form and the conformance protocol name the same seats ``P1`` to ``Pn``: seat 0 is
    ``P1`` (:func:`~schwimmen.protocol.cards.seat_name` gives the name)."""

    def __init__(
        self,
        ruleset: Ruleset | Rules,
        seats: int,
        *,
        first_dealer: int | None = None,
        lives: int | Sequence[int] | None = None,
        seed: int | None = 0,
        decks: Sequence[Sequence[Card]] = (),
        position: Position | None = None,
        eliminated: Sequence[int] = (),
        record: bool = True,
        points: Sequence[int] | None = None,
        deals: Sequence[Position] = (),
        max_turns: int = MAX_TURNS,
    ) -> None:
        rules = ruleset.rules if isinstance(ruleset, Ruleset) else ruleset
        self.rules: Rules = rules
        self.max_turns = max_turns
        """The moves a round may take before :meth:`apply` raises :class:`RoundTooLong`
        (a round of rules under which it may never end)."""
        self._composition = ruleset.id if isinstance(ruleset, Ruleset) else None
        self.evaluator: Evaluator = evaluator_for(rules)
        self._json_forms = self.evaluator.json_in_order
        low, high = rules.players.min, rules.players.max
        if not isinstance(seats, int) or not low <= seats <= high:
            raise SetupError(f"this ruleset is played by {low} to {high} players, not {seats}")
        self.table_size = seats
        self._names = _seat_names(seats)
        self._swim = rules.lives.after_last is AfterLast.SWIM
        self._hand_size = rules.cards.hand_size
        self.dealer = seats - 1 if first_dealer is None else first_dealer
        """The seat (0-based) that deals the current round."""
        if not 0 <= self.dealer < seats:
            raise SetupError(f"no seat {self.dealer} at a table of {seats}")
        start = rules.lives.count
        if lives is None:
            self.lives = [start] * seats
        elif isinstance(lives, int):
            self.lives = [lives] * seats
        else:
            self.lives = list(lives)
        if len(self.lives) != seats or any(not 0 <= x <= MAX_LIVES for x in self.lives):
            raise SetupError(f"lives must be given once per seat, each from 0 to {MAX_LIVES}")
        self.start_lives = start if lives is None or not isinstance(lives, int) else lives
        self.eliminated: set[int] = set(eliminated)
        outside = sorted(s for s in self.eliminated if not 0 <= s < seats)
        if outside:
            raise SetupError(f"no seat {outside[0]} at a table of {seats} to eliminate")
        for seat in self.eliminated:
            self.lives[seat] = 0  # as for a player the match puts out
        if seats - len(self.eliminated) < 2:
            raise SetupError("at least two players must still be in the match")
        if self.dealer in self.eliminated:
            raise SetupError("an eliminated player cannot deal")
        for number, pack in enumerate(decks, start=1):
            self._check_cards(pack, f"deck {number}")
        if position is not None:
            self._check_position(position)
        if decks and deals:
            raise SetupError("the later rounds come as packs or as dealt positions, not both")
        self._seed = seed
        self._rng: random.Random | None = None
        self.decks = [list(d) for d in decks]
        self.deals: list[Position] = list(deals)
        """Positions for the rounds after the first, dealt as they are (fixtures); each is
        checked when its round begins, against the players still in the match then."""
        self.record = record
        self._events: list[ev.Event] = []
        self._pending: list[ev.Record] = []
        self._kit = kit_for(rules)
        self._fast: FastPath
        self.pick: Pick
        """The random bot's decision of this match's rules: ``pick(match.round, random)``
        (see :mod:`schwimmen.engine.fastpath`)."""
        self._step: Step
        self._finish: Finish
        self._bind_generated()
        self.round_no = 0
        self.match_no = 1
        self.points = [0] * seats if points is None else list(points)
        if len(self.points) != seats or any(p < 0 for p in self.points):
            raise SetupError("match points must be given once per seat, none below 0")
        if any(self.points) and rules.match.series is not Series.POINT_AND_NEW_MATCH:
            raise SetupError("this ruleset plays a single match: there are no match points")
        self.lives_lost: list[dict[int, int]] = []
        """For each result in :attr:`results`, the lives it took from each seat: lives
        before less lives after (none when the round was replayed or the win shared, and
        none for a swimmer, who has no life to lose, whom the loss puts out)."""
        self.winners: tuple[int, ...] = ()
        """The seats that won, 0-based (``(1,)`` is ``P2``); two when the last two share
        the win; empty until the match is over."""
        self.over = False
        self.results: list[RoundResult] = []
        self._losers: tuple[int, ...] = ()
        """The seats that lost lives in the last round whose losses stood."""
        self._head: _Head | None = None
        self._began: list[RoundBegan] = []
        self._began_pending: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
        self.round: Round
        self._emit((ev.MatchStarted, self.match_no, seats, self.dealer, start))
        self._start_round(position)
        self._settle()

    def _bind_generated(self) -> None:
        """Take the functions generated for this match's rules (engine.fastpath); the
        match becomes an instance of the subclass whose ``apply`` is generated for them."""
        fast = self._fast = fast_for(self._kit)
        self.pick = fast.pick
        self._step = fast.step
        self._finish = fast.finish
        self.__class__ = _match_class(fast.apply)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied as a :class:`Match` (the generated subclass is made again
        from the rules)."""
        return (_restored, (self.__getstate__(),))

    def __getstate__(self) -> dict[str, Any]:
        """The match without its generated functions, which are made from source and
        cannot be pickled; unpickling (and copying) takes them again from the rules."""
        state = self.__dict__.copy()
        for name in _GENERATED:
            del state[name]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._bind_generated()

    @property
    def rng(self) -> random.Random:
        """The match's shuffler, seeded with ``seed``: made when a round first needs a
        shuffled pack (seeding one costs as much as dealing a round, and a match given
        its packs never shuffles)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    # ------------------------------------------------------------------ checks
    def _check_cards(self, cards: Sequence[Card], what: str) -> None:
        """Refuse cards that no pack of this ruleset could hold: one it does not have, or
        one card twice. A part of the pack is fine (a stacked deck may be short)."""
        known = self.evaluator.values
        seen: set[Card] = set(cards)
        if len(seen) == len(cards) and known.keys() >= seen:
            return
        seen.clear()
        for card in cards:
            if card not in known:
                shown = CARD_TEXT.get(card, f"card number {card!r}")
                raise SetupError(f"{what} holds {shown}, a card this pack lacks")
            if card in seen:
                raise SetupError(f"{what} holds {text(card)} twice")
            seen.add(card)

    def _check_position(self, position: Position) -> None:
        """A dealt position must be one deal of one pack: a hand of the ruleset's size for
        every seat still playing (and none for anybody else), no card twice anywhere."""
        playing = set(self.active())
        for seat in sorted(set(position.hands) ^ playing):
            name = seat_name(seat) if 0 <= seat < self.table_size else f"seat {seat}"
            if seat in playing:
                raise SetupError(f"the position deals no hand to {name}")
            raise SetupError(f"the position deals a hand to {name}, who does not play")
        for seat, hand in position.hands.items():
            if len(hand) != self._hand_size:
                raise SetupError(
                    f"{seat_name(seat)}'s hand has {len(hand)} cards, not {self._hand_size}"
                )
        if len(position.extra) not in (0, self._hand_size):
            raise SetupError(f"the extra hand has {len(position.extra)} cards")
        if len(position.middle) not in (0, self.rules.cards.middle_size):
            raise SetupError(f"the middle has {len(position.middle)} cards")
        if position.extra and self.rules.dealing.procedure not in _CHOOSING:
            raise SetupError("this ruleset deals no extra hand for the dealer to choose")
        if self.rules.turns.move is MoveKind.DRAW_AND_DISCARD:
            if position.middle:
                raise SetupError("this game has no middle")
        elif position.discard:
            raise SetupError("this game has no discard pile")
        elif not position.middle and not position.extra:
            raise SetupError("the position has no middle (nor an extra hand to make one)")
        every = [card for seat in sorted(position.hands) for card in position.hands[seat]]
        every += [*position.middle, *position.extra, *position.stock, *position.discard]
        self._check_cards(every, "the position")

    # ------------------------------------------------------------------ events
    @property
    def events(self) -> list[ev.Event]:
        """The event log, in order (empty for a match that records none).

        The match and its rounds record each event as a record (:data:`~schwimmen.
        protocol.events.Record`); the events are made from them here, when the log is
        read, and kept: reading the log again gives the same objects."""
        pending = self._pending
        if pending and self.record:
            self._events.extend(map(ev.build, pending))
            pending.clear()
        return self._events

    def _emit(self, record: ev.Record) -> None:
        self._pending.append(record)

    def _emitter(self) -> Emit:
        """What the round hands each event's record to: this match's own list's
        ``append`` (a builtin, quicker than a method of ours on every move)."""
        return self._pending.append

    @property
    def began(self) -> list[RoundBegan]:
        """Each round as it began, in order (a round replayed is a round of its own).

        Recorded as plain records, as the events are, and made when read (making a frozen
        dataclass costs several function calls, once a round that nobody may read), and
        kept: reading the list again gives the same objects."""
        pending = self._began_pending
        if pending:
            self._began.extend(starmap(RoundBegan, pending))
            pending.clear()
        return self._began

    # ------------------------------------------------------------------ rounds
    def active(self) -> list[int]:
        eliminated = self.eliminated
        if not eliminated:
            return list(range(self.table_size))
        return [s for s in range(self.table_size) if s not in eliminated]

    def swimming(self) -> list[int]:
        if self.rules.lives.after_last is not AfterLast.SWIM:
            return []
        return [s for s in self.active() if self.lives[s] == 0]

    def _next_pack(self) -> list[Card]:
        if self.decks:
            return self.decks.pop(0)
        return shuffled(self.evaluator.pack, self.rng)

    def _start_round(self, position: Position | None = None) -> None:
        self.round_no += 1
        self._head = None
        seats = self.active()
        if not self.record:
            self._pending.clear()  # what the last round recorded, which nobody reads
        emit = self._emitter()
        if position is None and self.deals:
            position = self.deals.pop(0)
            self._check_position(position)
        if position is not None:
            self.round = Round.from_position(
                self.rules,
                self.evaluator,
                self.table_size,
                seats,
                self.dealer,
                position.hands,
                position.middle,
                position.extra,
                position.stock,
                position.discard,
                emit,
                self.round_no,
                self.max_turns,
            )
        else:
            pack = self._next_pack()
            deal, needed = self._fast.deal_for(len(seats))
            if len(pack) < needed:
                raise SetupError(
                    f"a pack of {len(pack)} cards is too small for this deal, which uses {needed}"
                )
            # Round.deal, generated for this number of players (see engine.fastpath)
            self.round = deal(
                self.rules,
                self.evaluator,
                self.table_size,
                seats,
                self.dealer,
                pack,
                emit,
                self.round_no,
                self.max_turns,
            )
        self._began_pending.append((self.round_no, self.dealer, tuple(self.lives), tuple(seats)))

    def _settle(self) -> None:
        """Finish rounds that ended without a decision (a 31 at the deal) until a player
        has to act or the match is over: generated for the rules (engine.fastpath's
        ``finish``), which takes :meth:`_finish_rounds` where its common case fails."""
        self._finish(self)

    def _finish_rounds(self) -> None:
        """:meth:`_settle` through the general path, a round at a time."""
        while not self.over and self.round.phase is _PHASE_OVER:
            self._finish_round()

    def _finish_round(self) -> None:
        result = self.round.result
        assert result is not None
        self.results.append(result)
        remaining = self.active()
        lives = self.lives
        outcome = settle(self.rules, lives, remaining, result.losses)
        lost = outcome.lost
        taken = {}
        for seat, _, left in lost:
            if lives[seat] > left:
                taken[seat] = lives[seat] - left
        self.lives_lost.append(taken)
        self._losers = tuple([seat for seat, _, _ in lost])
        if outcome.shared_win:
            self._end_match(tuple(remaining), shared=True)
            return
        if outcome.replay:
            self._emit((ev.RoundReplayed, "the showdown would put out every player left"))
            self._rotate_dealer(())
            self._start_round()
            return
        emit = self._pending.append
        swimming, eliminated = outcome.swimming, outcome.eliminated
        for seat, n, left in lost:
            emit((ev.lives_lost, seat, n, left))
            lives[seat] = left
            if seat in swimming:
                emit((ev.Swimming, seat))
            if seat in eliminated:
                self.eliminated.add(seat)
                emit((ev.Eliminated, seat))
        if eliminated:
            left_players = self.active()
            if len(left_players) <= 1:
                self._end_match(tuple(left_players), shared=False)
                return
        self._rotate_dealer(self._losers)
        self._start_round()

    def _rotate_dealer(self, losers: Sequence[int]) -> None:
        """Pass the deal on (U31) after a round in which ``losers`` lost lives."""
        seat = next_dealer(self.rules, self.table_size, self.dealer, self.eliminated, losers)
        self.dealer = seat
        self._emit((ev.next_dealer, seat))

    def _end_match(self, winners: tuple[int, ...], *, shared: bool) -> None:
        self.over = True
        self.winners = winners
        self._head = None
        if self.rules.match.series is Series.POINT_AND_NEW_MATCH and len(winners) == 1:
            self.points[winners[0]] += 1
        points = {s: p for s, p in enumerate(self.points) if p}
        self._emit((ev.MatchEnded, winners, shared, points))

    def next_match(self) -> None:
        """Start the next match of a series: every player gets his lives back (U34)."""
        if not self.over:
            raise IllegalAction(Reason.WRONG_PHASE, "the match is not over yet")
        if self.rules.match.series is not Series.POINT_AND_NEW_MATCH:
            raise IllegalAction(Reason.MATCH_OVER, "this ruleset plays a single match")
        self.match_no += 1
        self.over = False
        self.winners = ()
        self.eliminated.clear()
        self.lives = [self.start_lives] * self.table_size
        self._rotate_dealer(self._losers)
        self._emit((ev.MatchStarted, self.match_no, self.table_size, self.dealer, self.start_lives))
        self._start_round()
        self._settle()

    # ------------------------------------------------------------------ the API
    def to_move(self) -> int | None:
        """The seat that must act now, 0-based (0 is ``P1``), or None once the match is over."""
        # a round that ended has been settled: the round of a match going on is going on
        return None if self.over else self.round.current

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move, moves before knocks, in a fixed order.

        Applying one of these very objects skips the legality check."""
        return [] if self.over else self.round.legal_actions()

    def legal_split(self) -> tuple[list[Action], list[Action]]:
        """The legal actions split into (moves, knocks); see :meth:`Round.legal_split`."""
        return ([], []) if self.over else self.round.legal_split()

    def why_illegal(self, action: Action, seat: int | None = None) -> Reason | None:
        """The reason code that :meth:`apply` would refuse ``action`` with, or None
        (``seat``, if given, is 0-based)."""
        if self.over:
            return Reason.MATCH_OVER
        if seat is not None and seat != self.round.to_move():
            return Reason.NOT_YOUR_TURN
        return self.round.why_illegal(action)

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` (for ``seat``, if given, 0-based, which must be the seat to move).

        A round still going after :attr:`max_turns` moves raises :class:`RoundTooLong`
        (naming the ruleset, where the match was given one) rather than play on for ever."""
        rnd = self.round
        if self.over or (seat is not None and seat != rnd.current):
            problem = self.why_illegal(action, seat)
            if problem is not None:
                raise IllegalAction(problem)
        try:
            self._step(rnd, action)
        except RoundTooLong as exc:
            if self._composition is None:
                raise
            raise exc.named(self._composition) from None
        if rnd.phase is _PHASE_OVER:
            self._finish(self)

    def clone(self) -> Match:
        """An independent copy sharing only immutable parts: the rules, the hand table and
        the events (and event records) so far, in lists of its own.

        The round writes events through the log's bound ``append``, which deepcopy keeps
        as it is (a builtin is atomic to it): still bound to this match's list. The copy's
        round is given its own log's, or playing the copy would write into this one."""
        memo: dict[int, Any] = {
            id(self.rules): self.rules,
            id(self.evaluator): self.evaluator,
            id(self._json_forms): self._json_forms,
            id(self._events): list(self._events),
            id(self._pending): list(self._pending),
        }
        twin = copy.deepcopy(self, memo)
        twin.round.emit = twin._emitter()
        return twin

    def events_for(self, seat: int | None) -> list[ev.Event]:
        """The event log as ``seat`` (0-based) may see it (None: everything)."""
        out = []
        for event in self.events:
            seen = event.for_seat(seat)
            if seen is not None:
                out.append(seen)
        return out

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` (0-based) may see now, as JSON data that names seats ``P1`` to
        ``Pn`` (hands of others stay hidden, U43).

        ``value`` is the seat's hand value; it is left out while a drawn card makes the
        hand one card too long (the draw-and-discard game), where no value is defined.
        The observation is asked for before every decision (issue 21: under 5 µs), so
        the part that changes only between rounds (dealer, lives, swimming, eliminated,
        winners) is built once a round, with a template of the whole observation per seat
        that is copied in one step and filled in; the rest comes from card texts,
        remembered value forms and the legal texts (named without making the legal list
        where the round counts its actions, see :meth:`Round.legal_texts`). Nothing a
        caller can change is shared with the next observation."""
        head = self._head
        if head is None:
            head = self._head = self._round_head()
        templates, lives, swimming, eliminated, winners, over = head
        template = templates.get(seat)
        if template is None:
            raise ValueError(
                f"no seat {seat} at a table of {self.table_size} (seats 0 to {self.table_size - 1})"
            )
        # the round's fields come with a copy of its template (a dict copied whole is
        # cheaper than one built key by key), and the rest is set in the template's order;
        # the lists and the lives are copied, as the caller may change what it gets.
        # Cards are named as literal lists where their number is the usual one: several
        # times quicker than a comprehension (a call of its own) on so few items.
        rnd = self.round
        names = self._names
        text = CARD_TEXT
        phase = rnd.phase
        obs = template.copy()
        if over:
            to_move = None
        else:
            obs["phase"] = phase._value_
            if phase is _PHASE_OVER:
                to_move = None
            else:
                to_move = rnd.current
                obs["to_move"] = names[to_move]
        hand = rnd.hands.get(seat)
        form = None
        if hand is None:
            obs["hand"] = []
        elif len(hand) == 3:
            h0, h1, h2 = hand
            obs["hand"] = [text[h0], text[h1], text[h2]]
            if self._hand_size == 3 and phase is not _PHASE_OVER:
                # the forms' key h0 << 12 | h1 << 6 | h2, read as the round reads its table
                form = self._json_forms.get(_AT12[h0] + _AT6[h1] + h2)
                form = self.evaluator.value_json(hand) if form is None else form.copy()
        else:
            obs["hand"] = [text[c] for c in hand]
            if len(hand) == self._hand_size and phase is not _PHASE_OVER:
                form = self.evaluator.value_json(hand)
        middle = rnd.middle
        if rnd.middle_hidden:
            obs["middle_hidden"] = True
        elif len(middle) == 3:
            m0, m1, m2 = middle
            obs["middle"] = [text[m0], text[m1], text[m2]]
        else:
            obs["middle"] = [text[c] for c in middle] if middle else []
        obs["stock"] = len(rnd.stock)
        discard = rnd.discard
        if discard:
            obs["discard_top"] = text[discard[-1]]
        knocker = rnd.knocker
        if knocker is not None:
            obs["knocker"] = names[knocker]
        closed = rnd.closed
        obs["closed"] = [names[s] for s in sorted(closed)] if closed else []
        obs["lives"] = lives.copy()
        obs["swimming"] = [*swimming]
        obs["eliminated"] = [*eliminated]
        obs["winners"] = [*winners]
        if phase is _PHASE_DEALER_CHOICE and seat == self.dealer:
            obs["extra_hand"] = len(rnd.extra or [])
        if form is not None:
            obs["value"] = form
        if to_move == seat:
            # Round.legal_texts, read here without a call of its own
            texts = rnd.counted_texts()
            if texts is None:
                texts = [action.text for action in rnd._listed()]
            obs["legal_actions"] = texts
        return obs

    def _round_head(self) -> _Head:
        """The part of every observation that holds for the whole round: a template of
        the observation for each seat in its key order (the seat and the fields of the
        round filled in, the others at their value when empty), and the lives and seat
        lists that each observation copies."""
        names = self._names
        lives = self.lives
        eliminated = self.eliminated
        template: dict[str, Any] = {
            "seat": names[0],
            "dealer": names[self.dealer],
            "round": self.round_no,
            "phase": MATCH_OVER_PHASE,
            "to_move": None,
            "hand": None,
            "middle": None,
            "middle_hidden": False,
            "stock": 0,
            "discard_top": None,
            "knocker": None,
            "closed": None,
            "lives": None,
            "swimming": None,
            "eliminated": None,
            "match_over": self.over,
            "winners": None,
        }
        return (
            {seat: {**template, "seat": name} for seat, name in enumerate(names)},
            dict(zip(names, lives, strict=True)),
            [names[s] for s, n in enumerate(lives) if n == 0 and s not in eliminated]
            if self._swim
            else [],
            [names[s] for s in sorted(eliminated)],
            [names[s] for s in self.winners],
            self.over,
        )


_CLASSES: dict[Apply, type[Match]] = {}


def _match_class(apply: Apply) -> type[Match]:
    """The subclass of :class:`Match` whose ``apply`` is ``apply`` (one per rules object:
    a function found on the class is called as a method without a call in between)."""
    found = _CLASSES.get(apply)
    if found is None:
        if len(_CLASSES) > 1024:
            _CLASSES.clear()
        found = _CLASSES[apply] = type(
            "Match",
            (Match,),
            {"__slots__": (), "apply": apply, "__doc__": Match.__doc__, "__module__": __name__},
        )
    return found


def _restored(state: dict[str, Any]) -> Match:
    """A match unpickled or copied (see :meth:`Match.__reduce__`)."""
    match = Match.__new__(Match)
    match.__setstate__(state)
    return match


# the attributes of a match that hold generated functions (not pickled)
_GENERATED = ("_fast", "pick", "_step", "_finish")

# an observation's template, lives, swimming, eliminated, winners, whether the match is
# over (see _round_head)
_Head = tuple[dict[int, dict[str, Any]], dict[str, int], list[str], list[str], list[str], bool]


@cache
def _seat_names(seats: int) -> tuple[str, ...]:
    """``P1`` to ``Pn`` for a table of ``seats`` (a match is made for every few rounds)."""
    return tuple(seat_name(s) for s in range(seats))


def shuffled(pack: Sequence[Card], rng: random.Random) -> list[Card]:
    """A copy of ``pack`` shuffled by ``rng``: exactly what ``rng.shuffle`` makes of it
    (the same draws from ``getrandbits``, in the same order, so a seed deals the same
    packs as ever), written out for the pack's size (see :func:`~schwimmen.engine.
    fastpath.shuffler`); a match shuffles once a round."""
    cards = list(pack)
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return cards
    shuffler(len(cards))(cards, rng.getrandbits)
    return cards
