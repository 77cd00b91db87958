"""A minimal difference written as a fixture of the suite's own format (FIXTURES.md).

The fixture states what the reference answers, in the fixtures' vocabulary: every step
the reference refuses (with its code), and the field where the implementation first
differs, with enough around it to read (the rounds up to that one, the seat whose legal
actions differ). Its one case applies where the parameters it depends on have the
ruleset's values (``where``, found by ``params.dependencies``), and cites what the
ruleset says about them: the quotes of a cited or interpreted parameter as ``because``,
the decision (``Uxx``) of a stated default as ``default``. Nothing is made up; a default
without a decision number is named in the case's note instead.

A case that pins nothing (a refusal every ruleset makes alike) still rests on a rule:
it cites what the ruleset says about the parameters that govern the differing field
(``GOVERNING``: the moves for a step, the penalties for a loss, ...), never nothing.

Before a fixture is written it must hold what it claims: the reference passes it under
every ruleset of a default run that it applies to (a parameter is pinned until it
does), the implementation fails it on every rerun (an implementation that passes it
once is flaky, and a flaky finding is reported, not written), and ``schwimmen
conformance lint`` finds nothing wrong with it. A fixture that cannot be made to lint
clean is kept apart (``rejected/<name>.yaml.rejected`` under the output folder, which no
run of the suite reads), never written broken among the others. A file that exists is
never replaced (unless ``force``): the finding gets the next free name.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from schwimmen.conformance.compare import compare
from schwimmen.conformance.fields import STATE_FIELDS
from schwimmen.conformance.fixtures import Fixture, parameter_values, parse_fixture
from schwimmen.conformance.fuzz.diff import Difference
from schwimmen.conformance.fuzz.params import Mutants, dependencies, run_under
from schwimmen.conformance.harness import default_rulesets
from schwimmen.conformance.lint import lint
from schwimmen.conformance.runner import Status, judge
from schwimmen.engine.adapter import run_case
from schwimmen.resources import schema_dir
from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Citation, ProvenanceKind, Ruleset, thaw
from schwimmen.spec.parameters import PARAMETERS

Outcome = Mapping[str, Any]
ROUND_KEYS = ("reason", "at_deal", "after_step", "by", "knocker", "losses")
MAX_LEGAL = 8
STEP_CONTEXT = ("to_move", "phase", "knocker", "match_over")
_ORDER = {p.path: i for i, p in enumerate(PARAMETERS)}
_ID_NAME = re.compile(r"^[a-z0-9-]+(\+[a-z0-9-]+)*$")


# ---------------------------------------------------------------------------- expectation
def _record(record: Mapping[str, Any], values: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ROUND_KEYS:
        value: Any = record.get(key)
        if key == "by" and value is None:
            continue  # the schema has no null ``by``: a round without one leaves it out
        if key == "losses":
            value = {seat: n for seat, n in value.items() if n}
        out[key] = value
    if values:
        out["values"] = {seat: dict(v) for seat, v in record["values"].items()}
    return out


def _state(key: str, ref: Outcome, got: Outcome) -> dict[str, Any]:
    if key == "legal":
        theirs = got.get("legal")
        theirs = set(theirs) if isinstance(theirs, list) else set()
        mine = set(ref["legal"])
        out: dict[str, Any] = {"to_move": ref["to_move"]}
        if mine - theirs or not theirs:
            out["legal_includes"] = sorted(mine - theirs or mine)[:MAX_LEGAL]
        if theirs - mine:
            out["legal_excludes"] = sorted(theirs - mine)[:MAX_LEGAL]
        return out
    if key == "points":
        return {key: {seat: n for seat, n in ref[key].items() if n}}
    return {key: ref[key]}


def expectation(
    difference: Difference, ref: Outcome, got: Outcome, full: bool = False
) -> dict[str, Any]:
    """What a case expects: the reference's refusals and the first differing field (with
    ``full``, also every state field in which the two outcomes differ)."""
    expect: dict[str, Any] = {}
    refused = {
        str(i): {"rejected": step["reason"]}
        for i, step in enumerate(ref["steps"], start=1)
        if not step["accepted"]
    }
    if refused:
        expect["steps"] = refused
    field = difference.field
    if field.startswith("rounds"):
        upto = difference.index if field == "rounds.extra" else difference.index + 1
        records = [_record(r, field == "rounds.values") for r in ref["rounds"][:upto]]
        if field == "rounds.extra" and not records:
            expect["round_over"] = False
        elif len(records) == 1 and field != "rounds.extra":
            expect["end"] = records[0]
        elif records:
            expect["rounds"] = records
    elif field == "steps":
        if difference.expected == "accepted":  # refused by the implementation only
            expect.setdefault("steps", {})[str(difference.time)] = "accepted"
            expect["steps"] = dict(sorted(expect["steps"].items(), key=lambda kv: int(kv[0])))
        for key in STEP_CONTEXT:  # what the step did (or did not do) to the state
            if key in ref and got.get(key) != ref[key]:
                expect[key] = ref[key]
    else:
        expect.update(_state(field, ref, got))
    if full:
        for key in STATE_FIELDS:
            if key in ref and got.get(key) != ref[key]:
                expect.update(_state(key, ref, got))
    return expect


def holds(
    expect: Mapping[str, Any], ref: Outcome, got: Outcome, steps: int, declared: frozenset[str]
) -> bool:
    """The reference passes ``expect`` and the implementation fails it."""
    if compare(expect, ref, steps).mismatches:
        return False
    try:
        return bool(compare(expect, got, steps, declared).mismatches)
    except ValueError:
        return False


# ---------------------------------------------------------------------------- citations
@dataclass(frozen=True)
class Cites:
    because: tuple[Citation, ...]
    defaults: tuple[str, ...]
    notes: tuple[str, ...]


GOVERNING: dict[str, tuple[str, ...]] = {
    "steps": ("turns.move", "turns.swaps", "turns.passing", "draw.rediscard", "knocking.form"),
    "legal": ("turns.move", "turns.swaps", "turns.passing", "knocking.form"),
    "hands": ("turns.move", "turns.swaps"),
    "middle": ("turns.move", "turns.swaps", "dealing.middle_visibility"),
    "to_move": ("turns.direction", "turns.first_player", "turns.move"),
    "phase": ("turns.move", "knocking.then", "knocking.last_cycle"),
    "knocker": ("knocking.form", "knocking.then"),
    "dealer": ("match.dealer_rotation", "turns.direction"),
    "rounds.reason": (
        "knocking.then",
        "maximum.at_deal",
        "maximum.in_play",
        "all_pass.replacement",
    ),
    "rounds.at_deal": ("maximum.at_deal", "dealing.procedure"),
    "rounds.missing": ("maximum.at_deal", "knocking.last_cycle", "knocking.then"),
    "rounds.extra": ("maximum.at_deal", "knocking.last_cycle", "knocking.then"),
    "rounds.losses": ("penalties.lowest", "penalties.knocker_lowest", "penalties.tied_lowest"),
    "rounds.values": ("cards.values", "maximum.points", "triples.points"),
    "lives": ("lives.count", "penalties.lowest", "lives.after_last"),
    "swimming": ("lives.after_last",),
    "eliminated": ("lives.after_last", "lives.count"),
    "match_over": ("lives.after_last", "match.everyone_out"),
    "winners": ("match.everyone_out", "lives.after_last"),
    "points": ("match.series",),
}
"""The parameters a field is played by, for a case that pins none: what it cites."""


def governing(ruleset: Ruleset, field: str) -> list[str]:
    """The parameters of ``ruleset`` that govern ``field`` and that say something (a
    citation or a decision): a case pinning nothing cites these."""
    out = []
    for path in (*GOVERNING.get(field, ()), "turns.move"):
        setting = ruleset.settings.get(path)
        if setting is None or path in out:
            continue
        prov = setting.provenance
        if prov.decision or (prov.kind is not ProvenanceKind.DEFAULT and prov.citations):
            out.append(path)
    return out[:2]


def citations(ruleset: Ruleset, pinned: Sequence[str]) -> Cites:
    """What the ruleset says about each pinned parameter: quotes of a cited or
    interpreted value, the decision of a default (and of an interpretation that rests on
    one); a default without a decision number goes into the note, as it stands."""
    because: list[Citation] = []
    defaults: list[str] = []
    notes: list[str] = []
    for path in pinned:
        setting = ruleset.settings[path]
        prov = setting.provenance
        if prov.kind is not ProvenanceKind.DEFAULT:
            because += [c for c in prov.citations if c not in because]
        if prov.decision and prov.decision not in defaults:
            defaults.append(prov.decision)
        elif prov.kind is ProvenanceKind.DEFAULT and not prov.decision:
            why = f": {prov.why.strip()}" if prov.why else ""
            notes.append(
                f"{path} = {_flow(setting.value)} is a default of {ruleset.id} "
                f"without a decision number{why}"
            )
    return Cites(tuple(because), tuple(sorted(defaults)), tuple(notes))


def _flow(value: Any) -> str:
    return (
        yaml.safe_dump(thaw(value), default_flow_style=True, width=1000)
        .strip()
        .removesuffix("...")
        .strip()
    )


# ---------------------------------------------------------------------------- the file
def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "ruleset"


def fixture_id(ruleset: Ruleset, name: str) -> str:
    """``fuzz/<ruleset>/<name>`` (``words.name``)."""
    return f"fuzz/{slug(ruleset.id)}/{name}"


def free_id(wanted: str, out: Path, taken: set[str], force: bool) -> str:
    """``wanted``, or ``wanted-2``, ``-3``, ...: the first id that this run has not used
    and whose file does not exist under ``out`` (with ``force``, an existing file from an
    earlier run may be replaced, never one this run wrote)."""
    ident, n = wanted, 1
    while ident in taken or (not force and (out / f"{ident}.yaml").exists()):
        n += 1
        ident = f"{wanted}-{n}"
    return ident


@dataclass
class Draft:
    """Everything a fuzzed fixture is made of."""

    id: str
    title: str
    description: str
    kind: str
    case: Mapping[str, Any]
    expect: dict[str, Any]
    where: dict[str, Any]
    rulesets: list[str]
    cites: Cites

    def data(self) -> dict[str, Any]:
        setup = {
            k: self.case[k]
            for k in ("seats", "dealer", "lives", "eliminated", "deck", "decks", "steps")
            if k in self.case
        }
        one: dict[str, Any] = {"name": "the reference's outcome"}
        if self.where:
            one["where"] = self.where
        if self.rulesets:
            one["rulesets"] = self.rulesets
        one["expect"] = self.expect
        if self.cites.because:
            one["because"] = [c.to_json() for c in self.cites.because]
        if self.cites.defaults:
            one["default"] = list(self.cites.defaults)
        if self.cites.notes:
            one["note"] = "; ".join(self.cites.notes)
        return {
            "id": self.id,
            "title": self.title,
            "kind": self.kind,
            "description": self.description,
            **setup,
            "cases": [one],
        }

    def text(self, path: Path | None = None) -> str:
        """The fixture as YAML; written to ``path``, it names its schema for editors."""
        head = "# Written by schwimmen fuzz.\n"
        if path is not None:
            try:
                schema = os.path.relpath(schema_dir() / "fixture.schema.json", path.parent)
                head = f"# yaml-language-server: $schema={schema}\n{head}"
            except ValueError:  # another drive: no relative path
                pass
        return head + yaml.safe_dump(
            thaw(self.data()),
            sort_keys=False,
            allow_unicode=True,
            width=100,
            default_flow_style=None,
        )


def _parsed(draft: Draft, directory: Path) -> tuple[Fixture | None, list[SpecError]]:
    path = directory / f"{draft.id}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(draft.text(), encoding="utf-8")
    # lint reads a fixture's id from the path after "fixtures/", as it shows its files
    return parse_fixture(path, f"conformance/fixtures/{draft.id}.yaml")


def _real(problem: str, draft: Draft, path: Path) -> str:
    """A problem as lint words it, naming the file where it is written instead."""
    return problem.replace(f"conformance/fixtures/{draft.id}.yaml", str(path))


def _applies(fixture: Fixture, ruleset: Ruleset) -> bool:
    return fixture.applicable_case(ruleset) is not None


def _passes(fixture: Fixture, ruleset: Ruleset) -> bool:
    case = fixture.applicable_case(ruleset)
    assert case is not None
    return judge(fixture, case, ruleset, run_case(fixture.request(ruleset))).status is Status.PASSED


def _pin_for(
    mutants: Mutants,
    case: Mapping[str, Any],
    expect: Mapping[str, Any],
    other: Ruleset,
    where: Mapping[str, Any],
    passing: Sequence[Ruleset],
) -> str | None:
    """A parameter to pin so that the case no longer applies to ``other``, on which the
    reference gives another outcome: one whose value alone makes the difference if
    there is one, or whose value given to ``other`` makes it agree; otherwise the one
    that excludes the fewest of the ``passing`` rulesets."""
    mine, theirs = mutants.values, parameter_values(other)
    differing = sorted(
        (p for p in mine if p in theirs and p not in where and mine[p] != theirs[p]),
        key=lambda p: _ORDER.get(p, len(_ORDER)),
    )
    steps = len(case.get("steps", ()))
    for path in differing:
        mutant = mutants.of(path, theirs[path])
        if mutant is None:
            continue
        outcome = run_under(case, mutant)
        if outcome is None or compare(expect, outcome, steps).mismatches:
            return path
    for path in differing:  # the other way round: ``other`` given this ruleset's value
        try:
            back = mutants.catalog.mutant(other.id, {path: mine[path]})
        except SpecErrors:
            continue
        outcome = run_under(case, back)
        if outcome is not None and not compare(expect, outcome, steps).mismatches:
            return path
    together = _jointly(mutants, case, expect, {p: theirs[p] for p in differing})
    if not together:
        return None  # no parameter shows it: pinning one at random would pin a guess

    def excluded(path: str) -> int:
        return sum(1 for r in passing if parameter_values(r).get(path) != mine[path])

    return min(together, key=excluded)  # of those it depends on, the cheapest pin


def _jointly(
    mutants: Mutants, case: Mapping[str, Any], expect: Mapping[str, Any], changes: dict[str, Any]
) -> list[str]:
    """A smallest set of ``changes`` that together change the checked outcome (none of
    them does alone): every change is dropped in turn, and kept only if the outcome
    stays as it is without it. Empty when all of them together change nothing."""
    steps = len(case.get("steps", ()))

    def changes_outcome(subset: Mapping[str, Any]) -> bool:
        try:
            ruleset = mutants.catalog.mutant(mutants.ruleset.id, dict(subset))
        except SpecErrors:
            return False
        outcome = run_under(case, ruleset)
        return outcome is None or bool(compare(expect, outcome, steps).mismatches)

    if not changes or not changes_outcome(changes):
        return []
    kept = dict(changes)
    for path in list(changes):
        without = {p: v for p, v in kept.items() if p != path}
        if without and changes_outcome(without):
            kept = without
    return sorted(kept, key=lambda p: _ORDER.get(p, len(_ORDER)))


def _draft(case: Mapping[str, Any], expect: dict[str, Any], fixture_id: str) -> Draft:
    return Draft(
        fixture_id, "fuzzed", "", str(case["kind"]), case, expect, {}, [], Cites((), (), ())
    )


def pinned_parameters(
    mutants: Mutants, case: Mapping[str, Any], expect: dict[str, Any]
) -> list[str]:
    """The parameters the expectation depends on, for rulesets the position fits."""
    draft = _draft(case, expect, "fuzz/probe")
    draft.rulesets = [slug(mutants.ruleset.id)]  # a case must name something to be read
    with tempfile.TemporaryDirectory(prefix="schwimmen-fuzz-") as tmp:
        probe, _ = _parsed(draft, Path(tmp))
    if probe is None:
        return dependencies(mutants, case, expect, lambda r: True)
    return dependencies(mutants, case, expect, lambda r: probe.fits(r) is None)


WRITTEN = "written"
REJECTED = "rejected"
FLAKY = "flaky"
RERUNS = 2
"""How often the implementation must fail a fixture before it is written: a finding it
passes on a rerun is flaky (it answers the same case differently), not a fixture."""


@dataclass
class Written:
    """What became of a finding: ``status`` written (``path`` is a fixture that lints
    clean), rejected (``path`` is kept apart, ``problems`` say why) or flaky (nothing
    written: the implementation passed it on a rerun)."""

    path: Path | None
    fixture_id: str
    pinned: list[str]
    problems: list[str]
    status: str = WRITTEN


def build(
    catalog: Catalog,
    mutants: Mutants,
    case: Mapping[str, Any],
    expect: dict[str, Any],
    pinned: Sequence[str],
    *,
    fixture_id: str,
    title: str,
    description: str,
    fails: Callable[[Fixture], bool],
    out: Path,
    field: str = "steps",
    taken: set[str] | None = None,
    force: bool = False,
) -> Written:
    """Check the fixture as the suite would and write it to ``out``: the case pins
    ``pinned``, and more where the reference gives another outcome under a ruleset of a
    default run it would still apply to; ``fails`` runs it on the implementation (True:
    the implementation fails it). Problems found are returned with it, to be reported."""
    ruleset = mutants.ruleset
    pinned = list(pinned)
    draft = _draft(case, expect, fixture_id)
    draft.title, draft.description = title, description
    problems: list[str] = []
    standard = [catalog.resolve(n) for n in default_rulesets(catalog)]
    with tempfile.TemporaryDirectory(prefix="schwimmen-fuzz-") as tmp:
        scratch = Path(tmp)
        for _ in range(len(_ORDER)):
            values = mutants.values
            draft.where = {p: [values[p]] for p in sorted(pinned, key=_ORDER.__getitem__)}
            # Without predicates a case applies to the rulesets it names, and must name one.
            draft.rulesets = [] if draft.where else [ruleset.id]
            fixture, errors = _parsed(draft, scratch)
            if fixture is None:
                problems += [str(e) for e in errors]
                break
            applying = [r for r in standard if _applies(fixture, r)]
            passing = [r for r in applying if _passes(fixture, r)]
            failing = [r for r in applying if r not in passing]
            if not failing:
                draft.rulesets = [r.id for r in passing]
                break
            extra = _pin_for(mutants, case, expect, failing[0], draft.where, passing)
            if extra is None:
                problems.append(f"the reference fails the fixture under {failing[0].id}")
                break
            pinned.append(extra)
        if ruleset.id not in draft.rulesets and _ID_NAME.match(ruleset.id):
            draft.rulesets.append(ruleset.id)
        draft.cites = citations(ruleset, list(draft.where) or governing(ruleset, field))
        taken = set() if taken is None else taken
        draft.id = free_id(draft.id, out, taken, force)
        taken.add(draft.id)
        path = out / f"{draft.id}.yaml"
        scratch = scratch / "final"  # only this fixture, under its final name, is linted
        fixture, errors = _parsed(draft, scratch)
        problems += [_real(str(e), draft, path) for e in errors]
        flaky = False
        if fixture is not None:
            if fixture.applicable_case(ruleset) is None:
                problems.append(f"the fixture does not apply to {ruleset.id}")
            elif not _passes(fixture, ruleset):
                problems.append(f"the reference fails the fixture under {ruleset.id}")
            elif not all(fails(fixture) for _ in range(RERUNS)):
                flaky = True
            found, _ = lint(catalog, scratch)
            problems += [_real(str(e), draft, path) for e in found]
    pinned_now = list(draft.where)
    if flaky:
        problems.insert(0, "the implementation passed the fixture on a rerun")
        return Written(None, draft.id, pinned_now, problems, FLAKY)
    if problems:
        path = out / "rejected" / f"{draft.id}.yaml.rejected"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(draft.text(), encoding="utf-8")
        return Written(path, draft.id, pinned_now, problems, REJECTED)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w" if force else "x", encoding="utf-8") as handle:
        handle.write(draft.text(path.resolve()))
    return Written(path, draft.id, pinned_now, problems)
