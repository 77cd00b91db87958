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
from schwimmen.spec.parameters import BY_PATH, RANKS, SUIT_NAMES_DE, Parameter
from schwimmen.spec.present import value_text


def short(param: str, value: Any) -> str:
    """The value as one short line of plain text: the CLI's text, except that the pack and
    the card points are condensed so that they fit a table cell."""
    if param == "cards.ranks":
        return rank_span(list(value))
    if param == "cards.values":
        return card_points(value)
    return value_text(param, value)


def rank_span(ranks: list[str]) -> str:
    """``["7", …, "A"]`` → ``7–A (8 ranks)`` when the ranks are a run of the rank order."""
    positions = [RANKS.index(r) for r in ranks if r in RANKS]
    run = len(positions) == len(ranks) > 2 and positions == list(
        range(positions[0], positions[0] + len(positions))
    )
    if run:
        return f"{ranks[0]}–{ranks[-1]} ({len(ranks)} ranks)"
    return ", ".join(ranks)


def card_points(values: Mapping[str, Any]) -> str:
    """Group ranks by points: ``7–10 face value, J Q K 10, A 11``."""
    groups: list[tuple[list[str], str]] = []
    for rank, pts in values.items():
        label = "face value" if rank.isdigit() and int(rank) == pts else str(pts)
        if groups and groups[-1][1] == label:
            groups[-1][0].append(rank)
        else:
            groups.append(([rank], label))
    parts = []
    for ranks, label in groups:
        names = (
            f"{ranks[0]}–{ranks[-1]}"
            if label == "face value" and len(ranks) > 2
            else " ".join(ranks)
        )
        parts.append(f"{names} {label}")
    return ", ".join(parts)


def short_md(param: str, value: Any) -> str:
    """The short value as markdown, with suit symbols where suits are listed."""
    text = short(param, value)
    if param in ("cards.suits", "comparison.suit_order") and value != "none":
        return esc(suit_symbols(text))
    return esc(text)


def explanation(param: Parameter, value: Any) -> str:
    """What the chosen value means, in the registry's words (markdown)."""
    if param.choices:
        if isinstance(value, str):
            return esc(param.choices.get(value, ""))
        items = list(value)
        if not items:
            return "None."
        return "\n".join(f"- {code(v)}: {esc(param.choices.get(v, ''))}" for v in items)
    if param.path in ("cards.suits", "comparison.suit_order") and value != "none":
        names = ", ".join(f"{suit_symbols(s)} {SUIT_NAMES_DE[s]}" for s in value)
        return esc(names) + (" (highest first)." if param.path == "comparison.suit_order" else ".")
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


def title_of(param: str) -> str:
    return BY_PATH[param].title
