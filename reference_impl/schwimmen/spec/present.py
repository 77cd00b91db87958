"""Plain-language rendering of parameter values and provenance.

Shared by the CLI and the documentation site, so a value reads the same everywhere:
``30½`` rather than ``30.5``, ``all others lose 1`` rather than a JSON object.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from schwimmen.spec.model import Provenance, ProvenanceKind, Setting
from schwimmen.spec.parameters import BY_PATH

PROVENANCE_LABEL: Mapping[ProvenanceKind, str] = {
    ProvenanceKind.CITED: "cited",
    ProvenanceKind.INTERPRETED: "interpreted",
    ProvenanceKind.DEFAULT: "default",
}


def points(value: Any) -> str:
    """``30.5`` → ``30½``; exact for halves. A game has a few dozen distinct points, and
    an engine names them for every hand value it reports (each round record of a fuzzed
    case): each is written once (the text depends on the number alone)."""
    text = _POINTS.get(value)
    if text is None:
        frac = Fraction(value).limit_denominator(2)
        whole, half = divmod(frac * 2, 2)
        text = f"{int(whole)}½" if half else f"{int(whole)}"
        if len(_POINTS) < _POINTS_LIMIT:
            _POINTS[value] = text
    return text


_POINTS: dict[Any, str] = {}
_POINTS_LIMIT = 1 << 12


def penalty(value: Mapping[str, Any]) -> str:
    if value["kind"] == "showdown":
        return "ordinary showdown (the lowest loses)"
    if value["kind"] == "all-without-special":
        return f"every player without a special hand loses {value['lives']}"
    text = f"all others lose {value['lives']}"
    if value.get("maximum_holders") is not None:
        text += f", other holders of 31 lose {value['maximum_holders']}"
    return text


def value_text(param: str, value: Any) -> str:
    """One line of text for ``value`` of parameter ``param``."""
    if param == "players.range":
        return f"{value['min']}–{value['max']}"
    if param == "cards.values":
        return ", ".join(f"{rank} {pts}" for rank, pts in value.items())
    if param in ("triples.points", "three_aces.points"):
        return "none" if value == "none" else points(value)
    schema = BY_PATH[param].schema
    if schema.get("$ref") == "#/$defs/penalty":
        return penalty(value)
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value) if value else "(none)"
    return str(value)


def provenance_summary(prov: Provenance) -> str:
    label = PROVENANCE_LABEL[prov.kind]
    if prov.decision:
        label += f" {prov.decision}"
    return label


def origin_text(setting: Setting, base: str) -> str:
    if setting.inherited:
        return f"inherited from {setting.origin}"
    if setting.origin != base:
        return f"set by house rule {setting.origin}"
    return ""
