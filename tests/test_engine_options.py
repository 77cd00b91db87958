"""The rules that engines in the wild play and no source of ours reports, each against the
value it replaces: the loser deals (match.dealer_rotation ``loser``), nobody wins when the
last players go out together (match.everyone_out ``no-winner``), and dealt Feuer or 31
acting only on its holder's own move (three_aces.at_deal / maximum.at_deal
``on-own-move``). Each test sets up a position where the two values part, and expects what
the rule's wording in the parameter registry says; the compiled rounds are held to the full
engine on deals that put the special hand in a player's hand."""

from __future__ import annotations

import random
from functools import cache

import pytest

from schwimmen.engine.compiled import compile_round
from schwimmen.engine.dealing import deal_pattern
from schwimmen.engine.hands import evaluator_for
from schwimmen.engine.invariants import check_compiled_round
from schwimmen.engine.match import Match, Position
from schwimmen.engine.rotation import next_dealer
from schwimmen.engine.rounds import EndReason
from schwimmen.engine.simulate import Simulator, Stats
from schwimmen.protocol.actions import parse_text
from schwimmen.protocol.cards import parse_all
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset
from schwimmen.spec.rules import Rules
from schwimmen.spec.vocabulary import AcesAtDeal, AtDeal, DealerRotation, EveryoneOut


@cache
def _catalog() -> Catalog:
    return Catalog.load()


def _ruleset(name: str, **changes: object) -> Ruleset:
    if not changes:
        return _catalog().resolve(name)
    return _catalog().mutant(name, {k.replace("__", "."): v for k, v in changes.items()})


def _position(
    hands: dict[int, str], middle: str = "", stock: str = "", extra: str = ""
) -> Position:
    return Position(
        hands={seat: parse_all(cards.split()) for seat, cards in hands.items()},
        middle=parse_all(middle.split()),
        extra=parse_all(extra.split()),
        stock=parse_all(stock.split()),
    )


def _play(match: Match, *actions: str) -> None:
    for action in actions:
        match.apply(parse_text(action))


# ---------------------------------------------------------------------------- the next dealer
def _rules_rotating(rotation: str) -> Rules:
    return _ruleset("pagat", match__dealer_rotation=rotation).rules


def test_next_dealer_clockwise_ignores_who_lost() -> None:
    rules = _rules_rotating("clockwise")
    assert next_dealer(rules, 4, 1, set(), {3}) == 2
    assert next_dealer(rules, 4, 1, {2}, {3}) == 3


def test_the_loser_deals_the_first_of_several_from_the_dealers_left() -> None:
    rules = _rules_rotating("loser")
    assert rules.match.dealer_rotation is DealerRotation.LOSER
    # dealer seat 1 (P2): the order from his left is P3, P4, P1, P2
    assert next_dealer(rules, 4, 1, set(), {3}) == 3
    assert next_dealer(rules, 4, 1, set(), {0, 3}) == 3
    assert next_dealer(rules, 4, 1, set(), {0, 1}) == 0
    # the dealer himself lost, with nobody before him in that order
    assert next_dealer(rules, 4, 1, set(), {1}) == 1


def test_a_loser_out_of_the_match_passes_the_deal_to_the_next_player_after_him() -> None:
    rules = _rules_rotating("loser")
    assert next_dealer(rules, 4, 3, {1}, {1}) == 2
    assert next_dealer(rules, 4, 3, {1, 2}, {1, 2}) == 3


def test_after_a_round_nobody_lost_the_deal_passes_clockwise() -> None:
    rules = _rules_rotating("loser")
    assert next_dealer(rules, 4, 1, set(), ()) == 2
    assert next_dealer(rules, 4, 1, {2}, ()) == 3


def _knock_round_costing_p3(rotation: str) -> Match:
    """Four players, P4 deals; P1 knocks, the others pass and P3 (12) is lowest."""
    position = _position(
        {0: "AH KH 9S", 1: "KC 9C 7D", 2: "7S 8H JC", 3: "QD 10D 8S"},
        middle="10S 8C JH",
        stock="QS 10C 9D JS 8D QH",
    )
    nxt = _position(
        {0: "8S 9H JD", 1: "7C 10C QH", 2: "8D JS KH", 3: "9S QC 7H"},
        middle="10D KS 8C",
        stock="AD JC 10H",
    )
    ruleset = _ruleset("pagat", match__dealer_rotation=rotation)
    match = Match(ruleset, 4, position=position, deals=[nxt])
    _play(match, "knock", "pass", "pass", "pass")
    assert match.results[0].losses == {2: 1}
    return match


def test_the_round_loser_deals_the_next_round() -> None:
    clockwise = _knock_round_costing_p3("clockwise")
    loser = _knock_round_costing_p3("loser")
    assert (clockwise.dealer, clockwise.to_move()) == (0, 1)
    assert (loser.dealer, loser.to_move()) == (2, 3)


def test_the_loser_deals_the_first_round_of_the_next_match() -> None:
    ruleset = _ruleset("online", match__dealer_rotation="loser")
    position = _position(
        {0: "AH KH 9S", 1: "7S 8H JC"}, middle="10S 8C JH", stock="QS 10C 9D JS 8D QH"
    )
    match = Match(ruleset, 3, first_dealer=1, lives=[1, 0, 0], eliminated=[2], position=position)
    _play(match, "knock", "pass")
    assert match.over and match.winners == (0,)
    match.next_match()
    assert match.dealer == 1  # P2, who went under; clockwise it would be P3


# ---------------------------------------------------------------------------- nobody wins
def _last_two_tie(everyone_out: str) -> Match:
    """P3 is out, P1 and P2 swim and tie at 19 in hearts: both would go under."""
    ruleset = _ruleset("pagat", match__everyone_out=everyone_out)
    position = _position({0: "AH 8H 7S", 1: "KH 9H 7C"}, middle="10S 8C JD", stock="QS 10C 9D")
    deck = parse_all(
        [
            "10S",
            "9S",
            "KH",
            "10C",
            "9D",
            "7C",
            "JH",
            "QD",
            "7S",
            "QH",
            "JS",
            "KD",
            "JD",
            "QC",
            "8C",
            "9H",
            "KS",
            "10D",
        ]
    )
    match = Match(
        ruleset, 3, first_dealer=1, lives=[0, 0, 0], eliminated=[2], position=position, decks=[deck]
    )
    _play(match, "knock", "pass")
    return match


def test_no_winner_puts_everybody_left_out_and_ends_the_match() -> None:
    match = _last_two_tie("no-winner")
    assert match.rules.match.everyone_out is EveryoneOut.NO_WINNER
    assert match.over
    assert match.winners == ()
    assert match.eliminated == {0, 1, 2}
    assert match.active() == []
    ended = match.events[-1].to_json()
    assert ended["type"] == "match-ended" and ended["winners"] == []


def test_replay_and_shared_win_keep_the_last_two_in() -> None:
    replayed = _last_two_tie("replay-round")
    assert not replayed.over and replayed.active() == [0, 1]
    shared = _last_two_tie("shared-win")
    assert shared.over and set(shared.winners) == {0, 1}


def test_the_simulator_replays_no_round_where_nobody_wins() -> None:
    """The compiled simulation settles a round as the match does: under ``no-winner`` it
    never replays, and a match ends with at most one winner; under ``replay-round`` every
    match has exactly one."""
    for everyone_out, replays_allowed in (("no-winner", False), ("replay-round", True)):
        rules = _ruleset("pagat", match__everyone_out=everyone_out, lives__count=1).rules
        simulator = Simulator(rules, 3)
        stats = Stats()
        for i in range(40):
            simulator.play_match(random.Random(i), stats)
        assert stats.matches == 40 and stats.unfinished == 0
        wins = sum(stats.wins_by_seat.values())
        if replays_allowed:
            assert wins == 40
        else:
            assert stats.replays == 0 and wins <= 40


# ---------------------------------------------------------------------------- on own move
FEUER_DEALT = {0: "7D 8D 9S", 1: "AC AS AH", 2: "KC 9C 7S"}
THIRTY_ONE_DEALT = {0: "7D 8D 9S", 1: "AC KC QC", 2: "AH 9H 7S"}


def _feuer_match(at_deal: str) -> Match:
    ruleset = _ruleset("pagat", three_aces__at_deal=at_deal)
    position = _position(FEUER_DEALT, middle="KD 8H 10S", stock="10C JH 8C QS JS 7H")
    return Match(ruleset, 3, position=position, decks=[list(evaluator_for(ruleset.rules).pack)])


def test_dealt_feuer_ends_the_round_at_once_where_it_must_be_shown() -> None:
    match = _feuer_match("must-show")
    result = match.results[0]
    assert (result.reason, result.at_deal, result.by) == (EndReason.FEUER, True, 1)


def test_dealt_feuer_on_own_move_waits_for_its_holders_pass() -> None:
    match = _feuer_match("on-own-move")
    assert match.rules.three_aces.at_deal is AcesAtDeal.ON_OWN_MOVE
    assert match.results == [] and match.to_move() == 0
    _play(match, "swap 9S KD")
    assert match.results == [] and match.to_move() == 1
    _play(match, "pass")
    result = match.results[0]
    assert (result.reason, result.at_deal, result.by) == (EndReason.FEUER, False, 1)
    # the penalty of Feuer made by a move (pagat: every other player loses one)
    assert result.losses == {0: 1, 2: 1}


def test_feuer_taken_with_the_dealers_choice_waits_too() -> None:
    for at_deal, ends in (("must-show", True), ("on-own-move", False)):
        ruleset = _ruleset("pagat", three_aces__at_deal=at_deal)
        position = _position(
            {0: "7D 8D 9S", 1: "KC 9C 7S", 2: "KD 8H 10S"},
            extra="AC AS AH",
            stock="10C JH 8C QS JS 7H",
        )
        pack = list(evaluator_for(ruleset.rules).pack)
        match = Match(ruleset, 3, position=position, decks=[pack])
        _play(match, "take-extra")
        assert bool(match.results) is ends, at_deal
        if not ends:
            assert match.to_move() == 0


def test_a_dealt_31_on_own_move_acts_when_its_holder_knocks() -> None:
    ruleset = _ruleset("pagat", maximum__at_deal="on-own-move")
    assert ruleset.rules.maximum.at_deal is AtDeal.ON_OWN_MOVE
    position = _position(THIRTY_ONE_DEALT, middle="KS 7C 8H", stock="10C JH 8C QS 10S 7H")
    match = Match(ruleset, 3, position=position)
    assert match.results == [] and match.to_move() == 0
    _play(match, "swap 9S KS", "knock")
    result = match.results[0]
    assert (result.reason, result.at_deal, result.by) == (EndReason.MAXIMUM, False, 1)
    assert result.knocker is None  # the 31 ends the round before the knock starts a cycle
    assert result.losses == {0: 1}  # pagat's 31 in play: the ordinary showdown


def test_a_dealt_31_that_has_no_effect_stays_without_effect_on_a_knock() -> None:
    ruleset = _ruleset("pagat", maximum__at_deal="no-effect")
    position = _position(THIRTY_ONE_DEALT, middle="KS 7C 8H", stock="10C JH 8C QS 10S 7H")
    match = Match(ruleset, 3, position=position)
    _play(match, "swap 9S KS", "knock")
    assert match.results == [] and match.round.knocker == 1 and match.to_move() == 2


def test_a_dealt_31_on_own_move_acts_on_a_knock_in_the_draw_game() -> None:
    ruleset = _ruleset("scat", maximum__at_deal="on-own-move")
    position = Position(
        hands={s: parse_all(c.split()) for s, c in THIRTY_ONE_DEALT.items()},
        stock=parse_all(["10C", "JH", "8C", "QS", "10S", "7H"]),
        discard=parse_all(["KS"]),
    )
    match = Match(ruleset, 3, position=position)
    _play(match, "draw-stock", "discard 9S", "knock")
    result = match.results[0]
    assert (result.reason, result.at_deal, result.by) == (EndReason.MAXIMUM, False, 1)


def test_on_own_move_for_31_needs_a_31_in_play_to_end_the_round() -> None:
    from schwimmen.spec.errors import SpecErrors

    with pytest.raises(SpecErrors, match=r"maximum\.in_play"):
        _catalog().mutant("rules-page", {"maximum.at_deal": "on-own-move"})


def _dealt(rules: Rules, seats: int, seat: int, cards: str, rng: random.Random) -> list[int]:
    """A shuffled pack in which deal position ``seat`` (0 = the dealer's left) is dealt
    ``cards``."""
    pack = list(evaluator_for(rules).pack)
    rng.shuffle(pack)
    wanted = parse_all(cards.split())
    for index, card in zip(deal_pattern(rules, seats).hands[seat], wanted, strict=True):
        other = pack.index(card)
        pack[index], pack[other] = pack[other], pack[index]
    return pack


@pytest.mark.parametrize(
    ("base", "changes", "cards"),
    [
        ("pagat", {"three_aces.at_deal": "on-own-move"}, "AC AS AH"),
        ("pagat", {"maximum.at_deal": "on-own-move"}, "AC KC QC"),
        ("beginner-guide", {"three_aces.at_deal": "on-own-move"}, "AC AS AH"),
        ("scat", {"maximum.at_deal": "on-own-move"}, "AC KC QC"),
    ],
)
def test_compiled_rounds_agree_on_specials_acting_on_their_holders_move(
    base: str, changes: dict[str, str], cards: str
) -> None:
    rules = _catalog().mutant(base, changes).rules
    compiled = compile_round(rules, trace=True)
    rng = random.Random(base + cards)
    for i in range(80):
        seats = max(rules.players.min, 2 + i % 3)
        deck = _dealt(rules, seats, i % seats, cards, rng)
        check_compiled_round(compiled, seats, deck, rng.random)
