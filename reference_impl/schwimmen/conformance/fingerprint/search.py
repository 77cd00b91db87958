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
RETRIES = 2  # searches again without the changes no case showed
MAX_HINT = 2  # parameters one matching case may ask to change at once
MAX_COMBINATIONS = 24  # value combinations tried for one such case
RESOLVED = 5  # candidates resolved at each step, besides those tying with the best estimate
MAX_RESOLVED = 16
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
    have; neither is evidence. ``alternatives`` are as consistent with every answered
    case (the same effect, or no case for them where these pass): the suite cannot tell
    them apart from these, and the claim is "one of them"."""

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
    """Every answer of the engine weighed under one ruleset (:meth:`Search.weigh`):
    those it agrees with (by the case that applies, not idly, or by the reference's
    replay where no case applies), those it does not, and the errored positions that
    ruleset can have."""

    agree: frozenset[str] = frozenset()
    disagree: frozenset[str] = frozenset()
    errored: frozenset[str] = frozenset()
    replayed: frozenset[str] = frozenset()  # of agree and disagree, those replayed

    @property
    def left(self) -> int:
        return len(self.disagree) + len(self.errored)


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
    # the search's own result (its changes no case shows included), and every answer
    # weighed under it (analysis.explain weighs the closest few; None: not weighed)
    searched_ruleset: Ruleset | None = field(default=None, compare=False, repr=False)
    weighed: Weighed | None = None
    # of the positions no case judges with the claimed changes, those the reference
    # replays otherwise than the engine answered, and how (the closest only)
    replayed_differences: tuple[Difference, ...] = ()
    # answers to fixtures no case of the base judges and a case with the claimed changes
    # does (its only cases need them), judged: all of them, and those failing
    added: tuple[str, ...] = ()
    added_failed: tuple[str, ...] = ()
    # the fixtures that show the base's house rules: they fail under its ruleset with the
    # claimed changes and pass with the house rules too (the closest only)
    house_shown_by: tuple[str, ...] = ()

    @property
    def judged_after(self) -> int:
        """Fixtures judged with the changes (agreeing, idle or not, and disagreeing, and
        those only the changes give a case)."""
        return self.agreement + len(self.idle) + len(self.unexplained) + len(self.added)

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

    def weighed_rank(self) -> tuple[int, int, int]:
        """Smaller is closer, on every answer the engine gave (:meth:`Search.weigh`):
        disagreements and errors left under the search's own result, its changes (with
        the base's house rules), agreement. A change the suite has no case for takes
        failing cases out of judgement, and the cases alone cannot say whether it is
        right; the reference replaying those positions with it can (knack, pagat
        without passing, left as few failures by its cases under ``dutch`` as under
        ``pagat``, with three changes each; the positions the changes took out of
        judgement, replayed, tell them apart)."""
        assert self.weighed is not None
        changes = len(self.base_ruleset.overlays) + self.searched[1]
        return (self.weighed.left, changes, -len(self.weighed.agree))

    def rank(self) -> tuple[int, int, int]:
        """Smaller is closer: failures and errors the search's changes leave, those
        changes (with the base's house rules), agreement (passes by what the engine did;
        an idle pass is no evidence). The search's own changes, the undecided included,
        choose the base: a value the suite has no case for is still a reason the base's
        cases fail, not a failure of the base; but only the changes cases show are
        claimed, and what they leave is reported as unexplained."""
        left, changes, agreement = self.searched
        return (left, len(self.base_ruleset.overlays) + changes, -agreement)


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


@dataclass
class Memo:
    """What searches on the same answers share: each predicate on each value always,
    and, where every base judged the very same answers (a fixed-rules engine's), each
    case's verdict on its answer and whether that pass is idle (a case's expectation
    depends only on the parameters it pins, so not on the base that selected it)."""

    holds: dict[tuple[str, int, str, str], bool] = field(default_factory=dict)
    verdicts: dict[tuple[str, int], bool] = field(default_factory=dict)
    idle: dict[tuple[str, int], bool] = field(default_factory=dict)
    replays: dict[tuple[str, str], bool | None] = field(default_factory=dict)
    fits: dict[tuple[str, tuple[Any, ...]], bool] = field(default_factory=dict)
    reference: dict[tuple[str, str], Mapping[str, Any] | None] = field(default_factory=dict)


class Search:
    """The greedy search for the smallest change set on one base."""

    def __init__(
        self,
        catalog: Catalog,
        base: str,
        evidence: BaseEvidence,
        not_reported: frozenset[str],
        vocabulary: Vocabulary,
        memo: Memo | None = None,
    ) -> None:
        """``memo``: caches shared with other searches on the same answers."""
        self.catalog = catalog
        self.base = base
        self.ruleset = catalog.resolve(base)
        self.values = self.ruleset.values()
        self.observed = evidence.observed
        self.errored = evidence.errored
        self.planned = len(evidence.observed) + len(evidence.errored) + evidence.skipped
        self.not_reported = not_reported
        memo = memo if memo is not None else Memo()
        self._idle = memo.idle
        self.banned: set[tuple[str, str]] = set()  # changes no case showed, not tried again
        self.inert = not any(
            isinstance(o.outcome.get("steps"), list)
            and any(_accepted(step) for step in o.outcome["steps"])
            for o in self.observed.values()
        )
        self.vocabulary = vocabulary
        self.naming: dict[str, list[str]] = {}  # parameter -> fixtures whose cases name it
        for fid, seen in self.observed.items():
            for param in sorted({p for c in seen.fixture.cases for p in c.where}):
                self.naming.setdefault(param, []).append(fid)
        self._failing: dict[tuple[str, int], frozenset[str]] = {}
        # a fixture's verdict depends on the changed values of the parameters its cases
        # name, and on nothing else the changes touch: worked out once per such values
        self._names = {
            fid: frozenset(p for c in seen.fixture.cases for p in c.where)
            for fid, seen in self.observed.items()
        }
        self._fixture_verdicts: dict[tuple[str, tuple[tuple[str, str], ...]], bool | None] = {}
        self._fits = memo.fits
        self._holds = memo.holds
        self._verdicts = memo.verdicts
        self._mutants: dict[Delta, Ruleset | SpecErrors] = {}
        self._replays = memo.replays
        self._reference = memo.reference
        self._scored: dict[Delta, Scored | None] = {}
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
        rules = ruleset.rules
        pack = (rules.cards.ranks, rules.cards.suits, rules.cards.hand_size)
        table = (rules.cards.middle_size, rules.turns.move, rules.dealing.procedure)
        match = (rules.match.series, rules.players.min, rules.players.max)
        what = (*pack, *table, *match)  # all that Fixture.fits reads
        out = []
        for fixture in seen:
            memo = (fixture.id, what)
            fits = self._fits.get(memo)
            if fits is None:
                fits = self._fits[memo] = fixture.fits(ruleset) is None
            if fits:
                out.append(fixture.id)
        return frozenset(out)

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
        agree: set[str] = set()
        disagree: set[str] = set()
        keys = changed.keys()
        memos = self._fixture_verdicts
        for fid in affected:
            if fitting is not None and fid not in fitting:
                continue
            memo = (fid, tuple(sorted((p, changed[p][0]) for p in self._names[fid] & keys)))
            if memo in memos:
                verdict = memos[memo]
            else:
                fixture = self.observed[fid].fixture
                case = next((c for c in fixture.cases if self._applies(fid, c, changed)), None)
                verdict = memos[memo] = None if case is None else self.agrees(fixture, case)
            if verdict is not None:
                (agree if verdict else disagree).add(fid)
        touched = frozenset(affected)
        return (
            (self.start.agree - touched) | agree,
            (self.start.disagree - touched) | disagree,
        )

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

    def idle(self, fid: str, ruleset: Ruleset) -> bool:
        """Is the engine's pass on ``fid`` one an engine doing nothing has too? It is so
        when the reference's answer to the same position with every step removed (the
        dealt state alone) passes the case as well, or when the engine accepted no step
        of the fixture and accepts no step anywhere (an engine that deals and refuses
        every move passes every case expecting a refusal; one that plays elsewhere
        refuses here by a rule of its own): then the case did not see the engine play.
        Worked out once per case (its expectation depends only on what it pins)."""
        fixture = self.observed[fid].fixture
        case = fixture.applicable_case(ruleset)
        if case is None:
            return False
        memo = (fid, case.index)
        found = self._idle.get(memo)
        if found is None:
            outcome = self.observed[fid].outcome
            found = self._idle[memo] = self._idle_case(fixture, case, ruleset, outcome)
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
        return Difference(fid, first.path, expected, actual, _kind(first.expected, first.actual))

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
    def unsearched(self) -> Explanation:
        """The base judged as it is, not searched (its ruleset, searched, came out far)."""
        return self._explanation(self.start, [], stopped=True)

    def quick(self) -> Explanation:
        """A first, cheaper explanation: one greedy search that looks no step further
        and is not polished or run again. It ranks the bases, so that the full search
        (:meth:`run`) is spent on those that can come closest."""
        return self._run_once(None, thorough=False)

    def run(self, limit: int | None = None) -> Explanation:
        """The best explanation on this base. With ``limit``, the search stops once it has
        that many changes (house rules of the base included) and still something to
        explain: another base explained everything with ``limit``, this one cannot beat it.
        A change the search made that no case shows is not claimed; the search is then run
        again without it (up to ``RETRIES`` times), since a greedy step that only silences
        may have shut out the changes that explain (a knock refused below 20 points
        silenced as ``requires = maximum`` hid the knocker paying two)."""
        found = self._run_once(limit)
        for _ in range(RETRIES):
            if not found.undecided:
                break
            for u in found.undecided:
                self.banned.update((c.parameter, key(c.value)) for c in u.changes)
            again = self._run_once(limit)
            undecided = found.undecided
            if len(again.changes) > len(found.changes) or again.rank() < found.rank():
                found = again
            found = replace(found, undecided=_merge(undecided, found.undecided))
        return found

    def _run_once(self, limit: int | None, thorough: bool = True) -> Explanation:
        current = self.start
        steps: list[tuple[Delta, list[Scored]]] = []  # what each step set; its equals
        stopped = False
        while len(current.delta) < MAX_CHANGES and (current.disagree or current.errored):
            left = (
                None if limit is None else limit - len(self.ruleset.overlays) - len(current.delta)
            )
            if left is not None and left <= 0:
                stopped = True
                break
            # The last change it may make must explain everything, or it cannot win.
            better = self.step(current, clear=left == 1, ahead=thorough)
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
            steps.append((tuple(d for d in best.delta if d not in current.delta), equals))
            current = best
        final = self._pruned(current)
        return self._explanation(self._polished(final) if thorough else final, steps, stopped)

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

    def _polished(self, current: Scored) -> Scored:
        """``current`` with one value at a time replaced by another value of the same
        parameter, kept (with what that makes unnecessary dropped) where it leaves no
        more failures unexplained with fewer changes, or as many with a better quality.
        The greedy search takes the value that explains most at its step, and a later
        change may only patch what that value got wrong: scat playing card by card over
        all cards was found as counting cards, patched with an order of suits."""
        for _ in range(MAX_CHANGES):
            best = current
            for item in current.delta:
                param, value = item
                rest = tuple(d for d in current.delta if d != item)
                for other in self.vocabulary.values.get(param, ()):
                    if key(other) in (value, key(self.values.get(param))):
                        continue
                    if (param, key(other)) in self.banned:
                        continue
                    scored = self.score(tuple(sorted((*rest, (param, key(other))))))
                    if scored is None:
                        continue
                    scored = self._pruned(scored)
                    if _polish_order(scored) < _polish_order(best):
                        best = scored
            if best is current:
                break
            current = best
        return current

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
        searched_ruleset = final.ruleset
        groups, undecided, final = self._claims(groups)
        deviations = [self._deviation(final, group, equals) for group, equals in groups]
        failures = self.start.disagree
        idle = frozenset(f for f in final.agree if self.idle(f, final.ruleset))
        base_idle = frozenset(f for f in self.start.agree if self.idle(f, self.ruleset))
        judged_base = self.start.agree | self.start.disagree
        judged_final = final.agree | final.disagree
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
            searched_ruleset=searched_ruleset,
        )

    def weigh(
        self, ruleset: Ruleset, answers: Mapping[str, Observed], errors: Mapping[str, Fixture]
    ) -> Weighed:
        """Every answer of ``answers`` (all the engine gave, under any base) weighed under
        ``ruleset``: by the case that applies where one does (an idle pass weighs
        nothing), otherwise by the reference's replay (:meth:`as_engine`); a position
        the engine errored on counts against ``ruleset`` if ``ruleset`` can have it, and
        a position ``ruleset`` cannot have weighs nothing. So bases are weighed on the
        same answers, not each on those its own cases judge."""
        agree: set[str] = set()
        other: set[str] = set()
        replayed: set[str] = set()
        for fid, seen in answers.items():
            fixture = seen.fixture
            if fixture.fits(ruleset) is not None:
                continue
            case = fixture.applicable_case(ruleset)
            if case is None:
                same = self.as_engine(seen, ruleset)
                if same is not None:
                    replayed.add(fid)
                    (agree if same else other).add(fid)
            elif not self._passes(seen, case, ruleset):
                other.add(fid)
            elif not self._idle_answer(seen, case, ruleset):
                agree.add(fid)
        errored = frozenset(f for f, fx in errors.items() if fx.fits(ruleset) is None)
        return Weighed(frozenset(agree), frozenset(other), errored, frozenset(replayed))

    def _passes(self, seen: Observed, case: Case, ruleset: Ruleset) -> bool:
        if seen.fixture.id in self.observed and self.observed[seen.fixture.id] is seen:
            return self.agrees(seen.fixture, case)
        answer = {"status": "ok", "outcome": seen.outcome}
        return judge(seen.fixture, case, ruleset, answer, self.not_reported).status is (
            Status.PASSED
        )

    def _idle_answer(self, seen: Observed, case: Case, ruleset: Ruleset) -> bool:
        memo = (seen.fixture.id, case.index)
        found = self._idle.get(memo)
        if found is None:
            found = self._idle[memo] = self._idle_case(seen.fixture, case, ruleset, seen.outcome)
        return found

    def as_engine(self, seen: Observed, ruleset: Ruleset) -> bool | None:
        """Does the reference playing ``ruleset`` answer ``seen``'s position as the engine
        did, in every field the fixture's cases look at? Each case of the fixture judges
        both answers (its expectation only says which fields to compare): alike when
        every case finds the same differences, with the same values, in both. None (no
        evidence): the reference cannot play the position, or a case cannot judge an
        answer. Worked out once per position and ruleset."""
        memo = (seen.fixture.id, key(ruleset.values()))
        if memo not in self._replays:
            self._replays[memo] = self._as_engine(seen, ruleset)
        return self._replays[memo]

    def reference(self, fixture: Fixture, ruleset: Ruleset) -> Mapping[str, Any] | None:
        """The reference's answer to ``fixture``'s position under ``ruleset`` (None: it
        cannot play it), worked out once per position and ruleset values for every
        search on the same memo (the replays, the claims' checks, the differences)."""
        from schwimmen.engine.adapter import run_case

        memo = (fixture.id, key(ruleset.values()))
        if memo not in self._reference:
            try:
                self._reference[memo] = run_case(fixture.request(ruleset))
            except Exception:  # the reference cannot play it: no evidence
                self._reference[memo] = None
        return self._reference[memo]

    def _as_engine(self, seen: Observed, ruleset: Ruleset) -> bool | None:
        fixture = seen.fixture
        theirs = self.reference(fixture, ruleset)
        if theirs is None or theirs.get("status") != "ok":
            return None
        mine = {"status": "ok", "outcome": seen.outcome}
        for case in fixture.cases:
            a = judge(fixture, case, ruleset, mine, self.not_reported)
            b = judge(fixture, case, ruleset, theirs, self.not_reported)
            if Status.ERRORED in (a.status, b.status):
                return None
            if _said_all(a) != _said_all(b):
                return False
        return True

    def added(
        self, ruleset: Ruleset, answers: Mapping[str, Observed]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The answers to fixtures no case of the base judges that a case of ``ruleset``
        (the base with the claimed changes) does, and of them those failing: a house rule
        of the claimed changes judges them too, so the re-judged tally must."""
        judged, failed = [], []
        for fid in sorted(set(answers) - set(self.observed)):
            seen = answers[fid]
            case = seen.fixture.applicable_case(ruleset)
            if case is None:
                continue
            judged.append(fid)
            if not self._passes(seen, case, ruleset):
                failed.append(fid)
        return tuple(judged), tuple(failed)

    def replayed_differences(
        self, ruleset: Ruleset, answers: Mapping[str, Observed], errors: Mapping[str, Fixture]
    ) -> tuple[Difference, ...]:
        """How the engine's answers differ from the reference replaying ``ruleset`` on the
        positions no case of it judges: the first field where a case of the fixture
        finds the engine's answer wrong and the reference's not so, with both values.
        Grouped, these are the rules the engine plays that no case looks at with these
        changes (knack's deal passing to the right, seen where passing is forbidden)."""
        weighed = self.weigh(ruleset, answers, errors)
        out = []
        for fid in sorted(weighed.disagree & weighed.replayed):
            found = self._replayed_difference(answers[fid], ruleset)
            if found is not None:
                out.append(found)
        return tuple(out)

    def _replayed_difference(self, seen: Observed, ruleset: Ruleset) -> Difference | None:
        fixture = seen.fixture
        theirs = self.reference(fixture, ruleset)
        if theirs is None:
            return None
        mine = {"status": "ok", "outcome": seen.outcome}
        for case in fixture.cases:
            a = judge(fixture, case, ruleset, mine, self.not_reported)
            b = judge(fixture, case, ruleset, theirs, self.not_reported)
            said = _said_all(b)
            at = {m.path: m.actual for m in b.mismatches}
            for m in a.mismatches:
                if (m.path, _said_one(m)) in said:
                    continue
                expected = at.get(m.path, m.expected)
                kind = _kind(expected, m.actual)
                return Difference(fixture.id, m.path, _plain(expected), _plain(m.actual), kind)
            for m in b.mismatches:  # the engine meets the case where the reference does not
                if m.path not in {x.path for x in a.mismatches}:
                    kind = _kind(m.actual, m.expected)
                    return Difference(
                        fixture.id, m.path, _plain(m.actual), _plain(m.expected), kind
                    )
        return None

    def shown_by(self, final: Scored, without: Scored) -> tuple[str, ...]:
        """The fixtures that fail without the changes and pass with them, by what the
        engine did (an idle pass shows nothing). A change is claimed only when these
        are at least as many as the passes it takes out of judgement (:meth:`lost`)."""
        moved = (final.agree - without.agree) & without.disagree
        return tuple(sorted(f for f in moved if not self.idle(f, final.ruleset)))

    def _claims(
        self, groups: list[tuple[Delta, list[Scored]]]
    ) -> tuple[list[tuple[Delta, list[Scored]]], list[Undecided], Scored]:
        """The groups some answered case shows, and those it does not (with why), the
        latter dropped one by one until every group left is shown."""
        undecided: list[Undecided] = []
        groups = list(groups)
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
                if not shown or len(lost) > len(shown):
                    why = self._why(final, without, shown, lost)
                    undecided.append(Undecided(self.changes(group), why))
                    del groups[i]
                    break
            else:
                return groups, undecided, final

    def lost(self, final: Scored, without: Scored) -> frozenset[str]:
        """The fixtures that pass without the changes (by what the engine did), that no
        case judges with them, and on which the reference playing the changes fails the
        case the engine passed: there the engine plays as without the changes, and the
        change only hides it (a knock refused below 20 points is no ``requires =
        maximum`` when the engine accepts a knock on 25 elsewhere). A fixture the suite
        only lacks a case for, where the reference with the changes answers as the
        engine did, is no evidence either way."""

        hidden = without.agree - final.agree - final.disagree
        out = set()
        for fid in sorted(hidden):
            if self.idle(fid, without.ruleset):
                continue
            fixture = self.observed[fid].fixture
            case = fixture.applicable_case(without.ruleset)
            if case is None or fixture.fits(final.ruleset) is not None:
                continue
            answer = self.reference(fixture, final.ruleset)
            if answer is None:
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
                f"{len(shown)} failing case(s) pass with it ({', '.join(shown[:3])}), but in "
                f"{len(lost)} that pass without it and have no case with it the engine answers "
                "as without it, not as the reference with it does "
                f"({', '.join(sorted(lost)[:3])})"
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

    def widened(self, explanation: Explanation) -> Explanation:
        """``explanation`` with each deviation's alternatives widened to every change set
        as consistent with the answered cases: one value of a deviation replaced by
        another value of the same parameter, or a one-change deviation by a change of
        another parameter (not of the pack or the table, which would only take positions
        away), such that no answered case contradicts it where the claim is not
        contradicted (it may leave unjudged a case the claim passes: the suite has no
        case for that value there). The claim is then "one of them" (card by card over
        counting cards or over all cards, where no case compares two hands on their
        third card; the rest of the pack set aside or no replacement of the middle,
        where no case deals from it).

        A deviation is claimed only if cases show it whichever of the others'
        alternatives the engine plays: one that only mends what one reading of another
        gets wrong is not (an order of suits that cases showed beside counting cards,
        while beside all cards no case shows it)."""
        current = explanation
        for _ in range(len(explanation.deviations)):
            final = self.score(delta_of(current.changes))
            if final is None or not current.deviations:
                return current
            deviations = tuple(self._with_alternatives(final, d) for d in current.deviations)
            weak = self._weak(final, deviations)
            if weak is None:
                return replace(current, deviations=deviations)
            i, reading = weak
            kept = [d for k, d in enumerate(deviations) if k != i]
            steps: list[tuple[Delta, list[Scored]]] = [(_delta(d.changes), []) for d in kept]
            claimed = self.score(tuple(sorted(x for g, _ in steps for x in g)))
            if claimed is None:
                return current
            why = (
                "cases show it beside one reading of another change only: with "
                f"{_shown_changes([reading])}, which the suite cannot tell from it, none does"
            )
            rebuilt = self._explanation(claimed, steps, current.stopped)
            undecided = (*current.undecided, Undecided(deviations[i].changes, why))
            current = replace(
                rebuilt,
                searched=current.searched,
                searched_ruleset=current.searched_ruleset,
                weighed=current.weighed,
                undecided=_merge(undecided, rebuilt.undecided),
            )
        return current

    def _with_alternatives(self, final: Scored, deviation: Deviation) -> Deviation:
        group = _delta(deviation.changes)
        rest = tuple(d for d in final.delta if d not in group)
        others = list(deviation.alternatives)
        for swapped in self._uncontradicted(final, group, rest):
            shown = self.changes(swapped)
            if shown != deviation.changes and shown not in others:
                others.append(shown)
        return replace(deviation, alternatives=tuple(others))

    def _weak(
        self, final: Scored, deviations: Sequence[Deviation]
    ) -> tuple[int, tuple[Change, ...]] | None:
        """Of the deviations no case shows once another deviation is read as one of its
        alternatives, the one fewest cases show (it mends the other's reading rather
        than the other way round), with that alternative; None when every deviation is
        shown so."""
        weak: list[tuple[int, int, tuple[Change, ...]]] = []
        for i, deviation in enumerate(deviations):
            group = _delta(deviation.changes)
            for j, other in enumerate(deviations):
                if j == i:
                    continue
                rest = tuple(d for d in final.delta if d not in _delta(other.changes))
                for alternative in other.alternatives:
                    read = self.merged(rest, {c.parameter: c.value for c in alternative})
                    with_it = self.score(read)
                    without = self.score(tuple(d for d in read if d not in group))
                    if with_it is None or without is None:
                        continue
                    if not self.shown_by(with_it, without):
                        weak.append((deviation.explains, -i, alternative))
                        break
        if not weak:
            return None
        _, i, alternative = min(weak, key=lambda w: (w[0], w[1]))
        return -i, alternative

    def _uncontradicted(self, final: Scored, group: Delta, rest: Delta) -> list[Delta]:
        candidates: list[Delta] = []
        for i, (param, value) in enumerate(group):
            for other in self.vocabulary.values.get(param, ()):
                if key(other) not in (value, key(self.values.get(param))):
                    swapped = (*group[:i], (param, key(other)), *group[i + 1 :])
                    candidates.append(tuple(sorted(swapped)))
        if len(group) == 1:
            own = {group[0][0], *(p for p, _ in rest)} | FIT_PARAMETERS
            for param, values in self.vocabulary.values.items():
                base = key(self.values.get(param))
                if param not in own:
                    candidates += [((param, key(v)),) for v in values if key(v) != base]
        out = []
        for swapped in candidates:
            scored = self.score(self.merged(rest, changes_of(swapped)))
            if scored is None:
                continue
            if not (scored.disagree <= final.disagree and scored.errored <= final.errored):
                continue
            out.append(swapped)
        return out

    def changes(self, delta: Delta) -> tuple[Change, ...]:
        return tuple(Change(p, json.loads(v), self.values.get(p)) for p, v in delta)


def _delta(changes: Iterable[Change]) -> Delta:
    return delta_of({c.parameter: c.value for c in changes})


def _shown_changes(groups: Iterable[tuple[Change, ...]]) -> str:
    return " or ".join(
        ", ".join(f"`{c.parameter} = {json.dumps(c.value)}`" for c in group) for group in groups
    )


def _polish_order(scored: Scored) -> tuple[int, int, tuple[int, int]]:
    return (scored.unexplained(), len(scored.delta), scored.quality())


def _said_all(result: Any) -> frozenset[tuple[str, str]]:
    """Where a case finds an answer wrong, and what the answer says there."""
    return frozenset((m.path, _said_one(m)) for m in result.mismatches)


def _said_one(mismatch: Any) -> str:
    """What an answer says where a case finds it wrong, a whole number written alike
    whether it came as 19 or 19.0 (JSON does not tell them apart)."""
    from schwimmen.conformance.compare import show

    return show(_whole(mismatch.actual))


def _whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {k: _whole(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_whole(v) for v in value]
    return value


def _accepted(step: Any) -> bool:
    return isinstance(step, Mapping) and step.get("accepted") is True


def _kind(expected: Any, actual: Any) -> str:
    """How ``actual`` differs from ``expected``: missing, of the wrong type, or another
    value."""
    from schwimmen.conformance.compare import show

    if show(actual) in ("nothing", "not reported"):
        return "missing"
    if type(expected) is not type(actual) and not (
        isinstance(expected, (int, float)) and isinstance(actual, (int, float))
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
