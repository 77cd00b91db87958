"""The resolved ruleset: every parameter's value together with where it comes from.

A :class:`Ruleset` is what the loader hands to everybody else. It is immutable; its
values are deep-frozen JSON data (tuples and read-only mappings), and ``rules`` gives
the same values as typed objects for the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schwimmen.spec.errors import SpecWarning
    from schwimmen.spec.rules import Rules


class ProvenanceKind(StrEnum):
    CITED = "cited"
    INTERPRETED = "interpreted"
    DEFAULT = "default"


@dataclass(frozen=True)
class Citation:
    source: str
    section: str
    quote: str
    line: int | None = None
    attribution: str | None = None

    def label(self) -> str:
        where = self.source + (f":{self.line}" if self.line else "")
        via = f" ({self.attribution} via {self.source})" if self.attribution else ""
        return f"[{where}]{via} {self.section}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source, "section": self.section}
        if self.line is not None:
            out["line"] = self.line
        if self.attribution is not None:
            out["attribution"] = self.attribution
        out["quote"] = self.quote
        return out


TRANSLATED = ("de",)
"""The languages a spec file may give its prose in, besides English (its ``de:`` blocks)."""

Translations = tuple[tuple[str, str, str], ...]
"""The ``de:`` blocks of a spec file's prose, as ``(language, field, text)`` triples: a
tuple rather than a mapping so that the values holding it stay hashable."""


def translated(english: str | None, field: str, texts: Translations, language: str) -> str | None:
    """``field`` in ``language`` where the file gives it, else the English text: a German page
    shows the English of a house rule whose author wrote no German, rather than nothing."""
    for lang, name, text in texts:
        if lang == language and name == field:
            return text
    return english


@dataclass(frozen=True)
class Provenance:
    kind: ProvenanceKind
    citations: tuple[Citation, ...] = ()
    reading: str | None = None
    why: str | None = None
    decision: str | None = None
    translations: Translations = ()

    def reading_in(self, language: str) -> str | None:
        return translated(self.reading, "reading", self.translations, language)

    def why_in(self, language: str) -> str | None:
        return translated(self.why, "why", self.translations, language)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.citations:
            out["quotes"] = [c.to_json() for c in self.citations]
        if self.reading:
            out["reading"] = self.reading
        if self.why:
            out["why"] = self.why
        if self.decision:
            out["decision"] = self.decision
        return out


@dataclass(frozen=True)
class Setting:
    """One parameter of a resolved ruleset.

    ``origin`` is the ruleset or house rule file that set the value; ``inherited``
    says the value came through ``extends`` rather than from the ruleset itself.
    """

    param: str
    value: Any
    provenance: Provenance
    origin: str
    inherited: bool = False
    note: str | None = None
    translations: Translations = ()

    def note_in(self, language: str) -> str | None:
        return translated(self.note, "note", self.translations, language)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": thaw(self.value),
            "provenance": self.provenance.to_json(),
            "set_by": self.origin,
            "inherited": self.inherited,
        }
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Unresolved:
    topic: str
    citations: tuple[Citation, ...]
    why: str
    decision: str | None = None
    translations: Translations = ()

    def topic_in(self, language: str) -> str:
        return translated(self.topic, "topic", self.translations, language) or self.topic

    def why_in(self, language: str) -> str:
        return translated(self.why, "why", self.translations, language) or self.why


@dataclass(frozen=True)
class Ruleset:
    """A ruleset with all its overlays applied.

    ``id`` is the composed name (``pagat+knocker-loses-two``); ``base`` the ruleset
    and ``overlays`` the house rules in the order given. ``warnings`` are what the loader
    suspects but does not refuse (a composition under which no round the search over small
    positions looked at could be ended, see :mod:`schwimmen.spec.termination`).
    """

    id: str
    title: str
    summary: str
    base: str
    overlays: tuple[str, ...]
    settings: Mapping[str, Setting]
    unresolved: tuple[Unresolved, ...]
    rules: Rules
    warnings: tuple[SpecWarning, ...] = ()

    def value(self, param: str) -> Any:
        return self.settings[param].value

    def values(self) -> dict[str, Any]:
        return {k: thaw(s.value) for k, s in self.settings.items()}


def freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


def shown(value: Any) -> str:
    """A parameter's value as a message writes it: a list in brackets, a mapping in braces,
    as a YAML flow value reads."""
    if isinstance(value, tuple | list):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {shown(v)}" for k, v in value.items()) + "}"
    return str(value)
