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

from schwimmen.engine.bots import Bot, GreedyBot, RandomBot
from schwimmen.engine.match import Match, SetupError
from schwimmen.engine.reasons import DESCRIPTION, IllegalAction
from schwimmen.engine.rounds import Phase
from schwimmen.protocol import events as ev
from schwimmen.protocol.actions import Action, ActionKind, ActionSyntaxError, parse_text
from schwimmen.protocol.cards import SUIT_SYMBOL, Card, rank_of, seat_name, suit_of
from schwimmen.spec.model import Ruleset
from schwimmen.spec.present import points as points_text

RED = {"H", "D"}


def card_text(card: Card) -> Text:
    suit = suit_of(card)
    return Text(f"{rank_of(card)}{SUIT_SYMBOL[suit]}", style="bold red" if suit in RED else "bold")


def cards_text(cards: list[Card] | tuple[Card, ...] | None) -> Text:
    if cards is None:
        return Text("(hidden)", style="dim")
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c))
    return out


def action_text(action: Action) -> Text:
    """A move as a person reads it."""
    kind = action.kind
    if kind is ActionKind.SWAP:
        t = Text("swap ")
        t.append_text(cards_text(action.give))
        t.append(" for ")
        t.append_text(cards_text(action.take))
    elif kind is ActionKind.DISCARD:
        t = Text("discard ")
        t.append_text(card_text(action.give[0]))
    else:
        t = Text(
            {
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
            }[kind]
        )
    if action.knock:
        t.append(", then knock", style="bold yellow")
    return t


def _name(seat: int, me: int) -> str:
    return "You" if seat == me else seat_name(seat)


def event_line(event: ev.Event, me: int) -> Text | None:
    """One line of commentary for a public event (None for the quiet ones)."""
    if isinstance(event, ev.Swapped):
        t = Text(f"{_name(event.seat, me)} swapped ")
        t.append_text(cards_text(event.gave))
        t.append(" for ")
        t.append_text(cards_text(event.took))
        return t
    if isinstance(event, ev.Passed):
        return Text(f"{_name(event.seat, me)} passed")
    if isinstance(event, ev.Knocked):
        return Text(f"{_name(event.seat, me)} knocked", style="bold yellow")
    if isinstance(event, ev.DealerChose):
        word = "took the extra hand" if event.choice == "take-extra" else "kept his hand"
        return Text(f"{_name(event.seat, me)} (dealer) {word}")
    if isinstance(event, ev.MiddleReplaced):
        t = Text("Everybody passed: the middle is replaced by ")
        t.append_text(cards_text(event.new))
        return t
    if isinstance(event, ev.WashedOut):
        t = Text("The middle is all one suit and is washed out; new middle ")
        t.append_text(cards_text(event.new))
        return t
    if isinstance(event, ev.MiddleTurnedUp):
        return Text(f"{_name(event.seat, me)} turned up the middle")
    if isinstance(event, ev.Drew):
        if event.source == "discard" and event.card is not None:
            t = Text(f"{_name(event.seat, me)} took ")
            t.append_text(card_text(event.card))
            return t
        return Text(f"{_name(event.seat, me)} drew from the stock")
    if isinstance(event, ev.Discarded):
        t = Text(f"{_name(event.seat, me)} discarded ")
        t.append_text(card_text(event.card))
        return t
    if isinstance(event, ev.Revealed):
        t = Text(f"{_name(event.seat, me)} shows ", style="bold magenta")
        t.append_text(cards_text(event.cards))
        t.append(f" ({event.hand})", style="bold magenta")
        return t
    if isinstance(event, ev.RevealDeclined):
        return Text(f"{_name(event.seat, me)} does not show a 31")
    if isinstance(event, ev.Swimming):
        return Text(f"{_name(event.seat, me)} is swimming now (schwimmt)", style="cyan")
    if isinstance(event, ev.Eliminated):
        return Text(f"{_name(event.seat, me)} is out (untergegangen)", style="bold red")
    if isinstance(event, ev.RoundReplayed):
        return Text(f"The round is replayed: {event.why}", style="yellow")
    if isinstance(event, ev.NextDealer):
        return Text(f"Next dealer: {_name(event.seat, me)}", style="dim")
    return None


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
    ) -> None:
        self.ruleset = ruleset
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
        c = self.console
        c.print(Text(f"{self.ruleset.title}", style="bold"))
        c.print(
            Text(
                "Type the number of a move or its text (swap QC 10H); 'help', 'quit'.", style="dim"
            )
        )
        match = self.match
        while not match.over:
            self._commentary()
            seat = match.to_move()
            assert seat is not None
            if seat == self.me:
                self._draw_table()
                action = self._ask()
                if action is None:
                    c.print("Bye.")
                    return 1
                match.apply(action, seat)
            else:
                match.apply(self.bots[seat].choose(match), seat)
        self._commentary()
        winners = ", ".join(_name(s, self.me) for s in match.winners)
        verdict = f"Winner: {winners}" if winners else "Nobody wins: everybody left went out."
        c.print(Text(f"\nThe match is over. {verdict}", style="bold green"))
        return 0

    def _commentary(self) -> None:
        events = self.match.events_for(self.me)
        for event in events[self.shown :]:
            if isinstance(event, ev.RoundStarted):
                self.console.rule(f"Round {event.round}, dealer {_name(event.dealer, self.me)}")
            elif isinstance(event, ev.RoundEnded):
                self._showdown(event)
            else:
                line = event_line(event, self.me)
                if line is not None:
                    self.console.print(line)
        self.shown = len(events)

    def _showdown(self, event: ev.RoundEnded) -> None:
        c = self.console
        why = {
            "knock": "the last cycle after the knock is over",
            "maximum": "a 31 was shown",
            "feuer": "Feuer (three aces) was shown",
            "feuer-light": "Feuer light (three sevens) was shown",
            "all-passed": "everybody passed and the middle cannot be replaced",
            "stock-exhausted": "the stock is used up",
            "two-open": "only two players have not closed",
            "one-open": "only one player has not closed",
        }[event.reason]
        when = " at the deal" if event.at_deal else ""
        c.print(Text(f"\nThe round ends{when}: {why}.", style="bold"))
        table = Table(show_header=True, header_style="bold")
        table.add_column("seat")
        table.add_column("hand")
        table.add_column("value", justify="right")
        table.add_column("loses", justify="right")
        for seat, cards in event.hands.items():
            value = event.values[seat]
            pts = value["points"]
            shown = value["hand"] if pts is None else points_text(pts)
            if value["hand"] in ("triple", "feuer", "feuer-light", "fixed"):
                shown += f" ({value['hand']})"
            lost = event.losses.get(seat, 0)
            style = "bold red" if lost else ""
            table.add_row(
                _name(seat, self.me),
                cards_text(cards),
                shown,
                str(lost) if lost else "",
                style=style,
            )
        c.print(table)
        c.print(Text(f"Why: {event.why}", style="italic"))
        lives = "  ".join(
            f"{_name(s, self.me)} {self.match.lives[s]}"
            + (" (swimming)" if s in self.match.swimming() else "")
            for s in self.match.active()
        )
        c.print(Text(f"Lives: {lives}", style="cyan"))

    def _draw_table(self) -> None:
        c, match = self.console, self.match
        rnd = match.round
        c.print()
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column(style="bold")
        table.add_column()
        if match.rules.turns.move.value == "draw-and-discard":
            top = rnd.discard[-1] if rnd.discard else None
            table.add_row("Discard pile", cards_text([top] if top is not None else []))
            table.add_row("Stock", Text(f"{len(rnd.stock)} cards"))
        else:
            table.add_row("Middle", cards_text(None if rnd.middle_hidden else rnd.middle))
        hand = rnd.hands[self.me]
        value = match.evaluator.evaluate(hand)
        worth = value.kind.value if value.points is None else points_text(value.points)
        mine = cards_text(hand)
        mine.append(f"   worth {worth}", style="cyan")
        table.add_row("Your hand", mine)
        others = "  ".join(
            f"{_name(s, self.me)}: {match.lives[s]}"
            + (" swimming" if s in match.swimming() else "")
            for s in match.active()
        )
        table.add_row("Lives", Text(others))
        if rnd.knocker is not None:
            table.add_row("Knocked", Text(_name(rnd.knocker, self.me), style="bold yellow"))
        if rnd.phase is Phase.DEALER_CHOICE:
            table.add_row("You deal", Text("keep your hand or take the unseen extra hand"))
        c.print(table)

    def _ask(self) -> Action | None:
        legal = self.match.legal_actions()
        shown = [a for a in legal if not a.knock]
        closing = {(a.kind, a.give, a.take) for a in legal if a.knock}
        for i, action in enumerate(shown, start=1):
            line = Text(f"{i:>3}. ")
            line.append_text(action_text(action))
            line.append(f"   [{action}]", style="dim")
            self.console.print(line)
        if closing:
            self.console.print(
                Text("To knock after a move, add k to its number (3k).", style="yellow")
            )
        while True:
            try:
                answer = self.read("Your move: ").strip()
            except EOFError:
                return None
            if answer in ("quit", "q", "exit"):
                return None
            if answer in ("help", "?", ""):
                self.console.print(
                    Text(
                        "Give the number of a move, or its text as shown in brackets "
                        "(add k to the number, or ' knock' to the text, to knock after it).",
                        style="dim",
                    )
                )
                continue
            knock = answer.endswith("k") and answer[:-1].strip().isdigit()
            number = answer[:-1].strip() if knock else answer
            if number.isdigit():
                index = int(number)
                if not 1 <= index <= len(shown):
                    self.console.print(Text(f"There is no move {index}.", style="red"))
                    continue
                action = shown[index - 1]
                if knock:
                    if (action.kind, action.give, action.take) not in closing:
                        self.console.print(
                            Text("You cannot knock after that move now.", style="red")
                        )
                        continue
                    action = Action(action.kind, action.give, action.take, True)
                return action
            try:
                action = parse_text(answer)
            except ActionSyntaxError as exc:
                self.console.print(Text(f"Not a move: {exc}", style="red"))
                continue
            problem = self.match.why_illegal(action, self.me)
            if problem is not None:
                self.console.print(
                    Text(f"Not allowed: {DESCRIPTION[problem]} ({problem.value}).", style="red")
                )
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
) -> int:
    try:
        game = Game(ruleset, players, seat, seed, bot, console, read)
    except SetupError as exc:
        console.print(Text(str(exc), style="red"))
        return 2
    try:
        return game.play()
    except IllegalAction as exc:  # a bot's move refused: a bug worth reporting loudly
        console.print(Text(f"internal error: {exc}", style="bold red"))
        return 3
