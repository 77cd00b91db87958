"""Guides: adding a house rule (with a worked example the build resolves), and the two
pages that arrive with the engine and the conformance suite.

The worked example is a real file, ``docs/examples/house-rule-example.yaml``. The build
loads it through the loader exactly as ``schwimmen show pagat+FILE`` would and fails if
it does not resolve, so the guide can never show a house rule that does not work.
"""

from __future__ import annotations

from schwimmen.docsgen.context import Site, changed_params
from schwimmen.docsgen.markup import (
    CLI_REFERENCE,
    COMPARISON,
    DISAGREEMENTS,
    GLOSSARY,
    GUIDE_HOUSE_RULE,
    GUIDE_PLAY,
    GUIDE_TEST,
    HOUSE_RULES_INDEX,
    SCHEMA_REFERENCE,
    code,
    esc,
    house_rule_page,
    link,
    param_anchor,
    table,
)
from schwimmen.docsgen.rulepages import legend, setting_section
from schwimmen.docsgen.values import short_md
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import BY_PATH

EXAMPLE_PATH = "docs/examples/house-rule-example.yaml"


def _first_rejection(site: Site) -> tuple[str, str, str] | None:
    """A real rejection message from the loader, to show what a misfit looks like."""
    for hid in site.house_rules:
        for fit in site.fits(hid):
            if not fit.ok:
                return hid, fit.ruleset, fit.reason
    return None


def house_rule_guide_markdown(site: Site, example_text: str, example: Ruleset) -> str:
    here = GUIDE_HOUSE_RULE
    base = site.rulesets[example.base]
    hid = example.overlays[0] if example.overlays else "house-rule-example"
    out = [
        "# Add a house rule",
        "",
        "Your table plays one rule differently? A house rule is a small YAML file that changes "
        "a few rules of a ruleset and says why. The loader checks it, puts it on top of the "
        "ruleset and tells you exactly what changed.",
        "",
        "## 1. Find the rule {#find}",
        "",
        f"Every rule is a parameter such as {code('lives.count')} or "
        f"{code('penalties.knocker_lowest')}. The {link(here, COMPARISON, 'comparison')} shows "
        f"what the rulesets choose; the {link(here, SCHEMA_REFERENCE, 'file format')} lists "
        "every parameter with its allowed values and when it applies.",
        "",
        "## 2. Write the file {#write}",
        "",
        f"This is {code(EXAMPLE_PATH)}, a real file: the site's build loads it and stops if it "
        "does not work.",
        "",
        "```yaml",
        example_text.rstrip(),
        "```",
        "",
        "- The first line names the JSON Schema, so an editor with the YAML language server "
        "completes parameter names and values while you type.",
        f"- {code('id')} is the file name without {code('.yaml')}; {code('kind')} is "
        f"{code('house-rule')}; {code('origin')} is the ruleset your rule belongs to.",
        f"- Each rule has a {code('value')} and exactly one provenance. Your own rule needs no "
        f"source: write {code('default')} with a {code('why')}. A rule a source describes "
        f"is {code('cited')}, with the verbatim German quote, its source, section and line; the "
        "loader checks the quote against the source text.",
        f"- {code('requires')} (optional) states what the ruleset underneath must be like; on a "
        "ruleset that does not satisfy it, the house rule is rejected with your reason.",
        "",
        "## 3. Check it {#check}",
        "",
        "```sh",
        f"schwimmen validate {EXAMPLE_PATH}",
        f"schwimmen show {example.base}+{EXAMPLE_PATH}",
        "```",
        "",
        f"{code('validate')} reports every problem as {code('file:line:col: $.path: message')}; "
        f"{code('show')} prints the whole ruleset with your rules marked. See the "
        f"{link(here, CLI_REFERENCE, 'command line')} reference.",
        "",
        "## What the loader makes of it {#result}",
        "",
        f"Generated at build time from {code(f'{example.base}+{EXAMPLE_PATH}')}:",
        "",
    ]
    rows = []
    for key in changed_params(base, example):
        before, after = base.settings.get(key), example.settings.get(key)
        rows.append(
            [
                link(here, f"{SCHEMA_REFERENCE}#{param_anchor(key)}", esc(BY_PATH[key].title)),
                f"**{short_md(key, before.value)}**" if before else "does not apply",
                f"**{short_md(key, after.value)}**" if after else "does not apply",
            ]
        )
    out += [table(["rule", code(example.base), f"with {code(hid)}"], rows), ""]
    out += [legend(here), ""]
    for setting in example.settings.values():
        if setting.origin == hid:
            out += [setting_section(setting, example, here, site, level=3, show_origin=False), ""]
    out += [
        "## When it does not fit {#misfit}",
        "",
        "A house rule that sets a rule which does not apply to the ruleset underneath, or whose "
        "requirement fails, is rejected; so are two house rules that set one rule differently.",
        "",
    ]
    rejection = _first_rejection(site)
    if rejection is not None:
        rhid, rid, reason = rejection
        out += [
            f"For example, {code(f'schwimmen show {rid}+{rhid}')} answers:",
            "",
            "```text",
            reason,
            "```",
            "",
            f"(from {link(here, house_rule_page(rhid) + '#fits', code(rhid))}'s list of where it "
            "fits).",
            "",
        ]
    out += [
        "## 4. Share it {#share}",
        "",
        "A house rule that a published source describes belongs in "
        f"{code('spec/house-rules/')}, with {code('cited')} quotes; it then gets its own page "
        f"among the {link(here, HOUSE_RULES_INDEX, 'house rules')}. German words in the quotes are "
        f"explained in the {link(here, GLOSSARY, 'glossary')}.",
        "",
    ]
    return "\n".join(out)


def _available(here: str, commands: list[str], wanted: tuple[str, ...]) -> str:
    """A sentence naming the wanted subcommands the CLI already has, linked to the CLI
    reference ('' when none), so a stub never hides a command that exists."""
    present = [c for c in wanted if c in commands]
    if not present:
        return ""
    links = " and ".join(
        link(here, f"{CLI_REFERENCE}#{c}", code(f"schwimmen {c}")) for c in present
    )
    return f" The command line already has {links}."


def testing_guide_markdown(commands: list[str]) -> str:
    here = GUIDE_TEST
    available = _available(here, commands, ("conformance", "serve"))
    return "\n".join(
        [
            "# Test your implementation",
            "",
            '!!! info "Arrives with the conformance suite"',
            "",
            "    This page arrives with the engine and the conformance suite: fixtures that deal "
            "a stacked pack, play given moves and state the outcome under each ruleset, and a "
            "harness that runs any implementation speaking the protocol against them. Until "
            f"then, the {link(here, SCHEMA_REFERENCE, 'file format')} defines every rule "
            f"exactly and {link(here, DISAGREEMENTS, 'the disagreements')} show the situations "
            f"the fixtures will pin.{available}",
            "",
        ]
    )


def play_guide_markdown(commands: list[str]) -> str:
    here = GUIDE_PLAY
    available = _available(here, commands, ("play", "simulate"))
    return "\n".join(
        [
            "# Play and simulate",
            "",
            '!!! info "Arrives with the engine"',
            "",
            "    This page arrives with the engine and the conformance suite: playing any "
            "ruleset (with house rules) against bots on the command line, and simulating many "
            "matches to see how a rule changes the game. Until then, "
            f"{link(here, COMPARISON, 'the comparison')} shows how the rulesets differ."
            f"{available}",
            "",
        ]
    )
