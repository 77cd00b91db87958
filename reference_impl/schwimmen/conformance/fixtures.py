"""Conformance fixtures: loading, checking, and choosing the case that applies.

A fixture is one scenario (position and steps) with one or more cases; a case gives the
expected outcome for the rulesets it names and for every ruleset whose parameters meet its
``where`` predicates. So a house rule written tomorrow gets every case whose predicates it
meets, and one fixture holds a whole disagreement (one case per answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from schwimmen.protocol.cards import deck, text
from schwimmen.resources import conformance_dir
from schwimmen.spec.errors import SpecError
from schwimmen.spec.model import Citation, Ruleset
from schwimmen.spec.rules import Rules
from schwimmen.spec.validation import schema_errors
from schwimmen.spec.vocabulary import DealProcedure, MoveKind, Series
from schwimmen.spec.yamlread import Document, YamlError, read_file

SCHEMA = "fixture.schema.json"
POSITION_KEYS = (
    "seats",
    "dealer",
    "lives",
    "eliminated",
    "hands",
    "middle",
    "extra",
    "stock",
    "discard",
    "deck",
    "decks",
    "deals",
    "points",
    "knocker",
    "reached",
    "steps",
)


@dataclass(frozen=True)
class Case:
    index: int
    name: str
    rulesets: tuple[str, ...]
    where: Mapping[str, Any]
    expect: Mapping[str, Any]
    because: tuple[Citation, ...]
    defaults: tuple[str, ...]
    note: str
    evaluation_only: bool = False

    def label(self) -> str:
        return self.name or f"case {self.index + 1}"


@dataclass(frozen=True)
class Fixture:
    id: str
    title: str
    kind: str
    disagreement: str | None
    matrix: str
    description: str
    setup: Mapping[str, Any]
    cases: tuple[Case, ...]
    file: str
    # the parsed file, for where an error is; not in the repr, which the site compares to
    # know whether a page changed (what it shows is the fields above)
    doc: Document = field(repr=False)

    def fits(self, ruleset: Ruleset) -> str | None:
        """Why this fixture's position cannot be set up under ``ruleset`` (the matrix's
        "n/a": sixes in a 32-card pack, three-card hands in "41", a middle in the
        draw-and-discard game), or None when it can."""
        rules = ruleset.rules
        setup = self.setup
        cards: list[str] = list(setup.get("deck", ()))
        for d in setup.get("decks", ()):
            cards.extend(d)
        for position in (setup, *setup.get("deals", ())):
            why = _dealt_fits(position, rules, cards)
            if why is not None:
                return why
        pack = _pack_texts(rules.cards.ranks, rules.cards.suits)
        foreign = sorted({c for c in cards if c not in pack})
        if foreign:
            return f"card(s) {', '.join(foreign)} are not in the ruleset's pack"
        if (
            any(setup.get("points", {}).values())
            and rules.match.series is not Series.POINT_AND_NEW_MATCH
        ):
            return "the position has match points; the ruleset plays a single match"
        if self.kind != "setup":
            seats = int(setup.get("seats", 0))
            if not rules.players.min <= seats <= rules.players.max:
                return (
                    f"{seats} players; the ruleset allows {rules.players.min}-{rules.players.max}"
                )
        return None

    def applicable_case(self, ruleset: Ruleset) -> Case | None:
        """The first case that applies to ``ruleset`` (lint keeps it unambiguous)."""
        if self.fits(ruleset) is not None:
            return None
        values = parameter_values(ruleset)
        for case in self.cases:
            if case_applies(case, ruleset.id, values):
                return case
        return None

    def checkpoints(self) -> list[int]:
        """The steps after which some case checks the state (``after_step``)."""
        return sorted({int(n) for c in self.cases for n in c.expect.get("after_step", {})})

    def request(self, ruleset: Ruleset) -> dict[str, Any]:
        """The language-neutral request that runs this fixture under ``ruleset``."""
        request = {
            "kind": self.kind,
            "fixture": self.id,
            "ruleset": {"id": ruleset.id, "parameters": parameter_values(ruleset)},
            **{k: v for k, v in self.setup.items()},
        }
        checkpoints = self.checkpoints()
        if checkpoints:
            request["checkpoints"] = checkpoints
        return request


def _dealt_fits(position: Mapping[str, Any], rules: Rules, cards: list[str]) -> str | None:
    """Why cards as dealt (the first round's or a later deal's) cannot be dealt under
    ``rules``, or None; their cards are added to ``cards`` for the pack check."""
    for key in ("middle", "extra", "stock", "discard"):
        cards.extend(position.get(key, ()))
    for hand in position.get("hands", {}).values():
        cards.extend(hand)
        if len(hand) != rules.cards.hand_size:
            return f"hands of {len(hand)} cards, the ruleset deals {rules.cards.hand_size}"
    draw_game = rules.turns.move is MoveKind.DRAW_AND_DISCARD
    if draw_game and ("middle" in position or "extra" in position):
        return "the position has a middle; the ruleset has none"
    if not draw_game and "discard" in position:
        return "the position has a discard pile; the ruleset has a middle"
    if "middle" in position and len(position["middle"]) != rules.cards.middle_size:
        size = rules.cards.middle_size
        return f"a middle of {len(position['middle'])} cards, the ruleset has {size}"
    has_choice = rules.dealing.procedure in (
        DealProcedure.EXTRA_HAND_BLIND_CHOICE,
        DealProcedure.TWO_PACKETS_LOOK_AT_ONE,
    )
    if "extra" in position and not has_choice:
        return "the position has a dealer's extra hand; the ruleset deals none"
    return None


@cache
def _pack_texts(ranks: tuple[str, ...], suits: tuple[str, ...]) -> frozenset[str]:
    return frozenset(text(c) for c in deck(ranks, suits))


_VALUES: dict[int, tuple[Ruleset, dict[str, Any]]] = {}


def parameter_values(ruleset: Ruleset) -> dict[str, Any]:
    """``ruleset.values()``, computed once per ruleset object (treat it as read-only)."""
    found = _VALUES.get(id(ruleset))
    if found is None or found[0] is not ruleset:
        found = _VALUES[id(ruleset)] = (ruleset, ruleset.values())
    return found[1]


def predicate_holds(predicate: Any, value: Any) -> bool:
    if isinstance(predicate, Mapping):
        return not any(_same(value, v) for v in predicate["not"])
    return any(_same(value, v) for v in predicate)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return bool(a == b)


def case_applies(case: Case, ruleset_id: str, values: Mapping[str, Any]) -> bool:
    if case.where:
        return all(
            param in values and predicate_holds(pred, values[param])
            for param, pred in case.where.items()
        )
    return ruleset_id in case.rulesets


def _citation(raw: Mapping[str, Any]) -> Citation:
    return Citation(
        raw["source"], raw["section"], raw["quote"], raw.get("line"), raw.get("attribution")
    )


def parse_fixture(
    path: Path, shown_as: str | None = None
) -> tuple[Fixture | None, list[SpecError]]:
    try:
        doc = read_file(path, shown_as)
    except YamlError as exc:
        return None, [exc.error]
    if not isinstance(doc.data, dict):
        return None, [doc.error((), "a fixture must be a mapping at the top")]
    errors = schema_errors(doc, SCHEMA)
    if errors:
        return None, errors
    data = doc.data
    cases = tuple(
        Case(
            index=i,
            name=raw.get("name", ""),
            rulesets=tuple(raw.get("rulesets", ())),
            where=raw.get("where", {}),
            expect=raw["expect"],
            because=tuple(_citation(c) for c in raw.get("because", ())),
            defaults=tuple(raw.get("default", ())),
            note=raw.get("note", ""),
            evaluation_only=bool(raw.get("evaluation_only", False)),
        )
        for i, raw in enumerate(data["cases"])
    )
    setup = {k: data[k] for k in POSITION_KEYS if k in data}
    fixture = Fixture(
        id=data["id"],
        title=data["title"],
        kind=data["kind"],
        disagreement=data.get("disagreement"),
        matrix=data.get("matrix", ""),
        description=str(data.get("description", "")).strip(),
        setup=setup,
        cases=cases,
        file=doc.file,
        doc=doc,
    )
    return fixture, []


def fixture_files(root: Path | None = None) -> list[Path]:
    root = root or conformance_dir() / "fixtures"
    return sorted(root.rglob("*.yaml"))


_LOADED: dict[tuple[object, ...], tuple[list[Fixture], list[SpecError]]] = {}


def load_fixtures(
    root: Path | None = None,
) -> tuple[list[Fixture], list[SpecError]]:
    """Every fixture under ``conformance/fixtures`` and every error found loading them.

    Reading and schema-checking all fixtures takes about two seconds; a process that runs
    the suite several times (the tests, a docs build) reads them again only when a file
    was added, removed or changed (by path, size and modification time)."""
    base = root or conformance_dir() / "fixtures"
    paths = fixture_files(base)
    stamps = []
    for path in paths:
        stat = path.stat()
        stamps.append((str(path), stat.st_size, stat.st_mtime_ns))
    key = (str(base), tuple(stamps))
    known = _LOADED.get(key)
    if known is None:
        if len(_LOADED) >= 8:
            _LOADED.clear()
        known = _LOADED[key] = _read_fixtures(base, paths)
    return list(known[0]), list(known[1])


def _read_fixtures(base: Path, paths: list[Path]) -> tuple[list[Fixture], list[SpecError]]:
    fixtures: list[Fixture] = []
    errors: list[SpecError] = []
    for path in paths:
        shown = f"conformance/fixtures/{path.relative_to(base)}"
        fixture, problems = parse_fixture(path, shown)
        errors.extend(problems)
        if fixture is not None:
            fixtures.append(fixture)
    return fixtures, errors


def select(
    fixtures: Sequence[Fixture], *, pattern: str | None = None, kinds: Sequence[str] = ()
) -> list[Fixture]:
    out = []
    for f in fixtures:
        if kinds and f.kind not in kinds:
            continue
        if pattern and pattern.lower() not in (f.id + " " + f.title).lower():
            continue
        out.append(f)
    return out
