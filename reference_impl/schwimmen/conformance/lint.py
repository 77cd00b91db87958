"""``schwimmen conformance lint``: the suite checks itself before it judges anybody.

Fixtures validate against their schema; ids are unique and match their paths; cited
sources exist and every quote stands verbatim in its source; every case cites a source or
a stated default; predicates name real parameters; every step is an action of the grammar
by a seat at the table; no card is dealt twice in a position or pack; every fixture
applies to at least one ruleset; every ruleset a case names is a ruleset (with a
did-you-mean for a near miss) that the case (and no earlier case) applies to; a case names
every catalog ruleset its predicates select, and house-rule compositions all or none;
no two cases of a fixture apply to one ruleset; a showdown's hands can meet at the end of
a round under every ruleset the case runs for, unless the case says it tests evaluation
alone; a match position's lives can come about; a ``round`` case checks one round (the
rounds after it, the winners and the match points are a ``match`` case's); and no round or
match case passes or fails the reference by the seed of a shuffle (``seeds.py``).

The fixtures and the project's scenarios (``spec/disagreements.yaml``) must agree: a
fixture's ``disagreement`` is a scenario of that file, every scenario is pinned by some
fixture, and the fixtures a scenario ``shows`` pin that scenario; the file's own quotes
are checked like the fixtures'. Every decision a case rests on (``default``) is one of
``spec/decisions.yaml``.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from schwimmen.conformance.fixtures import (
    Case,
    Fixture,
    case_applies,
    load_fixtures,
    parameter_values,
)
from schwimmen.conformance.harness import default_rulesets
from schwimmen.conformance.reach import lives_unreachable, showdown_unreachable
from schwimmen.conformance.runner import planned
from schwimmen.conformance.seeds import seed_problems
from schwimmen.protocol.actions import ActionSyntaxError, parse_text
from schwimmen.protocol.cards import parse_seat
from schwimmen.spec.decisions import load_decisions
from schwimmen.spec.disagreements import load_disagreements
from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import BY_PATH

TABLE = "table"


def _err(fixture: Fixture, path: tuple[str | int, ...], message: str) -> SpecError:
    return fixture.doc.error(path, message)


_Pack = list[tuple[tuple[str | int, ...], str]]  # (where in the fixture, card)


def _dealt(position: Mapping[str, object], at: tuple[str | int, ...]) -> _Pack:
    """The cards of one position as dealt, each with where it stands."""
    pack: _Pack = []
    for key in ("middle", "extra", "stock", "discard"):
        cards = position.get(key, ())
        assert isinstance(cards, list | tuple)
        pack += [((*at, key, i), card) for i, card in enumerate(cards)]
    hands = position.get("hands", {})
    assert isinstance(hands, Mapping)
    for seat, hand in hands.items():
        pack += [((*at, "hands", seat, i), card) for i, card in enumerate(hand)]
    return pack


def _duplicate_cards(fixture: Fixture) -> list[SpecError]:
    """A card that appears twice in one position (or in one stacked pack): no pack holds
    it twice, so no engine can set the position up (the reference refuses it)."""
    setup = fixture.setup
    deck: _Pack = [(("deck", i), c) for i, c in enumerate(setup.get("deck", ()))]
    packs: list[_Pack] = [_dealt(setup, ()), deck]
    for n, later in enumerate(setup.get("decks", ())):
        packs.append([(("decks", n, i), c) for i, c in enumerate(later)])
    for n, deal in enumerate(setup.get("deals", ())):
        packs.append(_dealt(deal, ("deals", n)))
    errors = []
    for pack in packs:
        seen: dict[str, tuple[str | int, ...]] = {}
        for path, card in pack:
            if card in seen:
                first = ".".join(str(p) for p in seen[card])
                errors.append(_err(fixture, path, f"card {card} is dealt twice (also at {first})"))
            else:
                seen[card] = path
    return errors


def _steps(fixture: Fixture) -> list[SpecError]:
    """Every step is an action of FIXTURES.md's grammar (the parser's) by a seat at the
    table: text outside it fails only at run time, as the request's fault."""
    seats = int(fixture.setup.get("seats", 0))
    errors = []
    for i, step in enumerate(fixture.setup.get("steps", ())):
        ((who, action),) = step.items()
        if who == TABLE:
            continue  # the schema allows only {table: next-match}
        if parse_seat(who) >= seats:
            errors.append(_err(fixture, ("steps", i), f"there is no {who} at a table of {seats}"))
        try:
            parse_text(action)
        except ActionSyntaxError as exc:
            message = f"{action!r} is not an action of the grammar (FIXTURES.md): {exc}"
            errors.append(_err(fixture, ("steps", i, who), message))
    return errors


def _closest(word: str, options: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return close[0] if close else None


def _near_miss(name: str, catalog: Catalog) -> str | None:
    """``name`` with each part replaced by the nearest ruleset (first) or house rule, if
    that names a ruleset: ``pagat+knocker-loses-tow`` is ``pagat+knocker-loses-two``."""
    base, *rules = (part.strip() for part in name.split(SEPARATOR))
    parts = [_closest(base, list(catalog.rulesets))]
    parts += [_closest(rule, list(catalog.house_rules)) for rule in rules]
    if any(part is None for part in parts):
        return None
    guess = SEPARATOR.join(p for p in parts if p is not None)
    try:
        catalog.resolve(guess)
    except SpecErrors:
        return None
    return guess if guess != name else None


def _unknown_ruleset(name: str, catalog: Catalog, known: Sequence[str]) -> str:
    """Why ``name`` is no ruleset, with the nearest name: part by part from the catalog's
    rulesets and house rules, else of a default run (compositions included)."""
    close = _near_miss(name, catalog) or _closest(name, [*known, *catalog.rulesets])
    if close:
        return f"unknown ruleset {name!r}; did you mean {close}?"
    try:
        catalog.resolve(name)
    except SpecErrors as exc:
        reasons = "; ".join(e.message for e in exc.errors)
        return f"{name!r} is no ruleset: {reasons}"
    return f"unknown ruleset {name!r}"  # pragma: no cover - resolve failed a moment ago


def _selection(
    fixture: Fixture, case: Case, applying: Sequence[str], catalog: Catalog
) -> list[SpecError]:
    """A case with predicates is selected by them alone (FIXTURES.md, Cases): its
    ``rulesets`` names every ruleset of the catalog they select, so the list reads as the
    whole answer of the rules matrix; compositions with a house rule, which come and go
    with the house rules, are named all or none, never a partial list."""
    if not case.where:
        return []
    at = ("cases", case.index, "rulesets") if case.rulesets else ("cases", case.index)
    named = set(case.rulesets)
    errors = []
    bases = [n for n in applying if n in catalog.rulesets and n not in named]
    if bases:
        errors.append(
            _err(
                fixture,
                at,
                f"leaves out {', '.join(bases)}, which its predicates select: name every "
                "ruleset the case applies to",
            )
        )
    compositions = [n for n in applying if SEPARATOR in n]
    listed = [n for n in compositions if n in named]
    if listed and len(listed) < len(compositions):
        left = [n for n in compositions if n not in named]
        errors.append(
            _err(
                fixture,
                at,
                f"names {len(listed)} of the {len(compositions)} house-rule compositions its "
                f"predicates select (not {', '.join(left)}): the predicates select them; "
                "name them all or none",
            )
        )
    return errors


MATCH_KEYS = ("rounds", "winners", "match_over", "points")
"""What only a ``match`` case checks: a ``round`` case is about one round (how it is
played and how it ends); both kinds are run and judged alike (FIXTURES.md)."""


def _kind(fixture: Fixture, case: Case) -> list[SpecError]:
    """A ``round`` case checks one round; rounds that follow, the winners and the match
    points belong to a ``match`` fixture, so that ``--kind`` selects what it says."""
    if fixture.kind != "round":
        return []
    states: list[tuple[tuple[str, ...], Mapping[str, Any]]] = [((), case.expect)]
    states += [(("after_step", n), s) for n, s in case.expect.get("after_step", {}).items()]
    errors = []
    for at, state in states:
        for key in MATCH_KEYS:
            if key in state:
                path: tuple[str | int, ...] = ("cases", case.index, "expect", *at, key)
                message = f"a round case checks one round; {key!r} belongs to kind: match"
                errors.append(_err(fixture, path, message))
    return errors


def _reachable(fixture: Fixture, case: Case, ruleset: Ruleset) -> str | None:
    """Why the case's position cannot come about in play under ``ruleset``, or None."""
    setup = fixture.setup
    if fixture.kind == "showdown" and not case.evaluation_only:
        reached = setup.get("reached", {})
        return showdown_unreachable(
            setup.get("hands", {}),
            ruleset.rules,
            knocked="knocker" in setup,
            moved=any(reached.values()),
        )
    if fixture.kind in ("round", "match"):
        return lives_unreachable(setup, ruleset.rules)
    return None


def _cites(fixture: Fixture, case: Case, catalog: Catalog) -> list[SpecError]:
    base = ("cases", case.index)
    errors = []
    if not case.because and not case.defaults:
        errors.append(_err(fixture, base, "a case cites no source ('because') and no default"))
    bib = catalog.bibliography
    for i, citation in enumerate(case.because):
        if bib.sources.get(citation.source) is None:
            message = f"unknown source {citation.source!r}"
            errors.append(_err(fixture, (*base, "because", i, "source"), message))
            continue
        problem = bib.check_quote(citation)
        if problem:
            errors.append(_err(fixture, (*base, "because", i, "quote"), problem))
    for param in case.where:
        if param not in BY_PATH:
            errors.append(_err(fixture, (*base, "where", param), f"unknown parameter {param!r}"))
    if case.evaluation_only and fixture.kind != "showdown":
        message = "evaluation_only is for showdown cases; a played position is always dealt"
        errors.append(_err(fixture, (*base, "evaluation_only"), message))
    return errors


def _names(
    fixture: Fixture, case: Case, catalog: Catalog, rulesets: Mapping[str, Ruleset]
) -> list[SpecError]:
    """Each ruleset a case names is a ruleset the position fits and the case applies to."""
    errors = []
    base = ("cases", case.index)
    for i, name in enumerate(case.rulesets):
        found = rulesets.get(name)
        if found is not None:
            ruleset = found
        else:
            try:
                ruleset = catalog.resolve(name)
            except SpecErrors:
                message = _unknown_ruleset(name, catalog, list(rulesets))
                errors.append(_err(fixture, (*base, "rulesets", i), message))
                continue
        why = fixture.fits(ruleset)
        if why is not None:
            message = f"names {name}, but the position does not fit it: {why}"
            errors.append(_err(fixture, (*base, "rulesets", i), message))
        elif fixture.applicable_case(ruleset) is not case:
            message = f"names {name}, but the case does not apply to it"
            errors.append(_err(fixture, (*base, "rulesets", i), message))
    return errors


def _scenarios(fixtures: Sequence[Fixture], catalog: Catalog, *, whole: bool) -> list[SpecError]:
    """The fixtures and the scenarios and decisions of ``spec/`` agree with each other;
    ``whole`` when ``fixtures`` are the shipped suite, so that every scenario must be
    pinned and every fixture a scenario shows must be among them."""
    disagreements, errors = load_disagreements(bibliography=catalog.bibliography)
    decisions, problems = load_decisions()
    errors += problems
    if decisions is not None:
        for f in fixtures:
            for case in f.cases:
                for i, number in enumerate(case.defaults):
                    if number not in decisions.titles:
                        message = f"{number} is not a decision of spec/decisions.yaml"
                        errors.append(_err(f, ("cases", case.index, "default", i), message))
    if disagreements is None:
        return errors
    known = disagreements.by_id()
    pinning: dict[str, list[str]] = {}
    by_id = {f.id: f for f in fixtures}
    for f in fixtures:
        if f.disagreement is None:
            continue
        if f.disagreement in known:
            pinning.setdefault(f.disagreement, []).append(f.id)
        else:
            message = f"{f.disagreement} is not a scenario of spec/disagreements.yaml"
            errors.append(_err(f, ("disagreement",), message))
    for scenario in disagreements.scenarios if whole else ():
        if not pinning.get(scenario.id):
            message = f"no fixture pins {scenario.id} (none names it as its 'disagreement')"
            errors.append(disagreements.error((*scenario.path, "id"), message))
        for i, fid in enumerate(scenario.shows):
            shown = by_id.get(fid)
            at = (*scenario.path, "shows", i)
            if shown is None:
                near = _closest(fid, list(by_id))
                hint = f"; did you mean {near!r}?" if near else ""
                errors.append(disagreements.error(at, f"no fixture {fid!r}{hint}"))
            elif shown.disagreement != scenario.id:
                pins = shown.disagreement or "no scenario"
                message = f"{fid} pins {pins}, not {scenario.id}"
                errors.append(disagreements.error(at, message))
    return errors


def lint(catalog: Catalog, fixtures_dir: Path | None = None) -> tuple[list[SpecError], int]:
    """All problems found, and the number of fixtures checked."""
    fixtures, errors = load_fixtures(fixtures_dir)
    rulesets: dict[str, Ruleset] = {}
    for name in default_rulesets(catalog):
        rulesets[name] = catalog.resolve(name)
    counts = Counter(f.id for f in fixtures)
    unplayable: set[str] = set()
    for f in fixtures:
        rel = f.file.split("fixtures/", 1)[-1].rsplit(".", 1)[0]
        if rel != f.id:
            errors.append(_err(f, ("id",), f"id {f.id!r} does not match the file path {rel!r}"))
        if counts[f.id] > 1:
            errors.append(_err(f, ("id",), f"id {f.id!r} is used by {counts[f.id]} fixtures"))
        errors.extend(_duplicate_cards(f))
        bad_steps = _steps(f)
        errors.extend(bad_steps)
        if bad_steps:
            unplayable.add(f.id)  # the reference would only say the same again
        applying: dict[int, list[str]] = {c.index: [] for c in f.cases}
        unreachable: dict[int, dict[str, list[str]]] = {c.index: {} for c in f.cases}
        for ruleset in rulesets.values():
            if f.fits(ruleset) is not None:
                continue
            values = parameter_values(ruleset)
            hits = [c for c in f.cases if case_applies(c, ruleset.id, values)]
            if len(hits) > 1:
                names = ", ".join(c.label() for c in hits)
                errors.append(_err(f, ("cases",), f"several cases apply to {ruleset.id}: {names}"))
            if hits:
                applying[hits[0].index].append(ruleset.id)
                why = _reachable(f, hits[0], ruleset)
                if why is not None:
                    unreachable[hits[0].index].setdefault(why, []).append(ruleset.id)
        if not any(applying.values()):
            errors.append(_err(f, ("cases",), "the fixture applies to no ruleset"))
        for case in f.cases:
            errors.extend(_cites(f, case, catalog))
            errors.extend(_kind(f, case))
            errors.extend(_names(f, case, catalog, rulesets))
            errors.extend(_selection(f, case, applying[case.index], catalog))
            for why, where in unreachable[case.index].items():
                shown = ", ".join(where[:4]) + (f" and {len(where) - 4} more" * (len(where) > 4))
                message = (
                    f"the position cannot come about in play under {shown}: {why}; pin the "
                    "rulesets where it can, or say evaluation_only: true"
                )
                errors.append(_err(f, ("cases", case.index), message))
    errors.extend(_scenarios(fixtures, catalog, whole=fixtures_dir is None))
    plan = planned([f for f in fixtures if f.id not in unplayable], rulesets.values())
    for problem in seed_problems(plan):
        at = ("cases", problem.case.index)
        errors.append(_err(problem.fixture, at, problem.message))
    return sorted(set(errors)), len(fixtures)
