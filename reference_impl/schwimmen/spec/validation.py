"""JSON Schema validation that speaks plainly and points at the right line.

jsonschema reports every failing keyword, including the ``oneOf`` wrapper around a
failure and messages written for schema authors. Here each failure becomes one located
:class:`SpecError`: a schema's own ``x-messages`` wins where present, ``oneOf``/``anyOf``
report their best-matching branch, an unknown key is reported at the key with the
closest known name, and duplicates are dropped.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, cast

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from schwimmen.resources import schema_dir
from schwimmen.spec.errors import JsonPath, SpecError, SpecErrors
from schwimmen.spec.yamlread import Document, YamlError, read_file


@cache
def load_schema(name: str) -> Mapping[str, Any]:
    path: Path = schema_dir() / name
    data: Mapping[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _custom(error: ValidationError) -> str | None:
    messages = error.schema.get("x-messages") if isinstance(error.schema, Mapping) else None
    if isinstance(messages, Mapping):
        text = messages.get(str(error.validator))
        if isinstance(text, str):
            return text
    return None


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _choices(options: Iterable[Any]) -> str:
    return ", ".join(_show(o) for o in options)


def _suggest(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _explain(error: ValidationError, doc: Document, prefix: JsonPath = ()) -> list[SpecError]:
    """Turn one jsonschema error into located, plainly worded errors."""
    path: JsonPath = (*prefix, *error.absolute_path)
    custom = _custom(error)
    if custom is not None:
        return [doc.error(path, custom)]
    kind = error.validator
    if kind in ("oneOf", "anyOf") and error.context:
        return _explain(best_match(error.context), doc, prefix)
    if kind == "additionalProperties" and isinstance(error.instance, Mapping):
        schema: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
        allowed = list(schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key in allowed:
                continue
            hint = _suggest(str(key), allowed)
            if not hint and len(allowed) <= 20:
                hint = "; allowed here: " + ", ".join(allowed)
            out.append(doc.error((*path, key), f"unknown key {key!r}{hint}", key=True))
        return out
    if kind == "enum":
        options = list(cast(Iterable[Any], error.validator_value))
        value = error.instance
        hint = ""
        if isinstance(value, int) and not isinstance(value, bool) and str(value) in options:
            hint = f" (write it as a string: '{value}')"
        elif isinstance(value, bool) and ("yes" in options or "no" in options):
            hint = " (YAML reads yes/no/on/off as true/false: quote the word)"
        elif isinstance(value, str):
            hint = _suggest(value, [o for o in options if isinstance(o, str)])
        return [
            doc.error(
                path, f"{_show(value)} is not allowed; choose one of: {_choices(options)}{hint}"
            )
        ]
    if kind == "required":
        present = error.instance if isinstance(error.instance, Mapping) else {}
        required = cast(Iterable[str], error.validator_value)
        missing = [k for k in required if k not in present]
        return [doc.error(path, f"missing required key {k!r}") for k in missing[:1]]
    if kind == "const":
        return [doc.error(path, f"must be {_show(error.validator_value)}")]
    if kind == "type":
        expected = error.validator_value
        return [doc.error(path, f"{_show(error.instance)} is not of type {_show(expected)}")]
    if kind == "multipleOf":
        return [
            doc.error(
                path,
                f"{_show(error.instance)} is not a multiple of "
                f"{error.validator_value} (points go in halves: 30.5)",
            )
        ]
    if kind == "pattern":
        return [
            doc.error(
                path,
                f"{_show(error.instance)} does not have the expected form "
                f"(pattern {error.validator_value})",
            )
        ]
    return [doc.error(path, error.message)]


def read_checked(path: Path, schema_name: str, shown_as: str | None = None) -> Document:
    """Read a spec data file and validate it against ``schemas/<schema_name>``; raise
    :class:`SpecErrors` with every problem (file, line, the rule broken): what every
    loader of a spec file does first."""
    try:
        doc = read_file(path, shown_as)
    except YamlError as exc:
        raise SpecErrors([exc.error]) from None
    errors = schema_errors(doc, schema_name)
    if errors:
        raise SpecErrors(errors)
    return doc


def schema_errors(doc: Document, schema_name: str) -> list[SpecError]:
    """Validate ``doc`` against ``schemas/<schema_name>``; one error per problem."""
    seen: set[SpecError] = set()
    out: list[SpecError] = []
    errors = sorted(validator(schema_name).iter_errors(doc.data), key=lambda e: list(e.path))
    for error in errors:
        for item in _explain(error, doc):
            if item not in seen:
                seen.add(item)
                out.append(item)
    return out


def value_errors(
    doc: Document, path: JsonPath, value: Any, schema: Mapping[str, Any], schema_name: str
) -> list[SpecError]:
    """Validate one value against a sub-schema that may use the named schema's ``$defs``."""
    root = load_schema(schema_name)
    full = {"$defs": root.get("$defs", {}), **schema}
    out: list[SpecError] = []
    for error in Draft202012Validator(full).iter_errors(value):
        out.extend(_explain(error, doc, path))
    return out
