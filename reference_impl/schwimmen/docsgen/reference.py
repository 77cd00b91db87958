"""Reference pages: the CLI (from its argparse parser), the file format (from the JSON
Schema and the parameter registry) and the decisions index (from the resolved spec).

Each is generated from the thing it documents, so a new subcommand, parameter or
decision appears on the site without anybody editing a page.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from schwimmen.docsgen.blocks import block
from schwimmen.docsgen.context import Site
from schwimmen.docsgen.markup import (
    esc,
    fixture_page,
    house_rule_page,
    param_anchor,
    ruleset_page,
)
from schwimmen.docsgen.tags import code as html_code
from schwimmen.docsgen.tags import joined
from schwimmen.docsgen.tags import link as html_link
from schwimmen.docsgen.templates import render, render_markdown
from schwimmen.docsgen.values import value_key
from schwimmen.spec.model import Ruleset
from schwimmen.spec.pagedata import words
from schwimmen.spec.parameters import GROUPS, PARAMETERS, Parameter


def _head(*columns: str, language: str = "en") -> list[str]:
    """A table's header row from the labels ``reference.head.<column>``."""
    return [words()(f"reference.head.{column}", language) for column in columns]


# ----------------------------------------------------------------------------- CLI


@dataclass(frozen=True)
class Argument:
    """One argument of a command as ``--help`` lists it: its spellings (or its name), its
    help, its choices, how many values it takes, and its default (for an option that
    takes a value and has one)."""

    names: tuple[str, ...]
    help: str
    choices: tuple[str, ...] | None
    nargs: str | int | None
    default: str | None


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, one-line help, description, usage, arguments and the
    whole of its ``--help``."""

    name: str
    help: str
    description: str
    usage: str
    arguments: tuple[Argument, ...]
    full_help: str


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


def _arguments(parser: argparse.ArgumentParser) -> tuple[Argument, ...]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        names = tuple(action.option_strings) or (str(action.metavar or action.dest),)
        choices = None if action.choices is None else tuple(str(c) for c in action.choices)
        shows_default = action.option_strings and action.nargs != 0
        default = action.default if shows_default else None
        shown = None if default in (None, argparse.SUPPRESS) else str(default)
        out.append(Argument(names, _expand_help(parser, action), choices, action.nargs, shown))
    return tuple(out)


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


def cli_parts(parser: argparse.ArgumentParser) -> dict[str, str]:
    """The generated parts of ``docs/reference/cli.md``: every subcommand with usage,
    arguments and the exact help, as the parser has them (``cli.md`` lays them out)."""
    with _terminal_width():
        commands = [
            Command(
                name,
                help_text,
                sub.description or "",
                sub.format_usage().strip(),
                _arguments(sub),
                sub.format_help().rstrip(),
            )
            for name, help_text, sub in _subcommands(parser)
        ]
        usage = parser.format_usage().strip()
    data = {"prog": parser.prog, "usage": usage, "args": _arguments(parser), "commands": commands}
    return {
        "cli-description": esc(parser.description or ""),
        "cli-overview": render_markdown("cli.md", "en", part="overview", **data),
        "cli-commands": render_markdown("cli.md", "en", part="commands", **data),
    }


# ----------------------------------------------------------------------------- schema


def _users(param: Parameter, site: Site) -> dict[str, tuple[Any, list[tuple[str, str]]]]:
    """Value (as a key) → (the value, the rulesets and house rules that play it, each with
    its page)."""
    by_value: dict[str, tuple[Any, list[tuple[str, str]]]] = {}
    owners: list[tuple[str, str, Ruleset, bool]] = [
        (rid, ruleset_page(rid), r, False) for rid, r in site.rulesets.items()
    ]
    owners += [(hid, house_rule_page(hid), r, True) for hid, r in site.with_house_rule.items()]
    for owner, page, ruleset, house in owners:
        setting = ruleset.settings.get(param.path)
        if setting is None or (house and setting.origin != owner):
            continue
        entry = by_value.setdefault(value_key(setting.value), (setting.value, []))
        entry[1].append(("+" + owner if house else owner, page))
    return by_value


def schema_parts(schema: Mapping[str, Any], site: Site) -> dict[str, str]:
    """The generated parts of ``docs/reference/schema.md``: the top-level keys, the shared
    types, then every parameter with its meaning, values, applicability and users."""
    defs: Mapping[str, Any] = schema.get("$defs", {})

    def part(name: str, **data: Any) -> str:
        return block(
            render(
                "schema.html",
                "en",
                part=name,
                schema=schema,
                defs=defs,
                value_key=value_key,
                **data,
            )
        )

    groups = [(g, t, [p for p in PARAMETERS if p.group == g]) for g, t in GROUPS.items()]
    users = {p.path: _users(p, site) for p in PARAMETERS}
    missing = {
        p.path: [rid for rid, r in site.rulesets.items() if p.path not in r.settings]
        for p in PARAMETERS
    }
    about = f"**{esc(str(schema.get('title', '')))}.** {esc(str(schema.get('description', '')))}"
    return {
        "schema-about": "> " + about,
        "schema-file-keys": part("keys"),
        "schema-provenance-types": part(
            "definitions", names=("citation", "cited", "interpreted", "default", "condition")
        ),
        "schema-value-types": part("definitions", names=("rank", "suit", "points", "penalty")),
        "parameter-count": str(len(PARAMETERS)),
        "schema-parameters": part("parameters", groups=groups, users=users, missing=missing),
    }


# ----------------------------------------------------------------------------- decisions


def _decision_rows(site: Site, decision: str) -> list[tuple[Any, ...]]:
    """Each rule that applies ``decision`` (owner, its page, parameter, value, kind, the
    reading or reason), and each thing a ruleset leaves open by it."""
    rows: list[tuple[Any, ...]] = []
    owners: list[tuple[str, Ruleset, str]] = [
        (rid, r, ruleset_page(rid)) for rid, r in site.rulesets.items()
    ]
    owners += [(hid, r, house_rule_page(hid)) for hid, r in site.with_house_rule.items()]
    for owner, ruleset, page in owners:
        for setting in ruleset.settings.values():
            prov = setting.provenance
            if setting.origin == owner and prov.decision == decision:
                target = f"{page}#{param_anchor(setting.param)}"
                why = prov.reading or prov.why or ""
                rows.append((owner, target, setting.param, setting.value, prov.kind, why))
        if owner in site.rulesets:
            for item in ruleset.unresolved:
                if item.decision == decision:
                    rows.append((owner, f"{page}#unresolved", "", item.topic, None, item.why))
    return rows


def decisions_parts(site: Site) -> dict[str, str]:
    """The generated part of ``docs/reference/decisions.md``: every decision (U number) the
    spec or the fixtures rely on, titled from ``spec/decisions.yaml``, and where."""
    used = site.suite.decisions() if site.suite is not None else {}
    titles = {f.id: f.title for f in site.suite.fixtures} if site.suite is not None else {}
    decisions = [
        (d, site.decision_titles.get(d, ""), _decision_rows(site, d), used.get(d, []))
        for d in sorted(site.all_decisions)
    ]

    def fixture_links(ids: list[str]) -> Markup:
        return joined(html_link(fixture_page(i), html_code(i), titles[i]) for i in ids)

    body = render(
        "decisions.html", "en", decisions=decisions, own=site.decisions, fixture_links=fixture_links
    )
    return {"decisions": block(body)}
