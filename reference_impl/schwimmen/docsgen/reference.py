"""Reference pages: the CLI (from its argparse parser), the file format (from the JSON
Schema and the parameter registry) and the decisions index (from the resolved spec).

Each is generated from the thing it documents, so a new subcommand, parameter or
decision appears on the site without anybody editing a page.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from schwimmen.docsgen.context import Site
from schwimmen.docsgen.fixturepages import decision_fixtures
from schwimmen.docsgen.markup import (
    DECISIONS,
    SCHEMA_REFERENCE,
    badge,
    code,
    decision_anchor,
    esc,
    house_rule_page,
    link,
    param_anchor,
    ruleset_page,
    table,
)
from schwimmen.docsgen.pagedata import words
from schwimmen.docsgen.values import short_md, value_key
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import GROUPS, PARAMETERS, Parameter


def _head(*columns: str, language: str = "en") -> list[str]:
    """A table's header row from the labels ``reference.head.<column>``."""
    return [words()(f"reference.head.{column}", language) for column in columns]


# ----------------------------------------------------------------------------- CLI


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """``(name, one-line help, parser)`` for every subcommand, in the parser's order."""
    out: list[tuple[str, str, argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                out.append((name, str(helps.get(name, "")), sub))
    return out


def _expand_help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help text as ``--help`` prints it (``%(default)s`` and friends filled in)."""
    if not action.help:
        return ""
    try:
        return parser._get_formatter()._expand_help(action)
    except (KeyError, TypeError, ValueError):
        return str(action.help)


def _argument_rows(parser: argparse.ArgumentParser) -> list[list[str]]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.option_strings:
            name = ", ".join(code(o) for o in action.option_strings)
        else:
            name = code(str(action.metavar or action.dest))
        details = []
        if action.choices is not None:
            values = ", ".join(code(str(c)) for c in action.choices)
            details.append(words()("reference.one-of", values=values))
        if action.nargs in ("+", "*"):
            details.append(
                words()("reference.one-or-more" if action.nargs == "+" else "reference.any-number")
            )
        shows_default = action.option_strings and action.nargs != 0
        if shows_default and action.default not in (None, argparse.SUPPRESS):
            details.append(words()("reference.default", value=code(str(action.default))))
        help_text = _expand_help(parser, action)
        rows.append([name, esc(help_text), "; ".join(details)])
    return rows


@contextmanager
def _terminal_width(columns: int = 88) -> Iterator[None]:
    """argparse wraps help to the terminal; fix the width so every build is the same."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        yield
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser | None:
    """The parser of one subcommand (``conformance``), or None when the CLI has none."""
    for sub_name, _, sub in _subcommands(parser):
        if sub_name == name:
            return sub
    return None


def option_help(parser: argparse.ArgumentParser) -> dict[str, tuple[str, str]]:
    """Every option of ``parser`` by each of its spellings: ``(shown name, help text)``,
    the help as ``--help`` prints it."""
    out: dict[str, tuple[str, str]] = {}
    with _terminal_width():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            names = list(action.option_strings) or [str(action.metavar or action.dest)]
            metavar = ""
            if action.option_strings and action.nargs != 0:
                metavar = " " + str(action.metavar or action.dest.upper())
            shown = ", ".join(n + metavar for n in names)
            for name in names:
                out[name] = (shown, _expand_help(parser, action))
    return out


def usage(parser: argparse.ArgumentParser) -> str:
    with _terminal_width():
        return parser.format_usage().strip()


def cli_parts(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The generated parts of ``docs/reference/cli.md``: every subcommand with usage,
    arguments and the exact help, as the parser has them."""
    with _terminal_width():
        return _cli_parts(parser)


def _cli_parts(parser: argparse.ArgumentParser) -> dict[str, str]:
    overview = ["```text", parser.format_usage().strip(), "```", ""]
    rows = _argument_rows(parser)
    if rows:
        overview += [table(_head("argument", "meaning", "values"), rows), ""]
    commands = _subcommands(parser)
    overview.append(
        table(
            _head("command", "what-it-does"),
            [[f"[{code(n)}](#{n})", esc(h)] for n, h, _ in commands],
        )
    )
    sections: list[str] = []
    for name, help_text, sub in commands:
        sentence = help_text[:1].upper() + help_text[1:]
        sections += [f"## {parser.prog} {name} {{#{name}}}", "", esc(sentence) + ".", ""]
        if sub.description:
            sections += [esc(sub.description), ""]
        sections += ["```text", sub.format_usage().strip(), "```", ""]
        sub_rows = _argument_rows(sub)
        if sub_rows:
            sections += [table(_head("argument", "meaning", "values"), sub_rows), ""]
        full_help = words()("reference.full-help", command=f"{parser.prog} {name} --help")
        sections += [
            f'??? example "{full_help}"',
            "",
            "    ```text",
            *["    " + line for line in sub.format_help().rstrip().splitlines()],
            "    ```",
            "",
        ]
    return {
        "cli-description": esc(parser.description or ""),
        "cli-overview": "\n".join(overview),
        "cli-commands": "\n".join(sections),
    }


# ----------------------------------------------------------------------------- schema


def schema_type(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """A short human description of a JSON Schema (markdown), in the words of
    ``spec/words.yaml``."""
    say = words()
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return f"[{name}](#def-{name})" if name in defs else code(name)
    if "const" in schema:
        return code(str(schema["const"]))
    if "enum" in schema:
        return say("reference.one-of", values=", ".join(code(str(v)) for v in schema["enum"]))
    if "anyOf" in schema:
        return f" {say('reference.type.or')} ".join(schema_type(s, defs) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "array":
        items = schema_type(schema.get("items", {}), defs)
        extra = []
        if "minItems" in schema:
            extra.append(say("reference.type.at-least", n=schema["minItems"]))
        if schema.get("uniqueItems"):
            extra.append(say("reference.type.no-repeats"))
        return say("reference.type.list", items=items) + (f" ({', '.join(extra)})" if extra else "")
    if kind == "object":
        props = schema.get("properties", {})
        if props:
            inner = ", ".join(f"{code(k)}: {schema_type(v, defs)}" for k, v in props.items())
            return "{" + inner + "}"
        if "propertyNames" in schema:
            value = schema_type(schema.get("additionalProperties", {}), defs)
            keys = schema_type(schema["propertyNames"], defs)
            return say("reference.type.map", keys=keys, values=value)
        return say("reference.type.object")
    if kind in ("integer", "number"):
        word = say(f"reference.type.{kind}")
        lo, hi = schema.get("minimum"), schema.get("maximum")
        rng = f" {lo}–{hi}" if lo is not None and hi is not None else ""
        step = say("reference.type.halves") if schema.get("multipleOf") == 0.5 else ""
        return word + rng + step
    if kind == "string":
        pattern = schema.get("pattern")
        if pattern:
            return say("reference.type.matching", pattern=code(str(pattern)))
        return say("reference.type.text")
    return say("reference.type.any")


def _users(param: Parameter, site: Site, here: str) -> dict[str, tuple[Any, list[str]]]:
    """Value (as a key) → (the value, links to the rulesets and house rules using it)."""
    by_value: dict[str, tuple[Any, list[str]]] = {}
    for rid, ruleset in site.rulesets.items():
        setting = ruleset.settings.get(param.path)
        if setting is None:
            continue
        entry = by_value.setdefault(value_key(setting.value), (setting.value, []))
        entry[1].append(link(here, f"{ruleset_page(rid)}#{param_anchor(param.path)}", code(rid)))
    for hid, combined in site.with_house_rule.items():
        setting = combined.settings.get(param.path)
        if setting is None or setting.origin != hid:
            continue
        entry = by_value.setdefault(value_key(setting.value), (setting.value, []))
        entry[1].append(
            link(here, f"{house_rule_page(hid)}#{param_anchor(param.path)}", f"+{code(hid)}")
        )
    return by_value


def _not_applicable_row(param: Parameter, site: Site, here: str, width: int) -> list[list[str]]:
    missing = [
        link(here, ruleset_page(rid), code(rid))
        for rid, r in site.rulesets.items()
        if param.path not in r.settings
    ]
    if not missing:
        return []
    label = f"*{words()('reference.does-not-apply')}*"
    return [[label, *([""] * (width - 2)), ", ".join(missing)]]


def parameter_entry(param: Parameter, site: Site, defs: Mapping[str, Any]) -> str:
    """One parameter: what it means, its values with who plays each, when it applies."""
    here = SCHEMA_REFERENCE
    where = f"{code(param.path)}" + (
        " · " + words()("reference.matrix-section", section=esc(param.matrix))
        if param.matrix
        else ""
    )
    out = [
        f"### {esc(param.title)} {{#{param_anchor(param.path)}}}",
        "",
        where,
        "",
        esc(param.description),
        "",
    ]
    users = _users(param, site, here)
    if param.choices:
        single = {k: v for k, v in users.items() if isinstance(v[0], str)}
        rows = [
            [code(k), esc(v), ", ".join(single.get(value_key(k), (None, ["—"]))[1])]
            for k, v in param.choices.items()
        ]
        combos = [
            [f"**{short_md(param.path, v)}**", "", ", ".join(u)]
            for key, (v, u) in users.items()
            if key not in single
        ]
        rows += combos + _not_applicable_row(param, site, here, 3)
        out += [table(_head("value", "meaning", "played-by"), rows), ""]
        if param.schema.get("type") == "array":
            out += [words()("reference.list-of-these"), ""]
    else:
        allowed = words()("reference.allowed-values")
        out += [f"**{allowed}** {schema_type(param.schema, defs)}", ""]
        rows = [[f"**{short_md(param.path, v)}**", ", ".join(u)] for v, u in users.values()]
        rows += _not_applicable_row(param, site, here, 2)
        out += [table(_head("value", "played-by"), rows), ""]
    if param.applies_when:
        conds = "; ".join(esc(c.describe()) for c in param.applies_when)
        say = words()
        out += [
            f"**{say('reference.applies-when')}** {conds}. {say('reference.elsewhere-not-set')}",
            "",
        ]
    else:
        say = words()
        out += [f"**{say('reference.applies-always')}** {say('reference.applies-always-text')}", ""]
    return "\n".join(out)


def _def_section(name: str, schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    out = [f"### {name} {{#def-{name}}}", ""]
    if schema.get("description"):
        out += [esc(str(schema["description"])), ""]
    props = schema.get("properties")
    if props:
        required = set(schema.get("required", ()))
        rows = [
            [
                code(k),
                words()("reference.yes") if k in required else "",
                schema_type(v, defs),
                esc(str(v.get("description", ""))),
            ]
            for k, v in props.items()
        ]
        out += [table(_head("field", "required", "type", "meaning"), rows), ""]
    else:
        out += [f"**{words()('reference.type-label')}** {schema_type(schema, defs)}", ""]
    return "\n".join(out)


def schema_parts(schema: Mapping[str, Any], site: Site) -> dict[str, str]:
    """The generated parts of ``docs/reference/schema.md``: the top-level keys, the shared
    types, then every parameter with its meaning, values, applicability and users."""
    defs: Mapping[str, Any] = schema.get("$defs", {})
    props: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    rows = [
        [
            code(k),
            words()("reference.yes") if k in required else "",
            schema_type(v, defs) if k != "rules" else words()("reference.groups-below"),
            esc(str(v.get("description", ""))),
        ]
        for k, v in props.items()
    ]
    parameters: list[str] = []
    for group, title in GROUPS.items():
        parameters += [f"## {esc(title)} {{#group-{group}}}", ""]
        parameters += [parameter_entry(p, site, defs) for p in PARAMETERS if p.group == group]
    about = f"**{esc(str(schema.get('title', '')))}.** {esc(str(schema.get('description', '')))}"
    return {
        "schema-about": "> " + about,
        "schema-file-keys": table(_head("key", "required", "type", "meaning"), rows),
        "schema-provenance-types": _def_sections(
            defs, ("citation", "cited", "interpreted", "default", "condition")
        ),
        "schema-value-types": _def_sections(defs, ("rank", "suit", "points", "penalty")),
        "parameter-count": str(len(PARAMETERS)),
        "schema-parameters": "\n".join(parameters),
    }


def _def_sections(defs: Mapping[str, Any], names: Sequence[str]) -> str:
    return "\n".join(_def_section(name, defs[name], defs) for name in names if name in defs)


# ----------------------------------------------------------------------------- decisions


def _decision_rows(site: Site, decision: str) -> list[list[str]]:
    here = DECISIONS
    rows: list[list[str]] = []
    sources: list[tuple[str, Ruleset, str]] = [
        (rid, r, ruleset_page(rid)) for rid, r in site.rulesets.items()
    ]
    sources += [(hid, r, house_rule_page(hid)) for hid, r in site.with_house_rule.items()]
    for owner, ruleset, page in sources:
        for setting in ruleset.settings.values():
            if setting.origin != owner or setting.provenance.decision != decision:
                continue
            prov = setting.provenance
            rows.append(
                [
                    link(here, f"{page}#{param_anchor(setting.param)}", code(owner)),
                    code(setting.param),
                    f"**{short_md(setting.param, setting.value)}** {badge(prov.kind)}",
                    esc(prov.reading or prov.why or ""),
                ]
            )
        if owner in site.rulesets:
            for item in ruleset.unresolved:
                if item.decision == decision:
                    rows.append(
                        [
                            link(here, page + "#unresolved", code(owner)),
                            words()("reference.unresolved"),
                            esc(item.topic),
                            esc(item.why),
                        ]
                    )
    return rows


def decisions_parts(site: Site) -> dict[str, str]:
    """The generated part of ``docs/reference/decisions.md``: every decision (U number) the
    spec or the fixtures rely on, titled from ``spec/decisions.yaml``, and where."""
    out: list[str] = []
    for decision in sorted(site.all_decisions):
        title = site.decision_titles.get(decision, "")
        heading = f"{decision} — {esc(title)}" if title else decision
        out += [f"## {heading} {{#{decision_anchor(decision)}}}", ""]
        rows = _decision_rows(site, decision)
        if rows:
            out += [table(_head("where", "rule", "value", "reading-or-reason"), rows), ""]
        elif decision not in site.decisions:
            out += [words()("reference.fixtures-only"), ""]
        if site.suite is not None:
            used = decision_fixtures(site.suite, decision, DECISIONS)
            if used:
                out += [used, "{: .fx-decision }", ""]
    return {"decisions": "\n".join(out)}
