"""``schwimmen serve`` survives any input: every bad line gets an errored answer written for
people, and the next good request is still answered. Sizes are bounded before anything is
allocated, so no request can make the server hold much more than a request line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from schwimmen.engine.adapter import run_case
from schwimmen.protocol.server import MAX_LINE, serve
from schwimmen.spec.loader import Catalog


@cache
def _parameters(ruleset: str) -> dict[str, Any]:
    return dict(Catalog.load().resolve(ruleset).values())


def _case(ruleset: str = "pagat", **fields: Any) -> dict[str, Any]:
    return {
        "kind": "round",
        "ruleset": {"id": ruleset, "parameters": _parameters(ruleset)},
        "seats": 3,
        **fields,
    }


def _run(seq: Any, case: Any) -> str:
    return json.dumps({"cmd": "run", "seq": seq, "case": case})


GOOD = _run(99, _case(kind="setup", seats=9))


def _strict(line: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"the server wrote {name}, which is not JSON")

    return json.loads(line, parse_constant=refuse)


def _exchange(*lines: str | bytes) -> list[dict[str, Any]]:
    """The answers of the server to ``lines``, sent as bytes as a pipe would carry them."""
    raw = b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines)
    out = io.StringIO()
    assert serve(io.BytesIO(raw), out) == 0
    return [_strict(line) for line in out.getvalue().splitlines()]


def _errored_then_good(line: str | bytes) -> dict[str, Any]:
    """The answer to ``line``, after checking it is errored and the server goes on."""
    bad, good = _exchange(line, GOOD)
    assert bad["status"] == "errored", bad
    assert good == {"seq": 99, "status": "ok", "outcome": good["outcome"]}
    assert good["outcome"]["accepted"] is False, "9 players: a table the ruleset refuses"
    return bad


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"cmd": "run", "seq": ' + "7" * 5000 + ', "case": {}}', "5000 digits"),
        ("[" * 100_000 + "]" * 100_000, "deeper than 64"),
        ('{"a": ' * 65 + "1" + "}" * 65, "deeper than 64"),
        ('{"cmd": "run", "seq": NaN, "case": {}}', "NaN is not a JSON number"),
        ('{"cmd": "run", "seq": -Infinity, "case": {}}', "-Infinity is not a JSON number"),
        ('{"cmd": "run", "seq": 1e400, "case": {}}', "too large"),
        ('{"cmd": "run", "seq": 9007199254740992, "case": {}}', "seq must be a whole number"),
        ('{"cmd": "run", "seq": -1, "case": {}}', "seq must be a whole number"),
        ('{"cmd": "run", "seq": 2.5, "case": {}}', "seq must be a whole number"),
        ('{"cmd": "run", "seq": true, "case": {}}', "seq must be a whole number"),
        ('{"cmd": "run", "case": {}}', "no seq"),
        ("not json at all", "not JSON"),
        ('"just a string"', "a request is a JSON object"),
        (b'{"cmd": "\xff"}', "not UTF-8"),
    ],
)
def test_unreadable_requests_are_answered_without_a_seq(line: str | bytes, words: str) -> None:
    answer = _errored_then_good(line)
    assert answer["seq"] is None and words in answer["message"]


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("a case", "a case is an object"),
        ({"kind": "round"}, "the case has no ruleset"),
        ({"kind": "round", "ruleset": {"id": "pagat"}, "seats": 3}, "no ruleset.parameters"),
        (_case(seats=200_000_000), "case.seats must be a whole number from 1 to 64"),
        (_case(seats="three"), "case.seats must be a whole number"),
        (_case(kind="setup", seats=65), "case.seats"),
        (_case(steps="knock"), "case.steps must be a list of {seat: action} objects"),
        (_case(steps=[{"P1": "knock"}] * 10_001), "case.steps holds 10001"),
        (_case(steps=[["P1", "knock"]]), "case.steps[0]: a step is one {seat: action}"),
        (_case(steps=[{"P1": "fly away"}]), "case.steps[0]: unknown action"),
        (_case(steps=[{"P9": "knock"}]), "case.steps[0]: there is no P9"),
        (_case(steps=[{"P1": "knock " * 1000}]), "case.steps[0]"),
        (_case(deck=["AS"] * 32), "case.deck holds AS twice"),
        (_case(deck=["AS"] * 60), "case.deck holds 60 cards; no pack has more than 52"),
        (_case(decks=[["7C", "8C"], ["9C", "9C"]]), "case.decks[1] holds 9C twice"),
        (_case(decks=[[]] * 1001), "case.decks holds 1001"),
        (_case(deck=["2C"] * 1), "2C is not in"),
        (_case(deck=["XX"]), 'case.deck[0]: "XX" is not a card'),
        (_case(dealer="P9"), "case.dealer: there is no P9"),
        (_case(dealer="P" + "9" * 5000), "case.dealer"),
        (_case(lives=10**9), "case.lives must be a whole number from 0 to 99"),
        (_case(lives={"P7": 1}), "case.lives: there is no P7"),
        (_case(eliminated=["P1", "P2", "P3"]), "at least two players"),
        (_case(checkpoints=[3]), "case.checkpoints[0] must be a whole number from 1 to 0"),
        (_case(events="yes"), "case.events must be true or false"),
        (
            _case(ruleset="pagat") | {"ruleset": {"id": "x", "parameters": {"cards.hand_size": 9}}},
            'case.ruleset.parameters["cards.hand_size"]: 9 is not one of [3, 4]',
        ),
    ],
)
def test_bad_cases_are_answered_in_words_naming_the_field(case: Any, words: str) -> None:
    answer = _errored_then_good(_run(5, case))
    assert answer["seq"] == 5
    assert words in answer["message"], answer["message"]
    assert "Error" not in answer["message"], "a message for people, not an exception name"


def _dealt(**changes: Any) -> dict[str, Any]:
    position: dict[str, Any] = {
        "hands": {"P1": ["7C", "8C", "9C"], "P2": ["7S", "8S", "9S"], "P3": ["7H", "8H", "9H"]},
        "middle": ["7D", "8D", "9D"],
        "extra": ["10C", "JC", "QC"],
        "stock": ["AS", "KS"],
    }
    return _case(**(position | changes))


def test_a_position_with_a_card_twice_is_refused() -> None:
    twice = _dealt(stock=["AS", "9C"])
    assert run_case(twice) == {
        "status": "errored",
        "message": "9C is both in case.hands.P1 and in case.stock; a pack has one",
    }
    assert run_case(_dealt())["status"] == "ok"
    short = _dealt(hands={"P1": ["7C", "8C"], "P2": ["7S", "8S", "9S"], "P3": ["7H", "8H", "9H"]})
    assert "case.hands.P1 has 2 cards" in run_case(short)["message"]


def test_part_of_a_pack_is_a_legal_deck_but_no_card_twice() -> None:
    thirty_two = [c for c in Catalog.load().resolve("pagat").values()["cards.ranks"]]
    deck = [rank + suit for suit in "CSHD" for rank in thirty_two]
    assert len(deck) == 32
    assert run_case(_case("forty-one", deck=deck))["status"] == "ok", "32 of 52 cards"
    deck[5] = deck[6]
    assert "twice" in run_case(_case("forty-one", deck=deck))["message"]


def test_setup_still_answers_tables_the_ruleset_refuses() -> None:
    for seats in (1, 9, 64):
        answer = run_case(_case(kind="setup", seats=seats))
        assert answer["status"] == "ok" and answer["outcome"]["accepted"] is False


def test_answers_are_strict_json_and_a_failing_engine_is_an_errored_answer() -> None:
    def nan(case: Any) -> dict[str, Any]:
        return {"status": "ok", "outcome": {"points": float("nan")}}

    def broken(case: Any) -> dict[str, Any]:
        raise RuntimeError("the engine broke")

    def circular(case: Any) -> dict[str, Any]:
        outcome: dict[str, Any] = {}
        outcome["again"] = outcome
        return {"status": "ok", "outcome": outcome}

    for engine, words in (
        (nan, "could not be written as JSON"),
        (circular, "could not be written as JSON"),
        (broken, "the engine broke"),
    ):
        out = io.StringIO()
        serve(io.StringIO(_run(1, {}) + "\n" + _run(2, {}) + "\n"), out, engine)
        answers = [_strict(line) for line in out.getvalue().splitlines()]
        assert [a["seq"] for a in answers] == [1, 2]
        assert all(a["status"] == "errored" and words in a["message"] for a in answers)


def test_stop_and_the_end_of_input_end_it_cleanly() -> None:
    assert _exchange(GOOD, '{"cmd": "stop"}', GOOD) == _exchange(GOOD)
    assert _exchange() == []


def test_a_line_of_4_mib_is_read_and_a_longer_one_skipped() -> None:
    request = _run(3, _case(kind="setup", seats=4))
    fits = request[:-1] + " " * (MAX_LINE - len(request)) + "}"
    assert len(fits) == MAX_LINE
    answers = _exchange(fits, fits[:-1] + " }", GOOD)
    assert answers[0]["status"] == "ok" and answers[0]["seq"] == 3
    assert answers[1] == {
        "seq": None,
        "status": "errored",
        "message": "request longer than 4 MiB; it was skipped",
    }
    assert answers[2]["seq"] == 99


def _peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_a_huge_line_costs_no_memory() -> None:
    """A 64 MiB line, streamed through a pipe: the server's peak memory grows by a small
    part of it (reading it whole would add at least 64 MiB)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "schwimmen", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None

    def ask(*pieces: bytes) -> dict[str, Any]:
        assert server.stdin is not None and server.stdout is not None
        for piece in pieces:
            server.stdin.write(piece)
        server.stdin.write(b"\n")
        server.stdin.flush()
        answer: dict[str, Any] = _strict(server.stdout.readline().decode())
        return answer

    try:
        assert ask(GOOD.encode())["seq"] == 99
        before = _peak_kib(server.pid)
        mebibyte = b"x" * 2**20
        huge = ask(b'{"cmd": "run", "seq": 1, "case": "', *[mebibyte] * 64, b'"}')
        assert huge["seq"] is None and "longer than 4 MiB" in huge["message"]
        assert _peak_kib(server.pid) - before < 24 * 1024
        assert ask(GOOD.encode())["seq"] == 99
        server.stdin.write(b'{"cmd": "stop"}\n')
        server.stdin.close()
        assert server.wait(timeout=10) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
