"""A page per ruleset and per house rule: every rule in words, with its provenance.

A rule page is read by players settling an argument at the table, so each rule leads
with its value in plain language and follows with the evidence: the German quote when
the source says so, the reading and its reason when the source is ambiguous, the
choice and its reason (with the rules-matrix U number) when the sources are silent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schwimmen.docsgen.context import Site, changed_params, kind_counts
from schwimmen.docsgen.markup import (
    COMPARISON,
    GUIDE_HOUSE_RULE,
    HOUSE_RULES_INDEX,
    PAIRS_INDEX,
    RULESETS_INDEX,
    SCHEMA_REFERENCE,
    admonition,
    badge,
    citation_md,
    code,
    esc,
    house_rule_page,
    in_english,
    link,
    link_refs,
    link_sources,
    origin_badge,
    param_anchor,
    provenance_block,
    rel,
    ruleset_page,
    source_link,
    table,
)
from schwimmen.docsgen.pagedata import words
from schwimmen.docsgen.values import explanation, short_md
from schwimmen.spec.loader import SpecFile, translations_of
from schwimmen.spec.model import ProvenanceKind, Ruleset, Setting, translated
from schwimmen.spec.parameters import BY_PATH, GROUPS, PARAMETERS, applicable


def legend(here: str, language: str = "en") -> str:
    """The key to the three provenance kinds, shown at the top of rule pages."""
    say = words()
    items = [
        f"{badge(kind, language=language)} {esc(say(f'kind.{kind.value}.help', language))}"
        for kind in ProvenanceKind
    ]
    return '<div class="prov-legend" markdown>\n' + "<br>\n".join(items) + "\n</div>\n"


def facts_block(facts: list[tuple[str, str]]) -> str:
    """Key facts of a page as a compact definition list."""
    items = [f"{key}\n:   {value}\n" for key, value in facts]
    return '<div class="facts" markdown>\n\n' + "\n".join(items) + "\n</div>\n"


def counts_line(ruleset: Ruleset, language: str = "en") -> str:
    counts = kind_counts(ruleset)
    return " ".join(f"{badge(k, language=language)} × {counts[k]}" for k in ProvenanceKind)


def setting_section(
    setting: Setting,
    ruleset: Ruleset,
    here: str,
    site: Site,
    *,
    level: int = 3,
    show_origin: bool = True,
    language: str = "en",
) -> str:
    """One rule: heading, value in words, badges, explanation, provenance, note.

    ``show_origin`` is off for rules of a file that has no page of its own (the guide's
    example), which an origin badge would otherwise link to.
    """
    param = BY_PATH[setting.param]
    hashes = "#" * level
    schema_link = rel(here, f"{SCHEMA_REFERENCE}#{param_anchor(param.path)}")
    say = words()
    title = say.param_title(param.path, language)
    head = f"{hashes} {esc(title)} {{#{param_anchor(param.path)}}}"
    value = short_md(param.path, setting.value, language)
    badges = [badge(setting.provenance.kind, setting.provenance.decision, language)]
    origin = origin_badge(setting, ruleset.base, here, language) if show_origin else ""
    if origin:
        badges.append(origin)
    lines = [head, "", f"**{value}** {' '.join(badges)}", "{: .rule-value }", ""]
    meaning = explanation(param, setting.value, language)
    if meaning:
        lines += [link_refs(meaning, here, site.refs), ""]
    # The parameters' descriptions are the registry's, in English only.
    description = f"{esc(param.description)} " if language == "en" else ""
    lines += [
        f"<small>{description}{say('rule.parameter', language)} "
        f"[{code(param.path)}]({schema_link}).</small>",
        "{: .rule-param }",
        "",
        provenance_block(
            setting.provenance, here, site.refs, value=f"**{value}**", language=language
        ),
    ]
    if setting.note:
        note = link_refs(esc(setting.note_in(language) or ""), here, site.refs)
        lines += [f"**{say('rule.note', language)}** {note}", "{: .rule-note }", ""]
    return "\n".join(lines)


def _not_applicable(ruleset: Ruleset, language: str = "en") -> list[tuple[str, str]]:
    say = words()
    values = {k: s.value for k, s in ruleset.settings.items()}
    out = []
    for param in PARAMETERS:
        if param.path in ruleset.settings:
            continue
        failed = applicable(param, values)
        if failed:
            relation = say(f"page.{failed.relation_key()}", language)
            reason = f"{say('page.needs', language)} {failed.param} {relation} {failed.shown()}"
        else:
            reason = say("page.not-set", language)
        out.append((param.path, reason))
    return out


def _sources_line(sf: SpecFile, here: str, language: str = "en") -> str:
    sources = [source_link(here, str(s)) for s in sf.data.get("sources", ())]
    text = ", ".join(sources)
    if sf.data.get("attribution"):
        reporting = words()("facts.reporting", language)
        text += f" {reporting} *{esc(str(sf.data['attribution']))}*"
    return text


def _condition_why(cond: Mapping[str, Any], language: str) -> str:
    """A house rule's reason for a condition, from its ``de:`` block on German pages."""
    english = " ".join(str(cond["why"]).split())
    return translated(english, "why", translations_of(cond), language) or english


def title_and_summary(sf: SpecFile, language: str = "en") -> tuple[str, str]:
    """A ruleset's or house rule's title and summary in ``language`` (its ``de:`` block for
    German), in English where the file has no translation."""
    title, summary = str(sf.data["title"]), str(sf.data.get("summary", ""))
    translated = sf.data.get(language) if language != "en" else None
    if isinstance(translated, dict):
        title = str(translated.get("title", title))
        summary = str(translated.get("summary", summary))
    return title, " ".join(summary.split())


def ruleset_markdown(
    site: Site, rid: str, conformance: str | None = None, language: str = "en"
) -> str:
    """The page of one ruleset: summary, facts, then every rule group by group, the
    conformance fixtures that run under it (``conformance``, markdown) and its house rules."""
    say = words()
    ruleset = site.rulesets[rid]
    sf = site.catalog.rulesets[rid]
    here = ruleset_page(rid)
    sources = site.catalog.bibliography.sources
    title, summary = title_and_summary(sf, language)
    out = [f"# {esc(title)}", "", link_sources(esc(summary), here, sources), ""]
    facts = [
        (say("facts.id", language), code(rid)),
        (say("facts.source", language), _sources_line(sf, here, language)),
    ]
    parent = sf.data.get("extends")
    if parent:
        facts.append(
            (
                say("facts.extends", language),
                f"{link(here, ruleset_page(str(parent)), str(parent))}: "
                + say("facts.extends-help", language),
            )
        )
    facts.append((say("facts.provenance", language), counts_line(ruleset, language)))
    facts.append((say("facts.command-line", language), code(f"schwimmen show {rid}")))
    out += [facts_block(facts), ""]
    out += [legend(here, language), ""]
    for group in GROUPS:
        members = [s for s in ruleset.settings.values() if BY_PATH[s.param].group == group]
        if not members:
            continue
        out += [f"## {esc(say.group_title(group, language))} {{#{group}}}", ""]
        for setting in members:
            out += [setting_section(setting, ruleset, here, site, language=language), ""]
    if ruleset.unresolved:
        out += [f"## {say('page.unresolved', language)} {{#unresolved}}", ""]
        out += [say("page.unresolved-help", language), ""]
        for item in ruleset.unresolved:
            body = [citation_md(c, here, language) for c in item.citations]
            body.append(
                f"**{say('page.why-not-specified', language)}** "
                f"{link_refs(esc(item.why_in(language)), here, site.refs)}"
            )
            topic = item.topic_in(language) + (f" ({item.decision})" if item.decision else "")
            out.append(admonition("unresolved", topic, "\n\n".join(body)))
    missing = _not_applicable(ruleset, language)
    if missing:
        out += [f"## {say('page.not-applicable', language)} {{#not-applicable}}", ""]
        rows = [
            [
                link(
                    here,
                    f"{SCHEMA_REFERENCE}#{param_anchor(p)}",
                    esc(say.param_title(p, language)),
                ),
                code(p),
                esc(reason),
            ]
            for p, reason in missing
        ]
        header = [say(f"page.{k}", language) for k in ("rule", "parameter", "why-not-applicable")]
        out += [table(header, rows), ""]
    if conformance:
        out += [conformance, ""]
    own = [h for h, f in site.house_rules.items() if f.data["origin"] == rid]
    fitting = [h for h in site.house_rules if any(f.ruleset == rid and f.ok for f in site.fits(h))]
    out += [f"## {say('page.house-rules', language)} {{#house-rules}}", ""]
    if own:
        out.append(
            say("page.own-house-rules", language)
            + " "
            + ", ".join(link(here, house_rule_page(h), code(h)) for h in own)
            + "."
        )
        out.append("")
    if fitting:
        out.append(
            say("page.fitting-house-rules", language)
            + " "
            + ", ".join(link(here, house_rule_page(h), code(h)) for h in fitting)
            + f". {say('page.combine', language)} {code(f'schwimmen show {rid}+HOUSE-RULE')}."
        )
        out.append("")
    comparison = link(here, COMPARISON, say("page.comparison", language))
    pairs = link(here, PAIRS_INDEX, say("page.two-at-a-time", language))
    out += [f"{say('page.compare', language)} {comparison}, {pairs}.", ""]
    return "\n".join(out)


def _change_rows(base: Ruleset, combined: Ruleset, here: str, language: str) -> list[list[str]]:
    rows = []
    for key in changed_params(base, combined):
        before, after = base.settings.get(key), combined.settings.get(key)
        title = words().param_title(key, language)
        rows.append(
            [
                link(here, f"{SCHEMA_REFERENCE}#{param_anchor(key)}", esc(title)),
                _cell(before, language),
                _cell(after, language),
            ]
        )
    return rows


def _cell(setting: Setting | None, language: str = "en") -> str:
    if setting is None:
        return f"<span class='na'>{words()('rule.does-not-apply', language)}</span>"
    value = short_md(setting.param, setting.value, language)
    kind = badge(setting.provenance.kind, setting.provenance.decision, language)
    return f"**{value}** {kind}"


def house_rule_markdown(
    site: Site,
    hid: str,
    yaml_text: str | None = None,
    conformance: str | None = None,
    language: str = "en",
) -> str:
    """The page of one house rule: what it changes on its origin, what it requires,
    where else it fits, its rules with provenance and the file itself."""
    say = words()
    sf = site.house_rules[hid]
    data = sf.data
    origin = str(data["origin"])
    base = site.rulesets[origin]
    combined = site.with_house_rule[hid]
    here = house_rule_page(hid)
    title, summary = title_and_summary(sf, language)
    origin_title, _ = title_and_summary(site.catalog.rulesets[origin], language)
    sources = site.catalog.bibliography.sources
    out = [f"# {esc(title)}", "", link_sources(esc(summary), here, sources), ""]
    facts = [
        (say("facts.id", language), code(hid)),
        (
            say("facts.origin", language),
            link(here, ruleset_page(origin), esc(origin_title)) + f" ({code(origin)})",
        ),
        (say("facts.source", language), _sources_line(sf, here, language)),
        (say("facts.command-line", language), code(f"schwimmen show {origin}+{hid}")),
    ]
    out += [facts_block(facts), ""]

    out += [f"## {say('page.requires', language)} {{#requires}}", ""]
    conditions = list(data.get("requires", ()))
    if conditions:
        out.append(say("page.requires-intro", language))
        out.append("")
        for cond in conditions:
            key = "in" if "in" in cond else "not_in"
            word = say("page.is-one-of" if key == "in" else "page.is-none-of", language)
            values = ", ".join(code(str(v)) for v in cond[key])
            target = f"{SCHEMA_REFERENCE}#{param_anchor(str(cond['param']))}"
            out.append(
                f"- {link(here, target, code(str(cond['param'])))} {word} {values}: "
                f"{esc(_condition_why(cond, language))}"
            )
        out.append("")
    else:
        out += [say("page.requires-nothing", language), ""]

    out += [f"## {say('page.changes-on', language)} {esc(origin)} {{#changes}}", ""]
    rows = _change_rows(base, combined, here, language)
    if rows:
        header = [say("page.rule", language), code(origin), f"{code(origin)} + {code(hid)}"]
        out += [table(header, rows), ""]
    else:
        out += [say("page.changes-nothing", language), ""]

    out += [f"## {say('page.its-rules', language)} {{#rules}}", "", legend(here, language), ""]
    own = [s for s in combined.settings.values() if s.origin == hid]
    for setting in own:
        out += [setting_section(setting, combined, here, site, language=language), ""]

    out += [f"## {say('page.where-it-fits', language)} {{#fits}}", ""]
    fit_rows = []
    for fit in site.fits(hid):
        name = link(here, ruleset_page(fit.ruleset), code(fit.ruleset))
        if fit.ok:
            what = (
                ", ".join(code(p) for p in fit.changed)
                if fit.changed
                else say("page.already-so", language)
            )
            fits = say("page.fits", language)
            changes = say("page.changes", language)
            fit_rows.append([name, f'<span class="fit-yes">✔ {fits}</span>', f"{changes} {what}"])
        else:
            rejected = say("page.rejected", language)
            reason = in_english(esc(fit.reason), language)
            fit_rows.append([name, f'<span class="fit-no">✘ {rejected}</span>', reason])
    header = [say("page.ruleset", language), "", say("page.loader-says", language)]
    out += [table(header, fit_rows), ""]

    if conformance:
        out += [conformance, ""]

    if yaml_text is not None:
        out += [f"## {say('page.the-file', language)} {{#file}}", ""]
        out += [f"`spec/house-rules/{hid}.yaml`:", "", "```yaml", yaml_text.rstrip(), "```", ""]
        guide = link(here, GUIDE_HOUSE_RULE, say("page.the-guide", language))
        out += [f"{say('page.write-your-own', language)} {guide}.", ""]
    return "\n".join(out)


def rulesets_table(site: Site, language: str = "en") -> str:
    """The overview of all rulesets: where each comes from and how much is cited."""
    say = words()
    here = RULESETS_INDEX
    rows = []
    for rid, ruleset in site.rulesets.items():
        sf = site.catalog.rulesets[rid]
        counts = kind_counts(ruleset)
        parent = sf.data.get("extends")
        title, _ = title_and_summary(sf, language)
        rows.append(
            [
                link(here, ruleset_page(rid), code(rid)),
                esc(title),
                _sources_line(sf, here, language),
                link(here, ruleset_page(str(parent)), code(str(parent))) if parent else "",
                _bar(counts, language),
            ]
        )
    header = [
        say(f"index.{k}", language) for k in ("id", "ruleset", "source", "extends", "provenance")
    ]
    return "\n".join([legend(here, language), "", table(header, rows)])


def _bar(counts: dict[ProvenanceKind, int], language: str = "en") -> str:
    """A stacked bar of cited / interpreted / default, with the numbers in its tooltip."""
    say = words()
    total = sum(counts.values()) or 1
    parts = []
    for kind in ProvenanceKind:
        width = 100 * counts[kind] / total
        label = say(f"kind.{kind.value}", language)
        parts.append(
            f'<span class="bar-{kind.value}" style="width:{width:.1f}%" '
            f'title="{label}: {counts[kind]}"></span>'
        )
    text = " · ".join(f"{counts[k]} {say(f'kind.{k.value}', language)}" for k in ProvenanceKind)
    return f'<span class="prov-bar">{"".join(parts)}</span><small>{text}</small>'


def house_rules_table(site: Site, language: str = "en") -> str:
    """The table of ``docs/house-rules/index.md``: each house rule, its origin, what it
    changes there and on how many rulesets it fits."""
    say = words()
    here = HOUSE_RULES_INDEX
    rows = []
    for hid, sf in site.house_rules.items():
        origin = str(sf.data["origin"])
        base, combined = site.rulesets[origin], site.with_house_rule[hid]
        changes = ", ".join(code(p) for p in changed_params(base, combined))
        fits = sum(1 for f in site.fits(hid) if f.ok)
        title, _ = title_and_summary(sf, language)
        rows.append(
            [
                link(here, house_rule_page(hid), code(hid)),
                esc(title),
                link(here, ruleset_page(origin), code(origin)),
                changes,
                say("index.fits-count", language).format(fits=fits, total=len(site.rulesets)),
            ]
        )
    header = [
        say(f"index.{k}", language) for k in ("id", "house-rule", "origin", "changes", "fits")
    ]
    return table(header, rows)
