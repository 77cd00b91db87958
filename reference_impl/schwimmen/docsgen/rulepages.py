"""A page per ruleset and per house rule: every rule in words, with its provenance.

A rule page is read by players settling an argument at the table, so each rule leads
with its value in plain language and follows with the evidence: the German quote when
the source says so, the reading and its reason when the source is ambiguous, the
choice and its reason (with the rules-matrix U number) when the sources are silent.

The layouts are the templates ``ruleset.html``, ``house-rule.html`` and ``rules.html``
(a rule, its badges and its evidence); this module picks what they show from the
resolved rulesets (:class:`~schwimmen.docsgen.context.Site`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import Any

from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.plan import Suite, area_of, name_of
from schwimmen.docsgen.blocks import block
from schwimmen.docsgen.context import Fit, Site, changed_params
from schwimmen.docsgen.fixturetext import KINDS
from schwimmen.docsgen.markup import (
    COMPARISON,
    FIXTURES_INDEX,
    GUIDE_HOUSE_RULE,
    PAIRS_INDEX,
)
from schwimmen.docsgen.templates import kept, render_markdown
from schwimmen.spec.loader import translations_of
from schwimmen.spec.model import Ruleset, Setting, translated
from schwimmen.spec.pagedata import words
from schwimmen.spec.parameters import BY_PATH, GROUPS, PARAMETERS, applicable

Fits = Mapping[str, Sequence[Fit]]
"""Where each house rule fits (by its id): :meth:`Site.fits`, asked once per build."""


def not_applicable(ruleset: Ruleset, language: str = "en") -> list[tuple[str, str]]:
    """The parameters a ruleset has no value for, each with why it does not apply."""
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


def _by_area(fixtures: Sequence[Fixture]) -> dict[str, list[Fixture]]:
    out: dict[str, list[Fixture]] = {}
    for fixture in fixtures:
        out.setdefault(area_of(fixture.id), []).append(fixture)
    return out


def _fixture_kinds(fixtures: Sequence[Fixture]) -> list[tuple[str, int]]:
    counted = {kind: sum(1 for f in fixtures if f.kind == kind) for kind in KINDS}
    return [(kind, n) for kind, n in counted.items() if n]


def _named(site: Site, name: str) -> list[SimpleNamespace] | None:
    """The fixtures run under ``name`` as a rule page names them (not their whole files,
    which :func:`kept` would compare for every page), None without a suite."""
    pairs = site.suite.applying_to(name) if site.suite else None
    return None if pairs is None else [_named_fixture(f) for f, _ in pairs]


def _named_fixture(f: Fixture) -> SimpleNamespace:
    return SimpleNamespace(id=f.id, title=f.title, kind=f.kind)


def _render(name: str, site: Site, language: str, **data: Any) -> str:
    """A rule page's template with what every rule page's templates read."""
    return kept(
        name,
        language,
        refs=site.refs,
        known_sources=site.catalog.bibliography.sources,
        fixtures_index=FIXTURES_INDEX,
        comparison=COMPARISON,
        pairs_index=PAIRS_INDEX,
        by_area=_by_area,
        fixture_kinds=_fixture_kinds,
        name_of=name_of,
        **data,
    )


def page(title: str, body: str, language: str = "en", **frame: Any) -> str:
    """A generated page (``page.md``): its front matter from ``frame`` (``hide``, ``boost``;
    ``file`` for a house rule's), its title and its body, carried past Markdown."""
    data = {"hide": (), "boost": None, "file": None, **frame}
    return render_markdown("page.md", language, title=title, body=block(body), **data)


def ruleset_markdown(site: Site, rid: str, fits: Fits, language: str = "en") -> str:
    """The page of one ruleset: summary, facts, then every rule group by group, the
    conformance fixtures that run under it and its house rules."""
    from schwimmen.docsgen.searchrank import RULES

    say = words()
    ruleset = site.rulesets[rid]
    sf = site.catalog.rulesets[rid]
    title, summary = sf.title_and_summary(language)
    groups = [
        (group, say.group_title(group, language), members)
        for group in GROUPS
        if (members := [s for s in ruleset.settings.values() if BY_PATH[s.param].group == group])
    ]
    own = [h for h, f in site.house_rules.items() if f.data["origin"] == rid]
    fitting = [h for h in site.house_rules if any(f.ruleset == rid and f.ok for f in fits[h])]
    body = _render(
        "ruleset.html",
        site,
        language,
        rid=rid,
        ruleset=ruleset,
        sf=sf,
        summary=summary,
        groups=groups,
        missing=not_applicable(ruleset, language),
        own=own,
        fitting=fitting,
        pairs=_named(site, rid),
    )
    return page(title, body, language, boost=f"{RULES.boost:g}" if RULES.boost else None)


def house_rule_markdown(
    site: Site, hid: str, fits: Fits, yaml_text: str | None = None, language: str = "en"
) -> str:
    """The page of one house rule: what it changes on its origin, what it requires,
    where it fits, its rules with provenance and the file itself."""
    here = f"house-rules/{hid}.md"
    sf = site.house_rules[hid]
    origin = str(sf.data["origin"])
    base, combined = site.rulesets[origin], site.with_house_rule[hid]
    title, summary = sf.title_and_summary(language)
    conditions = [
        (
            str(cond["param"]),
            "in" if "in" in cond else "not_in",
            [str(v) for v in cond["in" if "in" in cond else "not_in"]],
            _condition_why(cond, language),
        )
        for cond in sf.data.get("requires", ())
    ]
    body = _render(
        "house-rule.html",
        site,
        language,
        hid=hid,
        sf=sf,
        summary=summary,
        origin=origin,
        origin_title=site.catalog.rulesets[origin].title_and_summary(language)[0],
        conditions=conditions,
        changed=changed_params(base, combined),
        base=base,
        combined=combined,
        fits=fits[hid],
        differs=_differs(site.suite, origin, hid),
        pairs=_named(site, f"{origin}+{hid}"),
        in_run=site.suite is not None and f"{origin}+{hid}" in site.suite.names,
    )
    if yaml_text is None:
        return page(title, body, language)
    path = f"spec/house-rules/{hid}.yaml"
    shown = {"path": path, "text": yaml_text, "here": here, "guide": GUIDE_HOUSE_RULE}
    return page(title, body, language, file=shown)


def _differs(suite: Suite | None, origin: str, hid: str) -> list[tuple[Any, int, str, str | None]]:
    """The fixtures whose expected outcome under the house rule is not its origin's: each
    named (:func:`_named`) with its case's number and name, and the origin's case's."""
    if suite is None:
        return []
    out = []
    for fixture, case in suite.applying_to(f"{origin}+{hid}"):
        before = suite.runs[fixture.id].case_for(origin)
        if before is None or before.index != case.index:
            shown = (case.index, case.label(), before.label() if before else None)
            out.append((_named_fixture(fixture), *shown))
    return out


def _condition_why(cond: Mapping[str, Any], language: str) -> str:
    """A house rule's reason for a condition, from its ``de:`` block on German pages."""
    english = " ".join(str(cond["why"]).split())
    return translated(english, "why", translations_of(cond), language) or english


def legend(site: Site, language: str = "en") -> str:
    """The key to the three provenance kinds (for a hand-written page)."""
    return block(_render("legend.html", site, language))


def rulesets_table(site: Site, language: str = "en") -> str:
    """The overview of all rulesets: where each comes from and how much is cited."""
    files = site.catalog.rulesets
    rows = [
        (rid, ruleset, files[rid], files[rid].title_and_summary(language)[0])
        for rid, ruleset in site.rulesets.items()
    ]
    return block(_render("rulesets-index.html", site, language, rows=rows))


def house_rules_table(site: Site, fits: Fits, language: str = "en") -> str:
    """The table of the house rules' index: each house rule, its origin, what it changes
    there and on how many rulesets it fits."""
    rows = []
    for hid, sf in site.house_rules.items():
        origin = str(sf.data["origin"])
        changes = changed_params(site.rulesets[origin], site.with_house_rule[hid])
        fitting = sum(1 for f in fits[hid] if f.ok)
        rows.append((hid, sf.title_and_summary(language)[0], origin, changes, fitting))
    return block(
        _render("house-rules-index.html", site, language, rows=rows, total=len(site.rulesets))
    )


def example_rules(site: Site, example: Ruleset, hid: str, language: str = "en") -> str:
    """The guide's example as the loader reads it: the rules it changes, before and
    after, and each of its rules with its provenance."""
    base = site.rulesets[example.base]
    own: list[Setting] = [s for s in example.settings.values() if s.origin == hid]
    return block(
        _render(
            "example-rules.html",
            site,
            language,
            base=base,
            example=example,
            hid=hid,
            changed=changed_params(base, example),
            own=own,
        )
    )
