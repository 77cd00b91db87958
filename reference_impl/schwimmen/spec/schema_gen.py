"""Generate ``schemas/ruleset.schema.json`` from the parameter registry.

The schema file is checked in (editors and foreign tools read it) and a test makes
sure it never drifts from the registry: run ``python -m schwimmen.spec.schema_gen``
after changing ``parameters.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from schwimmen.resources import schema_dir
from schwimmen.spec.parameters import GROUPS, PARAMETERS, RANKS, SUITS, Parameter

SCHEMA_ID = "https://schwimmen.example/schemas/ruleset.schema.json"
ID_PATTERN = "^[a-z][a-z0-9]*(-[a-z0-9]+)*$"
SOURCE_PATTERN = "^s[0-9]{3}$"
DECISION_PATTERN = "^U[0-9]{2}$"

PROVENANCE_MESSAGE = (
    "each parameter needs exactly one provenance: 'cited', 'interpreted' or 'default'"
)


def _defs() -> dict[str, Any]:
    citation = {
        "type": "object",
        "description": "A short verbatim quote of a source, in the original German.",
        "properties": {
            "source": {"type": "string", "pattern": SOURCE_PATTERN},
            "section": {"type": "string", "minLength": 1},
            "line": {"type": "integer", "minimum": 1},
            "attribution": {
                "type": "string",
                "pattern": ID_PATTERN,
                "description": "The primary source the quoted article attributes the rule to "
                "(for example pagat or altenburg, reported by s000).",
            },
            "quote": {"type": "string", "minLength": 3, "maxLength": 400},
        },
        "required": ["source", "section", "quote"],
        "additionalProperties": False,
    }
    quotes = {"type": "array", "items": {"$ref": "#/$defs/citation"}, "minItems": 1}
    return {
        "rank": {"enum": list(RANKS), "description": "A rank: 2-10, J, Q, K or A (a string)."},
        "suit": {"enum": list(SUITS), "description": "C Kreuz, S Pik, H Herz, D Karo."},
        "points": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "multipleOf": 0.5,
            "description": "Points in steps of one half (30.5 is 30½).",
        },
        "penalty": {
            "type": "object",
            "description": "Who loses lives when a round ends this way: 'showdown' is the "
            "ordinary showdown (the lowest loses); 'all-others' makes every active player who "
            "does not hold the hand that ended the round lose 'lives'; 'all-without-special' "
            "makes every active player without a special hand (three aces, a protecting hand) "
            "lose 'lives' (Tri Palki's three aces). When 'maximum_holders' is "
            "given, a player who holds (and, where showing is optional, has shown) a maximum "
            "(31) loses that many instead; when it is not given, such a player counts like "
            "everybody else, except after a round ended by a 31, which exempts every 31 shown.",
            "properties": {
                "kind": {"enum": ["showdown", "all-others", "all-without-special"]},
                "lives": {"type": "integer", "minimum": 1, "maximum": 5},
                "maximum_holders": {"type": "integer", "minimum": 0, "maximum": 5},
            },
            "required": ["kind"],
            "additionalProperties": False,
            "allOf": [
                {
                    "if": {"properties": {"kind": {"const": "all-others"}}},
                    "then": {"required": ["lives"]},
                },
                {
                    "if": {"properties": {"kind": {"const": "all-without-special"}}},
                    "then": {"required": ["lives"]},
                },
                {
                    "if": {"properties": {"kind": {"const": "showdown"}}},
                    "then": {
                        "not": {
                            "anyOf": [{"required": ["lives"]}, {"required": ["maximum_holders"]}]
                        },
                        "x-messages": {
                            "not": "a 'showdown' penalty takes no 'lives' or 'maximum_holders'"
                        },
                    },
                },
            ],
        },
        "citation": citation,
        "cited": {**quotes, "description": "The source states the rule: one or more quotes."},
        "interpreted": {
            "type": "object",
            "description": "The source is ambiguous: the quotes, the reading chosen and why.",
            "properties": {
                "quotes": quotes,
                "reading": {"type": "string", "minLength": 3},
                "why": {"type": "string", "minLength": 3},
                "decision": {"type": "string", "pattern": DECISION_PATTERN},
                "de": german("reading", "why"),
            },
            "required": ["quotes", "reading", "why"],
            "additionalProperties": False,
        },
        "default": {
            "type": "object",
            "description": "The source is silent: the choice made and why (with the rules-matrix "
            "U number where there is one).",
            "properties": {
                "why": {"type": "string", "minLength": 3},
                "decision": {"type": "string", "pattern": DECISION_PATTERN},
                "quotes": quotes,
                "de": german("why"),
            },
            "required": ["why"],
            "additionalProperties": False,
        },
        "condition": {
            "type": "object",
            "description": "A requirement on the base ruleset's value of a parameter.",
            "properties": {
                "param": {"type": "string", "pattern": "^[a-z_]+\\.[a-z_]+$"},
                "in": {"type": "array", "minItems": 1},
                "not_in": {"type": "array", "minItems": 1},
                "why": {"type": "string", "minLength": 3},
                "de": german("why"),
            },
            "required": ["param", "why"],
            "oneOf": [{"required": ["in"]}, {"required": ["not_in"]}],
            "x-messages": {"oneOf": "a condition needs exactly one of 'in' and 'not_in'"},
            "additionalProperties": False,
        },
    }


def german(*fields: str) -> dict[str, Any]:
    """The ``de`` block beside English prose: the same fields in German, all of them, so a
    German page never mixes a translated reading with an untranslated reason."""
    return {
        "type": "object",
        "description": "The same text in German, for the site's German pages: "
        + ", ".join(f"'{f}'" for f in fields)
        + ".",
        "properties": {f: {"type": "string", "minLength": 3} for f in fields},
        "required": list(fields),
        "additionalProperties": False,
    }


def _describe(param: Parameter) -> str:
    text = f"{param.title}. {param.description}"
    if param.choices:
        text += "\n" + "\n".join(f"- {k}: {v}" for k, v in param.choices.items())
    if param.applies_when:
        text += "\nApplies when " + " and ".join(c.describe() for c in param.applies_when) + "."
    return text


def _param_entry(param: Parameter) -> dict[str, Any]:
    return {
        "type": "object",
        "title": param.title,
        "description": _describe(param),
        "properties": {
            "value": dict(param.schema),
            "cited": {"$ref": "#/$defs/cited"},
            "interpreted": {"$ref": "#/$defs/interpreted"},
            "default": {"$ref": "#/$defs/default"},
            "note": {"type": "string"},
            "de": german("note"),
        },
        "required": ["value"],
        "additionalProperties": False,
        "oneOf": [
            {"required": ["cited"]},
            {"required": ["interpreted"]},
            {"required": ["default"]},
        ],
        "x-messages": {"oneOf": PROVENANCE_MESSAGE},
    }


def build_schema() -> dict[str, Any]:
    defs = _defs()
    groups: dict[str, Any] = {}
    for group, title in GROUPS.items():
        members = [p for p in PARAMETERS if p.group == group]
        props: dict[str, Any] = {}
        for param in members:
            key = "param." + param.path
            defs[key] = _param_entry(param)
            props[param.name] = {"$ref": f"#/$defs/{key}"}
        groups[group] = {
            "type": "object",
            "title": title,
            "properties": props,
            "additionalProperties": False,
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Schwimmen ruleset or house rule",
        "description": "One ruleset (kind: ruleset) or one house rule overlay (kind: house-rule). "
        "Every rule parameter carries its value and its provenance.",
        "type": "object",
        "properties": {
            "id": {
                "type": "string",
                "pattern": ID_PATTERN,
                "description": "The file's name without .yaml; lower case words joined by hyphens.",
            },
            "kind": {"enum": ["ruleset", "house-rule"], "description": "ruleset or house-rule."},
            "title": {"type": "string", "minLength": 3, "description": "A short English title."},
            "summary": {
                "type": "string",
                "description": "A paragraph on what the ruleset or house rule is and where it "
                "comes from.",
            },
            "de": {
                "type": "object",
                "description": "The title and summary in German, for the site's German pages.",
                "properties": {
                    "title": {"type": "string", "minLength": 3},
                    "summary": {"type": "string"},
                },
                "required": ["title", "summary"],
                "additionalProperties": False,
            },
            "sources": {
                "type": "array",
                "items": {"type": "string", "pattern": SOURCE_PATTERN},
                "uniqueItems": True,
                "description": "The bibliography ids (spec/sources.yaml) the file quotes.",
            },
            "attribution": {
                "type": "string",
                "pattern": ID_PATTERN,
                "description": "The primary source a secondary article reports for this file "
                "(pagat, altenburg).",
            },
            "extends": {
                "type": "string",
                "pattern": ID_PATTERN,
                "description": "Rulesets only: a ruleset whose rules this one inherits where it "
                "sets nothing itself.",
            },
            "origin": {
                "type": "string",
                "pattern": ID_PATTERN,
                "description": "The ruleset whose source describes this house rule.",
            },
            "requires": {
                "type": "array",
                "items": {"$ref": "#/$defs/condition"},
                "description": "House rules only: conditions on the ruleset underneath; a "
                "combination that fails one is rejected with its 'why'.",
            },
            "unresolved": {
                "type": "array",
                "description": "Rules the source mentions too vaguely to specify.",
                "items": {
                    "type": "object",
                    "properties": {
                        "topic": {"type": "string"},
                        "quotes": {"type": "array", "items": {"$ref": "#/$defs/citation"}},
                        "why": {"type": "string"},
                        "decision": {"type": "string", "pattern": DECISION_PATTERN},
                        "de": german("topic", "why"),
                    },
                    "required": ["topic", "quotes", "why"],
                    "additionalProperties": False,
                },
            },
            "rules": {
                "type": "object",
                "description": "The parameters, group by group: each with 'value' and exactly "
                "one provenance.",
                "properties": groups,
                "additionalProperties": False,
            },
        },
        "required": ["id", "kind", "title", "rules"],
        "additionalProperties": False,
        "allOf": [
            {
                "if": {"properties": {"kind": {"const": "house-rule"}}, "required": ["kind"]},
                "then": {
                    "required": ["origin"],
                    "not": {"required": ["extends"]},
                    "x-messages": {"not": "a house rule cannot 'extend' anything"},
                },
            },
            {
                "if": {"properties": {"kind": {"const": "ruleset"}}, "required": ["kind"]},
                "then": {
                    "not": {"anyOf": [{"required": ["requires"]}, {"required": ["origin"]}]},
                    "x-messages": {"not": "'requires' and 'origin' belong to house rules only"},
                },
            },
        ],
        "$defs": defs,
    }


def render() -> str:
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else schema_dir() / "ruleset.schema.json"
    target.write_text(render(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
