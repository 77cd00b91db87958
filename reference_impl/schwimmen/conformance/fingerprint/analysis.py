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

4. **Claim only what cases show.** A change found by the search is reported as played
   only when cases the engine answered show it: they fail without it and pass with it,
   by what the engine did. A pass an engine doing nothing has too (it accepted none of
   the fixture's steps, or the reference's answer to the position with its steps
   removed passes the case as well) shows nothing, and neither does a failure taken out
   of judgement (the suite has no case for the value there). Changes no case shows are
   listed apart as "cannot tell", with the reason, and never written into a house rule;
   the explanation is then re-judged with the claimed changes alone, on the same cases
   as its base, and whatever drops out of judgement is listed.

5. **Choose the base**: fewest unexplained failures (disagreements and errors left),
   then fewest changes (a composed base's house rules count as changes: a house rule no
   fixture can see is no better a guess than its ruleset alone), then most agreement
   (more fixtures seen agreeing is more evidence), then the name. Bases that tie on all
   three are reported together: the suite cannot tell them apart. Every base is judged
   on the same answers, and a base under which fewer than half as many fixtures are
   judged as under the base judging most is ranked after all others: a base cannot win
   by having its cases skipped (``scat`` on 9 judged cases, when ``rules-page`` judged
   146). Every ruleset is first searched quickly (one greedy pass that looks no step
   ahead), then the house rules of the closest ``ORIGINS`` rulesets as bases of their
   own, and the closest ``SEARCHED`` of all these in full (one after another: once one,
   judging enough, explains everything with k changes, the others are searched only as
   far as k changes, since they cannot do better). The house rules of the other
   rulesets are judged as they are, not searched: with changes they would only be
   their ruleset with changes, which came out further away.

   The cases alone cannot choose between two rulesets whose changes each take the
   failing cases out of judgement (the suite has no case for the value there): knack,
   pagat without passing, was left as few failures under ``dutch`` as under ``pagat``.
   So the closest few are then weighed on every answer the engine gave (a fixed-rules
   engine answered every position once): by the case that applies, or, where none does,
   by the reference replaying the position with the search's changes and comparing its
   answer field by field, in the fields the fixture's cases look at. The ruleset whose
   base weighs best comes first; among its own house rules the cases decide, since a
   house rule, like a change, is claimed only by cases that show it.

6. **Say when too little was judged to tell**: under the closest base, fewer than a
   third of its cases judged, more than a quarter errored, most passes idle, fewer
   passes than failures, or the run cut short by its time budget. Then nothing is
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
    Memo,
    Scored,
    Search,
    Vocabulary,
    delta_of,
    differs,
)
from schwimmen.conformance.fixtures import Fixture
from schwimmen.conformance.harness import Options
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Ruleset

WEIGHED = 4  # explanations weighed on every answer (_weighed)
ORIGINS = 3  # rulesets whose house rules are searched as bases too (the closest quickly)
SEARCHED = 8  # bases searched in full, the closest after a quick search

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
        return tuple(e for e in self.explanations[1:] if e.rank() == best.rank())

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
    fixed_rules: bool = False,
) -> Fingerprint:
    """Observe the implementation (``options.impl``, or ``implementation`` in-process,
    ``fixed_rules`` when it plays the same whatever the request names), within
    ``budget`` seconds, then explain what it answered."""
    seen = observe(catalog, options, bases, implementation, budget, progress, fixed_rules)
    return explain(catalog, seen)


def explain(catalog: Catalog, evidence: Evidence) -> Fingerprint:
    """The explanations of ``evidence``, closest first (see the module docstring)."""
    started = time.perf_counter()
    found: list[Explanation] = []
    if evidence.problem is None:
        searches = _Searches(catalog, evidence)
        names = [b for b, seen in evidence.bases.items() if len(seen.observed) >= MIN_JUDGED]
        by_base = {b: searches.search(b) for b in names}
        most = max((len(s.observed) for s in by_base.values()), default=0)
        order = sorted(
            by_base.values(), key=lambda s: (2 * len(s.observed) < most, *s.start_rank(), s.base)
        )
        bases = [s.base for s in order]
        rulesets = [b for b in bases if _origin(b) == b or _origin(b) not in by_base]
        quick = _explained(searches, rulesets, thorough=False)
        near = {_origin(e.base) for e in _top(quick, ORIGINS)}
        more = [b for b in bases if b not in rulesets and _origin(b) in near]
        quick += _explained(searches, more, thorough=False)
        ranked = _top(quick, len(quick))
        chosen = {e.base for e in _top(quick, SEARCHED)}
        found = _explained(searches, [b for b in bases if b in chosen], thorough=True)
        found += [replace(e, stopped=True) for e in ranked if e.base not in chosen]
        found = _top(found, len(found))
        found += [
            searches.search(b).unsearched() for b in bases if b not in rulesets and b not in more
        ]
        found = _weighed(found, by_base, evidence)
        if found:
            origin = by_base.get(_origin(found[0].base))
            lead = found[0]
            if origin is not None and lead.base_ruleset.overlays and not _house_shown(lead, origin):
                plain = next(e for e in found if e.base == origin.base)
                found.remove(plain)
                found.insert(0, plain)
            found[0] = _closest(found[0], by_base[found[0].base], origin, evidence)
    closest = found[0] if found else None
    return Fingerprint(
        evidence.implementation,
        tuple(found),
        dict(evidence.counts),
        evidence.seconds + time.perf_counter() - started,
        evidence.problem,
        tuple(evidence.errors),
        evidence,
        _doubt(closest, evidence) if closest is not None else None,
    )


class _Searches:
    """Makes the search on each base, sharing what searches on the same answers can."""

    def __init__(self, catalog: Catalog, evidence: Evidence) -> None:
        self.catalog = catalog
        self.evidence = evidence
        self.vocabulary = Vocabulary.of(catalog)
        self.memo = Memo() if evidence.fixed_rules else None
        self.made: dict[str, Search] = {}

    def search(self, base: str) -> Search:
        """The search on ``base``, made once (its caches serve the quick search, the full
        one and the weighing)."""
        if base not in self.made:
            seen = self.evidence.bases[base]
            memo = self.memo if self.memo is not None else Memo()
            not_reported = self.evidence.not_reported
            made = Search(self.catalog, base, seen, not_reported, self.vocabulary, memo)
            self.made[base] = made
        return self.made[base]


def _top(found: Sequence[Explanation], count: int) -> list[Explanation]:
    """The ``count`` closest of ``found`` by their cases (and those tying with the last),
    a base judging fewer than half as many cases as the best-covered one last."""
    most = max((e.judged_after for e in found), default=0)
    ranked = sorted(found, key=lambda e: (2 * e.judged_after < most, *e.rank(), e.base))
    cut = min(count, len(ranked))
    while cut < len(ranked) and ranked[cut].rank() == ranked[cut - 1].rank():
        cut += 1
    return ranked[:cut]


def _explained(searches: _Searches, bases: Sequence[str], thorough: bool) -> list[Explanation]:
    """Each of ``bases`` searched (``thorough``: in full, else quickly), one after
    another: a full search stops early on a base once another explained everything with
    fewer changes, since it cannot come closer by its cases. (In several processes the
    searches share none of what they work out on the same answers, and took half as
    much again of the processor as one after another.)"""
    found: list[Explanation] = []
    limit: int | None = None
    most = max((len(searches.evidence.bases[b].observed) for b in bases), default=0)
    for base in bases:
        search = searches.search(base)
        if not thorough:
            found.append(search.quick())
            continue
        explanation = search.run(limit)
        found.append(explanation)
        if explanation.rank()[0] == 0 and 2 * len(search.observed) >= most:
            k = explanation.complexity
            limit = k if limit is None else min(limit, k)
    return found


def _weighed(
    found: list[Explanation], searches: Mapping[str, Search], evidence: Evidence
) -> list[Explanation]:
    """``found`` (in the order of their cases) with the closest ``WEIGHED`` (and those
    tying with the last of them) weighed on every answer the engine gave, by their cases
    or by the reference's replay, to choose the ruleset: the one whose base weighs best
    (:meth:`Explanation.weighed_rank`) comes first, with its house rules in the order of
    their cases. The cases alone rank by the failures a base's changes leave, and a
    change the suite has no case for leaves none by taking them out of judgement: only
    the replay can say which of two such rulesets the engine plays. Within the ruleset
    the cases still decide, since a house rule is claimed as a change is, by cases that
    show it, and a replay is no case."""
    if not found:
        return found
    cut = min(WEIGHED, len(found))
    while cut < len(found) and found[cut].rank() == found[cut - 1].rank():
        cut += 1
    weighed = []
    for e in found[:cut]:
        search = searches[e.base]
        ruleset = e.searched_ruleset if e.searched_ruleset is not None else e.ruleset
        weighed.append(replace(e, weighed=search.weigh(ruleset, *_answers(evidence, search))))
    most = max(len(e.weighed.agree) + len(e.weighed.disagree) for e in weighed if e.weighed)

    def order(e: Explanation) -> tuple[bool, int, int, int, str]:
        assert e.weighed is not None
        thin = 2 * (len(e.weighed.agree) + len(e.weighed.disagree)) < most
        return (thin, *e.weighed_rank(), e.base)

    origin = _origin(min(weighed, key=order).base)
    out = weighed + found[cut:]
    return [e for e in out if _origin(e.base) == origin] + [
        e for e in out if _origin(e.base) != origin
    ]


def _closest(
    best: Explanation, search: Search, origin: Search | None, evidence: Evidence
) -> Explanation:
    """The closest explanation with its claims' alternatives named, the fixtures that
    show its base's house rules (on its ``origin``'s search), the answers only the
    claimed changes give a case judged (as the house rule of them will judge them), and
    the positions no case judges that the reference, replaying them with the claimed
    changes, answers otherwise than the engine did (rules the suite cannot yet express
    there)."""
    best = search.widened(best)
    answers, errors = _answers(evidence, search)
    added, added_failed = search.added(best.ruleset, answers)
    replayed = search.replayed_differences(best.ruleset, answers, errors)
    shown = _house_shown(best, origin) if origin is not None else ()
    return replace(
        best,
        replayed_differences=replayed,
        added=added,
        added_failed=added_failed,
        house_shown_by=shown,
    )


def _house_shown(explanation: Explanation, origin: Search) -> tuple[str, ...]:
    """The fixtures that show ``explanation``'s house rules, on the search on its
    ruleset (``origin``): they fail under the ruleset with the claimed changes and pass
    with the house rules too. A house rule is claimed as a change is: a composition
    whose house rules no case shows gives way to its ruleset (one that only takes a
    failing case out of judgement, as a one-card swap does for a three-card swap the
    engine refuses, shows nothing)."""
    if not explanation.base_ruleset.overlays:
        return ()
    houses: dict[str, Any] = {}
    for house in explanation.base_ruleset.overlays:
        for group, params in origin.catalog.house_rules[house].data["rules"].items():
            for param, entry in params.items():
                houses[f"{group}.{param}"] = entry["value"]
    rest = {p: v for p, v in explanation.changes.items() if p not in houses}
    without = origin.score(delta_of(rest))
    with_them = origin.score(origin.merged(delta_of(rest), houses))
    if without is None or with_them is None:
        return ()
    return origin.shown_by(with_them, without)


def _answers(evidence: Evidence, search: Search) -> tuple[dict[str, Observed], dict[str, Fixture]]:
    """Every answer the engine gave and every position it errored on: under any base for a
    fixed-rules engine (they are the same under all), otherwise under ``search``'s base."""
    if not evidence.fixed_rules:
        return dict(search.observed), dict(search.errored)
    answers: dict[str, Observed] = {}
    errors: dict[str, Fixture] = {}
    for seen in evidence.bases.values():
        answers.update(seen.observed)
        errors.update(seen.errored)
    return answers, errors


def _origin(base: str) -> str:
    return base.partition(SEPARATOR)[0]


def _doubt(best: Explanation, evidence: Evidence) -> str | None:
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
    if best.agreement == 0 or len(best.idle) > best.agreement:
        return (
            f"{head}: {len(best.idle)} of {passes} passes under {best.base} are of cases an "
            "engine doing nothing passes too"
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
    seen = evidence.bases.get(base, BaseEvidence())
    search = Search(catalog, base, seen, evidence.not_reported, Vocabulary.of(catalog))
    return search.score(delta_of(changes))


def value_changes(base: Ruleset, other: Ruleset) -> dict[str, tuple[Any, Any]]:
    """Every parameter whose value differs: (base's, other's), None where unset."""
    a, b = base.values(), other.values()
    return {p: (a.get(p), b.get(p)) for p in sorted(set(a) | set(b)) if differs(a, b, p)}
