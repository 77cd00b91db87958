"""The home page: what Schwimmen is, the sources and how far to trust each, three paths.

The sources section is the bibliography (``spec/sources.yaml``) as the loader reads it,
with each source's own reliability statement: a reader deciding whether to trust a
rule should see what the project knows about the text it comes from.
"""

from __future__ import annotations

from schwimmen.docsgen.context import Site, kind_counts
from schwimmen.docsgen.markup import (
    COMPARISON,
    DISAGREEMENTS,
    FIXTURES_INDEX,
    GLOSSARY,
    GUIDE_HOUSE_RULE,
    GUIDE_TEST,
    HOME,
    HOUSE_RULES_INDEX,
    RULESETS_INDEX,
    SCHEMA_REFERENCE,
    badge,
    citation_md,
    code,
    esc,
    link,
    rel,
    ruleset_page,
    table,
)
from schwimmen.spec.model import Citation, ProvenanceKind

# Quotes on the home page; the build checks them against the source texts like the glossary.
INTRO_QUOTES: tuple[Citation, ...] = (
    Citation(
        "s001",
        "Einleitung",
        "Beim Schwimmen hält jeder drei Karten und versucht, mit Karten einer Farbe möglichst "
        "nah an 31 Punkte zu kommen.",
        line=1,
    ),
    Citation(
        "s001",
        "Einleitung",
        "Wer alle drei Leben verloren hat, schwimmt; verliert er noch einmal, ist er ertrunken "
        "und scheidet aus.",
        line=1,
    ),
    Citation(
        "s001",
        "Varianten",
        "vor der ersten Runde die Hausregeln klären",
        line=25,
    ),
)


def _testing_card(site: Site, here: str) -> str:
    """The home page's "Test an implementation" card, naming the suite when the build has it."""
    text = (
        "Every rule is a parameter with exact values: read the "
        f"{link(here, SCHEMA_REFERENCE, 'file format')}, then run the conformance suite "
        f"against your engine: {link(here, GUIDE_TEST, 'Test your implementation')}."
    )
    if site.suite is not None:
        text += (
            f" Browse its {len(site.suite.fixtures)} "
            f"{link(here, FIXTURES_INDEX, 'fixtures')}, with the cards on the table."
        )
    return text


def home_markdown(site: Site) -> str:
    here = HOME
    bib = site.catalog.bibliography
    total = {k: 0 for k in ProvenanceKind}
    for ruleset in site.rulesets.values():
        for kind, n in kind_counts(ruleset, own_only=True).items():
            total[kind] += n
    out = [
        "---",
        "hide:",
        "  - navigation",
        "---",
        "",
        "# Schwimmen: the rules, with their sources",
        "",
        "**Schwimmen** (also *31*, *Schnauz*, *Knack*) is a German card game for a table of "
        "friends. Everybody holds three cards and swaps with three open cards in the middle, "
        "trying to get as close to 31 as possible in one suit. A player who is content knocks; "
        "everybody else has one more turn; the lowest hand loses a life. Whoever has lost his "
        "last life *swims*, and the next loss puts him out. The last player left wins.",
        "",
        citation_md(INTRO_QUOTES[0], here),
        "",
        citation_md(INTRO_QUOTES[1], here),
        "",
        "Schwimmen has as many rulebooks as tables. This site sets "
        f"{len(site.rulesets)} published rulesets side by side. Every rule says where it "
        "comes from, in one of three ways:",
        "",
        f"- {badge(ProvenanceKind.CITED)} the source says so: the German quote and where it "
        "stands;",
        f"- {badge(ProvenanceKind.INTERPRETED)} the source is ambiguous: the quote, the reading "
        "chosen and why;",
        f"- {badge(ProvenanceKind.DEFAULT)} the sources are silent: the choice made and why, "
        "with the number of the decision (U01 …).",
        "",
        f"Across the rulesets' own rules: {total[ProvenanceKind.CITED]} cited, "
        f"{total[ProvenanceKind.INTERPRETED]} interpreted, {total[ProvenanceKind.DEFAULT]} "
        "default. The German words are explained in the "
        f"{link(here, GLOSSARY, 'glossary')}.",
        "",
        "## Three ways in {#paths}",
        "",
        '<div class="grid cards" markdown>',
        "",
        "-   **Read the rules**",
        "",
        "    ---",
        "",
        f"    Pick a ruleset from the {link(here, RULESETS_INDEX, 'list')}, set them all side by "
        f"side in the {link(here, COMPARISON, 'comparison')}, or see "
        f"{link(here, DISAGREEMENTS, 'where they disagree')}, with the cards on the table.",
        "",
        "-   **Test an implementation**",
        "",
        "    ---",
        "",
        f"    {_testing_card(site, here)}",
        "",
        "-   **Add a house rule**",
        "",
        "    ---",
        "",
        f"    Your table plays it differently? Write a small file: "
        f"{link(here, GUIDE_HOUSE_RULE, 'Add a house rule')}, or start from one of the "
        f"{link(here, HOUSE_RULES_INDEX, 'house rules')} the sources mention.",
        "",
        "</div>",
        "",
        "## The sources {#sources}",
        "",
        "Five German texts, quoted verbatim and never translated. The texts themselves are not "
        "published with the project (they are other people's prose); every quote is checked "
        "against them character for character when the spec is loaded.",
        "",
    ]
    rows = []
    for source in bib.sources.values():
        rulesets = ", ".join(
            link(here, ruleset_page(r), code(r)) for r in source.rulesets if r in site.rulesets
        )
        rows.append([f"[{source.id}](#{source.id})", esc(source.title), esc(source.kind), rulesets])
    out += [table(["id", "title", "kind", "rulesets"], rows), ""]
    for source in bib.sources.values():
        out += [f"### {source.id}: {esc(source.title)} {{#{source.id}}}", ""]
        out += [f"*{esc(source.kind)}*. {esc(source.covers)}", ""]
        out += [
            '!!! trust "How far to trust it"',
            "",
            f"    {esc(source.reliability)}",
            "",
        ]
        if source.reports:
            out += ["It reports these primary sources, which the spec names as *attribution*:", ""]
            for report in source.reports:
                note = f" {esc(report.note)}" if report.note else ""
                out.append(
                    f"- **{esc(report.id)}** (footnote {report.footnote}): "
                    f"*{esc(report.title)}*, {esc(report.by)}; {esc(report.kind)}.{note}"
                )
            out.append("")
        described = [r for r in source.rulesets if r in site.rulesets]
        if described:
            out.append(
                "Rulesets from this source: "
                + ", ".join(link(here, ruleset_page(r), code(r)) for r in described)
                + "."
            )
            out.append("")
    out += [
        "## Before the first round {#before}",
        "",
        citation_md(INTRO_QUOTES[2], here),
        "",
        "Agree on the rules before you play: pick a ruleset, add the house rules your table "
        f"uses, and check them with {code('schwimmen show RULESET+HOUSE-RULE')}. The "
        f"{link(here, COMPARISON, 'comparison')} shows what you are choosing between.",
        "",
        f"<small>This site is generated from the spec at build time; "
        f"[the ruleset pages]({rel(here, RULESETS_INDEX)}) show exactly what the loader "
        "resolves.</small>",
        "",
    ]
    return "\n".join(out)
