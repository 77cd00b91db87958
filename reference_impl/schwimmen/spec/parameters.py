"""The rule parameters: every behaviour in which the sources differ, as one registry.

This registry is the single definition of the rule dimensions (rules-matrix §2). The
JSON Schema in ``schemas/ruleset.schema.json`` is generated from it, the loader checks
applicability and completeness with it, the CLI groups its output by it and the
documentation site describes every parameter from it. A parameter's value is plain
data (an enum string, a number, a list or a small object); its provenance lives beside
it in the ruleset file.

Some parameters only make sense under others (a draw pile rule in a game with a
middle, the penalty of a Feuer in a ruleset without one). ``applies_when`` states that,
so a ruleset file sets exactly the parameters that apply to it and a house rule that
sets one that does not apply to its base is rejected with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: tuple[str, ...] = ("C", "S", "H", "D")
SUIT_NAMES_DE: Mapping[str, str] = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}


@dataclass(frozen=True)
class Condition:
    """``param`` must (``in``) or must not (``not_in``) take one of ``values``."""

    param: str
    values: tuple[Any, ...]
    negate: bool = False

    def holds(self, value: Any) -> bool:
        inside = any(_same(value, v) for v in self.values)
        return inside != self.negate

    def describe(self) -> str:
        return f"{self.param} {self.relation()} {self.shown()}"

    def relation(self) -> str:
        """``is``, ``is not``, ``is one of`` or ``is not one of``, in English (the site's
        German pages look the same words up by :meth:`relation_key`)."""
        word = "is not" if self.negate else "is"
        return word + " one of" if len(self.values) > 1 else word

    def relation_key(self) -> str:
        if len(self.values) > 1:
            return "is-none-of" if self.negate else "is-one-of"
        return "is-not" if self.negate else "is"

    def shown(self) -> str:
        return ", ".join(_show(v) for v in self.values)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        # a list as read from JSON or YAML, a tuple once frozen by the loader
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(type(a) is type(b) and a == b) or (
        isinstance(a, int | float) and isinstance(b, int | float) and a == b
    )


def _show(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value) if not isinstance(value, str) else value


def when(param: str, *values: Any) -> Condition:
    return Condition(param, tuple(values))


def unless(param: str, *values: Any) -> Condition:
    return Condition(param, tuple(values), negate=True)


@dataclass(frozen=True)
class Parameter:
    path: str
    title: str
    description: str
    schema: Mapping[str, Any]
    applies_when: tuple[Condition, ...] = ()
    choices: Mapping[str, str] = field(default_factory=dict)
    matrix: str = ""

    @property
    def group(self) -> str:
        return self.path.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.path.split(".", 1)[1]


def _enum(choices: Mapping[str, str]) -> dict[str, Any]:
    return {"enum": list(choices)}


RANK_SCHEMA: dict[str, Any] = {"$ref": "#/$defs/rank"}
SUIT_SCHEMA: dict[str, Any] = {"$ref": "#/$defs/suit"}
POINTS_SCHEMA: dict[str, Any] = {"$ref": "#/$defs/points"}
PENALTY_SCHEMA: dict[str, Any] = {"$ref": "#/$defs/penalty"}

MIDDLE_GAME = when("turns.move", "swap-with-middle")
DRAW_GAME = when("turns.move", "draw-and-discard")

GROUPS: Mapping[str, str] = {
    "players": "Players",
    "cards": "Cards",
    "dealing": "Dealing",
    "turns": "A turn",
    "draw": "Drawing and discarding",
    "all_pass": "When everybody passes",
    "knocking": "Knocking and closing",
    "maximum": "31 (the maximum hand)",
    "triples": "Triples",
    "three_aces": "Three aces (Feuer)",
    "three_sevens": "Three sevens (Feuer light)",
    "protection": "Protecting hands",
    "washout": "Washing out the middle",
    "comparison": "Comparing hands",
    "penalties": "Who loses lives",
    "lives": "Lives and swimming",
    "match": "The match",
}

_PARAMETERS: tuple[Parameter, ...] = (
    # ------------------------------------------------------------------ players
    Parameter(
        "players.range",
        "Number of players",
        "The smallest and the largest number of players the ruleset allows at the start of a "
        "match.",
        {
            "type": "object",
            "properties": {
                "min": {"type": "integer", "minimum": 2, "maximum": 12},
                "max": {"type": "integer", "minimum": 2, "maximum": 12},
            },
            "required": ["min", "max"],
            "additionalProperties": False,
        },
        matrix="2.1",
    ),
    # ------------------------------------------------------------------ cards
    Parameter(
        "cards.ranks",
        "Ranks in the pack",
        "The ranks of the pack, from the lowest to the highest. The order is the rank order used "
        "wherever cards are compared one by one and wherever triples are ordered.",
        {
            "type": "array",
            "items": RANK_SCHEMA,
            "minItems": 3,
            "uniqueItems": True,
        },
        matrix="2.2",
    ),
    Parameter(
        "cards.suits",
        "Suits in the pack",
        "The suits of the pack: C Kreuz (clubs), S Pik (spades), H Herz (hearts), "
        "D Karo (diamonds).",
        {"type": "array", "items": SUIT_SCHEMA, "minItems": 1, "uniqueItems": True},
        matrix="2.2",
    ),
    Parameter(
        "cards.values",
        "Card points",
        "The points each rank counts towards a suit total.",
        {
            "type": "object",
            "propertyNames": RANK_SCHEMA,
            "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 20},
            "minProperties": 1,
        },
        matrix="2.3",
    ),
    Parameter(
        "cards.hand_size",
        "Cards in a hand",
        "How many cards each player holds.",
        {"enum": [3, 4]},
        matrix="2.4",
    ),
    Parameter(
        "cards.middle_size",
        "Cards in the middle",
        "How many cards lie in the middle to swap against. A swap of all cards exchanges the whole "
        "hand for the whole middle, so the middle is as large as a hand.",
        {"enum": [3, 4]},
        applies_when=(MIDDLE_GAME,),
        matrix="2.4",
    ),
    # ------------------------------------------------------------------ dealing
    Parameter(
        "dealing.procedure",
        "How the cards are dealt",
        "The dealing procedure. Every procedure deals one card at a time clockwise from the "
        "dealer's left with the dealer last (rules-matrix U32, F46), so a stacked pack gives one "
        "exact deal.",
        {},
        choices={
            "middle-card-each-round": "In each round of dealing every other player gets a card, "
            "then one card goes face up to the middle, then the dealer gets his card.",
            "extra-hand-blind-choice": "Every player and an extra hand get their cards (the extra "
            "hand after the dealer in each round). The dealer looks at his own hand only and keeps "
            "it or takes the unseen extra hand; the hand he does not want goes face up to the "
            "middle.",
            "two-packets-look-at-one": "The other players get their cards, then the dealer lays "
            "two packets for himself. He looks at one packet and keeps it or lays it face up in "
            "the middle and takes the other.",
            "hands-then-middle": "Every player gets his cards, then the middle cards are laid out.",
            "hands-then-upcard": "Every player gets his cards, then one card is turned up to start "
            "the discard pile; the rest is the stock.",
        },
        matrix="2.5",
    ),
    Parameter(
        "dealing.rest_of_pack",
        "The rest of the pack",
        "What happens to the cards left over after the deal.",
        {},
        applies_when=(MIDDLE_GAME,),
        choices={
            "stock": "They form a face-down stock from which the middle is replaced.",
            "set-aside": "They are set aside for the round; the middle can never be replaced.",
        },
        matrix="2.5, 2.10",
    ),
    Parameter(
        "dealing.middle_visibility",
        "Middle open or hidden",
        "Whether the middle cards lie face up from the deal.",
        {},
        applies_when=(MIDDLE_GAME,),
        choices={
            "open": "The middle lies face up from the deal.",
            "hidden-until-first-swap": "The middle is dealt face down and turned up when the first "
            "player declares a swap; that player must then complete a swap (U11).",
        },
        matrix="2.6",
    ),
    # ------------------------------------------------------------------ turns
    Parameter(
        "turns.first_player",
        "Who starts",
        "Who makes the first move of a round.",
        {},
        choices={"left-of-dealer": "The player to the dealer's left."},
        matrix="2.7",
    ),
    Parameter(
        "turns.direction",
        "Direction of play",
        "The direction in which turns, the deal and the dealer move.",
        {},
        choices={"clockwise": "Clockwise, that is to the left."},
        matrix="2.7",
    ),
    Parameter(
        "turns.move",
        "Kind of move",
        "What an ordinary move consists of.",
        {},
        choices={
            "swap-with-middle": "Exchange cards with the open middle (Schwimmen proper).",
            "draw-and-discard": "Draw the top card of the stock or of the discard pile, then "
            "discard one card (Scat, Blitz).",
        },
        matrix="2.8, 2.30",
    ),
    Parameter(
        "turns.swaps",
        "Swaps allowed",
        "Which exchanges with the middle a move may be. A two-card swap is never a move.",
        {
            "type": "array",
            "items": {"enum": ["one", "all"]},
            "uniqueItems": True,
            "minItems": 1,
        },
        applies_when=(MIDDLE_GAME,),
        choices={
            "one": "One hand card for one middle card.",
            "all": "The whole hand for the whole middle.",
        },
        matrix="2.8",
    ),
    Parameter(
        "turns.passing",
        "Passing (schieben)",
        "Whether a player may pass instead of swapping, and what limits passing.",
        {},
        applies_when=(MIDDLE_GAME,),
        choices={
            "free": "A player may pass on any turn.",
            "forbidden": "Passing is never allowed: every move swaps (or closes).",
            "once-per-deal": "Each player may pass only once in a deal (U35).",
            "then-must-swap": "A player who passes must swap one or all cards on his next turn in "
            "the same deal (U35); while obliged he may not close (U36).",
        },
        matrix="2.8, 2.9",
    ),
    # ------------------------------------------------------------------ draw
    Parameter(
        "draw.rediscard",
        "Discarding the card just taken",
        "Whether a player who took the top discard may throw that same card away again (U39).",
        {},
        applies_when=(DRAW_GAME,),
        choices={
            "allowed": "He may discard it again.",
            "forbidden": "He must discard another card.",
        },
        matrix="2.30",
    ),
    Parameter(
        "draw.stock_exhausted",
        "Empty stock",
        "What happens when a player wants to draw from an empty stock (U38).",
        {},
        applies_when=(DRAW_GAME,),
        choices={
            "turn-discard-pile": "The discard pile except its top card is turned face down, "
            "unshuffled, as the new stock; if that leaves no card to draw, the round ends with a "
            "showdown without knocker.",
        },
        matrix="2.30",
    ),
    # ------------------------------------------------------------------ all pass
    Parameter(
        "all_pass.replacement",
        "Middle replaced after a round of passes",
        "What happens when every active player has passed in one unbroken round of turns.",
        {},
        applies_when=(MIDDLE_GAME,),
        choices={
            "from-stock": "The middle is replaced by as many new cards from the stock.",
            "none": "Nothing is replaced.",
        },
        matrix="2.10",
    ),
    Parameter(
        "all_pass.old_middle",
        "Where the replaced middle goes",
        "What happens to the middle cards that are replaced (U01).",
        {},
        applies_when=(MIDDLE_GAME, when("all_pass.replacement", "from-stock")),
        choices={
            "out-of-play": "They leave play face down.",
            "under-stock": "They go face down under the stock.",
        },
        matrix="2.10",
    ),
    Parameter(
        "all_pass.no_replacement",
        "Everybody passed and nothing can be replaced",
        "What happens when every active player has passed in a row and the middle is not "
        "replaced (no replacement rule, the rest of the pack set aside, or too few stock cards) "
        "(U03).",
        {},
        applies_when=(MIDDLE_GAME,),
        choices={
            "showdown": "The round ends at once with a showdown that has no knocker.",
            "play-on": "Play goes on; the passing rule must make sure that it cannot go on "
            "forever.",
        },
        matrix="2.10",
    ),
    # ------------------------------------------------------------------ knocking
    Parameter(
        "knocking.form",
        "How a player knocks or closes",
        "When in a turn a player may knock (klopfen) or close (schließen).",
        {},
        choices={
            "close-by-passing": "Closing is passing at one's own turn: it counts as a pass, so "
            "every limit on passing applies to it.",
            "instead-of-move": "A knock replaces the whole move; it is not a pass.",
            "after-move": "A player closes at the end of his move, after a swap or after a pass.",
        },
        matrix="2.11",
    ),
    Parameter(
        "knocking.requires",
        "What a knock requires",
        "What a player must hold to knock or close.",
        {},
        choices={
            "nothing": "Anybody may knock (no minimum score, U50).",
            "maximum": "Only a player holding the maximum (31) may close, announcing the last "
            "round.",
        },
        matrix="2.11",
    ),
    Parameter(
        "knocking.first_turn",
        "Knocking on the first turn",
        "Whether the first turns of a round may be a knock (U05).",
        {},
        choices={
            "allowed": "Yes.",
            "not-on-first-turn-of-deal": "Not on the round's very first turn; every later turn "
            "may.",
            "not-in-first-cycle": "Not before every player of the round has made a move: "
            "nobody knocks in the whole first cycle of turns, each player's own first turn "
            "included.",
        },
        matrix="2.12",
    ),
    Parameter(
        "knocking.per_round",
        "How many players may close",
        "How many knocks or closes a round may have.",
        {},
        choices={
            "one": "Only one player knocks per round; nobody knocks in the last cycle (U04).",
            "one-per-player": "Every player may close for himself once (Dutch).",
        },
        matrix="2.12",
    ),
    Parameter(
        "knocking.then",
        "What a knock starts",
        "What happens after a knock or close.",
        {},
        choices={
            "last-cycle": "Every other active player has one more turn, then all hands are shown.",
            "play-until-two-open": "The closer stops playing; the others play on until at most two "
            "players have not closed, then all hands are shown (U21).",
            "play-until-one-open": "The closer stops playing; the others play on, the last two "
            "as well, until only one player has not closed, then all hands are shown (U21's "
            "option: the last two play on until one of them closes).",
        },
        matrix="2.12",
    ),
    Parameter(
        "knocking.last_cycle",
        "Who plays in the last cycle",
        "Which players get a last turn after a knock.",
        {},
        applies_when=(when("knocking.then", "last-cycle"),),
        choices={
            "every-other-player": "Every other active player once, in seat order from the "
            "knocker's left to his right, including players who already moved in this round of "
            "turns (U04).",
            "until-dealer": "Only the players after the knocker up to and including the dealer.",
        },
        matrix="2.12",
    ),
    # ------------------------------------------------------------------ maximum (31)
    Parameter(
        "maximum.points",
        "The maximum",
        "The highest suit total a hand can reach: an ace and ten-point cards of one suit "
        "(31 with three cards, 41 with four). A hand that counts exactly this much is a 'maximum "
        "hand' for the rules of this group.",
        {"type": "integer", "minimum": 1, "maximum": 60},
        matrix="2.13, 2.29",
    ),
    Parameter(
        "maximum.hands",
        "Which hands are a 31",
        "Which hands that reach the maximum count as a maximum hand (a '31') for the rules of "
        "this group: shown at once, ending the round, exempting from a penalty, closing with "
        "31 (U12). A hand that is not one still counts its points.",
        {},
        choices={
            "any": "Every hand whose best suit reaches the maximum: an ace and ten-point cards "
            "of its suit.",
            "ace-with-king-or-queen": "Only an ace with a king or a queen and one more "
            "ten-point card of its suit; ace, jack and ten count 31 points but are no 31 hand.",
        },
        matrix="2.13, 2.15",
    ),
    Parameter(
        "maximum.at_deal",
        "31 straight after the deal",
        "What a maximum hand held straight after the deal does (U09).",
        {},
        choices={
            "must-show": "It must be shown at once and ends the round before any move.",
            "may-show": "Its holder may show it at once, which ends the round; if he does not, he "
            "cannot show it later (U10).",
            "no-effect": "Nothing: play goes on.",
            "on-own-move": "Nothing at the deal nor at the dealer's choice: it takes effect when "
            "its holder still holds it after his own move (his swap, his pass or his knock on "
            "his turn), as a 31 reached by a move does (maximum.in_play).",
        },
        matrix="2.13",
    ),
    Parameter(
        "maximum.in_play",
        "31 reached during play",
        "What a maximum hand reached by a move does.",
        {},
        choices={
            "must-show": "It must be shown at once and ends the round, also inside the last cycle.",
            "no-effect": "Nothing: play goes on; the holder may knock.",
        },
        matrix="2.13",
    ),
    Parameter(
        "maximum.penalty_at_deal",
        "Who loses after a 31 at the deal",
        "Who loses lives when a round ends on a maximum shown at the deal.",
        PENALTY_SCHEMA,
        applies_when=(unless("maximum.at_deal", "no-effect", "on-own-move"),),
        matrix="2.14",
    ),
    Parameter(
        "maximum.penalty_in_play",
        "Who loses after a 31 in play",
        "Who loses lives when a round ends on a maximum reached during play.",
        PENALTY_SCHEMA,
        applies_when=(unless("maximum.in_play", "no-effect"),),
        matrix="2.14",
    ),
    # ------------------------------------------------------------------ triples
    Parameter(
        "triples.points",
        "Value of a triple",
        "What three cards of one rank (Drilling) count, whatever their suits; 'none' when a "
        "triple counts only its best suit. In four-card hands a triple is three or four cards "
        "of one rank among the four.",
        {
            "anyOf": [{"const": "none"}, POINTS_SCHEMA],
            "x-messages": {"anyOf": "must be 'none' or points in steps of one half (30.5)"},
        },
        matrix="2.16",
    ),
    Parameter(
        "triples.ranks",
        "Which triples count",
        "Which ranks make a triple that counts the triple value; 'all' for every rank.",
        {
            "anyOf": [
                {"const": "all"},
                {"type": "array", "items": RANK_SCHEMA, "minItems": 1, "uniqueItems": True},
            ],
            "x-messages": {"anyOf": "must be 'all' or a list of ranks such as ['J', 'Q', 'K']"},
        },
        applies_when=(unless("triples.points", "none"),),
        matrix="2.16",
    ),
    Parameter(
        "triples.order",
        "Order among triples",
        "Whether a higher triple beats a lower one of the same value.",
        {},
        applies_when=(unless("triples.points", "none"),),
        choices={
            "by-rank": "A triple of higher rank beats a lower one (rank order of cards.ranks).",
            "equal": "All triples are equal.",
        },
        matrix="2.20",
    ),
    # ------------------------------------------------------------------ three aces
    Parameter(
        "three_aces.kind",
        "What three aces are",
        "What a hand of three aces means (in four-card hands: three or four aces among the "
        "four cards).",
        {},
        choices={
            "ordinary": "Nothing special: it counts as a triple (if triples of aces count) or its "
            "best suit.",
            "counts-as-maximum": "It counts as the maximum (31) and is treated exactly like one.",
            "fixed-points": "It counts the points of three_aces.points at the showdown and has no "
            "other effect.",
            "feuer": "Feuer: shown at once when completed by a move, and at the deal as "
            "three_aces.at_deal says (U13), it ends the round and its own penalty applies.",
            "punishes-all-without-special": "At the showdown every player without a special hand "
            "loses, instead of the lowest (Tri Palki).",
        },
        matrix="2.17",
    ),
    Parameter(
        "three_aces.points",
        "Points of three aces",
        "The points three aces count or are shown with; 'none' when the source gives Feuer no "
        "number (it wins the round outright).",
        {
            "anyOf": [{"const": "none"}, POINTS_SCHEMA],
            "x-messages": {"anyOf": "must be 'none' or points in steps of one half (32)"},
        },
        applies_when=(when("three_aces.kind", "fixed-points", "feuer"),),
        matrix="2.17",
    ),
    Parameter(
        "three_aces.at_deal",
        "Feuer straight after the deal",
        "What Feuer held straight after the deal, or taken with the dealer's choice, does.",
        {},
        applies_when=(when("three_aces.kind", "feuer"),),
        choices={
            "must-show": "It is shown at once and ends the round before any move (U13); "
            "three_aces.penalty_at_deal says who loses.",
            "on-own-move": "Nothing at the deal nor at the dealer's choice: it takes effect when "
            "its holder still holds it after his own move (his swap, his pass or his knock on "
            "his turn), as Feuer completed by a move does (three_aces.penalty).",
        },
        matrix="2.17",
    ),
    Parameter(
        "three_aces.penalty",
        "Who loses after Feuer",
        "Who loses lives when Feuer ends a round during play.",
        PENALTY_SCHEMA,
        applies_when=(when("three_aces.kind", "feuer"),),
        matrix="2.23",
    ),
    Parameter(
        "three_aces.penalty_at_deal",
        "Who loses after Feuer at the deal",
        "Who loses lives when Feuer is held straight after the deal.",
        PENALTY_SCHEMA,
        applies_when=(when("three_aces.kind", "feuer"), when("three_aces.at_deal", "must-show")),
        matrix="2.23",
    ),
    # ------------------------------------------------------------------ three sevens
    Parameter(
        "three_sevens.kind",
        "What three sevens are",
        "What a hand of three sevens means.",
        {},
        choices={
            "ordinary": "Nothing special: a triple (if triples of sevens count) or its best suit.",
            "feuer-light": "Feuer light: like Feuer it ends the round at once, ranked below real "
            "Feuer when both are held (U14).",
        },
        matrix="2.18",
    ),
    Parameter(
        "three_sevens.penalty",
        "Who loses after Feuer light",
        "Who loses lives when Feuer light ends a round.",
        PENALTY_SCHEMA,
        applies_when=(when("three_sevens.kind", "feuer-light"),),
        matrix="2.18",
    ),
    # ------------------------------------------------------------------ protection
    Parameter(
        "protection.hands",
        "Hands that protect",
        "Hands whose holder cannot lose at the showdown; protection.effect says who loses instead.",
        {
            "type": "array",
            "items": {"enum": ["three-sixes", "six-seven-eight-suited"]},
            "uniqueItems": True,
        },
        choices={
            "three-sixes": "Three sixes.",
            "six-seven-eight-suited": "Six, seven and eight of one suit.",
        },
        matrix="2.19",
    ),
    Parameter(
        "protection.effect",
        "What protection does",
        "Who loses at a showdown when the lowest hand is protected.",
        {},
        applies_when=(unless("protection.hands", ()),),
        choices={
            "passes-to-next-lowest": "The protected player does not lose; the lowest player "
            "without protection loses in his place (U19).",
            "exempts-holder": "The protected player does not lose, and nobody loses in his "
            "place; players without protection tied with him for lowest still lose.",
        },
        matrix="2.19",
    ),
    # ------------------------------------------------------------------ washout
    Parameter(
        "washout.rule",
        "Washing out",
        "Whether a middle of one suit is washed out (U20).",
        {},
        applies_when=(MIDDLE_GAME,),
        choices={
            "none": "The middle stays as it is.",
            "same-suit-middle": "Whenever the middle consists of cards of one suit they leave play "
            "and new ones are turned up from the stock (again if needed); after a move the mover "
            "moves again at once.",
        },
        matrix="2.28",
    ),
    # ------------------------------------------------------------------ comparison
    Parameter(
        "comparison.suit_order",
        "Suit order for ties",
        "Equal values in different suits are decided by this order, highest first; 'none' when "
        "suits never decide. A hand whose best value is reached in two suits counts in the "
        "higher one (U18).",
        {
            "anyOf": [
                {"const": "none"},
                {"type": "array", "items": SUIT_SCHEMA, "minItems": 2, "uniqueItems": True},
            ],
            "x-messages": {
                "anyOf": "must be 'none' or a list of suits, highest first: [C, S, H, D]"
            },
        },
        matrix="2.20",
    ),
    Parameter(
        "comparison.card_by_card",
        "Card-by-card comparison",
        "Whether equal values are compared card by card, highest card first (U19).",
        {},
        choices={
            "none": "No.",
            "counting-cards": "Yes, the cards that count towards the value, in rank order.",
            "all-cards": "Yes, all cards of the hand, in rank order.",
        },
        matrix="2.20",
    ),
    # ------------------------------------------------------------------ penalties
    Parameter(
        "penalties.lowest",
        "Lives lost by the lowest",
        "How many lives the player with the lowest hand loses at a showdown.",
        {"type": "integer", "minimum": 1, "maximum": 5},
        matrix="2.21",
    ),
    Parameter(
        "penalties.tied_lowest",
        "Ties for lowest",
        "Who loses when several players share the lowest hand.",
        {},
        choices={
            "all-lose": "Every one of them loses.",
            "last-to-reach-loses": "Only the one who reached his hand last (U48); if several "
            "reached it at the same time, all of them.",
        },
        matrix="2.21",
    ),
    Parameter(
        "penalties.complete_tie",
        "Complete tie",
        "What happens when every active player's hand has the same value (U47).",
        {},
        choices={
            "all-lose": "Everybody loses, as in any tie for lowest.",
            "nobody-loses": "Nobody loses.",
        },
        matrix="2.21",
    ),
    Parameter(
        "penalties.knocker_lowest",
        "Knocker who ends lowest",
        "How many lives a knocker loses when his hand is the lowest at a normal showdown "
        "(penalties.knocker_tied says what a tie for lowest costs him). Not applied when Feuer "
        "or a 31 ended the round (U26).",
        {"type": "integer", "minimum": 1, "maximum": 5},
        matrix="2.22",
    ),
    Parameter(
        "penalties.knocker_tied",
        "Knocker tied for lowest",
        "What a knocker loses when other players share his lowest hand at a normal showdown "
        "(U23); it matters only where penalties.knocker_lowest differs from penalties.lowest.",
        {},
        choices={
            "knocker-penalty": "He loses penalties.knocker_lowest, the others tied with him the "
            "ordinary amount (U23).",
            "ordinary": "He loses the ordinary amount like the others tied with him; the "
            "knocker's penalty applies only when he alone is lowest.",
        },
        matrix="2.22",
    ),
    # ------------------------------------------------------------------ lives
    Parameter(
        "lives.count",
        "Lives",
        "How many lives (tokens, sticks still to receive, pips on the die) each player starts "
        "with.",
        {"type": "integer", "minimum": 1, "maximum": 12},
        matrix="2.24",
    ),
    Parameter(
        "lives.counting",
        "Counting device",
        "How losses are recorded; the rules are the same either way.",
        {},
        choices={
            "tokens-down": "Each player gives up a token (Marke, match, coin) per life lost.",
            "sticks-up": "Each loser receives a stick (Stock); counting up to the limit.",
        },
        matrix="2.24",
    ),
    Parameter(
        "lives.after_last",
        "After the last life",
        "What happens to a player who has lost his last life.",
        {},
        choices={
            "swim": "He swims (schwimmt): he plays on and is out on his next loss.",
            "out": "He is out at once.",
        },
        matrix="2.25",
    ),
    Parameter(
        "lives.multi_loss",
        "Losing several lives at once",
        "How a loss of two or more lives in one round is applied (U24).",
        {},
        choices={
            "one-at-a-time": "Lives go one at a time; a life lost while swimming eliminates.",
            "stop-at-swimming": "One round can at most send a player swimming.",
        },
        matrix="2.25",
    ),
    # ------------------------------------------------------------------ match
    Parameter(
        "match.dealer_rotation",
        "Next dealer",
        "Who deals the next round (U31).",
        {},
        choices={
            "clockwise": "The next active player to the left of the dealer, after every round, "
            "also after a replayed round.",
            "loser": "The player who lost lives in the round deals the next; when several lost, "
            "the first of them clockwise from the dealer's left; when he is out of the match, "
            "the next active player clockwise from him. After a round in which nobody lost (a "
            "replayed round), the deal passes on clockwise.",
        },
        matrix="2.26",
    ),
    Parameter(
        "match.everyone_out",
        "When a round would put out everybody left",
        "What happens when a showdown would eliminate every remaining player (U27, U46).",
        {},
        choices={
            "replay-round": "Nobody loses; the round is replayed with the next dealer.",
            "shared-win": "Nobody loses and the remaining players share the win.",
            "no-winner": "The losses are applied: everybody left goes out, the match is over "
            "and nobody wins it.",
        },
        matrix="2.27",
    ),
    Parameter(
        "match.series",
        "After the match",
        "What follows the end of a match (U34).",
        {},
        choices={
            "single-match": "The last player left wins; nothing else is scored.",
            "point-and-new-match": "The winner gets one overall point and a new match restores "
            "every player's lives, the eliminated included; the overall score is kept.",
        },
        matrix="2.27",
    ),
)


def _finish(param: Parameter) -> Parameter:
    if param.choices and not param.schema:
        return Parameter(
            param.path,
            param.title,
            param.description,
            _enum(param.choices),
            param.applies_when,
            param.choices,
            param.matrix,
        )
    return param


PARAMETERS: tuple[Parameter, ...] = tuple(_finish(p) for p in _PARAMETERS)
BY_PATH: Mapping[str, Parameter] = {p.path: p for p in PARAMETERS}


def applicable(param: Parameter, values: Mapping[str, Any]) -> Condition | None:
    """Return the first condition of ``param`` that ``values`` violate, else None.

    A condition on a parameter that is itself missing or inapplicable counts as
    violated, so an inapplicable chain never demands a value.
    """
    for cond in param.applies_when:
        if cond.param not in values or not cond.holds(values[cond.param]):
            return cond
    return None


def _enum_table() -> Mapping[str, type[Any]]:
    from schwimmen.spec import vocabulary as v

    return {
        "dealing.procedure": v.DealProcedure,
        "dealing.rest_of_pack": v.RestOfPack,
        "dealing.middle_visibility": v.MiddleVisibility,
        "turns.first_player": v.FirstPlayer,
        "turns.direction": v.Direction,
        "turns.move": v.MoveKind,
        "turns.swaps": v.Swap,
        "turns.passing": v.Passing,
        "draw.rediscard": v.Rediscard,
        "draw.stock_exhausted": v.StockExhausted,
        "all_pass.replacement": v.Replacement,
        "all_pass.old_middle": v.OldMiddle,
        "all_pass.no_replacement": v.NoReplacement,
        "knocking.form": v.KnockForm,
        "knocking.requires": v.KnockRequires,
        "knocking.first_turn": v.KnockFirstTurn,
        "knocking.per_round": v.KnocksPerRound,
        "knocking.then": v.AfterKnock,
        "knocking.last_cycle": v.LastCycle,
        "maximum.hands": v.MaximumHands,
        "maximum.at_deal": v.AtDeal,
        "maximum.in_play": v.InPlay,
        "triples.order": v.TripleOrder,
        "three_aces.kind": v.AcesKind,
        "three_aces.at_deal": v.AcesAtDeal,
        "three_sevens.kind": v.SevensKind,
        "protection.hands": v.ProtectingHand,
        "protection.effect": v.ProtectionEffect,
        "washout.rule": v.Washout,
        "comparison.card_by_card": v.CardByCard,
        "penalties.tied_lowest": v.TiedLowest,
        "penalties.complete_tie": v.CompleteTie,
        "penalties.knocker_tied": v.KnockerTied,
        "lives.counting": v.Counting,
        "lives.after_last": v.AfterLast,
        "lives.multi_loss": v.MultiLoss,
        "match.dealer_rotation": v.DealerRotation,
        "match.everyone_out": v.EveryoneOut,
        "match.series": v.Series,
    }


ENUM_OF: Mapping[str, type[Any]] = _enum_table()

for _path, _enum_cls in ENUM_OF.items():
    if set(BY_PATH[_path].choices) != {member.value for member in _enum_cls}:
        raise RuntimeError(f"choices of {_path} and {_enum_cls.__name__} disagree")
