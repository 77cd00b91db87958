"""The enumerated values of the rule parameters, as Python enums for the engine.

Each enum mirrors the ``choices`` of one parameter in :mod:`schwimmen.spec.parameters`;
the registry checks at import time that the two agree, so they cannot drift apart.
"""

from __future__ import annotations

from enum import StrEnum


class DealProcedure(StrEnum):
    MIDDLE_CARD_EACH_ROUND = "middle-card-each-round"
    EXTRA_HAND_BLIND_CHOICE = "extra-hand-blind-choice"
    TWO_PACKETS_LOOK_AT_ONE = "two-packets-look-at-one"
    HANDS_THEN_MIDDLE = "hands-then-middle"
    HANDS_THEN_UPCARD = "hands-then-upcard"


class RestOfPack(StrEnum):
    STOCK = "stock"
    SET_ASIDE = "set-aside"


class MiddleVisibility(StrEnum):
    OPEN = "open"
    HIDDEN_UNTIL_FIRST_SWAP = "hidden-until-first-swap"


class FirstPlayer(StrEnum):
    LEFT_OF_DEALER = "left-of-dealer"


class Direction(StrEnum):
    CLOCKWISE = "clockwise"


class MoveKind(StrEnum):
    SWAP_WITH_MIDDLE = "swap-with-middle"
    DRAW_AND_DISCARD = "draw-and-discard"


class Swap(StrEnum):
    ONE = "one"
    ALL = "all"


class Passing(StrEnum):
    FREE = "free"
    FORBIDDEN = "forbidden"
    ONCE_PER_DEAL = "once-per-deal"
    THEN_MUST_SWAP = "then-must-swap"


class Rediscard(StrEnum):
    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class StockExhausted(StrEnum):
    TURN_DISCARD_PILE = "turn-discard-pile"


class Replacement(StrEnum):
    FROM_STOCK = "from-stock"
    NONE = "none"


class OldMiddle(StrEnum):
    OUT_OF_PLAY = "out-of-play"
    UNDER_STOCK = "under-stock"


class NoReplacement(StrEnum):
    SHOWDOWN = "showdown"
    PLAY_ON = "play-on"


class KnockForm(StrEnum):
    CLOSE_BY_PASSING = "close-by-passing"
    INSTEAD_OF_MOVE = "instead-of-move"
    AFTER_MOVE = "after-move"


class KnockRequires(StrEnum):
    NOTHING = "nothing"
    MAXIMUM = "maximum"


class KnockFirstTurn(StrEnum):
    ALLOWED = "allowed"
    NOT_ON_FIRST_TURN_OF_DEAL = "not-on-first-turn-of-deal"
    NOT_IN_FIRST_CYCLE = "not-in-first-cycle"


class KnocksPerRound(StrEnum):
    ONE = "one"
    ONE_PER_PLAYER = "one-per-player"


class AfterKnock(StrEnum):
    LAST_CYCLE = "last-cycle"
    PLAY_UNTIL_TWO_OPEN = "play-until-two-open"
    PLAY_UNTIL_ONE_OPEN = "play-until-one-open"


class LastCycle(StrEnum):
    EVERY_OTHER_PLAYER = "every-other-player"
    UNTIL_DEALER = "until-dealer"


class AtDeal(StrEnum):
    MUST_SHOW = "must-show"
    MAY_SHOW = "may-show"
    NO_EFFECT = "no-effect"
    ON_OWN_MOVE = "on-own-move"


class InPlay(StrEnum):
    MUST_SHOW = "must-show"
    NO_EFFECT = "no-effect"


class MaximumHands(StrEnum):
    ANY = "any"
    ACE_WITH_KING_OR_QUEEN = "ace-with-king-or-queen"


class PenaltyKind(StrEnum):
    SHOWDOWN = "showdown"
    ALL_OTHERS = "all-others"
    ALL_WITHOUT_SPECIAL = "all-without-special"


class TripleOrder(StrEnum):
    BY_RANK = "by-rank"
    EQUAL = "equal"


class AcesKind(StrEnum):
    ORDINARY = "ordinary"
    COUNTS_AS_MAXIMUM = "counts-as-maximum"
    FIXED_POINTS = "fixed-points"
    FEUER = "feuer"
    PUNISHES_ALL_WITHOUT_SPECIAL = "punishes-all-without-special"


class AcesAtDeal(StrEnum):
    MUST_SHOW = "must-show"
    ON_OWN_MOVE = "on-own-move"


class SevensKind(StrEnum):
    ORDINARY = "ordinary"
    FEUER_LIGHT = "feuer-light"


class ProtectingHand(StrEnum):
    THREE_SIXES = "three-sixes"
    SIX_SEVEN_EIGHT_SUITED = "six-seven-eight-suited"


class ProtectionEffect(StrEnum):
    PASSES_TO_NEXT_LOWEST = "passes-to-next-lowest"
    EXEMPTS_HOLDER = "exempts-holder"


class Washout(StrEnum):
    NONE = "none"
    SAME_SUIT_MIDDLE = "same-suit-middle"


class CardByCard(StrEnum):
    NONE = "none"
    COUNTING_CARDS = "counting-cards"
    ALL_CARDS = "all-cards"


class TiedLowest(StrEnum):
    ALL_LOSE = "all-lose"
    LAST_TO_REACH_LOSES = "last-to-reach-loses"


class CompleteTie(StrEnum):
    ALL_LOSE = "all-lose"
    NOBODY_LOSES = "nobody-loses"


class KnockerTied(StrEnum):
    KNOCKER_PENALTY = "knocker-penalty"
    ORDINARY = "ordinary"


class Counting(StrEnum):
    TOKENS_DOWN = "tokens-down"
    STICKS_UP = "sticks-up"


class AfterLast(StrEnum):
    SWIM = "swim"
    OUT = "out"


class MultiLoss(StrEnum):
    ONE_AT_A_TIME = "one-at-a-time"
    STOP_AT_SWIMMING = "stop-at-swimming"


class DealerRotation(StrEnum):
    CLOCKWISE = "clockwise"
    LOSER = "loser"


class EveryoneOut(StrEnum):
    REPLAY_ROUND = "replay-round"
    SHARED_WIN = "shared-win"
    NO_WINNER = "no-winner"


class Series(StrEnum):
    SINGLE_MATCH = "single-match"
    POINT_AND_NEW_MATCH = "point-and-new-match"
