"""Fingerprint: which ruleset does an implementation play, and where does it deviate?

A pass rate is a poor guide. A ruleset scores well when few fixtures hinge on the rules in
which it differs from what the engine plays, not when it differs in few rules: an engine
that ends the round on a 31 once passed most cases under a ruleset whose 31 has no effect,
because more fixtures hinged on its other rules. So the fingerprint reasons about
parameters: for each candidate base it looks for the fewest parameter values that,
changed, make the suite's expectations agree with what the engine answered, and prefers
the base that leaves the fewest failures unexplained with the fewest changes.

1. **Observe** (:mod:`~schwimmen.conformance.fingerprint.evidence`). The suite runs
   against the implementation under every candidate base (``--base``, or every ruleset
   of the catalog with each house rule on its origin, and every composition the start
   answer claims), each fixture's request once per base, and the outcomes are kept. An
   engine may read the request's parameters, so nothing is assumed about how its outcome
   under one base relates to its outcome under another.

2. **Expectations cost nothing.** A case applies to every ruleset meeting its ``where``
   predicates, and the mutation lint guarantees that its outcome depends only on the
   parameters they pin. So what a changed ruleset ``B+Δ`` expects of fixture ``f`` is
   ``f.applicable_case(B+Δ).expect``: no engine run is needed. Under ``B+Δ`` the
   engine's outcome on ``f`` *agrees* (the case that applies matches it), *disagrees*,
   or is not judged (no case applies: the suite has no expectation for that ruleset
   there). An errored case is a contradiction too, unless ``B+Δ`` cannot have the
   position at all (an extra hand where ``B+Δ`` deals none): an engine refuses what its
   rules do not know. Each case is judged against the outcome once, and a change is
   looked at only where a fixture's cases name a changed parameter, or where the
   position itself depends on it (the pack, the hands, the table).

3. **Search** (per base, :class:`~schwimmen.conformance.fingerprint.search.Search`).
   The failures point at their explanation. For a failing fixture, every other case of
   it that the outcome *does* match names in its predicates the parameters that would
   have to change for that case to apply: an engine playing ``B+Δ`` matches the case that
   applies under ``B+Δ``, and that case's predicates differ from ``B``'s values only in
   Δ. Each such case asking for one or two changes is a candidate. So is each value the
   failing case's own predicates exclude (the engine may play a value the suite has no
   case for, another order of suits; such a change can only silence the failure) and,
   while positions errored, each other pack and table; but a step of these is taken over
   an explaining one only if it resolves at least twice as many failures. Silencing is
   cheap: one parameter's other value silences every fixture that pins it, and a greedy
   step that silences a family of failures shuts out the changes that explain them
   (Feuer costing two lives in play and at the deal). A candidate that makes no valid
   ruleset (three aces with fixed points but no number of points) is completed with each
   value of a parameter the error names; one that leaves fewer than half of the base's
   positions possible is another game, not a deviation, and is not scored. The
   candidates are ordered by an estimate (the changed values laid over the base's,
   without resolving a ruleset), the best are resolved and scored, and greedily the best
   is kept, up to four changes; then each change that earns nothing is dropped again.

   A change set is scored by its disagreements and agreements (``quality``): a
   disagreement costs as much as ten fixtures taken out of judgement. Counting only
   agreements preferred a wrong value that keeps more fixtures judged to the true one
   the suite has few cases for; counting only disagreements preferred a change of pack
   that silences everything to the truth when a fixture contradicts the truth itself.

4. **Claim only what the answers show.** A change found by the search is reported as
   played only when answers show it: they disagree without it and agree with it, and at
   most one in ``CONTRADICTION_RATIO`` as many agree without it and not with it
   (:meth:`~schwimmen.conformance.fingerprint.search.Search.shown_by`, ``lost``). An
   answer agrees by the case that applies, by what the engine did (a pass an engine doing
   nothing has too shows nothing), or, where no case applies, because the reference
   playing the rules answers the position as the engine did (``Search.weigh``). That
   weighing is made for the likeliest ``WEIGHED_BASES`` bases, searched again with it;
   the first round, over every base, claims by the cases alone (a failure a change takes
   out of judgement shows nothing there). Changes nothing shows are listed apart as
   "cannot tell", with the reason, and never written into a house rule; the explanation
   is then re-judged with the claimed changes alone, on the same cases as its base and
   on those only the changes give a case (:func:`rejudged`).

5. **Choose the base**: fewest unexplained failures (disagreements and errors the
   claimed changes leave; the fixtures they take out of judgement on which the reference
   playing them does not answer as the engine did; and positions the engine errored on
   that only the base's house rules do not have), then fewest changes (a composed base's
   house rules count as changes: a house rule no fixture can see is no better a guess
   than its ruleset alone), then most agreement (passes by what the engine did, with the
   fixtures taken out of judgement on which the reference playing the changes answers as
   the engine did), then the name. So every base is weighed on every answer it judges,
   not only on those its cases still judge once changed, and changes that only silence
   failures or refuse errored positions choose nothing (:meth:`~schwimmen.conformance.
   fingerprint.search.Explanation.rank`). Bases that tie on all three are reported
   together: the suite cannot tell them apart. A base under which fewer than half as
   many fixtures are weighed as under the base weighing most is ranked after all
   others: a base cannot win by having its cases skipped (``scat`` on 9 judged cases,
   when ``rules-page`` judged 146). The likeliest bases are searched first; once one
   (judging enough) explains everything with k changes, the others are searched only as
   far as k changes, since they cannot do better. The closest explanations are then
   re-judged on the fixtures only their claimed changes give a case (:func:`rejudged`),
   so that what the emitted house rule judges is what the report counts.

6. **Say when too little was judged to tell**: under the closest base, fewer than a
   third of its cases judged, more than a quarter errored, most passes idle, fewer
   passes than failures, an engine that accepts no move refusing the moves of more
   cases than it agrees on, a base of another ruleset explaining the answers exactly as
   well, or the run cut short by its time budget. Then nothing is
   claimed, no house rule is written, and the command exits non-zero.

7. **Equivalent explanations.** Change sets with the same verdict on every fixture are
   reported as alternatives of one another; the one shown first is one a ruleset or house
   rule of the catalog plays (the likelier reading), then the one changing fewest values.

The values tried for a parameter are those the suite can tell apart: the values the
fixtures' predicates name, the values of every ruleset and house rule of the catalog, and
the mutation lint's alternatives (:func:`~schwimmen.conformance.mutations.alternatives`).
A deviation no fixture can see (no case's outcome depends on it, on that base) cannot be
found, and a value no predicate and no catalog file names is found as the value it cannot
be told apart from.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from schwimmen.conformance.fingerprint.evidence import (
    MIN_JUDGED,
    BaseEvidence,
    Evidence,
    Implementation,
    Observed,
    Progress,
    observe,
)
from schwimmen.conformance.fingerprint.search import (
    Change,
    Deviation,
    Explanation,
    Scored,
    Search,
    Vocabulary,
    delta_of,
    differs,
)
from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.harness import Options
from schwimmen.conformance.runner import Status, judge
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Ruleset

WEIGHED_BASES = 6  # bases searched again, weighing every answer (module docstring, 5)

__all__ = [
    "Change",
    "Deviation",
    "Evidence",
    "Explanation",
    "Fingerprint",
    "check",
    "explain",
    "fingerprint",
    "observe",
    "value_changes",
    "weigh",
]


@dataclass(frozen=True)
class Fingerprint:
    """The explanations, closest first, and what they rest on."""

    implementation: Mapping[str, Any]
    explanations: tuple[Explanation, ...]
    counts: Mapping[str, int]
    seconds: float
    problem: str | None = None
    errors: tuple[str, ...] = ()
    evidence: Evidence | None = field(default=None, compare=False, repr=False)
    doubt: str | None = None  # why too little was judged to tell (nothing is claimed)

    @property
    def closest(self) -> Explanation | None:
        return self.explanations[0] if self.explanations else None

    @property
    def tied(self) -> tuple[Explanation, ...]:
        """The other bases that explain the answers exactly as well as the closest."""
        best = self.closest
        if best is None:
            return ()
        return tuple(_tied(best, self.explanations))

    @property
    def told(self) -> bool:
        """A closest base, judged on enough to say what the engine plays."""
        return self.closest is not None and self.doubt is None and self.problem is None


def fingerprint(
    catalog: Catalog,
    options: Options,
    bases: Sequence[str] = (),
    implementation: Implementation | None = None,
    budget: float | None = None,
    progress: Progress | None = None,
) -> Fingerprint:
    """Observe the implementation (``options.impl``, or ``implementation`` in-process),
    within ``budget`` seconds, then explain what it answered."""
    return explain(catalog, observe(catalog, options, bases, implementation, budget, progress))


def explain(catalog: Catalog, evidence: Evidence) -> Fingerprint:
    """The explanations of ``evidence``, closest first (see the module docstring)."""
    started = time.perf_counter()
    found: list[Explanation] = []
    if evidence.problem is None:
        vocabulary = Vocabulary.of(catalog)
        searches = [
            _search(catalog, evidence, base, vocabulary, weighing=False)
            for base, seen in evidence.bases.items()
            if len(seen.observed) >= MIN_JUDGED
        ]
        most = max((len(s.observed) for s in searches), default=0)
        searches.sort(key=lambda s: (2 * len(s.observed) < most, *s.start_rank(), s.base))
        limit: int | None = None
        for search in searches:
            explanation = search.run(limit)
            found.append(explanation)
            if explanation.rank()[0] == 0 and 2 * len(search.observed) >= most:
                k = explanation.complexity
                limit = k if limit is None else min(limit, k)
        most = max((e.weighed for e in found), default=0)
        found.sort(key=lambda e: (2 * e.weighed < most, *e.rank(), e.base))
        shortlist = {e.base for e in found[:WEIGHED_BASES]}
        found = [
            _search(catalog, evidence, e.base, vocabulary).run() if e.base in shortlist else e
            for e in found
        ]
        most = max((e.weighed for e in found if e.weighed_fully), default=0)
        found.sort(key=lambda e: (not e.weighed_fully, 2 * e.weighed < most, *e.rank(), e.base))
        found = [rejudged(e, evidence) for e in found]
    closest = found[0] if found else None
    return Fingerprint(
        evidence.implementation,
        tuple(found),
        dict(evidence.counts),
        evidence.seconds + time.perf_counter() - started,
        evidence.problem,
        tuple(evidence.errors),
        evidence,
        _doubt(closest, evidence, found) if closest is not None else None,
    )


def rejudged(explanation: Explanation, evidence: Evidence) -> Explanation:
    """``explanation`` with the fixtures that only its claimed changes give a case. The
    base's own cases are re-judged by the search (agreeing, failing, or out of
    judgement); these are the rest of what a run under the base with the changes (the
    emitted house rule) judges, so that no case drops out of judgement unseen
    (``options/knocker-loses-two-on-last-life``, whose one case pins the knocker paying
    two, applies to no case of pagat itself). A fixed-rules engine's answer to them is
    the one it gave under another base; an engine that reads the parameters was never
    asked them under this base, and they are listed as such."""
    seen = evidence.bases[explanation.base]
    asked = set(seen.observed) | set(seen.errored)
    answered: dict[str, Observed] = {}
    errored: dict[str, Fixture] = {}
    for other in evidence.bases.values():
        for fid, observed in other.observed.items():
            if fid not in asked:
                answered.setdefault(fid, observed)
        for fid, fixture in other.errored.items():
            if fid not in asked:
                errored.setdefault(fid, fixture)
    added: list[str] = []
    failed: list[str] = []
    erred: list[str] = []
    unasked: list[str] = []
    ruleset = explanation.ruleset
    for fid in sorted(set(answered) | set(errored)):
        fixture = answered[fid].fixture if fid in answered else errored[fid]
        case = fixture.applicable_case(ruleset)
        if case is None:
            continue
        if not evidence.fixed_rules:
            unasked.append(fid)
        elif fid not in answered:
            erred.append(fid)
        else:
            answer = {"status": "ok", "outcome": answered[fid].outcome}
            verdict = judge(fixture, case, ruleset, answer, evidence.not_reported)
            if verdict.status is Status.PASSED:
                added.append(fid)
            elif verdict.status is Status.FAILED:
                added.append(fid)
                failed.append(fid)
            else:
                erred.append(fid)
    return replace(
        explanation,
        added=tuple(added),
        added_failed=tuple(failed),
        added_errored=tuple(erred),
        unasked=tuple(unasked),
    )


def inherited(catalog: Catalog, evidence: Evidence, base: str) -> frozenset[str]:
    """The positions the engine errored on under ``base``'s ruleset without its house
    rules that ``base`` does not have at all: a house rule is no better a guess for not
    letting the base have positions the engine cannot play (module docstring, 5)."""
    origin = base.split(SEPARATOR)[0]
    if origin == base or origin not in evidence.bases:
        return frozenset()
    ruleset = catalog.resolve(base)
    errored = evidence.bases[origin].errored
    return frozenset(f for f, fixture in errored.items() if fixture.fits(ruleset) is not None)


def _tied(best: Explanation, explanations: Sequence[Explanation]) -> list[Explanation]:
    return [
        e
        for e in explanations
        if e is not best and e.weighed_fully == best.weighed_fully and e.rank() == best.rank()
    ]


def _same_origin(e: Explanation, origin: str) -> bool:
    return e.base.split(SEPARATOR)[0] == origin


def _doubt(
    best: Explanation, evidence: Evidence, explanations: Sequence[Explanation] = ()
) -> str | None:
    """Why the closest explanation rests on too little to tell, or None (module
    docstring, 6)."""
    planned = best.planned or best.judged
    judged = best.judged_after
    head = "too little judged to tell"
    passes = best.agreement + len(best.idle)
    if evidence.cut_short:
        return f"{head}: {evidence.cut_short} with {judged} of {planned} cases judged"
    if 3 * judged < planned:
        return f"{head}: {judged} of {planned} cases judged under {best.base}"
    if 4 * len(best.errored) > planned:
        return f"{head}: the engine errored on {len(best.errored)} of {planned} cases"
    if len(best.unmoved) > best.agreement:
        return (
            f"{head}: the engine accepted no move anywhere; it refused every move of "
            f"{len(best.unmoved)} cases, more than the {best.agreement} cases it agrees on"
        )
    origin = best.base.split(SEPARATOR)[0]
    others = sorted({e.base for e in _tied(best, explanations) if not _same_origin(e, origin)})
    if others:
        return (
            f"{head}: {best.base} and {', '.join(others)} explain the answers exactly as well; "
            "the suite cannot tell which ruleset the engine plays"
        )
    if best.agreement == 0 or len(best.idle) > best.agreement:
        return (
            f"{head}: {len(best.idle)} of {passes} passes under {best.base} are of cases an "
            "engine doing nothing passes too"
        )
    w = best.weighed_answers
    if best.weighed_fully and len(w.agree) < len(w.disagree) + len(w.errored):
        return (
            f"{head}: with its changes, {best.base} agrees with only {len(w.agree)} of the "
            f"engine's answers and not with {len(w.disagree) + len(w.errored)}, weighing every "
            "answer; it plays no ruleset of the catalog closely"
        )
    if best.agreement < len(best.unexplained):
        return (
            f"{head}: the closest, {best.base}, agrees on only {best.agreement} of {judged} "
            "judged cases by what the engine did; it plays no ruleset of the catalog closely"
        )
    return None


def check(
    catalog: Catalog, evidence: Evidence, base: str, changes: Mapping[str, Any]
) -> Scored | None:
    """How ``base`` with ``changes`` fares on what the implementation answered under
    ``base`` (None: no valid ruleset): a hypothesis checked, and the tests' way to tell a
    miss from an explanation the suite cannot tell apart from the truth."""
    return _search(catalog, evidence, base).score(delta_of(changes))


def weigh(
    catalog: Catalog, evidence: Evidence, base: str, changes: Mapping[str, Any]
) -> tuple[int, int, int] | None:
    """The rank (:meth:`Explanation.rank`) ``base`` with ``changes`` would have, had the
    search claimed exactly these (None: no valid ruleset): the tests' way to tell whether
    the truth would have ranked better than what the fingerprint names."""
    search = _search(catalog, evidence, base)
    scored = search.score(delta_of(changes))
    if scored is None:
        return None
    w = search.weigh(scored.ruleset)
    left = len(w.disagree) + len(w.errored) + len(search.inherited)
    return (left, len(search.ruleset.overlays) + len(changes), -len(w.agree))


def _search(
    catalog: Catalog,
    evidence: Evidence,
    base: str,
    vocabulary: Vocabulary | None = None,
    weighing: bool = True,
) -> Search:
    """The search on ``base``; a fixed-rules engine's answers under every base are
    weighed to rank it (its answers are the same under all)."""
    seen = evidence.bases.get(base, BaseEvidence())
    answers: dict[str, Observed] | None = None
    errors: dict[str, Fixture] | None = None
    if evidence.fixed_rules:
        answers, errors = {}, {}
        for other in evidence.bases.values():
            for fid, observed in other.observed.items():
                answers.setdefault(fid, observed)
            for fid, fixture in other.errored.items():
                errors.setdefault(fid, fixture)
        answers.update(seen.observed)
    return Search(
        catalog,
        base,
        seen,
        evidence.not_reported,
        vocabulary or Vocabulary.of(catalog),
        inherited(catalog, evidence, base),
        answers,
        errors,
        weighing,
    )


def value_changes(base: Ruleset, other: Ruleset) -> dict[str, tuple[Any, Any]]:
    """Every parameter whose value differs: (base's, other's), None where unset."""
    a, b = base.values(), other.values()
    return {p: (a.get(p), b.get(p)) for p in sorted(set(a) | set(b)) if differs(a, b, p)}
