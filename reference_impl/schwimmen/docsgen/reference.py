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
from schwimmen.docsgen.glossary import Term
from schwimmen.docsgen.markup import (
    CLI_REFERENCE,
    DECISIONS,
    GLOSSARY,
    SCHEMA_REFERENCE,
    badge,
    citation_md,
    code,
    decision_anchor,
    esc,
    house_rule_page,
    link,
    param_anchor,
    ruleset_page,
    table,
)
from schwimmen.docsgen.values import short_md, value_key
from schwimmen.spec.model import ProvenanceKind, Ruleset
from schwimmen.spec.parameters import GROUPS, PARAMETERS, Parameter

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
            details.append("one of " + ", ".join(code(str(c)) for c in action.choices))
        if action.nargs in ("+", "*"):
            details.append("one or more" if action.nargs == "+" else "any number")
        shows_default = action.option_strings and action.nargs != 0
        if shows_default and action.default not in (None, argparse.SUPPRESS):
            details.append(f"default {code(str(action.default))}")
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


def subcommand_names(parser: argparse.ArgumentParser) -> list[str]:
    return [name for name, _, _ in _subcommands(parser)]


def cli_markdown(parser: argparse.ArgumentParser) -> str:
    """The CLI reference: every subcommand with usage, arguments and the exact help."""
    with _terminal_width():
        return _cli_markdown(parser)


def _cli_markdown(parser: argparse.ArgumentParser) -> str:
    here = CLI_REFERENCE
    out = [
        "# Command line",
        "",
        esc(parser.description or ""),
        "",
        "Generated from the program's own argument parser, so it lists exactly what "
        f"{code(parser.prog)} accepts.",
        "",
        "```text",
        parser.format_usage().strip(),
        "```",
        "",
    ]
    rows = _argument_rows(parser)
    if rows:
        out += [table(["argument", "meaning", "values"], rows), ""]
    commands = _subcommands(parser)
    out += [
        table(
            ["command", "what it does"],
            [[f"[{code(n)}](#{n})", esc(h)] for n, h, _ in commands],
        ),
        "",
    ]
    for name, help_text, sub in commands:
        sentence = help_text[:1].upper() + help_text[1:]
        out += [f"## {parser.prog} {name} {{#{name}}}", "", esc(sentence) + ".", ""]
        if sub.description:
            out += [esc(sub.description), ""]
        out += ["```text", sub.format_usage().strip(), "```", ""]
        sub_rows = _argument_rows(sub)
        if sub_rows:
            out += [table(["argument", "meaning", "values"], sub_rows), ""]
        out += [
            f'??? example "Full help: {parser.prog} {name} --help"',
            "",
            "    ```text",
            *["    " + line for line in sub.format_help().rstrip().splitlines()],
            "    ```",
            "",
        ]
    out += [
        "Every value a command prints is explained in the "
        f"{link(here, SCHEMA_REFERENCE, 'file format')} reference; German words are in the "
        f"{link(here, GLOSSARY, 'glossary')}.",
        "",
    ]
    return "\n".join(out)


# ----------------------------------------------------------------------------- schema

_FILE_KEYS: Mapping[str, str] = {
    "id": "The file's name without .yaml; lower case words joined by hyphens.",
    "kind": "ruleset or house-rule.",
    "title": "A short English title.",
    "summary": "A paragraph on what the ruleset or house rule is and where it comes from.",
    "sources": "The bibliography ids (spec/sources.yaml) the file quotes.",
    "attribution": "The primary source a secondary article reports for this file (pagat, "
    "altenburg).",
    "extends": "Rulesets only: a ruleset whose rules this one inherits where it sets nothing "
    "itself.",
    "origin": "House rules only: the ruleset whose source describes the house rule.",
    "requires": "House rules only: conditions on the ruleset underneath; a combination that "
    "fails one is rejected with its 'why'.",
    "unresolved": "Rules the source mentions too vaguely to specify.",
    "rules": "The parameters, group by group: each with 'value' and exactly one provenance.",
}


def schema_type(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> str:
    """A short human description of a JSON Schema (markdown)."""
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return f"[{name}](#def-{name})" if name in defs else code(name)
    if "const" in schema:
        return code(str(schema["const"]))
    if "enum" in schema:
        return "one of " + ", ".join(code(str(v)) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(schema_type(s, defs) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "array":
        items = schema_type(schema.get("items", {}), defs)
        extra = []
        if "minItems" in schema:
            extra.append(f"at least {schema['minItems']}")
        if schema.get("uniqueItems"):
            extra.append("no repeats")
        return f"list of {items}" + (f" ({', '.join(extra)})" if extra else "")
    if kind == "object":
        props = schema.get("properties", {})
        if props:
            inner = ", ".join(f"{code(k)}: {schema_type(v, defs)}" for k, v in props.items())
            return "{" + inner + "}"
        if "propertyNames" in schema:
            value = schema_type(schema.get("additionalProperties", {}), defs)
            return f"map from {schema_type(schema['propertyNames'], defs)} to {value}"
        return "object"
    if kind in ("integer", "number"):
        word = "whole number" if kind == "integer" else "number"
        lo, hi = schema.get("minimum"), schema.get("maximum")
        rng = f" {lo}–{hi}" if lo is not None and hi is not None else ""
        step = " in steps of ½" if schema.get("multipleOf") == 0.5 else ""
        return word + rng + step
    if kind == "string":
        pattern = schema.get("pattern")
        return "text" + (f" matching {code(str(pattern))}" if pattern else "")
    return "any"


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
    return [["*does not apply*", *([""] * (width - 2)), ", ".join(missing)]]


def parameter_entry(param: Parameter, site: Site, defs: Mapping[str, Any]) -> str:
    """One parameter: what it means, its values with who plays each, when it applies."""
    here = SCHEMA_REFERENCE
    where = f"{code(param.path)}" + (
        f" · rules matrix § {esc(param.matrix)}" if param.matrix else ""
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
        out += [table(["value", "meaning", "played by"], rows), ""]
        if param.schema.get("type") == "array":
            out += ["The value is a list of these.", ""]
    else:
        out += [f"**Allowed values:** {schema_type(param.schema, defs)}", ""]
        rows = [[f"**{short_md(param.path, v)}**", ", ".join(u)] for v, u in users.values()]
        rows += _not_applicable_row(param, site, here, 2)
        out += [table(["value", "played by"], rows), ""]
    if param.applies_when:
        conds = "; ".join(esc(c.describe()) for c in param.applies_when)
        out += [f"**Applies when:** {conds}. Elsewhere it must not be set.", ""]
    else:
        out += ["**Applies:** always; every ruleset sets it.", ""]
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
                "yes" if k in required else "",
                schema_type(v, defs),
                esc(str(v.get("description", ""))),
            ]
            for k, v in props.items()
        ]
        out += [table(["field", "required", "type", "meaning"], rows), ""]
    else:
        out += [f"**Type:** {schema_type(schema, defs)}", ""]
    return "\n".join(out)


def schema_markdown(schema: Mapping[str, Any], site: Site) -> str:
    """The file-format reference: the top-level keys, provenance, shared types, then
    every parameter with its meaning, values, applicability and users."""
    defs: Mapping[str, Any] = schema.get("$defs", {})
    here = SCHEMA_REFERENCE
    out = [
        "# File format",
        "",
        "Ruleset and house-rule files are YAML checked against "
        f"{code('schemas/ruleset.schema.json')} ({esc(str(schema.get('title', '')))}). "
        f"{esc(str(schema.get('description', '')))}",
        "",
        "This page is generated from that schema and from the parameter registry it is "
        "itself generated from, so it always matches what the loader accepts.",
        "",
        "## The file {#file}",
        "",
    ]
    props: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    rows = [
        [
            code(k),
            "yes" if k in required else "",
            schema_type(v, defs) if k != "rules" else "groups of parameters, below",
            esc(str(v.get("description") or _FILE_KEYS.get(k, ""))),
        ]
        for k, v in props.items()
    ]
    out += [table(["key", "required", "type", "meaning"], rows), ""]
    out += [
        "## Provenance {#provenance}",
        "",
        "Every parameter is a mapping with its `value` and exactly one of:",
        "",
        f"- {badge_for('cited')} `cited`: a list of citations: the source says so.",
        f"- {badge_for('interpreted')} `interpreted`: the quotes, the `reading` chosen and "
        "`why` (and the `decision` number where there is one).",
        f"- {badge_for('default')} `default`: the source is silent; `why` the value was "
        "chosen, the `decision` number, optionally related `quotes`.",
        "",
        "An optional `note` adds anything a reader should know.",
        "",
        "```yaml",
        "rules:",
        "  penalties:",
        "    knocker_lowest:",
        "      value: 2",
        "      cited:",
        '        - {source: s001, section: "Leben, Schwimmen und Spielende", line: 23,',
        '           quote: "Wer klopft und dann selbst die wenigsten Punkte hat, ..."}',
        "```",
        "",
    ]
    for name in ("citation", "cited", "interpreted", "default", "condition"):
        if name in defs:
            out.append(_def_section(name, defs[name], defs))
    out += ["## Shared value types {#types}", ""]
    for name in ("rank", "suit", "points", "penalty"):
        if name in defs:
            out.append(_def_section(name, defs[name], defs))
    out += ["## Parameters {#parameters}", ""]
    out += [
        f"The {len(PARAMETERS)} parameters, grouped as on the ruleset pages. A parameter that "
        "does not apply to a ruleset (a middle-card rule in a draw-and-discard game) must not "
        "be set there.",
        "",
    ]
    for group, title in GROUPS.items():
        out += [f"## {esc(title)} {{#group-{group}}}", ""]
        for param in PARAMETERS:
            if param.group == group:
                out.append(parameter_entry(param, site, defs))
    out += [f"See also the {link(here, CLI_REFERENCE, 'command line')} reference.", ""]
    return "\n".join(out)


def badge_for(kind: str) -> str:
    return badge(ProvenanceKind(kind))


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
                            "unresolved",
                            esc(item.topic),
                            esc(item.why),
                        ]
                    )
    return rows


def decisions_markdown(site: Site) -> str:
    """Every decision (U number) the spec relies on, titled from ``spec/decisions.yaml``,
    and where."""
    out = [
        "# Decisions",
        "",
        "Where the sources are silent or ambiguous, the rules matrix records a decision "
        "(U01, U02, …) and the spec cites it. This index lists every decision the spec or the "
        "conformance fixtures use, with every rule and fixture that depends on it, so a reader "
        "who disagrees with one sees at once what would change.",
        "",
    ]
    for decision in sorted(site.all_decisions):
        title = site.decision_titles.get(decision, "")
        heading = f"{decision} — {esc(title)}" if title else decision
        out += [f"## {heading} {{#{decision_anchor(decision)}}}", ""]
        rows = _decision_rows(site, decision)
        if rows:
            out += [table(["where", "rule", "value", "reading or reason"], rows), ""]
        elif decision not in site.decisions:
            out += ["No rule of the spec cites it; conformance fixtures rest on it.", ""]
        if site.suite is not None:
            used = decision_fixtures(site.suite, decision, DECISIONS)
            if used:
                out += [used, "{: .fx-decision }", ""]
    return "\n".join(out)


def glossary_markdown(terms: Sequence[Term]) -> str:
    """The glossary of German terms, each with its source quote(s)."""
    here = GLOSSARY
    out = [
        "# Glossary",
        "",
        "The German words of the game as the sources use them. Every quote on this site is "
        "German and verbatim; this page is the key to them.",
        "",
        " · ".join(f"[{esc(t.german)}](#{t.anchor})" for t in terms),
        "",
    ]
    for term in terms:
        out += [f"## {esc(term.german)} {{#{term.anchor}}}", ""]
        out += [f"*{esc(term.english)}*. {esc(term.meaning)}", ""]
        for quote in term.quotes:
            out += [citation_md(quote, here), ""]
        if term.params:
            links = ", ".join(
                link(here, f"{SCHEMA_REFERENCE}#{param_anchor(p)}", code(p)) for p in term.params
            )
            out += [f"<small>Rules: {links}</small>", ""]
    return "\n".join(out)
