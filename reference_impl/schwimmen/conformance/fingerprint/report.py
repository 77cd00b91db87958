"""What a fingerprint says: one line, a text report, JSON, and a house rule to keep.

The line reads like a finding, not a score: the closest base, each parameter value the
engine plays instead of the base's (with where the base's value comes from, so a reader
sees which source the engine departs from) and the fixtures that show it, then what
stays unexplained. When too little was judged to tell, it says so and claims nothing.
The text report adds what each base judged, what the suite cannot tell, the claimed
changes re-judged on the base's cases, and the failures no parameter explains grouped
by what differs, in words: a rule the suite cannot yet express. The house rule is the
claimed deviations as a file ``schwimmen validate`` accepts, to run the suite against the
engine as it plays (``--ruleset RULESET+FILE``), or to argue about.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from schwimmen.conformance.fingerprint.analysis import Fingerprint
from schwimmen.conformance.fingerprint.search import Change, Deviation, Difference, Explanation
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import ProvenanceKind, Ruleset

MAX_QUOTE = 60
MAX_IDS = 12
MAX_BASES = 8  # rows of the bases table in the text report (JSON has them all)

# What a field of the outcome is about, in a player's words (the first part of its path).
FIELD_WORDS = {
    "dealer": "who deals next",
    "to_move": "whose turn it is",
    "phase": "what phase the round is in",
    "steps": "whether a move is allowed",
    "winners": "who wins",
    "match_over": "whether the match is over",
    "lives": "the lives left",
    "eliminated": "who is out",
    "swimming": "who swims",
    "knocker": "who knocked",
    "legal": "which moves are legal",
    "values": "what a hand is worth",
    "points": "the points",
    "hands": "the hands",
    "middle": "the middle",
    "rounds": "how a round ends",
    "end": "how the round ends",
    "losses": "the lives lost",
    "stock": "the stock",
    "discard_top": "the discard pile",
}
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


def _told(deviation: Deviation) -> str:
    """The changes claimed, or "one of" them and their alternatives."""
    told = [_changes_text(deviation.changes)]
    told += [_changes_text(a) for a in deviation.alternatives]
    if len(told) == 1:
        return told[0]
    return f"one of {' or '.join(told)} (no case tells them apart)"


def _ids(ids: Sequence[str]) -> str:
    more = f" and {len(ids) - MAX_IDS} more" if len(ids) > MAX_IDS else ""
    return ", ".join(ids[:MAX_IDS]) + more


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def effect(deviation: Deviation) -> str:
    """``shown by 2 fixtures (knocking/knocker-lowest, ...)``: the cases that fail without
    the change and pass with it (and, as no evidence, what it also takes out of
    judgement and the errors it accounts for)."""
    out = f"shown by {_count(deviation.explains, 'fixture')} ({_ids(deviation.shows)})"
    if deviation.silences:
        out += f"; also takes {deviation.silences} out of judgement (no case for the value)"
    if deviation.refuses:
        out += f"; accounts for {deviation.refuses} errored (positions it cannot have)"
    return out


def summary(found: Fingerprint) -> str:
    """The finding in one line."""
    best = found.closest
    if best is None:
        return f"no fingerprint: {found.problem or 'no base was judged'}"
    if found.problem is not None:
        return f"no fingerprint: {found.problem}"
    if found.doubt is not None:
        return f"no fingerprint: {found.doubt} (closest so far: {best.base}); nothing claimed"
    parts = [f"closest: {best.base}"]
    for i, deviation in enumerate(best.deviations):
        reasons = "; ".join(why_base(best.base_ruleset, c) for c in deviation.changes)
        verb = "plays " if i == 0 else ""
        changes = _told(deviation)
        parts.append(f"{verb}{changes} ({reasons}), {effect(deviation)}")
    if not best.deviations:
        parts.append("no deviation found" if best.failures else "every judged case passes")
    if best.unexplained:
        unexplained = _count(len(best.unexplained), "failure")
        parts.append(f"{unexplained} unexplained: {_ids(best.unexplained)}")
    if best.errored:
        parts.append(f"{len(best.errored)} errored")
    if best.undecided:
        undecided = [c for u in best.undecided for c in u.changes]
        parts.append(f"cannot tell: {_changes_text(undecided)}")
    return "; ".join(parts)


def tally(e: Explanation) -> dict[str, int]:
    """judged / agreeing / idle / failing / errored under a base, and with its changes."""
    base_judged = e.judged
    return {
        "planned": e.planned,
        "judged": base_judged,
        "agree": base_judged - len(e.failures) - len(e.base_idle),
        "idle": len(e.base_idle),
        "failed": len(e.failures),
        "errored": len(e.errored) + len(e.refused),
        "judged_with_changes": e.judged_after,
        "agree_with_changes": e.agreement,
        "idle_with_changes": len(e.idle),
        "failed_with_changes": len(e.unexplained) + len(e.added_failed),
        "errored_with_changes": len(e.errored),
        "out_of_judgement": len(e.dropped),
    }


def groups(differences: Sequence[Difference]) -> list[dict[str, Any]]:
    """The unexplained failures grouped by the first differing field (indices and
    players taken out) and its kind of difference, largest first."""
    found: dict[tuple[str, str], list[Difference]] = {}
    for d in differences:
        found.setdefault((_field(d.path), d.kind), []).append(d)
    out = []
    for (name, kind), items in sorted(found.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        first = items[0]
        out.append(
            {
                "field": name,
                "kind": kind,
                "words": FIELD_WORDS.get(name.split(".")[0], name) if name else "errored",
                "example": {"path": first.path, "expected": first.expected, "actual": first.actual},
                "fixtures": [d.fixture for d in items],
            }
        )
    return out


def _field(path: str) -> str:
    parts = [p for p in re.split(r"[.\[\]]+", path) if p and not p.isdigit()]
    return ".".join(p for p in parts if not re.fullmatch(r"P\d+", p))


def _group_line(group: Mapping[str, Any], unit: str = "case") -> str:
    ids = group["fixtures"]
    where = f"in {_count(len(ids), unit)}: {_ids(ids)}"
    if group["kind"] == "errored":
        return f"  the engine errored ({_clip(str(group['example']['actual']))}), {where}"
    ex = group["example"]
    from schwimmen.conformance.compare import show

    expected, actual = _clip(show(ex["expected"])), _clip(show(ex["actual"]))
    said = f"the reference says {expected}, the engine {actual}"
    if group["kind"] == "missing":
        said = f"the engine does not say it (the reference: {expected})"
    elif _verdict(ex["expected"]) and _verdict(ex["actual"]):
        said = f"the reference {_verdict(ex['expected'])}, the engine {_verdict(ex['actual'])}"
    elif group["kind"] == "wrong type":
        said = f"the reference says {expected}, the engine answers another kind: {actual}"
    return f"  {group['words']} ({ex['path']}): {said}, {where}"


def _verdict(value: Any) -> str | None:
    """A step's verdict in words ("accepts it", "refuses it (no-pass)"), or None when
    ``value`` is no step verdict."""
    if value == "accepted":
        return "accepts it"
    if isinstance(value, Mapping) and set(value) == {"rejected"}:
        code = value["rejected"]
        return f"refuses it ({code})" if isinstance(code, str) and code else "refuses it"
    return None


def _bases_table(found: Fingerprint) -> list[str]:
    rows = [
        "  base                          judged  agree  idle  fail  err | with changes: "
        "judged  agree  fail  changes"
    ]
    for e in found.explanations[:MAX_BASES]:
        t = tally(e)
        rows.append(
            f"  {e.base[:29]:<29} {t['judged']:>6} {t['agree']:>6} {t['idle']:>5} "
            f"{t['failed']:>5} {t['errored']:>4} |               {t['judged_with_changes']:>6} "
            f"{t['agree_with_changes']:>6} {t['failed_with_changes']:>5} {e.complexity:>8}"
        )
    more = len(found.explanations) - MAX_BASES
    if more > 0:
        rows.append(f"  ... and {more} more bases (--format json has them all)")
    return rows


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
                f"  the suite cannot tell {_changes_text(d.changes)} from "
                f"{_changes_text(alternative)}: no case the engine answered decides between them"
            )
    if best.base_ruleset.overlays and found.told:
        houses = ", ".join(best.base_ruleset.overlays)
        lines.append(
            f"  the house rule(s) {houses} of {best.base}: shown by "
            f"{_count(len(best.house_shown_by), 'fixture')} ({_ids(best.house_shown_by)})"
        )
    also = same_as(catalog, best)
    if also and found.told:
        lines.append(f"  that is what {', '.join(also)} plays")
    t = tally(best)
    lines.append(
        f"  under {best.base} alone: {t['judged']} of {t['planned']} cases judged, "
        f"{t['failed']} failed, {t['idle']} passed only as an engine doing nothing would"
    )
    if best.deviations:
        lines.append(
            f"  with the changes claimed: {t['judged_with_changes']} judged, "
            f"{t['failed_with_changes']} failed, {t['idle_with_changes']} idle passes; "
            f"{t['out_of_judgement']} out of judgement"
            + (f": {_ids(best.dropped)}" if best.dropped else "")
        )
    if best.added:
        failing = f", {len(best.added_failed)} failing: {_ids(best.added_failed)}"
        lines.append(
            f"  {len(best.added)} judged only with the changes (their cases need them): "
            f"{_ids(best.added)}" + (failing if best.added_failed else "")
        )
    for u in best.undecided:
        lines.append(f"  cannot tell {_changes_text(u.changes)}: {u.reason}")
    if best.refused:
        lines.append(
            f"  {len(best.refused)} errored on positions the changed ruleset cannot have: "
            f"{_ids(best.refused)}"
        )
    if best.errored:
        lines.append(f"  {len(best.errored)} errored under {best.base}: {_ids(best.errored)}")
    found_groups = groups(best.differences)
    if found_groups:
        lines.append(
            "failures no parameter explains, by what differs (rules the suite cannot yet express):"
        )
        lines += [_group_line(g) for g in found_groups]
    replayed = groups(best.replayed_differences)
    if replayed:
        lines.append(
            "positions no case judges with the changes, replayed on the reference with them, "
            "where the engine answers otherwise (rules the suite cannot yet express there):"
        )
        lines += [_group_line(g, "position") for g in replayed]
    if found.tied:
        names = ", ".join(e.base for e in found.tied)
        lines.append(f"as good (the suite cannot tell them apart): {names}")
    lines.append("by base, on the same answers (idle: passes an engine doing nothing has too):")
    lines += _bases_table(found)
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
        "doubt": found.doubt,
        "told": found.told,
        "fixed_rules": bool(found.evidence and found.evidence.fixed_rules),
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
        "tally": tally(e),
        "failures": list(e.failures),
        "deviations": [
            {
                "changes": [_change_json(e, c) for c in d.changes],
                "explains": d.explains,
                "silences": d.silences,
                "refuses": d.refuses,
                "shown_by": list(d.shows),
                "alternatives": [[c.to_json() for c in a] for a in d.alternatives],
            }
            for d in e.deviations
        ],
        "unexplained": list(e.unexplained),
        "unjudged": list(e.unjudged),
        "errored": list(e.errored),
        "refused": list(e.refused),
        "cannot_tell": [
            {"changes": [c.to_json() for c in u.changes], "reason": u.reason} for u in e.undecided
        ],
        "idle": list(e.idle),
        "out_of_judgement": list(e.dropped),
        "house_rules_shown_by": list(e.house_shown_by),
        "judged_only_with_changes": list(e.added),
        "failed_only_with_changes": list(e.added_failed),
        "unexpressed": groups(e.differences),
        "unexpressed_replayed": groups(e.replayed_differences),
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
    if best is None or not best.changes or not found.told:
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
        if d.alternatives:
            others = "; ".join(_changes_text(a) for a in d.alternatives)
            why += f"; or {others}: no case the engine answered tells them apart"
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
