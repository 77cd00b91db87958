"""The conformance contract says what the harness and the reference do: every statement of
PROTOCOL.md, INTERPRETING.md, FIXTURES.md and the protocol schema that a program can
check is checked here against the engine's vocabulary, the reference and the harness.

The codes and their meanings live in ``engine/reasons.py`` (and the engine's enums); the
documents' tables are parsed and held to them, the schema's enums likewise, the action
grammar of FIXTURES.md is compiled and held to the parser, and the reference is run over
every case to see that it reports nothing the documents do not name.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import pytest

from schwimmen.conformance.compare import compare
from schwimmen.conformance.fixtures import Fixture, load_fixtures, parameter_values
from schwimmen.conformance.harness import default_rulesets, resolve_all
from schwimmen.conformance.runner import planned
from schwimmen.engine import adapter
from schwimmen.engine.adapter import KINDS, run_case
from schwimmen.engine.hands import HandKind
from schwimmen.engine.reasons import (
    DESCRIPTION,
    ENDINGS,
    MATCH_OVER_PHASE,
    PHASES,
    Reason,
)
from schwimmen.engine.rounds import EndReason, Phase
from schwimmen.protocol.actions import ActionKind, ActionSyntaxError, parse_text
from schwimmen.resources import conformance_dir, schema_dir
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset
from schwimmen.spec.vocabulary import DealProcedure, EveryoneOut, KnockForm, MoveKind, Series

DOCS = conformance_dir()
ADAPTER_SOURCE = Path(adapter.__file__)

# Codes no fixture can pin: the reference never reaches or never reports them.
UNPINNED = {
    Reason.ROUND_OVER: "a round that ends is settled within its step",
    Reason.SWAP_ONE_NOT_ALLOWED: "no ruleset of the catalog forbids one-card swaps",
    Reason.UNSUPPORTED: "only an implementation under test reports it",
}
# Fields the reference reports beyond the protocol's (PROTOCOL.md names them).
REFERENCE_EXTRAS = {"stock", "discard_top", "why", "reason", "message", "events"}


# ---------------------------------------------------------------------------- helpers
@cache
def _doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


@cache
def _schema(name: str = "protocol.schema.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((schema_dir() / name).read_text(encoding="utf-8"))
    return data


def _table(text: str, heading: str) -> list[list[str]]:
    """The rows of the first table under ``heading`` (a whole heading line), cells
    stripped, header and rule left out."""
    lines = text.splitlines()
    start = lines.index(heading)
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
        elif rows:
            break
    assert len(rows) > 2, f"no table under {heading!r}"
    return rows[2:]


def _code(cell: str) -> str:
    """The text of a cell that is one code span."""
    match = re.fullmatch(r"`([^`]+)`", cell)
    assert match, f"not a code span: {cell!r}"
    return match[1]


@cache
def _catalog() -> Catalog:
    return Catalog.load()


@cache
def _fixtures() -> dict[str, Fixture]:
    fixtures, errors = load_fixtures()
    assert not errors
    return {f.id: f for f in fixtures}


@cache
def _rulesets() -> tuple[Ruleset, ...]:
    catalog = _catalog()
    return tuple(resolve_all(catalog, default_rulesets(catalog)))


@cache
def _runs() -> tuple[tuple[Fixture, Ruleset, Mapping[str, Any], Mapping[str, Any]], ...]:
    """Every planned round and match case, with the reference's outcome."""
    runs = []
    for fixture, case, ruleset in planned(_fixtures().values(), _rulesets()):
        if fixture.kind in ("round", "match"):
            answer = run_case(fixture.request(ruleset))
            assert answer["status"] == "ok", (fixture.id, ruleset.id, answer)
            runs.append((fixture, ruleset, case.expect, answer["outcome"]))
    return tuple(runs)


def _states(outcome: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [outcome, *outcome.get("states", {}).values()]


def _request(ruleset: str | Mapping[str, Any], steps: list[dict[str, str]], **case: Any) -> Any:
    if isinstance(ruleset, str):
        ruleset = {"id": ruleset, "parameters": parameter_values(_catalog().resolve(ruleset))}
    return {"kind": "round", "ruleset": ruleset, "seats": 3, "steps": steps, **case}


def _play(ruleset: str | Mapping[str, Any], steps: list[dict[str, str]], **case: Any) -> Any:
    answer = run_case(_request(ruleset, steps, **case))
    assert answer["status"] == "ok", answer
    return answer["outcome"]


PAGAT = {
    "hands": {"P1": ["KS", "9S", "7D"], "P2": ["AH", "JH", "8C"], "P3": ["KC", "QC", "10D"]},
    "middle": ["7C", "8D", "9H"],
    "stock": ["AS", "KD", "QH", "10S", "9C", "8S"],
}
SCAT = {
    "hands": {"P1": ["AC", "KC", "4D"], "P2": ["KS", "9S", "7D"], "P3": ["AD", "JD", "8S"]},
    "discard": ["2H", "9C"],
    "stock": ["3S", "4H", "5C", "6H", "7S", "8C"],
}


# ---------------------------------------------------------------------------- one vocabulary
def test_the_schema_enums_are_the_engines_vocabularies() -> None:
    defs = _schema()["$defs"]
    assert defs["phase"]["enum"] == list(PHASES)
    assert defs["refusal"]["enum"] == [r.value for r in Reason]
    assert defs["roundEnd"]["properties"]["reason"]["enum"] == [e.value for e in EndReason]
    assert defs["value"]["properties"]["hand"]["enum"] == [k.value for k in HandKind]
    assert defs["case"]["properties"]["kind"]["enum"] == list(KINDS)
    steps = defs["outcome"]["properties"]["steps"]["items"]["properties"]
    assert steps["reason"] == {"$ref": "#/$defs/refusal"}
    assert defs["outcome"]["properties"]["phase"] == {"$ref": "#/$defs/phase"}
    fixture = _schema("fixture.schema.json")["$defs"]
    assert fixture["end"]["properties"]["reason"]["enum"] == [e.value for e in EndReason]
    assert fixture["value"]["properties"]["hand"]["enum"] == [k.value for k in HandKind]


def test_the_phases_are_the_rounds_with_the_match_over() -> None:
    assert set(PHASES) == {p.value for p in Phase if p is not Phase.OVER} | {MATCH_OVER_PHASE}
    assert set(ENDINGS) == {e.value for e in EndReason}
    assert set(DESCRIPTION) == set(Reason)


def test_protocol_tables_are_the_engines() -> None:
    text = _doc("PROTOCOL.md")
    phases = _table(text, "### Phases")
    assert [_code(row[0]) for row in phases] == list(PHASES)
    assert {_code(row[0]): row[1] for row in phases} == PHASES
    endings = _table(text, "### Round endings")
    assert [_code(row[0]) for row in endings] == list(ENDINGS)
    for row in endings:
        assert (row[1], row[2]) == tuple(ENDINGS[_code(row[0])]), row
    codes = _table(text, "### Reason codes")
    assert [_code(row[0]) for row in codes] == [r.value for r in Reason], "in checking order"
    for row in codes:
        assert row[1] == DESCRIPTION[Reason(_code(row[0]))], row


def test_every_reason_code_has_an_example_a_fixture_pins() -> None:
    pinned: dict[str, set[str]] = {}
    for fixture in _fixtures().values():
        for case in fixture.cases:
            for result in case.expect.get("steps", {}).values():
                if isinstance(result, Mapping):
                    pinned.setdefault(result["rejected"], set()).add(fixture.id)
    assert set(pinned) <= {r.value for r in Reason if r is not Reason.UNSUPPORTED}
    for row in _table(_doc("PROTOCOL.md"), "### Reason codes"):
        reason = Reason(_code(row[0]))
        named = set(re.findall(r"`([a-z0-9-]+/[a-z0-9-]+)`", row[3]))
        if reason in UNPINNED:
            assert reason.value not in pinned and row[3] == "(none)", reason
            continue
        assert named, f"{reason.value}: the example names no fixture"
        assert named <= pinned.get(reason.value, set()), f"{reason.value}: {named}"


def test_the_engine_api_page_lists_the_same_phases_and_codes() -> None:
    from schwimmen.docsgen.engineapi import page_parts
    from schwimmen.docsgen.inserts import fill

    written = Path(__file__).resolve().parent.parent / "docs" / "reference" / "engine.md"
    parts = {name: (lambda _language, text=text: text) for name, text in page_parts(None).items()}
    page, _ = fill(written.read_text(encoding="utf-8"), parts, "reference/engine.md")
    for phase, meaning in PHASES.items():
        assert f"| `{phase}` | {meaning} |" in page
    phases = page.split("### Phases")[1].split("\n\n")[2]
    observed_phase = re.search(r"^\| `phase` \| (.*) \|$", page, re.M)
    assert observed_phase is not None
    assert "`over`" not in phases and "over" not in observed_phase.group(1)
    codes = re.findall(r"^\| `([a-z-]+)` \| ", page.split("## Reason codes")[1], re.M)
    assert codes[: len(Reason)] == [r.value for r in Reason]


def test_the_documented_dealing_procedures_are_the_parameters() -> None:
    rows = _table(_doc("INTERPRETING.md"), "### A stacked pack")
    assert [_code(row[0]) for row in rows] == [p.value for p in DealProcedure]


# ------------------------------------------------------------------ what the reference reports
def test_the_reference_reports_only_what_the_documents_name() -> None:
    """Over every round and match case: phases, codes and endings from the tables; `by`
    as the endings table says; the state's fields as PROTOCOL.md defines them."""
    outcome_fields = set(_schema()["$defs"]["outcome"]["properties"])
    for fixture, ruleset, _, outcome in _runs():
        where = f"{fixture.id}[{ruleset.id}]"
        assert set(outcome) <= outcome_fields | REFERENCE_EXTRAS, where
        rules = ruleset.rules
        seats = {f"P{n + 1}" for n in range(int(fixture.setup["seats"]))}
        for step in outcome["steps"]:
            if not step["accepted"]:
                assert Reason(step["reason"]) not in UNPINNED, where
        for record in outcome["rounds"]:
            reason, by, knocker = record["reason"], record["by"], record["knocker"]
            assert reason in ENDINGS, where
            if reason in ("all-passed", "stock-exhausted"):
                assert by is None, where
            elif reason == "knock":
                assert by == knocker is not None, where
            elif reason in ("two-open", "one-open"):
                assert by is not None and knocker is not None, where
            else:
                value = record["values"][by]
                assert value["hand"] == reason if reason != "maximum" else value["maximum"]
            if reason == "all-passed":
                assert knocker is None, where
            assert set(record["values"]) == set(record["hands"]), where
            for value in record["values"].values():
                assert set(value) == {"points", "hand", "suit", "maximum"}, where
        for state in _states(outcome):
            phase = state["phase"]
            assert phase in PHASES, where
            over = phase == MATCH_OVER_PHASE
            assert state["match_over"] is over and (state["to_move"] is None) is over, where
            assert (state["legal"] == []) is over, where
            if over and rules.match.everyone_out is EveryoneOut.NO_WINNER:
                # the last players went out together: over, and nobody won
                assert state["winners"] != [] or set(state["eliminated"]) == seats, where
            else:
                assert (state["winners"] != []) is over, where
            assert set(state["lives"]) == seats, "lives: every seat of the table"
            for seat in state["eliminated"]:
                assert state["lives"][seat] == 0, f"{where}: an eliminated seat has 0 lives"
            if not over:
                assert set(state["hands"]) == seats - set(state["eliminated"]), where
            if phase == "dealer-choice" or rules.turns.move is MoveKind.DRAW_AND_DISCARD:
                assert state["middle"] == [], where
            if rules.match.series is not Series.POINT_AND_NEW_MATCH:
                assert state["points"] == {}, where
            for text in state["legal"]:
                assert str(parse_text(text)) == text, f"{where}: {text} is not canonical"
            if rules.knocking.form is KnockForm.AFTER_MOVE and not over:
                assert "knock" not in state["legal"], f"{where}: after-move lists pass knock"


def test_no_check_rests_on_a_shuffled_pack() -> None:
    """INTERPRETING.md: after the packs a case gives, any pack may be dealt, and no case
    checks what depends on it. So every step (each must be accepted or refused as stated)
    and every checked state lies in a round dealt from a pack the case gave."""
    for fixture, ruleset, expect, outcome in _runs():
        where = f"{fixture.id}[{ruleset.id}]"
        setup = fixture.setup
        given = len(setup.get("decks", [])) + len(setup.get("deals", []))
        packs = (1 if "hands" in setup or "deck" in setup else 0) + given
        steps = len(setup.get("steps", []))
        request = fixture.request(ruleset) | {"checkpoints": list(range(1, steps + 1))}
        states = run_case(request)["outcome"].get("states", {})

        def started(step: int, rounds: Any = outcome["rounds"], states: Any = states) -> int:
            """The rounds dealt by the end of ``step`` (0: before the first)."""
            ended = sum(1 for r in rounds if r["after_step"] <= step)
            over = step > 0 and states[str(step)]["match_over"]
            return ended + (0 if over else 1)

        for step in range(steps):  # the round that step + 1 is played in
            assert started(step) <= packs, f"{where}: step {step + 1}"
        state_keys = set(expect) - {"steps", "end", "rounds", "round_over", "after_step"}
        if state_keys:
            assert started(steps) <= packs, f"{where}: {state_keys}"
        for number in expect.get("after_step", {}):
            assert started(int(number)) <= packs, f"{where}: after step {number}"
        assert len(expect.get("rounds", [])) <= packs, where


class _Recording(dict[str, Any]):
    """A case that notes every field read from it."""

    read: ClassVar[set[str]] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def test_the_reference_reads_only_the_documented_case_fields() -> None:
    """Every field the reference reads is in the schema's case and in PROTOCOL.md: the
    case table, or the fields the harness never sends."""
    _Recording.read = set()
    for fixture in _fixtures().values():
        for ruleset in _rulesets():
            if fixture.applicable_case(ruleset) is not None:
                run_case(_Recording(fixture.request(ruleset)))
                break
    run_case(_Recording(_request("pagat", [], seed=3, events=True, **PAGAT)))
    case = set(_schema()["$defs"]["case"]["properties"])
    assert _Recording.read <= case, _Recording.read - case
    assert {"seed", "events", "deck", "hands", "checkpoints"} <= _Recording.read
    protocol = _doc("PROTOCOL.md")
    table = {
        name.split(".")[0]
        for row in _table(protocol, "## The case")
        for name in re.findall(r"`([a-z_.]+)`", row[0])
    }
    never_sent = protocol.split("**Fields the harness never sends.**")[1].split("\n\n")[0]
    for name in case:
        assert name in table or f"`{name}`" in never_sent, name
    assert not {"seed", "events"} & table


def test_the_reference_extras_are_named() -> None:
    protocol = _doc("PROTOCOL.md")
    for name in REFERENCE_EXTRAS:
        assert f"`{name}`" in protocol, name


# ---------------------------------------------------------------------------- the action grammar
def _grammar() -> re.Pattern[str]:
    """FIXTURES.md's grammar, compiled to a regular expression (it is not recursive)."""
    block = re.search(r"```text\n(action .*?)```", _doc("FIXTURES.md"), re.S)
    assert block, "FIXTURES.md has lost its grammar"
    rules: dict[str, str] = {}
    order: list[str] = []
    for line in block[1].splitlines():
        head = re.match(r"^(\w+)\s*=\s*(.*)$", line)
        if head:
            order.append(head[1])
            rules[head[1]] = head[2]
        elif line.strip():
            rules[order[-1]] += " " + line.strip()
    token = re.compile(r'"[^"]*"|\w+|[\[\]{}()|]')
    closing = {"[": ")?", "{": ")*", "(": ")"}

    def compile_rule(name: str) -> str:
        out = []
        for tok in token.findall(rules[name]):
            if tok.startswith('"'):
                out.append(re.escape(tok[1:-1]))
            elif tok in closing:
                out.append("(?:")
            elif tok in "]})":
                out.append(closing[{"]": "[", "}": "{", ")": "("}[tok]])
            elif tok == "|":
                out.append("|")
            else:
                out.append(f"(?:{compile_rule(tok)})")
        return "".join(out)

    return re.compile(compile_rule(order[0]))


def _parses(text: str) -> bool:
    try:
        parse_text(text)
    except ActionSyntaxError:
        return False
    return True


def test_the_grammar_is_the_parsers() -> None:
    grammar = _grammar()
    words = [k.value for k in ActionKind] + ["foo", "Swap"]
    arguments = ["", "QC", "10H", "QC 10H", "QC+KD 10H+9S", "QC+KD 10H", "QC 10H 9S"]
    arguments += ["1C", "qc", "TH", "QC+ 10H", "QC++KD 10H", "2S+AD+10C 3H+4S+5D"]
    suffixes = ["", " knock", " knock knock", " pass"]
    tried = 0
    for word, argument, suffix in itertools.product(words, arguments, suffixes):
        text = " ".join(filter(None, [word, argument])) + suffix
        matches = grammar.fullmatch(text) is not None
        assert matches == _parses(text), text
        if matches:
            assert str(parse_text(text)) == text, f"{text} is not read back the same"
        tried += 1
    assert tried > 500
    for kind in ActionKind:
        assert any(grammar.fullmatch(t) and parse_text(t).kind is kind for t in _texts(kind))


def _texts(kind: ActionKind) -> list[str]:
    cards = {ActionKind.SWAP: " QC 10H", ActionKind.DISCARD: " QC"}
    return [kind.value + cards.get(kind, "")]


def test_every_fixture_step_is_in_the_grammar() -> None:
    grammar = _grammar()
    for fixture in _fixtures().values():
        for step in fixture.setup.get("steps", []):
            ((seat, action),) = step.items()
            if seat == "table":
                assert action == "next-match"
                continue
            assert grammar.fullmatch(action), f"{fixture.id}: {action}"


def test_the_action_table_covers_every_action() -> None:
    rows = _table(_doc("FIXTURES.md"), "## Seats, cards, actions")
    forms = [form for row in rows for form in re.findall(r"`([^`]+)`", row[0])]
    assert all(_parses(form) for form in forms), forms
    assert {parse_text(form).kind for form in forms} == set(ActionKind)
    assert {form for form in forms if form.endswith(" knock")} == {
        "swap QC 10H knock",
        "swap-all knock",
        "pass knock",
    }


# ---------------------------------------------------------------------------- precedence
def _custom(name: str, **changes: Any) -> dict[str, Any]:
    parameters = parameter_values(_catalog().resolve(name)) | changes
    return {"id": f"{name}+custom", "parameters": parameters}


DUTCH_WON = {
    "seats": 3,
    "dealer": "P2",
    "eliminated": ["P3"],
    "lives": {"P1": 2, "P2": 0},
    "hands": {"P1": ["AH", "KH", "9S"], "P2": ["KC", "9C", "7D"]},
    "middle": ["10S", "8C", "JD"],
    "stock": ["QS", "10C", "9D", "JS", "8D", "QD"],
}
EXTRA = {"hands": PAGAT["hands"], "extra": ["7C", "8D", "9H"], "stock": PAGAT["stock"]}
DEALT_31 = {
    **PAGAT,
    "hands": {**PAGAT["hands"], "P1": ["AS", "KS", "QS"]},
    "stock": ["KD", "QH", "10S", "9C", "8S", "7S"],
}

# ruleset, case fields, steps (the last one breaks two rules), its code, the other rule
PRECEDENCE: list[tuple[Any, dict[str, Any], list[str], Reason, Reason]] = [
    ("dutch", DUTCH_WON, ["P1: knock", "P1: pass"], Reason.MATCH_OVER, Reason.NOT_YOUR_TURN),
    ("pagat", PAGAT, ["P2: draw-stock"], Reason.NOT_YOUR_TURN, Reason.NO_DRAW),
    ("pagat", EXTRA, ["P3: draw-stock"], Reason.NO_DRAW, Reason.WRONG_PHASE),
    ("scat", SCAT, ["P1: draw-stock", "P1: pass"], Reason.NO_MIDDLE, Reason.WRONG_PHASE),
    (
        "beginner-guide+hidden-middle",
        PAGAT,
        ["P1: turn-up", "P1: keep"],
        Reason.MUST_COMPLETE_SWAP,
        Reason.WRONG_PHASE,
    ),
    (
        "beginner-guide+hidden-middle",
        PAGAT,
        ["P1: turn-up", "P1: turn-up"],
        Reason.MUST_COMPLETE_SWAP,
        Reason.WRONG_PHASE,
    ),
    (
        "beginner-guide+hidden-middle",
        DEALT_31,
        ["P1: swap AS 7C"],
        Reason.WRONG_PHASE,
        Reason.MIDDLE_HIDDEN,
    ),
    (
        "beginner-guide+hidden-middle",
        PAGAT,
        ["P1: swap QC 7C"],
        Reason.MIDDLE_HIDDEN,
        Reason.NOT_IN_HAND,
    ),
    ("pagat", PAGAT, ["P1: swap QC+QC 7C+8D"], Reason.MALFORMED, Reason.NOT_IN_HAND),
    ("pagat", PAGAT, ["P1: swap QC AS"], Reason.NOT_IN_HAND, Reason.NOT_IN_MIDDLE),
    ("pagat", PAGAT, ["P1: swap KS+9S 7C+AS"], Reason.NOT_IN_MIDDLE, Reason.TWO_CARD_SWAP),
    (
        _custom("pagat", **{"turns.swaps": ["all"], "knocking.requires": "maximum"}),
        PAGAT,
        ["P1: swap KS 7C knock"],
        Reason.SWAP_ONE_NOT_ALLOWED,
        Reason.KNOCK_NEEDS_MAXIMUM,
    ),
    (
        "altenburg",
        PAGAT,
        ["P1: swap KS+9S 7C+8D knock"],
        Reason.TWO_CARD_SWAP,
        Reason.KNOCK_WITH_MOVE,
    ),
    ("dutch", PAGAT, ["P1: pass knock"], Reason.NO_PASS, Reason.KNOCK_WITH_MOVE),
    (
        "rules-page+pass-once-per-round",
        PAGAT,
        ["P1: pass", "P2: swap 8C 9H", "P3: swap 10D 7C", "P1: pass knock"],
        Reason.PASS_LIMIT,
        Reason.KNOCK_WITH_MOVE,
    ),
    (
        "altenburg",
        PAGAT,
        ["P1: knock", "P2: swap 8C 9H knock"],
        Reason.KNOCK_WITH_MOVE,
        Reason.SECOND_KNOCK,
    ),
    (
        "tri-palki+close-only-with-31",
        DEALT_31,
        ["P1: knock", "P2: knock"],
        Reason.SECOND_KNOCK,
        Reason.KNOCK_NEEDS_MAXIMUM,
    ),
    (
        _custom("scat+no-knock-first-turn", **{"knocking.requires": "maximum"}),
        SCAT,
        ["P1: knock"],
        Reason.KNOCK_FIRST_TURN,
        Reason.KNOCK_NEEDS_MAXIMUM,
    ),
]


@pytest.mark.parametrize(
    ("ruleset", "case", "steps", "reported", "other"),
    PRECEDENCE,
    ids=[f"{p[3].value}-before-{p[4].value}" for p in PRECEDENCE],
)
def test_of_two_rules_broken_the_first_code_is_reported(
    ruleset: Any, case: dict[str, Any], steps: list[str], reported: Reason, other: Reason
) -> None:
    order = list(Reason)
    assert order.index(reported) < order.index(other), "the table's order"
    seats = case.get("seats", 3)
    played = [dict([s.split(": ")]) for s in steps]
    outcome = _play(ruleset, played, **(case | {"seats": seats}))
    *before, last = outcome["steps"]
    assert all(s["accepted"] for s in before), outcome["steps"]
    assert last == {"accepted": False, "reason": reported.value}


def test_unsupported_fails_a_step_like_any_wrong_code() -> None:
    refused = {"steps": [{"accepted": False, "reason": "unsupported"}]}
    for expected in ({"1": {"rejected": "two-card-swap"}}, {"1": "accepted"}):
        verdict = compare({"steps": expected}, refused, steps=1)
        assert len(verdict.mismatches) == 1, expected
    declared = compare(
        {"steps": {"1": {"rejected": "two-card-swap"}}},
        {"steps": [{"accepted": False}]},
        steps=1,
        not_reported=frozenset({"steps.reason"}),
    )
    assert declared.mismatches == [] and declared.unjudged == {"steps.reason"}


# ------------------------------------------------------------------ statements, one by one
def test_a_stacked_deck_may_be_part_of_a_pack_that_holds_the_deal() -> None:
    forty_one = _catalog().resolve("forty-one").rules
    assert len(forty_one.cards.ranks) * len(forty_one.cards.suits) == 52
    pack = [r + s for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    dealt = 3 * 4 + 4  # three hands of four and the extra hand
    exact = _play("forty-one", [], deck=pack[:dealt])
    assert exact["phase"] == "dealer-choice" and exact["hands"]["P1"] == ["7C", "JC", "7S", "JS"]
    short = run_case(_request("forty-one", [], deck=pack[: dealt - 1]))
    assert short["status"] == "errored" and "too small" in short["message"]
    both = run_case(_request("pagat", [], deck=pack, **PAGAT))
    assert both["status"] == "errored" and "case.deck and case.hands" in both["message"]


def test_eliminated_seats_have_no_hand_and_no_lives() -> None:
    hands = {"P1": PAGAT["hands"]["P1"], "P3": PAGAT["hands"]["P3"]}
    outcome = _play("pagat", [], **(PAGAT | {"hands": hands, "eliminated": ["P2"], "lives": 2}))
    assert outcome["lives"] == {"P1": 2, "P2": 0, "P3": 2}
    assert set(outcome["hands"]) == {"P1", "P3"}


def test_a_position_is_refused_where_the_ruleset_cannot_have_it() -> None:
    no_middle = {k: v for k, v in PAGAT.items() if k != "middle"}
    for ruleset, case, words in [
        ("pagat", no_middle, "no middle"),
        ("altenburg", EXTRA, "no extra hand"),
        ("pagat", PAGAT | {"discard": ["AD"]}, "no discard pile"),
        ("scat", SCAT | {"middle": ["7C", "8D", "9H"]}, "middle"),
    ]:
        answer = run_case(_request(ruleset, [], **case))
        assert answer["status"] == "errored" and words in answer["message"], answer


def test_the_dealers_choice_is_a_step_but_no_move() -> None:
    custom = _custom("pagat", **{"knocking.first_turn": "not-on-first-turn-of-deal"})
    outcome = _play(custom, [{"P3": "keep"}, {"P1": "pass knock"}], **EXTRA)
    assert outcome["steps"][1] == {"accepted": False, "reason": "knock-first-turn"}
    assert outcome["middle"] == ["7C", "8D", "9H"]


def test_a_whole_hand_written_out_in_any_order_is_swap_all() -> None:
    outcome = _play("pagat", [{"P1": "swap 7D+KS+9S 9H+7C+8D"}], **PAGAT)
    assert outcome["hands"]["P1"] == ["7C", "8D", "9H"]
    assert outcome["middle"] == ["KS", "9S", "7D"]


def test_the_draw_game_turns_the_discard_pile_over() -> None:
    case = SCAT | {"stock": [], "discard": ["2H", "9C", "5D"]}
    outcome = _play("scat", [{"P1": "draw-stock"}], **case)
    assert outcome["hands"]["P1"] == ["AC", "KC", "4D", "2H"], "the bottom card is on top"
    assert outcome["phase"] == "discard" and outcome["rounds"] == []
    ended = _play("scat", [{"P1": "draw-stock"}], **(SCAT | {"stock": [], "discard": ["5D"]}))
    assert ended["steps"] == [{"accepted": True}]
    (record,) = ended["rounds"]
    assert record["reason"] == "stock-exhausted" and record["by"] is None
    assert record["hands"]["P1"] == ["AC", "KC", "4D"], "no card was drawn"
    bare = _play("scat", [{"P1": "draw-stock"}], **(SCAT | {"stock": [], "discard": []}))
    assert bare["steps"] == [{"accepted": True}]
    assert bare["rounds"][0]["reason"] == "stock-exhausted"


@pytest.mark.parametrize("stock", [["AS", "KD", "QH"], ["AS"]])
def test_a_pass_that_closes_completes_a_round_of_passes(stock: list[str]) -> None:
    steps = [{"P1": "pass"}, {"P2": "pass"}, {"P3": "pass knock"}]
    outcome = _play("pagat", steps, **(PAGAT | {"stock": stock}))
    if len(stock) >= 3:  # a new middle, then the knock: the last cycle begins
        assert outcome["middle"] == ["AS", "KD", "QH"] and outcome["knocker"] == "P3"
        assert outcome["rounds"] == [] and outcome["to_move"] == "P1"
    else:  # no replacement: the round ends all-passed and the knock is void
        (record,) = outcome["rounds"]
        assert (record["reason"], record["by"], record["knocker"]) == ("all-passed", None, None)
        assert record["after_step"] == 3 and record["at_deal"] is False


def test_a_later_round_ending_at_its_deal_has_the_step_that_dealt_it() -> None:
    # dealt by P1 to P2, P3, P1 and the extra hand in turn: P2 gets the aces
    feuer = ["AC", "7S", "8S", "9S", "AS", "10C", "JD", "QD", "AH", "7H", "8H", "9H", "10H"]
    steps = [{"P1": "knock"}, {"P2": "pass"}, {"P3": "pass"}]
    outcome = _play("pagat", steps, **(PAGAT | {"decks": [feuer]}))
    first, second = outcome["rounds"][:2]
    assert (first["reason"], first["after_step"], first["at_deal"]) == ("knock", 3, False)
    assert (second["reason"], second["after_step"], second["at_deal"]) == ("feuer", 3, True)
    assert second["by"] == "P2", "the first holder from the dealer's left"
