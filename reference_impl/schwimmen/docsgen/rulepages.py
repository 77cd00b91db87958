"""A page per ruleset and per house rule: every rule in words, with its provenance.

A rule page is read by players settling an argument at the table, so each rule leads
with its value in plain language and follows with the evidence: the German quote when
the source says so, the reading and its reason when the source is ambiguous, the
choice and its reason (with the rules-matrix U number) when the sources are silent.
"""

from __future__ import annotations

from schwimmen.docsgen.context import Site, changed_params, kind_counts
from schwimmen.docsgen.markup import (
    COMPARISON,
    GUIDE_HOUSE_RULE,
    HOUSE_RULES_INDEX,
    KIND_HELP,
    PAIRS_INDEX,
    RULESETS_INDEX,
    SCHEMA_REFERENCE,
    admonition,
    badge,
    citation_md,
    code,
    esc,
    house_rule_page,
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
from schwimmen.docsgen.values import explanation, short_md
from schwimmen.spec.loader import SpecFile
from schwimmen.spec.model import ProvenanceKind, Ruleset, Setting
from schwimmen.spec.parameters import BY_PATH, GROUPS, PARAMETERS, applicable


def legend(here: str) -> str:
    """The key to the three provenance kinds, shown at the top of rule pages."""
    items = [f"{badge(kind)} {esc(KIND_HELP[kind])}" for kind in ProvenanceKind]
    return '<div class="prov-legend" markdown>\n' + "<br>\n".join(items) + "\n</div>\n"


def facts_block(facts: list[tuple[str, str]]) -> str:
    """Key facts of a page as a compact definition list."""
    items = [f"{key}\n:   {value}\n" for key, value in facts]
    return '<div class="facts" markdown>\n\n' + "\n".join(items) + "\n</div>\n"


def counts_line(ruleset: Ruleset) -> str:
    counts = kind_counts(ruleset)
    return " ".join(f"{badge(k)} × {counts[k]}" for k in ProvenanceKind)


def setting_section(
    setting: Setting,
    ruleset: Ruleset,
    here: str,
    site: Site,
    *,
    level: int = 3,
    show_origin: bool = True,
) -> str:
    """One rule: heading, value in words, badges, explanation, provenance, note.

    ``show_origin`` is off for rules of a file that has no page of its own (the guide's
    example), which an origin badge would otherwise link to.
    """
    param = BY_PATH[setting.param]
    hashes = "#" * level
    schema_link = rel(here, f"{SCHEMA_REFERENCE}#{param_anchor(param.path)}")
    head = f"{hashes} {esc(param.title)} {{#{param_anchor(param.path)}}}"
    value = short_md(param.path, setting.value)
    badges = [badge(setting.provenance.kind, setting.provenance.decision)]
    origin = origin_badge(setting, ruleset.base, here) if show_origin else ""
    if origin:
        badges.append(origin)
    lines = [head, "", f"**{value}** {' '.join(badges)}", "{: .rule-value }", ""]
    meaning = explanation(param, setting.value)
    if meaning:
        lines += [link_refs(meaning, here, site.refs), ""]
    lines += [
        f"<small>{esc(param.description)} Parameter [{code(param.path)}]({schema_link}).</small>",
        "{: .rule-param }",
        "",
        provenance_block(setting.provenance, here, site.refs, value=f"**{value}**"),
    ]
    if setting.note:
        note = link_refs(esc(setting.note), here, site.refs)
        lines += [f"**Note:** {note}", "{: .rule-note }", ""]
    return "\n".join(lines)


def _not_applicable(ruleset: Ruleset) -> list[tuple[str, str]]:
    values = {k: s.value for k, s in ruleset.settings.items()}
    out = []
    for param in PARAMETERS:
        if param.path in ruleset.settings:
            continue
        failed = applicable(param, values)
        reason = f"needs {failed.describe()}" if failed else "not set"
        out.append((param.path, reason))
    return out


def _sources_line(sf: SpecFile, here: str) -> str:
    sources = [source_link(here, str(s)) for s in sf.data.get("sources", ())]
    text = ", ".join(sources)
    if sf.data.get("attribution"):
        text += f" reporting *{esc(str(sf.data['attribution']))}*"
    return text


def ruleset_markdown(site: Site, rid: str, conformance: str | None = None) -> str:
    """The page of one ruleset: summary, facts, then every rule group by group, the
    conformance fixtures that run under it (``conformance``, markdown) and its house rules."""
    ruleset = site.rulesets[rid]
    sf = site.catalog.rulesets[rid]
    here = ruleset_page(rid)
    sources = site.catalog.bibliography.sources
    out = [f"# {esc(ruleset.title)}", "", link_sources(esc(ruleset.summary), here, sources), ""]
    facts = [("Id", code(rid)), ("Source", _sources_line(sf, here))]
    parent = sf.data.get("extends")
    if parent:
        facts.append(
            (
                "Extends",
                f"{link(here, ruleset_page(str(parent)), str(parent))}: every rule this "
                "ruleset does not set itself is inherited from it and marked so.",
            )
        )
    facts.append(("Provenance", counts_line(ruleset)))
    facts.append(("On the command line", code(f"schwimmen show {rid}")))
    out += [facts_block(facts), ""]
    out += [legend(here), ""]
    for group, title in GROUPS.items():
        members = [s for s in ruleset.settings.values() if BY_PATH[s.param].group == group]
        if not members:
            continue
        out += [f"## {esc(title)} {{#{group}}}", ""]
        for setting in members:
            out += [setting_section(setting, ruleset, here, site), ""]
    if ruleset.unresolved:
        out += ["## Unresolved {#unresolved}", ""]
        out += [
            "Rules the source mentions too vaguely to specify; an implementation does not "
            "play them.",
            "",
        ]
        for item in ruleset.unresolved:
            body = [citation_md(c, here) for c in item.citations]
            body.append(f"**Why not specified:** {link_refs(esc(item.why), here, site.refs)}")
            title = item.topic + (f" ({item.decision})" if item.decision else "")
            out.append(admonition("unresolved", title, "\n\n".join(body)))
    missing = _not_applicable(ruleset)
    if missing:
        out += ["## Rules that do not apply {#not-applicable}", ""]
        rows = [
            [
                link(here, f"{SCHEMA_REFERENCE}#{param_anchor(p)}", esc(BY_PATH[p].title)),
                code(p),
                esc(reason),
            ]
            for p, reason in missing
        ]
        out += [table(["rule", "parameter", "why it does not apply"], rows), ""]
    if conformance:
        out += [conformance, ""]
    own = [h for h, f in site.house_rules.items() if f.data["origin"] == rid]
    fitting = [h for h in site.house_rules if any(f.ruleset == rid and f.ok for f in site.fits(h))]
    out += ["## House rules {#house-rules}", ""]
    if own:
        out.append(
            "Described by this ruleset's source: "
            + ", ".join(link(here, house_rule_page(h), code(h)) for h in own)
            + "."
        )
        out.append("")
    if fitting:
        out.append(
            "Fit this ruleset (the loader accepts them on top of it): "
            + ", ".join(link(here, house_rule_page(h), code(h)) for h in fitting)
            + f". Combine them on the command line: {code(f'schwimmen show {rid}+HOUSE-RULE')}."
        )
        out.append("")
    out += [
        f"Compare this ruleset with the others in the {link(here, COMPARISON, 'comparison')} "
        f"or {link(here, PAIRS_INDEX, 'two at a time')}.",
        "",
    ]
    return "\n".join(out)


def _change_rows(base: Ruleset, combined: Ruleset, here: str) -> list[list[str]]:
    rows = []
    for key in changed_params(base, combined):
        before, after = base.settings.get(key), combined.settings.get(key)
        rows.append(
            [
                link(here, f"{SCHEMA_REFERENCE}#{param_anchor(key)}", esc(BY_PATH[key].title)),
                _cell(before),
                _cell(after),
            ]
        )
    return rows


def _cell(setting: Setting | None) -> str:
    if setting is None:
        return "<span class='na'>does not apply</span>"
    value = short_md(setting.param, setting.value)
    return f"**{value}** {badge(setting.provenance.kind, setting.provenance.decision)}"


def house_rule_markdown(
    site: Site, hid: str, yaml_text: str | None = None, conformance: str | None = None
) -> str:
    """The page of one house rule: what it changes on its origin, what it requires,
    where else it fits, its rules with provenance and the file itself."""
    sf = site.house_rules[hid]
    data = sf.data
    origin = str(data["origin"])
    base = site.rulesets[origin]
    combined = site.with_house_rule[hid]
    here = house_rule_page(hid)
    summary = esc(str(data.get("summary", "")).strip())
    sources = site.catalog.bibliography.sources
    out = [f"# {esc(str(data['title']))}", "", link_sources(summary, here, sources), ""]
    facts = [
        ("Id", code(hid)),
        ("Origin", link(here, ruleset_page(origin), esc(base.title)) + f" ({code(origin)})"),
        ("Source", _sources_line(sf, here)),
        ("On the command line", code(f"schwimmen show {origin}+{hid}")),
    ]
    out += [facts_block(facts), ""]

    out += ["## What it requires {#requires}", ""]
    conditions = list(data.get("requires", ()))
    if conditions:
        out.append("The ruleset underneath must satisfy:")
        out.append("")
        for cond in conditions:
            key = "in" if "in" in cond else "not_in"
            word = "is one of" if key == "in" else "is none of"
            values = ", ".join(code(str(v)) for v in cond[key])
            target = f"{SCHEMA_REFERENCE}#{param_anchor(str(cond['param']))}"
            out.append(
                f"- {link(here, target, code(str(cond['param'])))} {word} {values}: "
                f"{esc(str(cond['why']))}"
            )
        out.append("")
    else:
        out += ["Nothing: it fits any ruleset on which its rules apply.", ""]

    out += [f"## What it changes on {esc(origin)} {{#changes}}", ""]
    rows = _change_rows(base, combined, here)
    if rows:
        out += [table(["rule", code(origin), f"{code(origin)} + {code(hid)}"], rows), ""]
    else:
        out += [f"Nothing: {code(origin)} already plays this way.", ""]

    out += ["## Its rules {#rules}", "", legend(here), ""]
    own = [s for s in combined.settings.values() if s.origin == hid]
    for setting in own:
        out += [setting_section(setting, combined, here, site), ""]

    out += ["## Where it fits {#fits}", ""]
    fit_rows = []
    for fit in site.fits(hid):
        name = link(here, ruleset_page(fit.ruleset), code(fit.ruleset))
        if fit.ok:
            what = (
                ", ".join(code(p) for p in fit.changed) if fit.changed else "nothing (already so)"
            )
            fit_rows.append([name, '<span class="fit-yes">✔ fits</span>', f"changes {what}"])
        else:
            fit_rows.append([name, '<span class="fit-no">✘ rejected</span>', esc(fit.reason)])
    out += [table(["ruleset", "", "what the loader says"], fit_rows), ""]

    if conformance:
        out += [conformance, ""]

    if yaml_text is not None:
        out += ["## The file {#file}", ""]
        out += [f"`spec/house-rules/{hid}.yaml`:", "", "```yaml", yaml_text.rstrip(), "```", ""]
        out += [
            f"Write your own in the same shape: see {link(here, GUIDE_HOUSE_RULE, 'the guide')}.",
            "",
        ]
    return "\n".join(out)


def rulesets_table(site: Site) -> str:
    """The table of ``docs/rulesets/index.md``: where each ruleset comes from and how much
    of it is cited."""
    here = RULESETS_INDEX
    rows = []
    for rid, ruleset in site.rulesets.items():
        sf = site.catalog.rulesets[rid]
        counts = kind_counts(ruleset)
        parent = sf.data.get("extends")
        rows.append(
            [
                link(here, ruleset_page(rid), code(rid)),
                esc(ruleset.title),
                _sources_line(sf, here),
                link(here, ruleset_page(str(parent)), code(str(parent))) if parent else "",
                _bar(counts),
            ]
        )
    return table(["id", "ruleset", "source", "extends", "provenance"], rows)


def _bar(counts: dict[ProvenanceKind, int]) -> str:
    """A stacked bar of cited / interpreted / default, with the numbers in its tooltip."""
    total = sum(counts.values()) or 1
    parts = []
    for kind in ProvenanceKind:
        width = 100 * counts[kind] / total
        parts.append(
            f'<span class="bar-{kind.value}" style="width:{width:.1f}%" '
            f'title="{kind.value}: {counts[kind]}"></span>'
        )
    text = " · ".join(f"{counts[k]} {k.value}" for k in ProvenanceKind)
    return f'<span class="prov-bar">{"".join(parts)}</span><small>{text}</small>'


def house_rules_table(site: Site) -> str:
    """The table of ``docs/house-rules/index.md``: each house rule, its origin, what it
    changes there and on how many rulesets it fits."""
    here = HOUSE_RULES_INDEX
    rows = []
    for hid, sf in site.house_rules.items():
        origin = str(sf.data["origin"])
        base, combined = site.rulesets[origin], site.with_house_rule[hid]
        changes = ", ".join(code(p) for p in changed_params(base, combined))
        fits = sum(1 for f in site.fits(hid) if f.ok)
        rows.append(
            [
                link(here, house_rule_page(hid), code(hid)),
                esc(str(sf.data["title"])),
                link(here, ruleset_page(origin), code(origin)),
                changes,
                f"{fits} of {len(site.rulesets)}",
            ]
        )
    return table(["id", "house rule", "origin", "changes", "fits"], rows)
