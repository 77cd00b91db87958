"""``schwimmen play``: one person against bots in the terminal.

The table and the player's own hand are drawn after every move; the legal moves are
listed with numbers; a move is typed as its number or its text (``swap QC 10H``); a bad
move is refused with the reason and asked again; at the end of each round every hand is
shown with its value, and the round's loser and the reason are spelled out.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from schwimmen.cli import lang
from schwimmen.cli.lang import ENGLISH, Words
from schwimmen.engine.bots import Bot, GreedyBot, RandomBot
from schwimmen.engine.match import Match, SetupError
from schwimmen.engine.reasons import DESCRIPTION, IllegalAction, Reason
from schwimmen.engine.rounds import Phase
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import Action, ActionKind, ActionSyntaxError, parse_text
from schwimmen.protocol.cards import Card, CardError, parse, seat_name, suit_of, text
from schwimmen.spec.model import Ruleset
from schwimmen.spec.present import points as points_text

RED = {"H", "D"}
EN = Words(ENGLISH)


def card_text(card: Card, w: Words = EN) -> Text:
    suit = suit_of(card)
    return Text(lang.pretty(card, w.language), style="bold red" if suit in RED else "bold")


def cards_text(cards: list[Card] | tuple[Card, ...] | None, w: Words = EN) -> Text:
    if cards is None:
        return Text(w.label("cli.play.hidden", "(hidden)"), style="dim")
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c, w))
    return out


_MOVES = {
    ActionKind.SWAP_ALL: "swap the whole hand for the middle",
    ActionKind.PASS: "pass (schieben)",
    ActionKind.KNOCK: "knock (klopfen)",
    ActionKind.KEEP: "keep your hand",
    ActionKind.TAKE_EXTRA: "take the unseen extra hand",
    ActionKind.SHOW: "show your 31 (ends the round)",
    ActionKind.DECLINE: "do not show your 31",
    ActionKind.TURN_UP: "turn up the middle to swap",
    ActionKind.DRAW_STOCK: "draw from the stock",
    ActionKind.DRAW_DISCARD: "take the top discard",
}


def action_text(action: Action, w: Words = EN) -> Text:
    """A move as a person reads it."""
    kind = action.kind
    if kind is ActionKind.SWAP:
        t = Text(w.label("cli.play.swap", "swap") + " ")
        t.append_text(cards_text(action.give, w))
        t.append(" " + w.label("cli.play.for", "for") + " ")
        t.append_text(cards_text(action.take, w))
    elif kind is ActionKind.DISCARD:
        t = Text(w.label("cli.play.discard", "discard") + " ")
        t.append_text(card_text(action.give[0], w))
    else:
        t = Text(w.label(f"cli.play.move.{kind.value}", _MOVES[kind]))
    if action.knock:
        t.append(w.label("cli.play.then-knock", ", then knock"), style="bold yellow")
    return t


def _name(seat: int, me: int, w: Words = EN) -> str:
    """``You`` in English; in German the seat with ``(du)``, so that every sentence about a
    seat keeps its verb in the third person (``P1 (du) klopft``)."""
    if seat != me:
        return seat_name(seat)
    you = w.label("cli.play.you", "You")
    return f"{seat_name(seat)} ({you})" if w.german else you


def event_line(event: ev.Event, me: int, w: Words = EN) -> Text | None:
    """One line of commentary for a public event (None for the quiet ones)."""

    def said(key: str, english: str, seat: int, style: str = "") -> Text:
        return Text(w.label(f"cli.play.{key}", english, seat=_name(seat, me, w)), style=style)

    if isinstance(event, ev.Swapped):
        t = said("swapped", "{seat} swapped ", event.seat)
        t.append_text(cards_text(event.gave, w))
        t.append(" " + w.label("cli.play.for", "for") + " ")
        t.append_text(cards_text(event.took, w))
        return t
    if isinstance(event, ev.Passed):
        return said("passed", "{seat} passed", event.seat)
    if isinstance(event, ev.Knocked):
        return said("knocked", "{seat} knocked", event.seat, "bold yellow")
    if isinstance(event, ev.DealerChose):
        if event.choice == "take-extra":
            return said("dealer-took", "{seat} (dealer) took the extra hand", event.seat)
        return said("dealer-kept", "{seat} (dealer) kept his hand", event.seat)
    if isinstance(event, ev.MiddleReplaced):
        t = Text(w.label("cli.play.replaced", "Everybody passed: the middle is replaced by "))
        t.append_text(cards_text(event.new, w))
        return t
    if isinstance(event, ev.WashedOut):
        english = "The middle is all one suit and is washed out; new middle "
        t = Text(w.label("cli.play.washed-out", english))
        t.append_text(cards_text(event.new, w))
        return t
    if isinstance(event, ev.MiddleTurnedUp):
        return said("turned-up", "{seat} turned up the middle", event.seat)
    if isinstance(event, ev.Drew):
        if event.source == "discard" and event.card is not None:
            t = said("took", "{seat} took ", event.seat)
            t.append_text(card_text(event.card, w))
            return t
        return said("drew", "{seat} drew from the stock", event.seat)
    if isinstance(event, ev.Discarded):
        t = said("discarded", "{seat} discarded ", event.seat)
        t.append_text(card_text(event.card, w))
        return t
    if isinstance(event, ev.Revealed):
        t = said("shows", "{seat} shows ", event.seat, "bold magenta")
        t.append_text(cards_text(event.cards, w))
        hand = w.label(f"cli.play.shown.{event.hand}", event.hand)
        t.append(f" ({hand})", style="bold magenta")
        return t
    if isinstance(event, ev.RevealDeclined):
        return said("declined", "{seat} does not show a 31", event.seat)
    if isinstance(event, ev.Swimming):
        return said("swimming", "{seat} is swimming now (schwimmt)", event.seat, "cyan")
    if isinstance(event, ev.Eliminated):
        return said("out", "{seat} is out (untergegangen)", event.seat, "bold red")
    if isinstance(event, ev.RoundReplayed):
        # the event's one reason, in English the engine's words for it
        replayed = w.label("cli.play.replayed", f"The round is replayed: {event.why}")
        return Text(replayed, style="yellow")
    if isinstance(event, ev.NextDealer):
        return said("next-dealer", "Next dealer: {seat}", event.seat, "dim")
    return None


def refusal(reason: Reason, w: Words = EN) -> str:
    """Why a move is refused: the reason code's words (``reason.CODE`` of
    ``spec/words.yaml`` in German, the protocol's description in English), with the code."""
    why = w.label(f"reason.{reason.value}", DESCRIPTION[reason])
    return w.label("cli.play.not-allowed", "Not allowed: {why} ({code}).", why=why, code=reason)


def why_line(event: ev.RoundEnded, me: int, w: Words = EN) -> str:
    """Why the round ended as it did. The engine explains it in English (``why``); another
    language says it from the event's facts alone: who loses how many lives, with which
    hand, and who was exempt (the engine's finer reasons, such as a tie rule, have no code
    to translate)."""
    if not w.german:
        return f"{w.label('rule.why', 'Why:')} {event.why}"
    if not event.losses:
        return w.label("cli.play.why.nobody", "Nobody loses a life.")
    by_lives: dict[int, list[str]] = {}
    for seat, lost in event.losses.items():
        value = event.values[seat]
        hand = str(value["hand"])
        worth = (
            w.calc(f"kind-{hand}", hand)
            if value["points"] is None
            else points_text(value["points"])
        )
        held = w.label(
            "cli.play.why.with", "{seat} ({worth})", seat=_name(seat, me, w), worth=worth
        )
        by_lives.setdefault(lost, []).append(held)
    clauses = []
    for lost, seats in by_lives.items():
        lives = (
            w.label("cli.play.why.one-life", "a life")
            if lost == 1
            else w.label("cli.play.why.lives", "{n} lives", n=lost)
        )
        named = _listed(seats, w)
        if len(seats) == 1:
            clauses.append(
                w.label("cli.play.why.loses", "{seats} loses {lives}", seats=named, lives=lives)
            )
        else:
            clauses.append(
                w.label("cli.play.why.lose", "{seats} lose {lives} each", seats=named, lives=lives)
            )
    if event.exempt:
        exempt = _listed([_name(s, me, w) for s in event.exempt], w)
        clauses.append(w.label("cli.play.why.exempt", "exempt: {seats}", seats=exempt))
    return "; ".join(clauses) + "."


def _listed(items: list[str], w: Words) -> str:
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + w.label("cli.play.why.and", " and ") + items[-1]


def _typed(action: Action, w: Words) -> str:
    """The move's text as the player may type it, cards in the letters of the language."""
    if not w.german:
        return str(action)
    out = []
    for word in str(action).split():
        try:
            out.append("+".join(lang.typed(parse(part), w.language) for part in word.split("+")))
        except CardError:
            out.append(word)
    return " ".join(out)


def typed_action(answer: str) -> Action:
    """A move typed as its text, cards in English or German letters (``swap DC 10H``)."""
    words = []
    for word in answer.split():
        try:
            words.append("+".join(text(lang.parse_card(part)) for part in word.split("+")))
        except CardError:
            words.append(word)
    return parse_text(" ".join(words))


class Game:
    """The terminal game: a match, the human's seat, bots for the others."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        seat: int,
        seed: int | None,
        bot: str,
        console: Console,
        read: Callable[[str], str] = input,
        w: Words = EN,
        title: str | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.w = w
        self.title = title or ruleset.title
        self.me = seat
        self.console = console
        self.read = read
        rng = random.Random(seed)
        self.match = Match(ruleset, players, seed=rng.randrange(1 << 30))
        self.bots: dict[int, Bot] = {
            s: (GreedyBot() if bot == "greedy" else RandomBot(random.Random(rng.random())))
            for s in range(players)
            if s != seat
        }
        self.shown = 0

    def play(self) -> int:
        c, w = self.console, self.w
        c.print(Text(self.title, style="bold"))
        english = "Type the number of a move or its text (swap QC 10H); 'help', 'quit'."
        c.print(Text(w.label("cli.play.intro", english), style="dim"))
        match = self.match
        while not match.over:
            self._commentary()
            seat = match.to_move()
            assert seat is not None
            if seat == self.me:
                self._draw_table()
                action = self._ask()
                if action is None:
                    c.print(w.label("cli.play.bye", "Bye."))
                    return 1
                match.apply(action, seat)
            else:
                match.apply(self.bots[seat].choose(match), seat)
        self._commentary()
        winners = ", ".join(_name(s, self.me, w) for s in match.winners)
        verdict = (
            w.label("cli.play.winner", "The match is over. Winner: {seats}", seats=winners)
            if winners
            else w.label(
                "cli.play.no-winner", "The match is over. Nobody wins: everybody left went out."
            )
        )
        c.print(Text(f"\n{verdict}", style="bold green"))
        return 0

    def _commentary(self) -> None:
        events = self.match.events_for(self.me)
        w = self.w
        for event in events[self.shown :]:
            if isinstance(event, ev.RoundStarted):
                dealer = _name(event.dealer, self.me, w)
                english = "Round {n}, dealer {seat}"
                self.console.rule(w.label("cli.play.round", english, n=event.round, seat=dealer))
            elif isinstance(event, ev.RoundEnded):
                self._showdown(event)
            else:
                line = event_line(event, self.me, w)
                if line is not None:
                    self.console.print(line)
        self.shown = len(events)

    def _showdown(self, event: ev.RoundEnded) -> None:
        c, w = self.console, self.w
        english = {
            "knock": "the last cycle after the knock is over",
            "maximum": "a 31 was shown",
            "feuer": "Feuer (three aces) was shown",
            "feuer-light": "Feuer light (three sevens) was shown",
            "all-passed": "everybody passed and the middle cannot be replaced",
            "stock-exhausted": "the stock is used up",
            "two-open": "only two players have not closed",
            "one-open": "only one player has not closed",
        }[event.reason]
        why = w.label(f"cli.play.ended.{event.reason}", english)
        if event.at_deal:
            ends = w.label("cli.play.ends-at-deal", "The round ends at the deal: {why}.", why=why)
        else:
            ends = w.label("cli.play.ends", "The round ends: {why}.", why=why)
        c.print(Text(f"\n{ends}", style="bold"))
        table = Table(show_header=True, header_style="bold")
        table.add_column(w.label("fixture.head.seat", "seat"))
        table.add_column(w.label("fixture.head.hand", "hand"))
        table.add_column(w.label("cli.play.value", "value"), justify="right")
        table.add_column(w.calc("loses", "loses"), justify="right")
        for seat, cards in event.hands.items():
            value = event.values[seat]
            pts = value["points"]
            shown = value["hand"] if pts is None else points_text(pts)
            if value["hand"] in ("triple", "feuer", "feuer-light", "fixed"):
                shown += f" ({w.calc('kind-' + value['hand'], value['hand'])})"
            lost = event.losses.get(seat, 0)
            style = "bold red" if lost else ""
            table.add_row(
                _name(seat, self.me, w),
                cards_text(cards, w),
                shown,
                str(lost) if lost else "",
                style=style,
            )
        c.print(table)
        c.print(Text(why_line(event, self.me, w), style="italic"))
        swimming = w.label("cli.play.swimming-mark", " (swimming)")
        lives = "  ".join(
            f"{_name(s, self.me, w)} {self.match.lives[s]}"
            + (swimming if s in self.match.swimming() else "")
            for s in self.match.active()
        )
        c.print(Text(w.label("cli.play.lives-line", "Lives: {lives}", lives=lives), style="cyan"))

    def _draw_table(self) -> None:
        c, match, w = self.console, self.match, self.w
        rnd = match.round
        c.print()
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column(style="bold")
        table.add_column()
        if match.rules.turns.move.value == "draw-and-discard":
            top = rnd.discard[-1] if rnd.discard else None
            table.add_row(
                w.label("fixture.pile.discard.title", "Discard pile"),
                cards_text([top] if top is not None else [], w),
            )
            stock = w.label("cli.play.cards", "{n} cards", n=len(rnd.stock))
            table.add_row(w.label("fixture.pile.stock.title", "Stock"), Text(stock))
        else:
            middle = cards_text(None if rnd.middle_hidden else rnd.middle, w)
            table.add_row(w.label("fixture.pile.middle.title", "Middle"), middle)
        hand = rnd.hands[self.me]
        value = match.evaluator.evaluate(hand)
        worth = value.kind.value if value.points is None else points_text(value.points)
        mine = cards_text(hand, w)
        mine.append(w.label("cli.play.worth", "   worth {points}", points=worth), style="cyan")
        table.add_row(w.label("cli.play.your-hand", "Your hand"), mine)
        swimming = w.label("cli.play.swimming-word", " swimming")
        others = "  ".join(
            f"{_name(s, self.me, w)}: {match.lives[s]}"
            + (swimming if s in match.swimming() else "")
            for s in match.active()
        )
        table.add_row(w.label("cli.play.lives", "Lives"), Text(others))
        if rnd.knocker is not None:
            knocker = Text(_name(rnd.knocker, self.me, w), style="bold yellow")
            table.add_row(w.label("cli.play.knocker", "Knocked"), knocker)
        if rnd.phase is Phase.DEALER_CHOICE:
            english = "keep your hand or take the unseen extra hand"
            table.add_row(
                w.label("cli.play.you-deal", "You deal"),
                Text(w.label("cli.play.dealer-choice", english)),
            )
        c.print(table)

    def _ask(self) -> Action | None:
        legal = self.match.legal_actions()
        shown = [a for a in legal if not a.knock]
        closing = {(a.kind, a.give, a.take) for a in legal if a.knock}
        w = self.w
        for i, action in enumerate(shown, start=1):
            line = Text(f"{i:>3}. ")
            line.append_text(action_text(action, w))
            line.append(f"   [{_typed(action, w)}]", style="dim")
            self.console.print(line)
        if closing:
            english = "To knock after a move, add k to its number (3k)."
            self.console.print(Text(w.label("cli.play.knock-hint", english), style="yellow"))
        while True:
            try:
                answer = self.read(w.label("cli.play.prompt", "Your move: ")).strip()
            except EOFError:
                return None
            if answer in ("quit", "q", "exit"):
                return None
            if answer in ("help", "?", ""):
                english = (
                    "Give the number of a move, or its text as shown in brackets "
                    "(add k to the number, or ' knock' to the text, to knock after it)."
                )
                self.console.print(Text(w.label("cli.play.help", english), style="dim"))
                continue
            knock = answer.endswith("k") and answer[:-1].strip().isdigit()
            number = answer[:-1].strip() if knock else answer
            if number.isdigit():
                index = int(number)
                if not 1 <= index <= len(shown):
                    no_move = w.label("cli.play.no-move", "There is no move {n}.", n=index)
                    self.console.print(Text(no_move, style="red"))
                    continue
                action = shown[index - 1]
                if knock:
                    if (action.kind, action.give, action.take) not in closing:
                        english = "You cannot knock after that move now."
                        refused = w.label("cli.play.cannot-knock", english)
                        self.console.print(Text(refused, style="red"))
                        continue
                    action = Action(action.kind, action.give, action.take, True)
                return action
            try:
                action = typed_action(answer)
            except ActionSyntaxError as exc:
                # the parser's detail is English: German says what to type instead
                no_move = w.label("cli.play.not-a-move", f"Not a move: {exc}")
                self.console.print(Text(no_move, style="red"))
                continue
            problem = self.match.why_illegal(action, self.me)
            if problem is not None:
                self.console.print(Text(refusal(problem, w), style="red"))
                continue
            return action


def play(
    ruleset: Ruleset,
    players: int,
    seat: int,
    seed: int | None,
    bot: str,
    console: Console,
    read: Callable[[str], str] = input,
    w: Words = EN,
    title: str | None = None,
) -> int:
    try:
        game = Game(ruleset, players, seat, seed, bot, console, read, w, title)
    except SetupError as exc:
        console.print(Text(str(exc), style="red"))
        return 2
    try:
        return game.play()
    except IllegalAction as exc:  # a bot's move refused: a bug worth reporting loudly
        console.print(Text(f"internal error: {exc}", style="bold red"))
        return 3
