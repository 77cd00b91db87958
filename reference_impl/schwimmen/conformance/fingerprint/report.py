"""What a fingerprint says: one line, a text report, JSON, and a house rule to keep.

The line reads like a finding, not a score: the closest base, each parameter value the
engine plays instead of the base's (with where the base's value comes from, so a reader
sees which source the engine departs from) and how many failures it explains, then what
stays unexplained. The house rule is the deviations as a file ``schwimmen validate``
accepts, to run the suite against the engine as it plays (``--ruleset RULESET+FILE``),
or to argue about.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from schwimmen.conformance.fingerprint.analysis import Fingerprint
from schwimmen.conformance.fingerprint.search import Change, Deviation, Explanation
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import ProvenanceKind, Ruleset

MAX_QUOTE = 60
MAX_IDS = 12
ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def shown(value: Any) -> str:
    """A parameter value as the spec files write it (flow style); None is "unset"."""
    if value is None:
        return "unset"
    return json.dumps(value, ensure_ascii=False).replace('"', "")


def _clip(text: str) -> str:
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 1] + "…"


def why_base(ruleset: Ruleset, change: Change) -> str:
    """The base's value and where it comes from: ``scat: 2, „quote…“ s004:33``."""
    head = f"{ruleset.id}: {shown(change.base_value)}"
    setting = ruleset.settings.get(change.parameter)
    if setting is None:
        return head
    provenance = setting.provenance
    if provenance.citations:
        c = provenance.citations[0]
        where = c.source + (f":{c.line}" if c.line else "")
        decision = ""
        if provenance.kind is ProvenanceKind.INTERPRETED and provenance.decision:
            decision = f", read as {provenance.decision}"
        return f"{head}, „{_clip(c.quote)}“ {where}{decision}"
    if provenance.why:
        return f"{head}, by default: {_clip(provenance.why)}"
    return head


def _changes_text(changes: Sequence[Change]) -> str:
    return ", ".join(f"`{c.parameter} = {shown(c.value)}`" for c in changes)


def _ids(ids: Sequence[str]) -> str:
    more = f" and {len(ids) - MAX_IDS} more" if len(ids) > MAX_IDS else ""
    return ", ".join(ids[:MAX_IDS]) + more


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def effect(deviation: Deviation) -> str:
    """``explains 6 failures`` (and what it only silences, and the errors it accounts
    for)."""
    out = f"explains {_count(deviation.explains, 'failure')}"
    if deviation.silences:
        out += f", silences {deviation.silences} (no case for the value)"
    if deviation.refuses:
        out += f", accounts for {deviation.refuses} errored (positions it cannot have)"
    return out


def summary(found: Fingerprint) -> str:
    """The finding in one line."""
    best = found.closest
    if best is None:
        return f"no fingerprint: {found.problem or 'no base was judged'}"
    parts = [f"closest: {best.base}"]
    for i, deviation in enumerate(best.deviations):
        reasons = "; ".join(why_base(best.base_ruleset, c) for c in deviation.changes)
        verb = "plays " if i == 0 else ""
        changes = _changes_text(deviation.changes)
        parts.append(f"{verb}{changes} ({reasons}), {effect(deviation)}")
    if not best.deviations:
        parts.append("no deviation found" if best.failures else "every judged case passes")
    if best.unexplained:
        unexplained = _count(len(best.unexplained), "failure")
        parts.append(f"{unexplained} unexplained: {_ids(best.unexplained)}")
    if best.errored:
        parts.append(f"{len(best.errored)} errored")
    return "; ".join(parts)


def same_as(catalog: Catalog, explanation: Explanation) -> list[str]:
    """The rulesets and house rules of the catalog that play exactly these values."""
    if not explanation.changes:
        return []
    played = json.dumps(explanation.ruleset.values(), sort_keys=True)
    out = []
    for name in catalog.standard_names():
        try:
            values = catalog.resolve(name).values()
        except SpecErrors:
            continue
        if json.dumps(values, sort_keys=True) == played:
            out.append(name)
    return out


def text(found: Fingerprint, catalog: Catalog) -> str:
    """The report a person reads: the finding, then what it rests on."""
    lines = [_header(found), "", summary(found)]
    best = found.closest
    if best is None:
        lines += [f"  for example {e}" for e in found.errors[:3]]
        return "\n".join(lines) + "\n"
    for d in best.deviations:
        for alternative in d.alternatives:
            lines.append(
                f"  {_changes_text(d.changes)} has the same effect on every fixture as "
                f"{_changes_text(alternative)}"
            )
    also = same_as(catalog, best)
    if also:
        lines.append(f"  that is what {', '.join(also)} plays")
    lines.append(
        f"  {best.judged} fixtures judged under {best.base}: {len(best.failures)} failed; "
        f"{best.agreement} agree with the changes"
    )
    if best.unjudged:
        lines.append(
            f"  {_count(len(best.unjudged), 'failure')} with no case for the changed values "
            f"(the suite has no expectation there): {_ids(best.unjudged)}"
        )
    if best.refused:
        lines.append(
            f"  {len(best.refused)} errored on positions the changed ruleset cannot have: "
            f"{_ids(best.refused)}"
        )
    if best.errored:
        lines.append(f"  {len(best.errored)} errored under {best.base}: {_ids(best.errored)}")
    if found.tied:
        names = ", ".join(e.base for e in found.tied)
        lines.append(f"as good (the suite cannot tell them apart): {names}")
    others = [e for e in found.explanations[1:] if e not in found.tied][:3]
    if others:
        lines.append("next: " + "; ".join(_brief(e) for e in others))
    return "\n".join(lines) + "\n"


def _brief(e: Explanation) -> str:
    unexplained = len(e.unexplained) + len(e.errored)
    stopped = ", not searched further" if e.stopped else ""
    return f"{e.base} ({unexplained} unexplained, {_count(e.complexity, 'change')}{stopped})"


def _header(found: Fingerprint) -> str:
    info = found.implementation
    name = " ".join(str(info.get(k, "")) for k in ("name", "version")).strip()
    c = found.counts
    return (
        f"schwimmen fingerprint of {name or 'the implementation'}: {sum(c.values())} cases "
        f"in {found.seconds:.1f} s ({c.get('passed', 0)} passed, {c.get('failed', 0)} failed, "
        f"{c.get('errored', 0)} errored, {c.get('skipped', 0)} skipped)"
    )


def to_json(found: Fingerprint, catalog: Catalog) -> dict[str, Any]:
    best = found.closest
    return {
        "implementation": dict(found.implementation),
        "counts": dict(found.counts),
        "seconds": round(found.seconds, 3),
        "problem": found.problem,
        "summary": summary(found),
        "closest": _explanation_json(best, catalog) if best is not None else None,
        "tied": [e.base for e in found.tied],
        "bases": [_explanation_json(e, None) for e in found.explanations],
    }


def _explanation_json(e: Explanation, catalog: Catalog | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "base": e.base,
        "changes": e.changes,
        "rank": {
            "unexplained": len(e.unexplained) + len(e.errored),
            "changes": e.complexity,
            "agreement": e.agreement,
        },
        "judged": e.judged,
        "failures": list(e.failures),
        "deviations": [
            {
                "changes": [_change_json(e, c) for c in d.changes],
                "explains": d.explains,
                "silences": d.silences,
                "refuses": d.refuses,
                "alternatives": [[c.to_json() for c in a] for a in d.alternatives],
            }
            for d in e.deviations
        ],
        "unexplained": list(e.unexplained),
        "unjudged": list(e.unjudged),
        "errored": list(e.errored),
        "refused": list(e.refused),
        "searched_fully": not e.stopped,
    }
    if catalog is not None:
        out["same_as"] = same_as(catalog, e)
    return out


def _change_json(e: Explanation, change: Change) -> dict[str, Any]:
    out = change.to_json()
    setting = e.base_ruleset.settings.get(change.parameter)
    if setting is not None:
        out["base_provenance"] = setting.provenance.to_json()
    return out


def dumps(data: Mapping[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)


def house_rule(found: Fingerprint, catalog: Catalog, rule_id: str) -> str | None:
    """The closest explanation's deviations as a house rule ``rule_id`` on its ruleset
    (with the house rules of a composed base, so that ``ruleset+FILE`` plays what the
    engine plays), or None when there is nothing to write."""
    best = found.closest
    if best is None or not best.changes:
        return None
    name = str(found.implementation.get("name") or "the implementation")
    rules: dict[str, dict[str, Any]] = {}
    for overlay in best.base_ruleset.overlays:
        why = f"the house rule {overlay}, which schwimmen fingerprint found {name} plays"
        for group, params in catalog.house_rules[overlay].data["rules"].items():
            for param, entry in params.items():
                rules.setdefault(group, {})[param] = {
                    "value": entry["value"],
                    "default": {"why": why},
                }
    for d in best.deviations:
        why = f"observed in {name} by schwimmen fingerprint: {effect(d)}"
        for c in d.changes:
            group, _, param = c.parameter.partition(".")
            rules.setdefault(group, {})[param] = {"value": c.value, "default": {"why": why}}
    changes = ", ".join(f"{p} = {shown(v)}" for p, v in best.changes.items())
    data = {
        "id": rule_id,
        "kind": "house-rule",
        "title": f"{name} as schwimmen fingerprint observed it",
        "summary": f"What {name} plays differently from {best.base}: {changes}.",
        "origin": best.base_ruleset.base,
        "rules": rules,
    }
    head = "# Written by schwimmen fingerprint; check it with: schwimmen validate FILE\n"
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
