"""The language the commands speak: English, or German with ``--lang de`` or ``LANG=de_*``.

The German words are the site's own (``spec/words.yaml`` for labels, parameter and group
titles, ``spec/widgets/calculator.yaml`` for the hand calculator's words), and a
ruleset's German title and texts are its file's ``de:`` blocks, so a word is fixed or
translated in one place for the site and the command line alike. Both files are
checked against their schemas once per content and then read from the cache
(:mod:`schwimmen.spec.cache`). English needs neither: it is the text in the code, as
before, so an English run reads no words file at all.

Cards are typed with English or German rank letters (B Bube, D Dame, K König, A Ass, as
a German player writes them; J, Q, K, A) and the suits as letters (C, S, H, D) or
symbols (♣ ♠ ♥ ♦): a card is rank then suit, so ``DD`` is the Dame of Karo and ``10D``
the ten, and a German K never meets Kreuz or Karo. German output shows B, D, K, A.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from schwimmen.protocol.cards import SUIT_SYMBOL, Card, CardError, parse, rank_of, suit_of
from schwimmen.resources import spec_dir

LANGUAGES = ("en", "de")
ENGLISH = "en"
GERMAN = "de"
_LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # the order POSIX gives them weight

GERMAN_RANK = {"J": "B", "Q": "D", "K": "K", "A": "A"}
_RANK_FROM_GERMAN = {"B": "J", "D": "Q"}
_SUIT_FROM_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOL.items()}
CARD_HELP = (
    "rank then suit: QC, 10H, AS, 7D; German rank letters too (B Bube, D Dame, K König, "
    "A Ass: DH, BS); suits C S H D or ♣ ♠ ♥ ♦"
)


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """German where the locale says so (``de_DE.UTF-8``, ``de_AT``, ``de``), else English."""
    env = os.environ if environ is None else environ
    for name in _LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            return GERMAN if value.lower().startswith("de") else ENGLISH
    return ENGLISH


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the output, en or de (default: German where LC_ALL, LC_MESSAGES "
        "or LANG says de_*, otherwise English)",
    )


def chosen(args: argparse.Namespace) -> str:
    value = getattr(args, "lang", None)
    return str(value) if value else default_language()


def parse_card(word: str) -> Card:
    """A card as a person types it (see the module's docstring), or :class:`CardError`.
    Letters are capitals, as the canonical texts are: ``ac`` is refused, not guessed."""
    if len(word) < 2:
        raise CardError(f"{word!r} is not a card ({CARD_HELP})")
    rank, suit = word[:-1], word[-1]
    suit = _SUIT_FROM_SYMBOL.get(suit, suit)
    rank = _RANK_FROM_GERMAN.get(rank, rank)
    try:
        return parse(rank + suit)
    except CardError:
        raise CardError(f"{word!r} is not a card ({CARD_HELP})") from None


def pretty(card: Card, language: str = ENGLISH) -> str:
    """``D♥`` in German, ``Q♥`` in English: for people, never for machines."""
    rank = rank_of(card)
    if language == GERMAN:
        rank = GERMAN_RANK.get(rank, rank)
    return rank + SUIT_SYMBOL[suit_of(card)]


def typed(card: Card, language: str = ENGLISH) -> str:
    """The card as one types it: ``DC`` in German, ``QC`` in English."""
    rank = rank_of(card)
    if language == GERMAN:
        rank = GERMAN_RANK.get(rank, rank)
    return rank + suit_of(card)


@dataclass(frozen=True)
class Words:
    """The German of the site's words, looked up by key; English is passed in as it is."""

    language: str
    labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    calculator: Mapping[str, str] = field(default_factory=dict)
    groups: Mapping[str, str] = field(default_factory=dict)
    parameters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def german(self) -> bool:
        return self.language == GERMAN

    def label(self, key: str, english: str, **fields: object) -> str:
        """``english`` in English; in German the label ``key`` of ``spec/words.yaml``."""
        text = english
        if self.german:
            text = self.labels.get(key, {}).get(GERMAN, english)
        return text.format(**fields) if fields else text

    def calc(self, key: str, english: str, **fields: object) -> str:
        """The same for the hand calculator's words (``spec/widgets/calculator.yaml``)."""
        text = self.calculator.get(key, english) if self.german else english
        return text.format(**fields) if fields else text

    def param_title(self, path: str, english: str) -> str:
        if self.german and path in self.parameters:
            return str(self.parameters[path]["title"])
        return english

    def group_title(self, group: str, english: str) -> str:
        return self.groups.get(group, english) if self.german else english


def words(language: str) -> Words:
    """The words of ``language``: nothing to read for English."""
    if language != GERMAN:
        return Words(language)
    return _german()


@cache
def _german() -> Words:
    from schwimmen.spec.cache import cached

    data = cached("words", _inputs, _load, dict)
    return Words(GERMAN, data["labels"], data["calculator"], data["groups"], data["parameters"])


def _files() -> tuple[Any, ...]:
    from schwimmen.spec.words import words_path

    return spec_dir() / "words.yaml", words_path("calculator")


def _inputs() -> Iterator[tuple[str, bytes]]:
    for path in _files():
        yield str(path.resolve()), path.read_bytes()


def _load() -> dict[str, Any]:
    """Both words files, checked against their schemas (:class:`SpecErrors` if broken)."""
    from schwimmen.spec.validation import read_checked
    from schwimmen.spec.words import load_words

    site, calculator = _files()
    doc = read_checked(site, "words.schema.json")
    data = doc.data
    return {
        "labels": data["labels"],
        "groups": data.get("groups", {}),
        "parameters": data.get("parameters", {}),
        "calculator": load_words(calculator)[GERMAN],
    }
