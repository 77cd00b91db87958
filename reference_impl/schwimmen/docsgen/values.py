"""Parameter values in words: the short form for table cells, the long form for rule pages.

The short form is :func:`schwimmen.spec.present.value_text`, the same text the CLI
prints, so the site and ``schwimmen show`` never disagree. The long form adds the
registry's explanation of the chosen value, which is what makes a rule readable
without knowing the parameter vocabulary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from schwimmen.docsgen.markup import code, esc, suit_symbols
from schwimmen.spec.model import Ruleset, Setting, thaw
from schwimmen.spec.pagedata import words
from schwimmen.spec.parameters import BY_PATH, RANKS, SUIT_NAMES_DE, Parameter
from schwimmen.spec.present import value_text


def short(param: str, value: Any, language: str = "en") -> str:
    """The value as one short line of plain text: the CLI's text, except that the pack and
    the card points are condensed so that they fit a table cell. Named values stay as the
    spec writes them in every language (the explanation says what they mean)."""
    if param == "cards.ranks":
        return rank_span(list(value), language)
    if param == "cards.values":
        return card_points(value, language)
    if language != "en":
        return _translated(param, value, language)
    return value_text(param, value)


def _translated(param: str, value: Any, language: str) -> str:
    """The CLI's text in another language: only its few words differ, the numbers and
    the named values stay."""
    say = words()
    if param in ("triples.points", "three_aces.points") and value == "none":
        return say("value.none", language)
    if BY_PATH[param].schema.get("$ref") == "#/$defs/penalty":
        if value["kind"] == "showdown":
            return say("value.showdown", language)
        if value["kind"] == "all-without-special":
            return say("value.all-without-special", language).format(n=value["lives"])
        text = say("value.all-others-lose", language).format(n=value["lives"])
        if value.get("maximum_holders") is not None:
            holders = say("value.maximum-holders", language)
            text += ", " + holders.format(n=value["maximum_holders"])
        return text
    if isinstance(value, tuple | list) and not value:
        return say("value.empty", language)
    return value_text(param, value)


def rank_span(ranks: list[str], language: str = "en") -> str:
    """``["7", …, "A"]`` → ``7–A (8 ranks)`` when the ranks are a run of the rank order."""
    positions = [RANKS.index(r) for r in ranks if r in RANKS]
    run = len(positions) == len(ranks) > 2 and positions == list(
        range(positions[0], positions[0] + len(positions))
    )
    if run:
        count = words()("value.ranks", language).format(n=len(ranks))
        return f"{ranks[0]}–{ranks[-1]} ({count})"
    return ", ".join(ranks)


def card_points(values: Mapping[str, Any], language: str = "en") -> str:
    """Group ranks by points: ``7–10 face value, J Q K 10, A 11``."""
    face = words()("value.face-value", language)
    groups: list[tuple[list[str], str]] = []
    for rank, pts in values.items():
        label = face if rank.isdigit() and int(rank) == pts else str(pts)
        if groups and groups[-1][1] == label:
            groups[-1][0].append(rank)
        else:
            groups.append(([rank], label))
    parts = []
    for ranks, label in groups:
        names = f"{ranks[0]}–{ranks[-1]}" if label == face and len(ranks) > 2 else " ".join(ranks)
        parts.append(f"{names} {label}")
    return ", ".join(parts)


def shown(param: str, value: Any, language: str = "en") -> str:
    """The short value with suit symbols where suits are listed (plain text)."""
    text = short(param, value, language)
    if param in ("cards.suits", "comparison.suit_order") and value != "none":
        return suit_symbols(text)
    return text


def explanation(param: Parameter, value: Any, language: str = "en") -> str:
    """What the chosen value means, in the registry's words or their translation
    (markdown)."""
    say = words()
    if param.choices:
        if isinstance(value, str):
            return esc(say.choice(param.path, value, language))
        items = list(value)
        if not items:
            return say("rule.none", language)
        return "\n".join(f"- {code(v)}: {esc(say.choice(param.path, v, language))}" for v in items)
    if param.path in ("cards.suits", "comparison.suit_order") and value != "none":
        names = ", ".join(f"{suit_symbols(s)} {SUIT_NAMES_DE[s]}" for s in value)
        tail = (
            " " + say("rule.highest-first", language)
            if param.path == "comparison.suit_order"
            else "."
        )
        return esc(names) + tail
    return ""


@dataclass(frozen=True)
class Cell:
    """One ruleset's value for one parameter in a comparison; ``setting`` is None where
    the parameter does not apply to that ruleset."""

    ruleset: Ruleset
    setting: Setting | None

    @property
    def key(self) -> str | None:
        """A hashable form of the value (frozen mappings are not hashable)."""
        return None if self.setting is None else value_key(self.setting.value)


def value_key(value: Any) -> str:
    return json.dumps(thaw(value), sort_keys=True)


def row_cells(param: str, rulesets: Mapping[str, Ruleset]) -> list[Cell]:
    return [Cell(r, r.settings.get(param)) for r in rulesets.values()]


def value_classes(cells: list[Cell]) -> dict[str, int]:
    """Number the distinct values of a row, most common first, so equal values share a
    colour and the odd ones out stand out. Inapplicable cells get no number."""
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    for i, cell in enumerate(cells):
        key = cell.key
        if key is None:
            continue
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, i)
    order = sorted(counts, key=lambda k: (-counts[k], first[k]))
    return {k: i for i, k in enumerate(order)}
