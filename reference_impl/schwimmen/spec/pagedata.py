"""The data the site's words come from: the glossary, the quotes on hand-written pages and
the short words (labels, German parameter names), each a YAML file beside the rules.

They are data so that fixing or translating a word needs no Python. Each file is checked
against its JSON Schema and against the parameter registry when it is read; a problem
stops the build with the file, the line and the rule broken (:class:`SpecErrors`).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from schwimmen.resources import spec_dir
from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.model import Citation
from schwimmen.spec.parameters import BY_PATH, GROUPS
from schwimmen.spec.validation import read_checked
from schwimmen.spec.yamlread import Document

LANGUAGES = ("en", "de")
DEFAULT_LANGUAGE = "en"


def _read(path: Path, schema: str) -> Document:
    return read_checked(path, schema, f"spec/{path.name}")


def _citation(raw: Mapping[str, Any]) -> Citation:
    return Citation(
        source=str(raw["source"]),
        section=str(raw["section"]),
        quote=" ".join(str(raw["quote"]).split()),
        line=int(raw["line"]),
    )


def _unknown_params(doc: Document, path: tuple[str | int, ...], params: Any) -> list[SpecError]:
    return [
        doc.error((*path, i), f"no rule parameter {p!r}")
        for i, p in enumerate(params)
        if p not in BY_PATH
    ]


@dataclass(frozen=True)
class Avoid:
    """Words a term's sources do not use: none of them may stand in the German texts of
    the rulesets and house rules ``rulesets``, which speak for those sources."""

    words: tuple[str, ...]
    rulesets: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Term:
    """A German word of the game: its English gloss, its meaning per language, the source
    sentences that use it and the rules it concerns."""

    german: str
    gloss: str
    meaning: Mapping[str, str]
    quotes: tuple[Citation, ...] = ()
    params: tuple[str, ...] = ()
    avoid: tuple[Avoid, ...] = ()

    @property
    def anchor(self) -> str:
        return (
            self.german.split(" /")[0]
            .lower()
            .replace(" ", "-")
            .replace("ß", "ss")
            .replace("ä", "ae")
            .replace("ö", "oe")
            .replace("ü", "ue")
        )


@cache
def glossary(path: Path | None = None) -> tuple[Term, ...]:
    """The terms of ``spec/glossary.yaml``, in the file's order."""
    doc = _read(path or spec_dir() / "glossary.yaml", "glossary.schema.json")
    terms = []
    errors: list[SpecError] = []
    for index, raw in enumerate(doc.data["terms"]):
        errors += _unknown_params(doc, ("terms", index, "params"), raw.get("params", ()))
        terms.append(
            Term(
                german=raw["term"],
                gloss=raw["en"]["gloss"],
                meaning={lang: " ".join(raw[lang]["meaning"].split()) for lang in LANGUAGES},
                quotes=tuple(_citation(q) for q in raw.get("quotes", ())),
                params=tuple(raw.get("params", ())),
                avoid=tuple(
                    Avoid(tuple(a["words"]), tuple(a["in"]), a["why"]) for a in raw.get("avoid", ())
                ),
            )
        )
    anchors: dict[str, int] = {}
    for index, term in enumerate(terms):
        if term.anchor in anchors:
            errors.append(
                doc.error(("terms", index, "term"), f"same anchor as term {anchors[term.anchor]}")
            )
        anchors.setdefault(term.anchor, index)
    if errors:
        raise SpecErrors(errors)
    return tuple(terms)


@cache
def page_quotes(path: Path | None = None) -> Mapping[str, Citation]:
    """The quotes of ``spec/quotes.yaml`` by name."""
    doc = _read(path or spec_dir() / "quotes.yaml", "quotes.schema.json")
    return {name: _citation(raw) for name, raw in doc.data["quotes"].items()}


def page_citations() -> list[Citation]:
    """Every quote the site's data files place on pages (``spec/quotes.yaml`` and the
    glossary's), to be checked against the sources like the spec's own."""
    quotes = list(page_quotes().values())
    for term in glossary():
        quotes.extend(term.quotes)
    return quotes


@dataclass(frozen=True)
class Words:
    """The short words of ``spec/words.yaml``."""

    labels: Mapping[str, Mapping[str, str]]
    groups: Mapping[str, str] = field(default_factory=dict)
    parameters: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def __call__(self, key: str, language: str = DEFAULT_LANGUAGE, **fields: object) -> str:
        """The label ``key`` in ``language``, its ``{placeholders}`` filled from ``fields``;
        a missing key or field is a programming error."""
        entry = self.labels[key]
        text = entry.get(language, entry[DEFAULT_LANGUAGE])
        return text.format(**fields) if fields else text

    def param_title(self, param: str, language: str = DEFAULT_LANGUAGE) -> str:
        if language != DEFAULT_LANGUAGE and param in self.parameters:
            return str(self.parameters[param]["title"])
        return BY_PATH[param].title

    def choice(self, param: str, value: str, language: str = DEFAULT_LANGUAGE) -> str:
        """What a named value of ``param`` means, in ``language``."""
        if language != DEFAULT_LANGUAGE:
            german = self.parameters.get(param, {}).get("choices", {})
            if value in german:
                return str(german[value])
        return BY_PATH[param].choices.get(value, "")

    def group_title(self, group: str, language: str = DEFAULT_LANGUAGE) -> str:
        if language != DEFAULT_LANGUAGE and group in self.groups:
            return self.groups[group]
        return GROUPS[group]


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@cache
def words(path: Path | None = None) -> Words:
    doc = _read(path or spec_dir() / "words.yaml", "words.schema.json")
    data = doc.data
    errors: list[SpecError] = []
    params = data.get("parameters", {})
    for name, entry in params.items():
        if name not in BY_PATH:
            errors.append(doc.error(("parameters", name), f"no rule parameter {name!r}", key=True))
            continue
        for value in entry.get("choices", {}):
            if value not in BY_PATH[name].choices:
                errors.append(
                    doc.error(
                        ("parameters", name, "choices", value),
                        f"{name} has no value {value!r}",
                        key=True,
                    )
                )
    for group in data.get("groups", {}):
        if group not in GROUPS:
            errors.append(doc.error(("groups", group), f"no parameter group {group!r}", key=True))
    for key, texts in data["labels"].items():
        english = _placeholders(texts["en"])
        for language, text in texts.items():
            if _placeholders(text) != english:
                errors.append(
                    doc.error(
                        ("labels", key, language),
                        f"the {language} text of {key!r} must fill the same placeholders as the "
                        f"English one: {sorted(english)}, not {sorted(_placeholders(text))}",
                    )
                )
    if errors:
        raise SpecErrors(errors)
    return Words(data["labels"], data.get("groups", {}), params)


def forget() -> None:
    """Read the data files again when next asked (``mkdocs serve`` after an edit of one)."""
    glossary.cache_clear()
    page_quotes.cache_clear()
    words.cache_clear()
