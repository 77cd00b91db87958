"""The disagreements (``spec/disagreements.yaml``): concrete situations in which the
rulesets give different results, as the project's own data.

A scenario (F01, F02, ...) says in words what the position is and what it asks, quotes the
sources, and names the conformance fixtures whose position the site draws (``shows``).
The fixtures that pin a scenario say so themselves (their ``disagreement`` field); the
conformance lint checks that the two agree. What each ruleset makes of a position is not
in the file: the site computes it with the reference engine when it is built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from schwimmen.resources import spec_dir
from schwimmen.spec.errors import JsonPath, SpecError, SpecErrors
from schwimmen.spec.loader import translations_of
from schwimmen.spec.model import Citation, Translations, translated
from schwimmen.spec.sources import Bibliography, citation_problems
from schwimmen.spec.validation import schema_errors
from schwimmen.spec.yamlread import Document, YamlError, read_file

FILE = "disagreements.yaml"
SCHEMA = "disagreements.schema.json"


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    position: str
    asks: str
    cites: tuple[Citation, ...]
    shows: tuple[str, ...]
    note: str
    topic: str
    # where it stands in the file, for located errors
    path: JsonPath
    translations: Translations = ()

    def text(self, field: str, language: str) -> str:
        """``title``, ``position``, ``asks`` or ``note`` in ``language`` (its ``de:`` block),
        in English where the file gives no translation."""
        english = str(getattr(self, field))
        return translated(english, field, self.translations, language) or english

    @property
    def anchor(self) -> str:
        return self.id.lower()


@dataclass(frozen=True)
class Topic:
    id: str
    title: str
    scenarios: tuple[Scenario, ...]
    translations: Translations = ()

    def title_in(self, language: str) -> str:
        return translated(self.title, "title", self.translations, language) or self.title


@dataclass(frozen=True)
class Disagreements:
    topics: tuple[Topic, ...]
    # language → label name → words (the site's generated tables)
    labels: Mapping[str, Mapping[str, str]]
    doc: Document

    @property
    def scenarios(self) -> list[Scenario]:
        return [s for topic in self.topics for s in topic.scenarios]

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self.scenarios]

    def by_id(self) -> dict[str, Scenario]:
        return {s.id: s for s in self.scenarios}

    def words(self, language: str) -> Mapping[str, str]:
        """The labels in ``language``, English where it has none."""
        return self.labels.get(language) or self.labels["en"]

    def error(self, path: JsonPath, message: str) -> SpecError:
        return self.doc.error(path, message)


def _citation(raw: Mapping[str, object]) -> Citation:
    line = raw.get("line")
    attribution = raw.get("attribution")
    return Citation(
        source=str(raw["source"]),
        section=str(raw["section"]),
        quote=str(raw["quote"]),
        line=line if isinstance(line, int) else None,
        attribution=str(attribution) if attribution is not None else None,
    )


def load_disagreements(
    path: Path | None = None, bibliography: Bibliography | None = None
) -> tuple[Disagreements | None, list[SpecError]]:
    """The disagreements file, checked: its schema, unique ids, and, given the
    ``bibliography``, every citation (known source, reported attribution, the quote
    verbatim on its line). Every problem is located (file, line, column); ``None`` when
    the file cannot be used at all."""
    default = spec_dir() / FILE
    path = path or default
    try:
        doc = read_file(path, f"spec/{FILE}" if path == default else None)
    except YamlError as exc:
        return None, [exc.error]
    if not isinstance(doc.data, dict):
        return None, [doc.error((), "the disagreements file is a mapping with 'sections'")]
    errors = schema_errors(doc, SCHEMA)
    if errors:
        return None, errors
    topics: list[Topic] = []
    seen: dict[str, JsonPath] = {}
    topic_ids: set[str] = set()
    for t, raw_topic in enumerate(doc.data["sections"]):
        topic_id = str(raw_topic["id"])
        if topic_id in topic_ids:
            errors.append(doc.error(("sections", t, "id"), f"topic {topic_id!r} is listed twice"))
        topic_ids.add(topic_id)
        scenarios: list[Scenario] = []
        for s, raw in enumerate(raw_topic["scenarios"]):
            at: JsonPath = ("sections", t, "scenarios", s)
            number = str(raw["id"])
            if number in seen:
                errors.append(doc.error((*at, "id"), f"{number} is listed twice"))
                continue
            seen[number] = at
            if bibliography is not None:
                for c, cite in enumerate(raw["cites"]):
                    for key, message in citation_problems(bibliography, cite):
                        errors.append(doc.error((*at, "cites", c, key), message))
            scenarios.append(
                Scenario(
                    id=number,
                    title=str(raw["title"]).strip(),
                    position=str(raw["position"]).strip(),
                    asks=str(raw["asks"]).strip(),
                    cites=tuple(_citation(c) for c in raw["cites"]),
                    shows=tuple(str(f) for f in raw["shows"]),
                    note=str(raw.get("note", "")).strip(),
                    topic=topic_id,
                    path=at,
                    translations=translations_of(raw),
                )
            )
        topics.append(
            Topic(
                topic_id,
                str(raw_topic["title"]).strip(),
                tuple(scenarios),
                translations_of(raw_topic),
            )
        )
    labels = MappingProxyType(
        {lang: MappingProxyType(dict(words)) for lang, words in doc.data["labels"].items()}
    )
    return Disagreements(tuple(topics), labels, doc), errors


@cache
def scenario_ids() -> tuple[str, ...]:
    """The scenario numbers of the shipped file, in its order (for the coverage report).
    Raises :class:`SpecErrors` when the file is broken."""
    found, errors = load_disagreements()
    if found is None or errors:
        raise SpecErrors(errors)
    return tuple(found.ids)
