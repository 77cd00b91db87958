"""The decisions (``spec/decisions.yaml``): each U number's title.

Where the sources are silent or ambiguous the spec and the fixtures name a decision
(``decision: U17``, ``default: [U17]``) and give their own reason beside it. The numbers
and their titles are the project's own data, read from the repository like every other
spec file, so that whatever shows a U number can say what it is about.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from schwimmen.resources import spec_dir
from schwimmen.spec.errors import SpecError
from schwimmen.spec.validation import schema_errors
from schwimmen.spec.yamlread import Document, YamlError, read_file

FILE = "decisions.yaml"
SCHEMA = "decisions.schema.json"


@dataclass(frozen=True)
class Decisions:
    """U number → title, in the file's order."""

    titles: Mapping[str, str]
    doc: Document

    def title(self, number: str) -> str:
        return self.titles.get(number, "")


def load_decisions(path: Path | None = None) -> tuple[Decisions | None, list[SpecError]]:
    """The decisions file checked against its schema, with every problem located (file,
    line, column); ``None`` when it cannot be read at all."""
    path = path or spec_dir() / FILE
    try:
        doc = read_file(path, f"spec/{FILE}" if path == spec_dir() / FILE else None)
    except YamlError as exc:
        return None, [exc.error]
    if not isinstance(doc.data, dict):
        return None, [doc.error((), "the decisions file is a mapping with a 'decisions' list")]
    errors = schema_errors(doc, SCHEMA)
    if errors:
        return None, errors
    titles: dict[str, str] = {}
    for index, raw in enumerate(doc.data["decisions"]):
        number = str(raw["id"])
        if number in titles:
            errors.append(doc.error(("decisions", index, "id"), f"{number} is listed twice"))
            continue
        titles[number] = str(raw["title"]).strip()
    return Decisions(MappingProxyType(titles), doc), errors
