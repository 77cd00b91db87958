"""The search for the fewest parameter changes that explain an engine's answers on one
base; the reasoning is laid out in :mod:`schwimmen.conformance.fingerprint.analysis`."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from schwimmen.conformance.fingerprint.evidence import BaseEvidence, Observed
from schwimmen.conformance.fixtures import Case, Fixture, load_fixtures, predicate_holds
from schwimmen.conformance.mutations import alternatives
from schwimmen.conformance.runner import Status, judge
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

MAX_CHANGES = 4
RETRIES = 3  # searches again without the changes no case showed
MAX_HINT = 2  # parameters one matching case may ask to change at once
MAX_COMBINATIONS = 24  # value combinations tried for one such case
RESOLVED = 5  # candidates resolved at each step, besides those tying with the best estimate
MAX_RESOLVED = 16
POLISH_STEPS = 2  # changes the answers to other bases' fixtures may add (_polished)
CONTRADICTION_RATIO = 4  # answers showing a change that one answer against it costs (_claims)
DISAGREEMENT_COST = 30  # fixtures out of judgement one disagreement is worth (see quality)

# The parameters a fixture's position depends on (Fixture.fits): a change to one of them
# may make any fixture fit or not, so every fixture is looked at again.
FIT_PARAMETERS = frozenset(
    {
        "cards.ranks",
        "cards.suits",
        "cards.hand_size",
        "cards.middle_size",
        "turns.move",
        "dealing.procedure",
        "players.range",
    }
)

Delta = tuple[tuple[str, str], ...]  # (parameter, value as canonical JSON), sorted
Changed = Mapping[str, tuple[str, Any]]  # parameter -> (canonical JSON, value or None)

_PARAMETER = re.compile(r"\b([a-z_]+\.[a-z_]+)\b")


def key(value: Any) -> str:
    """A value as canonical JSON, to compare and to hash."""
    return json.dumps(value, sort_keys=True)


def delta_of(changes: Mapping[str, Any]) -> Delta:
    return tuple(sorted((p, key(v)) for p, v in changes.items()))


def changes_of(delta: Delta) -> dict[str, Any]:
    return {p: json.loads(v) for p, v in delta}


def differs(a: Mapping[str, Any], b: Mapping[str, Any], param: str) -> bool:
    return key(a.get(param)) != key(b.get(param))


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Change:
    """One parameter set to ``value`` (None: the parameter no longer applies)."""

    parameter: str
    value: Any
    base_value: Any

    def to_json(self) -> dict[str, Any]:
        return {"parameter": self.parameter, "value": self.value, "base": self.base_value}


@dataclass(frozen=True)
class Deviation:
    """Changes found together (one step of the search), claimed as played because the
    fixtures ``shows`` fail without them and pass with them, by what the engine did (no
    pass that an engine doing nothing would have). Of the base's failures they also
    ``silence`` some (no case judges them with the changes: the suite has no expectation
    for these values there) and ``refuse`` errored positions the changed ruleset cannot
    have; neither is evidence. ``alternatives`` have the same effect on every fixture:
    the suite cannot tell them apart from these."""

    changes: tuple[Change, ...]
    explains: int
    silences: int = 0
    refuses: int = 0
    alternatives: tuple[tuple[Change, ...], ...] = ()
    shows: tuple[str, ...] = ()


@dataclass(frozen=True)
class Undecided:
    """Changes the search tried that no answered case shows: never claimed, never
    written into a house rule; ``reason`` says why the suite cannot tell."""

    changes: tuple[Change, ...]
    reason: str


@dataclass(frozen=True)
class Difference:
    """How the engine's answer to a fixture differs from what the closest ruleset
    expects: the first differing field, the expected and the given value (``kind``:
    missing, wrong type, other value, errored)."""

    fixture: str
    path: str
    expected: Any
    actual: Any
    kind: str


@dataclass(frozen=True)
class Weighed:
    """Every answer weighed under one ruleset (:meth:`Search.weigh`): those it agrees
    with (by a case, not idly, or by the reference's replay), those it does not, and the
    errored positions it can have."""

    agree: frozenset[str] = frozenset()
    disagree: frozenset[str] = frozenset()
    errored: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Explanation:
    """The best explanation found on one base."""

    base: str
    ruleset: Ruleset = field(compare=False, repr=False)  # the base with the changes
    base_ruleset: Ruleset = field(compare=False, repr=False)
    judged: int  # fixtures judged under the base
    failures: tuple[str, ...]  # of these, failing under the base itself
    deviations: tuple[Deviation, ...]
    agreement: int  # fixtures agreeing with the changes
    unexplained: tuple[str, ...]  # still disagreeing with the changes
    unjudged: tuple[str, ...]  # failures no case judges once changed
    errored: tuple[str, ...]  # errored under the base, positions the changes still allow
    refused: tuple[str, ...]  # errored under the base, positions the changes cannot have
    stopped: bool  # searched only until it could no longer beat the closest
    undecided: tuple[Undecided, ...] = ()  # tried, shown by no case: not claimed
    idle: tuple[str, ...] = ()  # passes with the changes an engine doing nothing has too
    base_idle: tuple[str, ...] = ()  # the same under the base alone
    dropped: tuple[str, ...] = ()  # judged under the base, not judged with the changes
    differences: tuple[Difference, ...] = ()  # of the unexplained, how they differ
    planned: int = 0  # cases planned under the base (judged, errored or skipped)
    searched: tuple[int, int, int] = (0, 0, 0)  # the search's own: left, changes, agreement
    # every answer weighed with the claimed changes (Search.weigh), if ``weighed_fully``
    weighed_answers: Weighed = Weighed()
    weighed_fully: bool = False
    # fixtures with moves, every one refused by an engine that accepts no move anywhere
    unmoved: tuple[str, ...] = ()
    # answers no case judges with the changes that the reference playing them answers as
    # the engine did (``replayed``), and otherwise (``contradicted``)
    replayed: tuple[str, ...] = ()
    contradicted: tuple[str, ...] = ()
    # positions the engine errored on under the base's ruleset before its house rules,
    # which the house rules do not let the base have (Search: ``inherited``)
    inherited: tuple[str, ...] = ()
    # fixtures no case of the base judges and a case with the claimed changes does: the
    # engine's answers to them judged (added: agreeing or not; added_failed: not),
    # errored, or never asked under this base (an engine that reads the parameters)
    added: tuple[str, ...] = ()
    added_failed: tuple[str, ...] = ()
    added_errored: tuple[str, ...] = ()
    unasked: tuple[str, ...] = ()

    @property
    def judged_after(self) -> int:
        """Fixtures judged with the changes (agreeing, idle or not, and disagreeing)."""
        return self.agreement + len(self.idle) + len(self.unexplained)

    @property
    def changes(self) -> dict[str, Any]:
        """The parameter values set (what a house rule would write)."""
        return {c.parameter: c.value for d in self.deviations for c in d.changes}

    @property
    def complexity(self) -> int:
        """Changes made to a ruleset of the catalog: the base's house rules and the
        changes found on it (a house rule no fixture can see is no better a guess than
        its ruleset alone)."""
        return len(self.base_ruleset.overlays) + len(self.changes)

    def rank(self) -> tuple[int, int, int]:
        """Smaller is closer: failures and errors the claimed changes leave (with the
        fixtures they take out of judgement on which the reference playing them does not
        answer as the engine did), those changes (with the base's house rules), then
        agreement: passes by what the engine did (an idle pass is no evidence), with the
        fixtures taken out of judgement on which the reference playing the changes
        answers as the engine did. Every base is so weighed on every answer it judges,
        not only on those its cases still judge once changed: ``pagat`` and ``dutch``
        with three changes each left knack's answers equally explained by their cases,
        but the changes took 72 of pagat's answers out of judgement and 33 of dutch's,
        and the reference playing pagat's changes answered 71 of those 72 as knack did.
        The search's own changes (those no case shows included) no longer choose the
        base: a change that only silences failures, or refuses positions the engine
        errored on, is no evidence, and a base with a slot left for one must not win by
        it (``dutch+last-two-play-on`` took knack's errors on six seats out this way).
        Nor does a house rule of the base earn anything by not letting the base have
        positions the engine errored on: they are still counted (``inherited``), as
        they are against the ruleset alone (``pagat+replaced-middle-under-stock`` was
        closer to knack than ``pagat`` by two such positions)."""
        if not self.weighed_fully:
            left, changes, agreement = self.searched
            return (left, len(self.base_ruleset.overlays) + changes, -agreement)
        w = self.weighed_answers
        left = len(w.disagree) + len(w.errored) + len(self.inherited)
        return (left, self.complexity, -len(w.agree))

    @property
    def weighed(self) -> int:
        """Answers weighed with the changes: judged by a case, or replayed (judged by
        a case only, before the base is weighed fully)."""
        if not self.weighed_fully:
            return self.judged_after
        return len(self.weighed_answers.agree) + len(self.weighed_answers.disagree)


# --------------------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class Vocabulary:
    """The values worth trying for each parameter (those the suite can tell apart), and
    what the catalog's rulesets play, which makes one of two equivalent readings likelier."""

    values: Mapping[str, tuple[Any, ...]]
    played: tuple[Mapping[str, str], ...]  # each standard ruleset: parameter -> value key

    @classmethod
    def of(cls, catalog: Catalog, fixtures: Sequence[Fixture] | None = None) -> Vocabulary:
        if fixtures is None:
            fixtures, _ = load_fixtures()
        found: dict[str, dict[str, Any]] = {}

        def add(param: str, value: Any) -> None:
            if value is not None:
                found.setdefault(param, {}).setdefault(key(value), value)

        for param, choices in alternatives().items():
            for value in choices:
                add(param, value)
        for f in fixtures:
            for case in f.cases:
                for param, pred in case.where.items():
                    if not isinstance(pred, Mapping):
                        for value in pred:
                            add(param, value)
        played = []
        for name in catalog.standard_names():
            try:
                values = catalog.resolve(name).values()
            except SpecErrors:
                continue
            played.append({p: key(v) for p, v in values.items()})
            for param, value in values.items():
                add(param, value)
        return cls({p: tuple(v.values()) for p, v in found.items()}, tuple(played))

    def satisfying(self, param: str, predicate: Any) -> list[Any]:
        """The values of ``param`` that meet ``predicate``."""
        if not isinstance(predicate, Mapping):
            return list(predicate)
        return [v for v in self.values.get(param, ()) if predicate_holds(predicate, v)]

    def familiarity(self, delta: Delta) -> int:
        """How many of the changed values one ruleset of the catalog plays together."""
        return max((sum(1 for p, v in delta if s.get(p) == v) for s in self.played), default=0)


# --------------------------------------------------------------------------- scoring


def quality(disagree: int, agree: int) -> tuple[int, int]:
    """How well a change set explains the answers, smaller is better. A disagreement
    (or an error on a position the changed ruleset allows) contradicts the change set; a
    fixture no case judges under it (the suite has no expectation for that value there)
    does not, it only fails to support it. So a disagreement costs ``DISAGREEMENT_COST``
    fixtures taken out of judgement: a change that only silences failures is kept when
    nothing explains them, but one that silences a pack's worth of agreeing fixtures to
    be rid of one disagreement is not. (At three, a wrong value keeping more fixtures
    judged beat the true one the suite has fewer cases for; with disagreements counted
    first, a change of pack beat a failure the suite's own expectations leave; at ten,
    the house rule compare-all-cards on tri-palki was named wrongly.)"""
    return ((DISAGREEMENT_COST - 1) * disagree - agree, disagree)


@dataclass(frozen=True)
class Scored:
    """A change set with its verdicts on the fixtures seen under the base."""

    delta: Delta
    ruleset: Ruleset
    agree: frozenset[str]
    disagree: frozenset[str]
    errored: frozenset[str]  # errored positions the changed ruleset still allows
    changed: int  # parameter values that differ from the base (dependents included)

    def unexplained(self) -> int:
        return len(self.disagree) + len(self.errored)

    def quality(self) -> tuple[int, int]:
        return quality(self.unexplained(), len(self.agree))


class Search:
    """The greedy search for the smallest change set on one base."""

    def __init__(
        self,
        catalog: Catalog,
        base: str,
        evidence: BaseEvidence,
        not_reported: frozenset[str],
        vocabulary: Vocabulary,
        inherited: frozenset[str] = frozenset(),
        answers: Mapping[str, Observed] | None = None,
        errors: Mapping[str, Fixture] | None = None,
        weighing: bool = True,
    ) -> None:
        """``inherited``: the positions the engine errored on under the base's ruleset
        alone that the base's house rules do not let it have (:meth:`Explanation.rank`);
        ``answers`` and ``errors``: everything the engine answered and errored on, under
        any base (a fixed-rules engine's answers are the same under all), weighed to
        rank the base (:meth:`weigh`; by default those under this base). Without
        ``weighing`` (the first, cheap round over every base) a change is claimed by the
        cases alone and the base ranked by the search's own changes."""
        self.weighing = weighing
        self.catalog = catalog
        self.inherited = inherited
        self.answers = evidence.observed if answers is None else answers
        self.errors = evidence.errored if errors is None else errors
        self.base = base
        self.ruleset = catalog.resolve(base)
        self.values = self.ruleset.values()
        self.observed = evidence.observed
        self.errored = evidence.errored
        self.planned = len(evidence.observed) + len(evidence.errored) + evidence.skipped
        self.not_reported = not_reported
        self._idle: dict[tuple[str, int], bool] = {}
        self.banned: set[tuple[str, str]] = set()  # changes no case showed, not tried again
        self.inert = not any(
            isinstance(o.outcome.get("steps"), list)
            and any(_accepted(step) for step in o.outcome["steps"])
            for o in self.observed.values()
        )
        # what an engine that accepts no step failed to do weighs nothing (weigh)
        self.unmoved = tuple(sorted(f for f, o in self.observed.items() if self.refused_all(o)))
        if self.unmoved:
            self.observed = {f: o for f, o in self.observed.items() if f not in self.unmoved}
        self.vocabulary = vocabulary
        self.naming: dict[str, list[str]] = {}  # parameter -> fixtures whose cases name it
        for fid, seen in self.observed.items():
            for param in sorted({p for c in seen.fixture.cases for p in c.where}):
                self.naming.setdefault(param, []).append(fid)
        self._failing: dict[tuple[str, int], frozenset[str]] = {}
        self._holds: dict[tuple[str, int, str, str], bool] = {}
        self._verdicts: dict[tuple[str, int], bool] = {}
        self._mutants: dict[Delta, Ruleset | SpecErrors] = {}
        self._scored: dict[Delta, Scored | None] = {}
        self._replays: dict[tuple[str, str], bool | None] = {}
        self._weighed: dict[str, Weighed] = {}
        self._answer_verdicts: dict[tuple[str, int], bool] = {}
        passed = frozenset(fid for fid, o in self.observed.items() if o.passed)
        failed = frozenset(self.observed) - passed
        self.start = Scored((), self.ruleset, passed, failed, frozenset(self.errored), 0)
        self._scored[()] = self.start

    def start_rank(self) -> tuple[int, int]:
        return (len(self.start.disagree) + len(self.start.errored), -len(self.start.agree))

    # -- expectations
    def agrees(self, fixture: Fixture, case: Case) -> bool:
        """Does the outcome under this base match ``case``? (judged once per case)"""
        memo = (fixture.id, case.index)
        found = self._verdicts.get(memo)
        if found is None:
            answer = {"status": "ok", "outcome": self.observed[fixture.id].outcome}
            result = judge(fixture, case, self.ruleset, answer, self.not_reported)
            found = self._verdicts[memo] = result.status is Status.PASSED
        return found

    def mutant(self, delta: Delta) -> Ruleset | SpecErrors:
        found = self._mutants.get(delta)
        if found is None:
            try:
                found = self.catalog.mutant(self.base, changes_of(delta), why="fingerprint")
            except SpecErrors as exc:
                found = exc
            self._mutants[delta] = found
        return found

    def score(self, delta: Delta) -> Scored | None:
        """The verdicts under ``base+delta``, or None when that is no valid ruleset."""
        if delta in self._scored:
            return self._scored[delta]
        ruleset = self.mutant(delta)
        scored = None
        if isinstance(ruleset, Ruleset):
            values = ruleset.values()
            changed = {
                p: (key(values.get(p)), values.get(p))
                for p in set(values) | set(self.values)
                if differs(values, self.values, p)
            }
            fitting = None
            if not FIT_PARAMETERS.isdisjoint(changed):
                fitting = self._fitting(ruleset)
            if fitting is None or 2 * len(fitting) >= len(self.observed) + len(self.errored):
                agree, disagree = self._verdicts_under(changed, fitting)
                errored = self.start.errored if fitting is None else self.start.errored & fitting
                scored = Scored(delta, ruleset, agree, disagree, errored, len(changed))
        self._scored[delta] = scored
        return scored

    def _fitting(self, ruleset: Ruleset) -> frozenset[str]:
        """The positions seen under the base that ``ruleset`` can have. A change set that
        leaves fewer than half of them is no deviation from the base but another game
        (a pack of four-card hands that fits none of its positions), and is not scored."""
        seen = [o.fixture for o in self.observed.values()] + list(self.errored.values())
        return frozenset(f.id for f in seen if f.fits(ruleset) is None)

    def estimate(self, delta: Delta) -> tuple[int, int]:
        """The quality of ``base+delta`` without resolving it: the changed values laid
        over the base's, as if no other value depended on them and all were valid. Cheap;
        it only orders the candidates, which are then resolved and scored. A change of
        pack or table is resolved at once: only the ruleset says which positions fit."""
        if not FIT_PARAMETERS.isdisjoint(p for p, _ in delta):
            scored = self.score(delta)
            if scored is not None:
                return scored.quality()
        changed = {p: (v, json.loads(v)) for p, v in delta}
        agree, disagree = self._verdicts_under(changed, None)
        return quality(len(disagree) + len(self.start.errored), len(agree))

    def _verdicts_under(
        self, changed: Changed, fitting: frozenset[str] | None
    ) -> tuple[frozenset[str], frozenset[str]]:
        """Agreeing and disagreeing fixtures with the ``changed`` values laid over the
        base's. Only fixtures whose cases name a changed parameter are looked at again,
        all of them when the change concerns the pack or the table (``fitting``: the
        positions the changed ruleset can have)."""
        if fitting is not None:
            affected: Iterable[str] = self.observed
        else:
            affected = {fid for p in changed for fid in self.naming.get(p, ())}
        agree, disagree = set(self.start.agree), set(self.start.disagree)
        for fid in affected:
            agree.discard(fid)
            disagree.discard(fid)
            if fitting is not None and fid not in fitting:
                continue
            fixture = self.observed[fid].fixture
            case = next((c for c in fixture.cases if self._applies(fid, c, changed)), None)
            if case is not None:
                (agree if self.agrees(fixture, case) else disagree).add(fid)
        return frozenset(agree), frozenset(disagree)

    def _applies(self, fid: str, case: Case, changed: Changed) -> bool:
        """Does ``case`` apply with ``changed`` laid over the base's values? What holds
        under the base is worked out once per case, each predicate once per value."""
        if not case.where:
            return False  # a case by ruleset ids names no changed ruleset
        failing = self._failing.get((fid, case.index))
        if failing is None:
            failing = frozenset(
                p
                for p, pred in case.where.items()
                if not (p in self.values and predicate_holds(pred, self.values[p]))
            )
            self._failing[(fid, case.index)] = failing
        if not failing.issubset(changed):
            return False
        for param, pred in case.where.items():
            if param not in changed:
                continue
            value_key, value = changed[param]
            memo = (fid, case.index, param, value_key)
            holds = self._holds.get(memo)
            if holds is None:
                holds = self._holds[memo] = value is not None and predicate_holds(pred, value)
            if not holds:
                return False
        return True

    def idle(self, fid: str, ruleset: Ruleset, seen: Observed | None = None) -> bool:
        """Is the engine's pass on ``fid`` one an engine doing nothing has too? It is so
        when the reference's answer to the same position with every step removed (the
        dealt state alone) passes the case as well, or when the engine accepted no step
        of the fixture and accepts no step anywhere (an engine that deals and refuses
        every move passes every case expecting a refusal; one that plays elsewhere
        refuses here by a rule of its own): then the case did not see the engine play.
        Worked out once per case (its expectation depends only on what it pins)."""
        seen = self.observed[fid] if seen is None else seen
        fixture = seen.fixture
        case = fixture.applicable_case(ruleset)
        if case is None:
            return False
        memo = (fid, case.index)
        found = self._idle.get(memo)
        if found is None:
            found = self._idle[memo] = self._idle_case(fixture, case, ruleset, seen.outcome)
        return found

    def _idle_case(
        self, fixture: Fixture, case: Case, ruleset: Ruleset, outcome: Mapping[str, Any]
    ) -> bool:
        from schwimmen.engine.adapter import run_case

        if fixture.setup.get("steps") and self.inert:
            steps = outcome.get("steps")
            if isinstance(steps, list) and not any(_accepted(s) for s in steps):
                return True
        request = fixture.request(ruleset)
        if "steps" not in request:
            return False  # nothing to take away: the answer is all the engine's work
        request = {k: v for k, v in request.items() if k not in ("steps", "checkpoints")}
        try:
            answer = run_case(request)
        except Exception:  # a position that makes no sense without its steps
            return False
        return judge(fixture, case, ruleset, answer, self.not_reported).status is Status.PASSED

    def difference(self, fid: str, ruleset: Ruleset) -> Difference:
        """The first field in which the answer to ``fid`` differs from ``ruleset``'s case."""
        fixture = self.observed[fid].fixture
        case = fixture.applicable_case(ruleset)
        if case is None:
            return Difference(fid, "", None, None, "not judged")
        answer = {"status": "ok", "outcome": self.observed[fid].outcome}
        result = judge(fixture, case, ruleset, answer, self.not_reported)
        if not result.mismatches:
            return Difference(fid, "", None, result.message, "errored")
        first = result.mismatches[0]
        expected, actual = _plain(first.expected), _plain(first.actual)
        return Difference(fid, first.path, expected, actual, _kind(first))

    # -- candidates
    def hints(
        self, current: Scored, clear: bool = False
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Change sets that would make a failing fixture match another of its cases;
        then, apart, single changes that leave the case it fails without effect (a value
        its predicates exclude: the engine may play one the suite has no case for) and,
        while positions errored, each other value of the pack and the table (not when the
        change must ``clear`` disagreements too: another pack only takes positions away)."""
        values = current.ruleset.values()
        explaining: dict[Delta, dict[str, Any]] = {}
        out = explaining

        def add(hint: dict[str, Any]) -> None:
            out.setdefault(delta_of(hint), hint)

        for fid in sorted(set(self.observed) - current.agree):
            fixture = self.observed[fid].fixture
            for case in fixture.cases:
                need = [
                    p
                    for p, pred in case.where.items()
                    if not (p in values and predicate_holds(pred, values[p]))
                ]
                if not need or len(need) > MAX_HINT or not self.agrees(fixture, case):
                    continue
                options = [self.vocabulary.satisfying(p, case.where[p]) for p in need]
                for combo in itertools.islice(itertools.product(*options), MAX_COMBINATIONS):
                    add(dict(zip(need, combo, strict=True)))
        out = {}
        for fid in sorted(current.disagree):
            failed = self.observed[fid].fixture.applicable_case(current.ruleset)
            for p, pred in failed.where.items() if failed is not None else ():
                for value in self.vocabulary.values.get(p, ()):
                    if not predicate_holds(pred, value):
                        add({p: value})
        if current.errored and not (clear and current.disagree):
            for p in sorted(FIT_PARAMETERS & set(self.vocabulary.values)):
                for value in self.vocabulary.values[p]:
                    if key(value) != key(values.get(p)):
                        add({p: value})
        return list(explaining.values()), [h for d, h in out.items() if d not in explaining]

    def merged(self, delta: Delta, changes: Mapping[str, Any]) -> Delta:
        """``delta`` with ``changes`` laid over it (the base's own value is no change)."""
        out = changes_of(delta)
        out.update(changes)
        return delta_of({p: v for p, v in out.items() if key(v) != key(self.values.get(p))})

    def completions(self, delta: Delta) -> list[Scored]:
        """``delta`` scored; if it is no valid ruleset, each valid completion of it by
        one value of a parameter its errors name."""
        scored = self.score(delta)
        if scored is not None:
            return [scored]
        problem = self.mutant(delta)
        assert isinstance(problem, SpecErrors)
        named: list[str] = []
        for error in problem.errors:
            for text in (error.path.removeprefix("$.rules."), error.message):
                for match in _PARAMETER.finditer(text):
                    param = match.group(1)
                    if param in self.vocabulary.values and param not in named:
                        named.append(param)
        present = dict(delta)
        out = []
        for param in named:
            if param in present:
                continue
            for value in self.vocabulary.values[param]:
                repaired = self.score(self.merged(delta, {param: value}))
                if repaired is not None:
                    out.append(repaired)
        return out

    def order(self, scored: Scored) -> tuple[int, int, int, int, int, Delta]:
        """Best first: quality, fewest changes, what the catalog plays, fewest values."""
        return (
            *scored.quality(),
            len(scored.delta),
            -self.vocabulary.familiarity(scored.delta),
            scored.changed,
            scored.delta,
        )

    # -- the search
    def run(self, limit: int | None = None) -> Explanation:
        """The best explanation on this base. With ``limit``, the search stops once it has
        that many changes (house rules of the base included) and still something to
        explain: another base explained everything with ``limit``, this one cannot beat it.
        A change the search made that no case shows is not claimed; the search is then run
        again without it (up to ``RETRIES`` times), since a greedy step that only silences
        may have shut out the changes that explain (a knock refused below 20 points
        silenced as ``requires = maximum`` hid the knocker paying two). Every change no
        case showed stays banned in the later searches, and a search run again is kept
        only if it ranks better on every answer (:meth:`Explanation.rank`)."""
        found = self._run_once(limit)
        undecided = found.undecided
        for _ in range(RETRIES):
            fresh = [u for u in undecided if not self._banned(u)]
            if not fresh:
                break  # every change no case showed is banned already: the same search
            for u in fresh:
                self.banned.update((c.parameter, key(c.value)) for c in u.changes)
            again = self._run_once(limit, found)
            undecided = _merge(undecided, again.undecided)
            if again.rank() < found.rank():
                found = again
        return replace(found, undecided=_merge(found.undecided, undecided))

    def _banned(self, undecided: Undecided) -> bool:
        return all((c.parameter, key(c.value)) in self.banned for c in undecided.changes)

    def _run_once(self, limit: int | None, seed: Explanation | None = None) -> Explanation:
        """One greedy search, from the base or from the changes ``seed`` claimed (a
        search run again keeps what cases showed and looks further with the slots the
        changes no case showed had taken)."""
        current = self.start
        steps: list[tuple[Delta, list[Scored]]] = []  # what each step set; its equals
        if seed is not None and seed.deviations:
            groups = [delta_of({c.parameter: c.value for c in d.changes}) for d in seed.deviations]
            seeded = self.score(tuple(sorted(x for g in groups for x in g)))
            if seeded is not None:
                current = seeded
                steps = [(g, []) for g in groups]
        stopped = False
        while len(current.delta) < MAX_CHANGES and (current.disagree or current.errored):
            left = (
                None if limit is None else limit - len(self.ruleset.overlays) - len(current.delta)
            )
            if left is not None and left <= 0:
                stopped = True
                break
            # The last change it may make must explain everything, or it cannot win.
            better = self.step(current, clear=left == 1)
            if not better:
                stopped = left == 1
                break
            best = min(better, key=self.order)
            equals = [
                s
                for s in better
                if s is not best
                and (s.agree, s.disagree, s.errored) == (best.agree, best.disagree, best.errored)
                and len(s.delta) == len(best.delta)
            ]
            if equals and self.weighing:
                # the cases cannot tell them apart; every answer may (the reference's
                # replay: a deal of the hands before the middle, not a blind extra hand)
                first = min([best, *equals], key=self._weighed_rank)
                if first is not best:
                    equals = [best, *(e for e in equals if e is not first)]
                    best = first
            steps.append((tuple(d for d in best.delta if d not in current.delta), equals))
            current = best
        return self._explanation(self._pruned(current), steps, stopped)

    def _weighed_rank(self, scored: Scored) -> tuple[int, int]:
        w = self.weigh(scored.ruleset)
        return (len(w.disagree) + len(w.errored), -len(w.agree))

    def step(self, current: Scored, clear: bool = False, ahead: bool = True) -> list[Scored]:
        """The candidates that improve on ``current``: those that explain a failure, or
        those that only silence failures (or account for errors) when their best is
        better and stays better one step further on. Silencing is cheap: one parameter's
        other value silences every fixture that pins it, so a greedy step that silences
        a family of failures can shut out the two changes that explain them (Feuer
        costing two lives in play and at the deal: silencing six of its eight failures
        beat explaining five, but not explaining all eight in two steps). Yet an engine
        may play a value the suite has no case for at all (another order of suits), and
        then nothing explains. ``ahead`` False: no look further on (the look itself)."""
        explaining, silencing = self.hints(current, clear)
        first = self._improving(current, explaining, clear)
        second = self._improving(current, silencing, clear)
        if not first or not second:
            return first or second
        best_first = min(first, key=self.order)
        best_second = min(second, key=self.order)
        if best_first.quality() <= best_second.quality():
            return first
        if not ahead or clear or len(best_first.delta) >= MAX_CHANGES:
            return second
        return first if self._further(best_first) < self._further(best_second) else second

    def _further(self, scored: Scored) -> tuple[int, int]:
        """The quality one more step after ``scored`` reaches (its own, if none helps)."""
        if not (scored.disagree or scored.errored) or len(scored.delta) >= MAX_CHANGES:
            return scored.quality()
        after = self.step(scored, ahead=False)
        return min(s.quality() for s in after) if after else scored.quality()

    def _improving(self, current: Scored, hints: list[dict[str, Any]], clear: bool) -> list[Scored]:
        """The ``hints`` that improve on ``current`` (with ``clear``, only those estimated
        to leave nothing unexplained), scored: in the order of their estimates, the best
        few resolved (and those that tie with the best)."""
        deltas = {self.merged(current.delta, hint) for hint in hints}
        deltas = {d for d in deltas if self.banned.isdisjoint(d)}
        deltas.discard(current.delta)
        estimated = sorted((self.estimate(d), d) for d in deltas)
        estimated = [(q, d) for q, d in estimated if q < current.quality()]
        if clear:
            estimated = [(q, d) for q, d in estimated if q[1] == 0]
        if not estimated:
            return []
        top = estimated[0][0]
        chosen = [d for i, (q, d) in enumerate(estimated) if i < RESOLVED or q == top]
        better: dict[Delta, Scored] = {}
        for delta in chosen[:MAX_RESOLVED]:
            for scored in self.completions(delta):
                if len(scored.delta) <= MAX_CHANGES and scored.quality() < current.quality():
                    better[scored.delta] = scored
        return list(better.values())

    def _pruned(self, current: Scored) -> Scored:
        """Drop every change whose removal costs nothing."""
        shrunk = True
        while shrunk:
            shrunk = False
            for item in current.delta:
                smaller = self.score(tuple(d for d in current.delta if d != item))
                if smaller is not None and smaller.quality() <= current.quality():
                    current, shrunk = smaller, True
                    break
        return current

    def _explanation(
        self, final: Scored, steps: list[tuple[Delta, list[Scored]]], stopped: bool
    ) -> Explanation:
        kept = set(final.delta)
        groups: list[tuple[Delta, list[Scored]]] = []
        grouped: set[tuple[str, str]] = set()
        for added, equals in steps:
            group = tuple(d for d in added if d in kept and d not in grouped)
            if group:
                grouped.update(group)
                groups.append((group, equals))
        left = tuple(d for d in final.delta if d not in grouped)
        if left:
            groups.append((left, []))
        searched = (
            final.unexplained(),
            len(final.delta),
            sum(1 for f in final.agree if not self.idle(f, final.ruleset)),
        )
        groups, undecided, final = self._claims(groups)
        if self.weighing:
            groups, more, final = self._polished(groups, final)
            undecided = list(_merge(tuple(undecided), tuple(more)))
        deviations = [self._deviation(final, group, equals) for group, equals in groups]
        failures = self.start.disagree
        idle = frozenset(f for f in final.agree if self.idle(f, final.ruleset))
        base_idle = frozenset(f for f in self.start.agree if self.idle(f, self.ruleset))
        judged_base = self.start.agree | self.start.disagree
        judged_final = final.agree | final.disagree
        weighed = self.weigh(final.ruleset) if self.weighing else Weighed()
        by_case = judged_final | {f for f in self.answers if f not in self.observed}
        replayed = weighed.agree - by_case
        contradicted = weighed.disagree - by_case
        return Explanation(
            base=self.base,
            ruleset=final.ruleset,
            base_ruleset=self.ruleset,
            judged=len(self.observed),
            failures=tuple(sorted(failures)),
            deviations=tuple(deviations),
            agreement=len(final.agree - idle),
            unexplained=tuple(sorted(final.disagree)),
            unjudged=tuple(sorted(failures - final.agree - final.disagree)),
            errored=tuple(sorted(final.errored)),
            refused=tuple(sorted(self.start.errored - final.errored)),
            stopped=stopped,
            undecided=tuple(undecided),
            idle=tuple(sorted(idle)),
            base_idle=tuple(sorted(base_idle)),
            dropped=tuple(sorted(judged_base - judged_final)),
            differences=tuple(self.difference(f, final.ruleset) for f in sorted(final.disagree)),
            planned=self.planned,
            searched=searched,
            weighed_answers=weighed,
            weighed_fully=self.weighing,
            unmoved=self.unmoved,
            replayed=tuple(sorted(replayed)),
            contradicted=tuple(sorted(contradicted)),
            inherited=tuple(sorted(self.inherited)),
        )

    def weigh(self, ruleset: Ruleset) -> Weighed:
        """Every answer of ``answers`` weighed under ``ruleset`` (the base with the claimed
        changes): judged by the case that applies, or, where none does, replayed: the
        reference playing ``ruleset`` answers the position as the engine did, or not
        (:meth:`as_engine`); a position the engine errored on counts against it if
        ``ruleset`` can have it. A position ``ruleset`` cannot have weighs nothing. So
        every base is weighed on the same answers (a fixed-rules engine's), not only on
        those its cases judge: a base must not come closer by having fewer cases."""
        values = key(ruleset.values())
        found = self._weighed.get(values)
        if found is not None:
            return found
        agree: set[str] = set()
        other: set[str] = set()
        for fid, seen in self.answers.items():
            fixture = seen.fixture
            if fixture.fits(ruleset) is not None or self.refused_all(seen):
                continue
            case = fixture.applicable_case(ruleset)
            if case is not None:
                if not self._passes(seen, case, ruleset):
                    other.add(fid)
                elif not self.idle(fid, ruleset, seen):
                    agree.add(fid)
                continue
            same = self.as_engine(seen, ruleset, values)
            if same is True:
                agree.add(fid)
            elif same is False:
                other.add(fid)
        errored = {f for f, fx in self.errors.items() if fx.fits(ruleset) is None}
        found = self._weighed[values] = Weighed(
            frozenset(agree), frozenset(other), frozenset(errored)
        )
        return found

    def _passes(self, seen: Observed, case: Case, ruleset: Ruleset) -> bool:
        """Does the engine's answer match ``case``? Judged once per case, as
        :meth:`agrees` (its expectation depends only on what it pins)."""
        memo = (seen.fixture.id, case.index)
        found = self._verdicts.get(memo) if seen is self.observed.get(seen.fixture.id) else None
        if found is None:
            found = self._answer_verdicts.get(memo)
        if found is None:
            answer = {"status": "ok", "outcome": seen.outcome}
            verdict = judge(seen.fixture, case, ruleset, answer, self.not_reported)
            found = self._answer_verdicts[memo] = verdict.status is Status.PASSED
        return found

    def refused_all(self, seen: Observed) -> bool:
        """An engine that accepts no step anywhere refused this fixture's steps too: what
        it failed to do there weighs nothing, for or against any ruleset (a claim is
        weighed by what the engine did)."""
        steps = seen.outcome.get("steps")
        return (
            self.inert
            and isinstance(steps, list)
            and bool(steps)
            and not any(_accepted(x) for x in steps)
        )

    def as_engine(self, seen: Observed, ruleset: Ruleset, values: str | None = None) -> bool | None:
        """Does the reference playing ``ruleset`` answer ``seen``'s position as the engine
        did? Both answers are judged by one case of the fixture (the first; no case of it
        applies to ``ruleset``, so it only says which fields to look at): alike when both
        pass it, or both fail it and the engine's first differing field, with the
        engine's value there, is among the reference's. None (no evidence): the position
        does not fit, the reference cannot play it, an engine that accepts no step
        anywhere refused this fixture's steps too. Worked out once per ruleset."""
        memo = (seen.fixture.id, key(ruleset.values()) if values is None else values)
        if memo not in self._replays:
            self._replays[memo] = self._as_engine(seen, ruleset)
        return self._replays[memo]

    def _as_engine(self, seen: Observed, ruleset: Ruleset) -> bool | None:
        from schwimmen.engine.adapter import run_case

        fixture = seen.fixture
        if not fixture.cases or fixture.fits(ruleset) is not None:
            return None
        if self.refused_all(seen):
            return None
        case = fixture.cases[0]
        try:
            answer = run_case(fixture.request(ruleset))
        except Exception:  # the reference cannot play it: no evidence
            return None
        theirs = judge(fixture, case, ruleset, answer, self.not_reported)
        if theirs.status is Status.ERRORED:
            return None
        engine = {"status": "ok", "outcome": seen.outcome}
        mine = judge(fixture, case, ruleset, engine, self.not_reported)
        if mine.status is Status.ERRORED:
            return None
        if mine.status is Status.PASSED or theirs.status is Status.PASSED:
            return mine.status is theirs.status
        return _said(mine.mismatches[0]) in {_said(m) for m in theirs.mismatches}

    def shown_by(self, final: Scored, without: Scored) -> tuple[str, ...]:
        """The answers that disagree without the changes and agree with them, weighed
        on every answer (:meth:`weigh`): by the case that applies, by what the engine did
        (an idle pass shows nothing), or, where no case applies, by the reference playing
        the rules answering as the engine did (the suite has no case for the value
        there, but the reference is its definition: knack's refusals of a pass,
        nurgeben's deal of the hands before the middle, seen in the answers to another
        base's fixtures). A change is claimed only when some answer shows it and none
        contradicts it (:meth:`lost`)."""
        if not self.weighing:
            moved = (final.agree - without.agree) & without.disagree
            return tuple(sorted(f for f in moved if not self.idle(f, final.ruleset)))
        return tuple(sorted(self.weigh(without.ruleset).disagree & self.weigh(final.ruleset).agree))

    def _claims(
        self, groups: list[tuple[Delta, list[Scored]]]
    ) -> tuple[list[tuple[Delta, list[Scored]]], list[Undecided], Scored]:
        """The groups the answers show, and those they do not (with why), the latter
        dropped one by one until every group left is shown. A group is shown when some
        answers agree with it and not without it, and at most one in
        ``CONTRADICTION_RATIO`` as many agree without it and not with it (:meth:`lost`).
        Other deviations of the engine make a true change lose a few answers (stammtisch's
        deal of the hands before the middle: 20 shown, 3 lost while the loser's deal is
        not found); a value that only resembles what the engine plays loses many (its
        knock on 20 points read as ``requires = maximum``: 39 shown, 18 lost). Each change
        of a group is first set to the value of its parameter that weighs best on every
        answer (a middle card dealt each round explains the deal nearly as well)."""
        undecided: list[Undecided] = []
        groups = [(self._best_value(g, groups), equals) for g, equals in groups]
        while True:
            claimed = tuple(sorted(d for g, _ in groups for d in g))
            final = self.score(claimed)
            if final is None:  # cannot happen for the search's own result; be safe
                return [], undecided, self.start
            for i, (group, _) in enumerate(groups):
                rest = tuple(d for d in claimed if d not in group)
                without = self.score(rest)
                if without is None:
                    continue  # the rest alone is no ruleset: the group makes it one
                shown = self.shown_by(final, without)
                lost = self.lost(final, without)
                ratio = CONTRADICTION_RATIO if self.weighing else 1
                if not shown or ratio * len(lost) > len(shown):
                    why = self._why(final, without, shown, lost)
                    undecided.append(Undecided(self.changes(group), why))
                    del groups[i]
                    break
            else:
                return groups, undecided, final

    def _polished(
        self, groups: list[tuple[Delta, list[Scored]]], final: Scored
    ) -> tuple[list[tuple[Delta, list[Scored]]], list[Undecided], Scored]:
        """The claimed groups with what the answers the cases of the base never asked
        still point at: for each answer that disagrees once every answer is weighed,
        each other case of its fixture the answer matches names the values that would
        make it apply (as :meth:`hints` does for the base's own fixtures); the best of
        these, weighed, is added if it weighs better and no answer contradicts it (it is
        found on weaker grounds than the search's own changes: stammtisch's knock on 20
        points read as ``requires = maximum`` on online), then claimed as any other
        change (Tri Palki's three aces that punish all but special hands, at the deal
        and in play, showed in play only by a fixture of another base)."""
        undecided: list[Undecided] = []
        for _ in range(POLISH_STEPS):
            weighed = self.weigh(final.ruleset)
            if not weighed.disagree or len(final.delta) >= MAX_CHANGES:
                break
            current = self._weighed_rank(final)
            values = final.ruleset.values()
            hints: dict[Delta, None] = {}
            for fid in sorted(weighed.disagree):
                seen = self.answers.get(fid)
                for case in seen.fixture.cases if seen is not None else ():
                    need = [
                        p
                        for p, pred in case.where.items()
                        if not (p in values and predicate_holds(pred, values[p]))
                    ]
                    if not need or len(need) > MAX_HINT:
                        continue
                    assert seen is not None
                    if not self._passes(seen, case, final.ruleset):
                        continue
                    options = [self.vocabulary.satisfying(p, case.where[p]) for p in need]
                    for combo in itertools.islice(itertools.product(*options), MAX_COMBINATIONS):
                        hints.setdefault(
                            self.merged(final.delta, dict(zip(need, combo, strict=True)))
                        )
            best: tuple[tuple[int, int], Scored] | None = None
            for delta in list(hints)[:MAX_RESOLVED]:
                if len(delta) > MAX_CHANGES or delta == final.delta:
                    continue
                scored = self.score(delta)
                if scored is None:
                    continue
                rank = self._weighed_rank(scored)
                if rank < current and (best is None or rank < best[0]):
                    best = (rank, scored)
            if best is None:
                break
            added = tuple(d for d in best[1].delta if d not in final.delta)
            lost = self.lost(best[1], final)
            if lost:  # found on weaker grounds: no answer may contradict it
                why = (
                    f"{len(lost)} answer(s) agree without it and not with it "
                    f"({', '.join(sorted(lost)[:3])}): the engine plays something else"
                )
                undecided.append(Undecided(self.changes(added), why))
                break
            kept = [(tuple(d for d in g if d in best[1].delta), e) for g, e in groups]
            groups, more, final = self._claims([(g, e) for g, e in kept if g] + [(added, [])])
            undecided.extend(more)
        return groups, undecided, final

    def _best_value(self, group: Delta, groups: list[tuple[Delta, list[Scored]]]) -> Delta:
        """``group`` with each of its parameters in turn set to the value that weighs best
        on every answer, the group's other values and the other groups' changes held (the
        search's step chose by the cases alone: a middle card dealt each round explains
        stammtisch's deal by its cases nearly as well as the hands before the middle;
        Tri Palki's three aces that punish everyone but special hands at the deal, as
        well as a penalty on all others, which the answers to other bases' fixtures
        tell apart)."""
        if not self.weighing:
            return group
        rest = tuple(d for g, _ in groups if g != group for d in g)
        best: Delta = group
        for param, _ in group:
            held = tuple(d for d in best if d[0] != param)
            best_rank: tuple[int, int] | None = None
            chosen = best
            for value in self.vocabulary.values.get(param, ()):
                if key(value) == key(self.values.get(param)):
                    continue
                candidate: Delta = tuple(sorted((*held, (param, key(value)))))
                scored = self.score(tuple(sorted(rest + candidate)))
                if scored is None:
                    continue
                rank = self._weighed_rank(scored)
                if (
                    best_rank is None
                    or rank < best_rank
                    or (rank == best_rank and candidate == best)
                ):
                    chosen, best_rank = candidate, rank
            best = chosen
        return best

    def lost(self, final: Scored, without: Scored) -> frozenset[str]:
        """The answers that agree without the changes and disagree with them (weighed on
        every answer, :meth:`weigh`): there the engine plays as without the changes, and
        the changes only hide it where the suite has no case for them (a knock refused
        below 20 points is no ``requires = maximum`` when the engine accepts a knock on
        25 elsewhere)."""
        if not self.weighing:
            return self._lost_by_cases(final, without)
        return self.weigh(without.ruleset).agree & self.weigh(final.ruleset).disagree

    def _lost_by_cases(self, final: Scored, without: Scored) -> frozenset[str]:
        """Without weighing (the first round): the fixtures that pass without the
        changes (by what the engine did), that no
        case judges with them, and on which the reference playing the changes fails the
        case the engine passed: there the engine plays as without the changes, and the
        change only hides it (a knock refused below 20 points is no ``requires =
        maximum`` when the engine accepts a knock on 25 elsewhere). A fixture the suite
        only lacks a case for, where the reference with the changes answers as the
        engine did, is no evidence either way."""
        from schwimmen.engine.adapter import run_case

        hidden = without.agree - final.agree - final.disagree
        out = set()
        for fid in sorted(hidden):
            if self.idle(fid, without.ruleset):
                continue
            fixture = self.observed[fid].fixture
            case = fixture.applicable_case(without.ruleset)
            if case is None or fixture.fits(final.ruleset) is not None:
                continue
            try:
                answer = run_case(fixture.request(final.ruleset))
            except Exception:  # the reference cannot play it: no evidence
                continue
            verdict = judge(fixture, case, without.ruleset, answer, self.not_reported)
            if verdict.status is Status.FAILED:
                out.add(fid)
        return frozenset(out)

    def _why(
        self, final: Scored, without: Scored, shown: Sequence[str], lost: frozenset[str]
    ) -> str:
        if shown:
            return (
                f"{len(shown)} answer(s) agree with it and not without it "
                f"({', '.join(shown[:3])}), but {len(lost)} agree without it and not with it "
                f"({', '.join(sorted(lost)[:3])}): the engine plays something else"
            )
        moved = (final.agree - without.agree) & without.disagree
        silenced = without.disagree - final.disagree - final.agree
        refused = without.errored - final.errored
        if moved:
            return (
                f"the {len(moved)} failing case(s) it would make pass pass also for an engine "
                "that does nothing (every step refused, or the dealt state alone)"
            )
        if silenced:
            return (
                f"it only takes {len(silenced)} failing case(s) out of judgement: the suite "
                "has no case for the value there"
            )
        if refused:
            return f"it only accounts for {len(refused)} errored position(s) it cannot have"
        return "no case the engine answered decides it"

    def _deviation(self, final: Scored, group: Delta, equals: list[Scored]) -> Deviation:
        """What ``group`` does in ``final``: what is lost without it, and the change sets
        of the same step with the same effect."""
        rest = tuple(d for d in final.delta if d not in group)
        without = self.score(rest)
        failures = self.start.disagree
        if without is None:  # the rest alone is no ruleset: credit the group with it all
            without = self.start
        silenced = (without.disagree - final.disagree - final.agree) & failures
        refused = without.errored - final.errored
        others: list[tuple[Change, ...]] = []
        for other in equals:
            swapped = tuple(d for d in other.delta if d not in rest)
            if swapped and swapped != group and dict(swapped).keys().isdisjoint(dict(rest)):
                shown = self.changes(swapped)
                if shown not in others:
                    others.append(shown)
        shows = self.shown_by(final, without)
        return Deviation(
            self.changes(group), len(shows), len(silenced), len(refused), tuple(others), shows
        )

    def changes(self, delta: Delta) -> tuple[Change, ...]:
        return tuple(Change(p, json.loads(v), self.values.get(p)) for p, v in delta)


def _said(mismatch: Any) -> tuple[str, str]:
    """Where an answer differs from a case, and what it says there."""
    from schwimmen.conformance.compare import show

    return (mismatch.path, show(mismatch.actual))


def _accepted(step: Any) -> bool:
    return isinstance(step, Mapping) and step.get("accepted") is True


def _kind(mismatch: Any) -> str:
    from schwimmen.conformance.compare import show

    actual = show(mismatch.actual)
    if actual in ("nothing", "not reported"):
        return "missing"
    expected = mismatch.expected
    if type(expected) is not type(mismatch.actual) and not (
        isinstance(expected, (int, float)) and isinstance(mismatch.actual, (int, float))
    ):
        return "wrong type"
    return "other value"


def _plain(value: Any) -> Any:
    """``value`` as JSON can hold it (a missing value as the words for it)."""
    from schwimmen.conformance.compare import show

    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return show(value)
    return value


def _merge(*groups: tuple[Undecided, ...]) -> tuple[Undecided, ...]:
    out: list[Undecided] = []
    for group in groups:
        for u in group:
            if all(u.changes != o.changes for o in out):
                out.append(u)
    return tuple(out)
