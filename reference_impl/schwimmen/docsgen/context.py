"""Everything the page generators need, resolved once through the loader.

Pages are generated from resolved rulesets, never from YAML: a ruleset page shows what
``Catalog.resolve`` returns, including inherited values and the loader's checks. The
:class:`Site` is built once per build and handed to every generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog, SpecFile
from schwimmen.spec.model import ProvenanceKind, Ruleset

if TYPE_CHECKING:
    from schwimmen.conformance.plan import Suite


@dataclass(frozen=True)
class Fit:
    """Whether a house rule can be put on a ruleset, and what it then changes."""

    ruleset: str
    ok: bool
    reason: str = ""
    changed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Site:
    catalog: Catalog
    rulesets: Mapping[str, Ruleset]
    house_rules: Mapping[str, SpecFile]
    with_house_rule: Mapping[str, Ruleset]
    decisions: frozenset[str]
    decision_titles: Mapping[str, str] = field(default_factory=dict)
    scenarios: frozenset[str] = frozenset()
    scenario_titles: Mapping[str, str] = field(default_factory=dict)
    # the conformance suite, when the build has it; U numbers only its fixtures rest on
    suite: Suite | None = None
    fixture_decisions: frozenset[str] = frozenset()

    @property
    def refs(self) -> frozenset[str]:
        """Every ``U`` and ``F`` number a page can link to."""
        return self.decisions | self.fixture_decisions | self.scenarios

    @property
    def all_decisions(self) -> frozenset[str]:
        """The U numbers the decisions page lists: the spec's and the fixtures'."""
        return self.decisions | self.fixture_decisions

    def fits(self, hid: str) -> list[Fit]:
        """Try the house rule on every ruleset: the loader says whether it fits and why
        not, so the site lists exactly the combinations ``schwimmen show`` accepts."""
        out: list[Fit] = []
        for rid, base in self.rulesets.items():
            try:
                combined = self.catalog.resolve(f"{rid}{SEPARATOR}{hid}")
            except SpecErrors as exc:
                reason = exc.errors[0].message if exc.errors else "rejected"
                out.append(Fit(rid, False, reason))
                continue
            out.append(Fit(rid, True, changed=tuple(changed_params(base, combined))))
        return out


def changed_params(a: Ruleset, b: Ruleset) -> list[str]:
    """Parameters whose value differs, or that apply to only one of the two."""
    keys = list(a.settings) + [k for k in b.settings if k not in a.settings]
    out = []
    for key in keys:
        sa, sb = a.settings.get(key), b.settings.get(key)
        if sa is None or sb is None or sa.value != sb.value:
            out.append(key)
    return out


def ruleset_order(catalog: Catalog) -> list[str]:
    """The rulesets in bibliography order (sources first to last, each source's rulesets
    in the order it lists them), so the comparison reads like the rules matrix."""
    order: list[str] = []
    for source in catalog.bibliography.sources.values():
        order.extend(r for r in source.rulesets if r in catalog.rulesets and r not in order)
    order.extend(sorted(r for r in catalog.rulesets if r not in order))
    return order


def decisions_in(rulesets: Iterable[Ruleset]) -> frozenset[str]:
    found: set[str] = set()
    for ruleset in rulesets:
        for setting in ruleset.settings.values():
            if setting.provenance.decision:
                found.add(setting.provenance.decision)
        for item in ruleset.unresolved:
            if item.decision:
                found.add(item.decision)
    return frozenset(found)


def build_context(
    catalog: Catalog,
    decision_titles: Mapping[str, str] | None = None,
    scenarios: Iterable[str] = (),
) -> Site:
    """Resolve every ruleset and every house rule on its origin.

    Raises :class:`SpecErrors` when anything does not resolve: a site that documents a
    broken spec would be wrong, so the build stops instead.
    """
    order = ruleset_order(catalog)
    rulesets = {rid: catalog.resolve(rid) for rid in order}
    rank = {rid: i for i, rid in enumerate(order)}
    house_ids = sorted(
        catalog.house_rules,
        key=lambda h: (rank.get(str(catalog.house_rules[h].data["origin"]), 99), h),
    )
    house_rules = {hid: catalog.house_rules[hid] for hid in house_ids}
    with_house_rule = {
        hid: catalog.resolve(f"{sf.data['origin']}{SEPARATOR}{hid}")
        for hid, sf in house_rules.items()
    }
    decisions = decisions_in([*rulesets.values(), *with_house_rule.values()])
    return Site(
        catalog=catalog,
        rulesets=rulesets,
        house_rules=house_rules,
        with_house_rule=with_house_rule,
        decisions=decisions,
        decision_titles=dict(decision_titles or {}),
        scenarios=frozenset(scenarios),
    )


def kind_counts(ruleset: Ruleset, *, own_only: bool = False) -> dict[ProvenanceKind, int]:
    counts = {k: 0 for k in ProvenanceKind}
    for setting in ruleset.settings.values():
        if own_only and setting.inherited:
            continue
        counts[setting.provenance.kind] += 1
    return counts
