"""``fuzz/wire.py`` writes the fuzzer's requests and foresees the reference's answer line:
the same bytes as writing the whole case, and the line ``serve`` writes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from schwimmen.conformance.fuzz.cases import case_rng, generate
from schwimmen.conformance.fuzz.wire import Wire
from schwimmen.engine.adapter import run_case
from schwimmen.protocol import server
from schwimmen.spec.loader import Catalog


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


@pytest.mark.parametrize("name", ["pagat", "scat", "online"])
def test_requests_and_foreseen_answers_are_the_bytes_written_whole(
    catalog: Catalog, name: str
) -> None:
    ruleset = catalog.resolve(name)
    wire = Wire(ruleset)
    for number in range(12):
        done = generate(ruleset, case_rng(7, number))
        text = wire.request(done.case)
        assert text == _compact(done.case)
        line = f'{{"cmd":"run","seq":{number + 1},"case":{text}}}'
        answer = server.dump(server.answer(line, run_case)) + "\n"
        assert done.outcome is not None
        expected = wire.expected(number + 1, done.outcome)
        assert expected is not None and expected.line == answer.encode()
        assert expected.answer == json.loads(answer)


def test_another_rulesets_case_is_written_whole(catalog: Catalog) -> None:
    ruleset = catalog.resolve("pagat")
    done = generate(catalog.resolve("scat"), case_rng(1, 0))
    assert Wire(ruleset).request(done.case) == _compact(done.case)


def test_an_outcome_that_is_no_json_is_not_foreseen(catalog: Catalog) -> None:
    wire = Wire(catalog.resolve("pagat"))
    circular: dict[str, Any] = {}
    circular["again"] = circular
    for outcome in ({"points": float("nan")}, {"x": object()}, circular):
        assert wire.expected(1, outcome) is None
