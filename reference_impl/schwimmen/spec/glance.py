"""The rules at a glance: what the rulesets' values mean at the table, in plain words.

The full comparison shows every parameter's value as the spec spells it
(``extra-hand-blind-choice``); a player settling an argument needs "the dealer keeps his
hand or takes the unseen extra hand". Those words are data, ``spec/at-a-glance.yaml``
(schema ``schemas/at-a-glance.schema.json``), in English and German: a short name per
ruleset, the tables' labels, and rows whose cases match a ruleset's *resolved* values.
The first case a ruleset meets words its cell, so the table cannot drift from the spec: a
changed rule that no case words stops the build with the row's line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schwimmen.resources import spec_dir
from schwimmen.spec.errors import JsonPath, SpecError, SpecErrors
from schwimmen.spec.model import Ruleset, thaw
from schwimmen.spec.parameters import BY_PATH, GROUPS
from schwimmen.spec.validation import read_checked
from schwimmen.spec.yamlread import Document

FILE = "at-a-glance.yaml"
SCHEMA = "at-a-glance.schema.json"
LANGUAGES = ("en", "de")
PALETTE = 5  # highlight colours for the other wordings of a row (g1 … g5; g0 is plain)
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Words:
    """One text in every language of the site; a language not given falls back to English."""

    en: str
    de: str

    def get(self, language: str) -> str:
        return self.de if language == "de" else self.en


SOFT_HYPHEN = "\u00ad"


@dataclass(frozen=True)
class Case:
    """A wording and the values a ruleset must have for it (``None``: does not apply)."""

    when: Mapping[str, Any]
    text: Words
    path: JsonPath


@dataclass(frozen=True)
class Row:
    id: str
    label: Words
    topic: str
    cases: tuple[Case, ...]
    path: JsonPath


@dataclass(frozen=True)
class Glance:
    names: Mapping[str, Words]
    labels: Mapping[str, Words]
    rows: tuple[Row, ...]
    doc: Document = field(compare=False, repr=False)

    def name(self, rid: str, language: str = "en", *, hyphens: bool = False) -> str:
        """The ruleset's short name for players (its id where the file has none). The file
        marks where a long word may break with a soft hyphen (U+00AD), which a narrow
        heading keeps (``hyphens``: the browser then breaks the word there, with a hyphen,
        and nowhere else) and any other use drops."""
        words = self.names.get(rid)
        shown = words.get(language) if words else rid
        return shown if hyphens else shown.replace(SOFT_HYPHEN, "")

    def label(self, key: str, language: str = "en", **values: int | str) -> str:
        """A label's words with its ``{n}``-style blanks filled (values are not escaped)."""
        text = self.labels[key].get(language)
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text


# ----------------------------------------------------------------------------- loading
def load_glance(path: Path | None = None) -> Glance:
    """Read and check ``spec/at-a-glance.yaml``; raise :class:`SpecErrors` with every
    problem located (file, line, column, path)."""
    path = path or spec_dir() / FILE
    doc = read_checked(path, SCHEMA, _display(path))
    data = doc.data
    errors = _check_rows(doc, data["rows"])
    if errors:
        raise SpecErrors(errors)
    rows = tuple(
        Row(
            id=raw["id"],
            label=_words(raw["label"]),
            topic=raw["topic"],
            cases=tuple(
                Case(dict(case["when"]), _words(case["text"]), ("rows", i, "cases", j))
                for j, case in enumerate(raw["cases"])
            ),
            path=("rows", i),
        )
        for i, raw in enumerate(data["rows"])
    )
    return Glance(
        names={rid: _words(w) for rid, w in data["names"].items()},
        labels={key: _words(w) for key, w in data["labels"].items()},
        rows=rows,
        doc=doc,
    )


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _words(raw: Mapping[str, str]) -> Words:
    return Words(en=raw["en"], de=raw["de"])


def _check_rows(doc: Document, rows: list[dict[str, Any]]) -> list[SpecError]:
    """What the schema cannot say: ids unique, topics and parameters known, values among a
    parameter's choices, placeholders naming parameters."""
    errors: list[SpecError] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if row["id"] in seen:
            errors.append(doc.error(("rows", i, "id"), f"duplicate row id {row['id']!r}"))
        seen.add(row["id"])
        if row["topic"] not in GROUPS:
            errors.append(
                doc.error(
                    ("rows", i, "topic"),
                    f"unknown topic {row['topic']!r}; choose one of: {', '.join(GROUPS)}",
                )
            )
        for j, case in enumerate(row["cases"]):
            here: JsonPath = ("rows", i, "cases", j)
            for param, value in case["when"].items():
                errors += _check_condition(doc, (*here, "when", param), param, value)
            for language in LANGUAGES:
                for name in _PLACEHOLDER.findall(case["text"][language]):
                    if name not in BY_PATH:
                        errors.append(
                            doc.error(
                                (*here, "text", language),
                                f"{{{name}}} names no parameter (write {{group.name}}, "
                                "such as {lives.count})",
                            )
                        )
    return errors


def _check_condition(doc: Document, path: JsonPath, param: str, value: Any) -> list[SpecError]:
    known = BY_PATH.get(param)
    if known is None:
        return [doc.error(path, f"unknown parameter {param!r}", key=True)]
    if value is None or not known.choices:
        return []
    items = value if isinstance(value, list) else [value]
    wrong = [v for v in items if v not in known.choices]
    if wrong:
        return [
            doc.error(
                path,
                f"{wrong[0]!r} is not a value of {param}; choose one of: "
                + ", ".join(known.choices),
            )
        ]
    return []


# ----------------------------------------------------------------------------- matching
def _matches(expected: Any, actual: Any) -> bool:
    """Whether a resolved value meets a condition: ``None`` only an inapplicable parameter,
    an object every key it names, anything else an equal value."""
    if expected is None or actual is None:
        return expected is None and actual is None
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and _matches(want, actual[key]) for key, want in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(actual) == len(expected)
            and all(_matches(w, a) for w, a in zip(expected, actual, strict=True))
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _value(ruleset: Ruleset, param: str) -> Any:
    setting = ruleset.settings.get(param)
    return None if setting is None else thaw(setting.value)


def case_for(row: Row, ruleset: Ruleset) -> Case | None:
    """The first case of ``row`` whose conditions the ruleset meets."""
    for case in row.cases:
        if all(_matches(want, _value(ruleset, p)) for p, want in case.when.items()):
            return case
    return None


def _number(value: Any) -> str | None:
    """A parameter's number as players write it: 3, 32, 30½."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    whole = int(value)
    if value == whole:
        return str(whole)
    if value - whole == 0.5:
        return f"{whole}½"
    return None


def fill_numbers(text: str, ruleset: Ruleset) -> str:
    """``text`` with every ``{param.path}`` replaced by the ruleset's number; raises
    ``ValueError`` naming the parameter when it has no number there."""

    def number(match: re.Match[str]) -> str:
        shown = _number(_value(ruleset, match.group(1)))
        if shown is None:
            raise ValueError(match.group(1))
        return shown

    return _PLACEHOLDER.sub(number, text)


def cell_text(row: Row, ruleset: Ruleset, language: str = "en") -> str:
    """The row's words for a ruleset (plain text); raises ``LookupError`` when no case
    matches, so a build never shows an empty cell (see :func:`check`)."""
    case = case_for(row, ruleset)
    if case is None:
        raise LookupError(f"no case of row {row.id!r} matches {ruleset.id!r}")
    return fill_numbers(case.text.get(language), ruleset)


def check(glance: Glance, rulesets: Mapping[str, Ruleset]) -> list[SpecError]:
    """Every problem the rulesets find in the file: a ruleset without a name, a name for no
    ruleset, a row with no case for a ruleset, a number that is not one."""
    doc = glance.doc
    errors: list[SpecError] = []
    for rid in rulesets:
        if rid not in glance.names:
            errors.append(doc.error(("names",), f"no name for the ruleset {rid!r}", key=True))
    for rid in glance.names:
        if rid not in rulesets:
            errors.append(doc.error(("names", rid), f"{rid!r} is no ruleset", key=True))
    for row in glance.rows:
        for rid, ruleset in rulesets.items():
            case = case_for(row, ruleset)
            if case is None:
                values = "; ".join(
                    f"{p} = {_value(ruleset, p)!r}"
                    for p in dict.fromkeys(p for c in row.cases for p in c.when)
                )
                errors.append(
                    doc.error(
                        (*row.path, "cases"),
                        f"no case words {rid!r} ({values}); add a case for its values",
                        key=True,
                    )
                )
                continue
            for language in LANGUAGES:
                try:
                    fill_numbers(case.text.get(language), ruleset)
                except ValueError as exc:
                    errors.append(
                        doc.error(
                            (*case.path, "text", language),
                            f"{{{exc}}} is not a number for {rid!r}",
                        )
                    )
    return errors


# ----------------------------------------------------------------------------- the table
def runs(texts: list[str]) -> list[tuple[str, int]]:
    """Neighbouring equal cells merged: (text, how many columns it spans)."""
    runs: list[tuple[str, int]] = []
    for text in texts:
        if runs and runs[-1][0] == text:
            runs[-1] = (text, runs[-1][1] + 1)
        else:
            runs.append((text, 1))
    return runs


def shades(texts: Iterable[str]) -> dict[str, int]:
    """Number a row's wordings, most common first, so the odd ones out get a colour."""
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    order = sorted(counts, key=lambda t: -counts[t])  # stable: first seen first among equals
    return {text: min(i, PALETTE) for i, text in enumerate(order)}
