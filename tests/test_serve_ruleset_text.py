"""``serve`` reads a ruleset text it has read before only once (``protocol/rulesettext``):
every request still reads as the same value, and every bad one fails with the same words,
as when the whole line is read."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schwimmen.protocol import server
from schwimmen.protocol.rulesettext import RulesetTexts

RULESET = {"id": "pagat", "parameters": {"cards.hand_size": 3, "turns.passing": "free"}}
OTHER = {"id": "pagat", "parameters": {"cards.hand_size": 4, "turns.passing": "free"}}


def _line(case: dict[str, Any], seq: int = 1) -> str:
    return json.dumps({"cmd": "run", "seq": seq, "case": case}, separators=(",", ":"))


def _case(ruleset: Any, **more: Any) -> dict[str, Any]:
    return {"kind": "round", "ruleset": ruleset, "seats": 2, **more}


def _whole(line: str) -> Any:
    """What the server read before: the whole line with its strict decoder."""
    try:
        return ("ok", server._DECODER.decode(line))
    except ValueError as exc:
        return ("error", str(exc))


def _read(texts: RulesetTexts, line: str) -> Any:
    try:
        return ("ok", texts.read(line))
    except ValueError as exc:
        return ("error", str(exc))


LINES = [
    _line(_case(RULESET)),
    _line(_case(RULESET), seq=2),  # the same text again: read from what was kept
    _line(_case(OTHER)),
    _line(_case(RULESET, steps=[{"P1": "pass"}])),
    # a "ruleset" key before the case's own: the placeholder would land there
    json.dumps({"cmd": "run", "seq": 3, "x": {"ruleset": RULESET}, "case": _case(RULESET)}),
    '{"cmd":"run","seq":4,"x":{"ruleset":' + json.dumps(RULESET) + '},"case":{"ruleset":0}}',
    # a duplicate key: the last one counts, whole or not
    _line(_case(RULESET))[:-1] + ',"ruleset":{"id":"scat"}}}',
    # a string that is the placeholder's value
    _line(_case(RULESET, fixture="\0")),
    _line(_case(RULESET, fixture="\\u0000")),
    # ... or the case's own ruleset, after another "ruleset" key where the placeholder lands
    '{"cmd":"run","x":{"ruleset":' + json.dumps(RULESET) + '},"case":{"ruleset":"\\u0000"}}',
    # bad JSON before, inside and after the ruleset; numbers the server refuses
    '{"cmd":"run",,"case":{"ruleset":' + json.dumps(RULESET) + "}}",
    _line(_case(RULESET))[:-2],
    '{"cmd":"run","case":{"ruleset":{"id":"pagat","parameters":{"x":' + "9" * 101 + "}}}}",
    '{"cmd":"run","case":{"ruleset":' + json.dumps(RULESET, separators=(",", ":")) + ',"n":NaN}}',
    '{"cmd":"run","case":{"ruleset":{"id":"pagat"',
    '{"cmd":"run","case":{"ruleset":[]}}',
    '"ruleset":{"id":1}',
    "[1,2]",
]


def test_every_line_reads_as_the_whole_line_reads() -> None:
    texts = RulesetTexts(server._DECODER)
    for _ in range(2):  # a second time, with every ruleset text kept
        for line in LINES:
            assert _read(texts, line) == _whole(line), line


def test_a_ruleset_read_before_is_kept_and_the_oldest_dropped() -> None:
    texts = RulesetTexts(server._DECODER)
    first = texts.read(_line(_case(RULESET)))["case"]["ruleset"]
    again = texts.read(_line(_case(RULESET), seq=9))["case"]["ruleset"]
    assert again is first and again == RULESET
    for n in range(20):
        texts.read(_line(_case({"id": "r", "parameters": {"n": n}})))
    assert len(texts.kept) < 20
    assert texts.read(_line(_case(RULESET)))["case"]["ruleset"] == RULESET


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(
    rulesets=st.lists(
        st.dictionaries(st.sampled_from(["id", "parameters", "x"]), _JSON), min_size=1
    ),
    extra=st.dictionaries(st.sampled_from(["steps", "ruleset", "deck", "kind"]), _JSON),
    cut=st.integers(min_value=-3, max_value=0),
)
def test_any_request_reads_as_the_whole_line_reads(
    rulesets: list[dict[str, Any]], extra: dict[str, Any], cut: int
) -> None:
    texts = RulesetTexts(server._DECODER)
    for ruleset in rulesets * 2:
        line = _line({"ruleset": ruleset, **extra})
        line = line[: len(line) + cut] if cut else line
        assert _read(texts, line) == _whole(line), line


@pytest.mark.parametrize("line", LINES)
def test_the_server_answers_as_before(line: str) -> None:
    """Through ``parse``: the same value, or the same refusal in words."""
    try:
        got: Any = server.parse(line)
    except server.BadRequest as exc:
        got = str(exc)
    kind, whole = _whole(line)
    if kind == "ok":
        assert got == whole
    else:
        assert isinstance(got, str) and whole in got
