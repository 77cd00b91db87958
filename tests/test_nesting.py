"""The quick bound on how deep a JSON text nests never says less than the truth, so the
server and the harness may skip the walk on its word; brackets and sibling seams inside
strings cannot talk it down."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from schwimmen.protocol.nesting import depth_bound, nests_at_most

_TRICKY = st.sampled_from(["},{", "],[", "},[", "],{", "[", "{{", "]", "}", "a},{b", ""])
_LEAF = st.none() | st.booleans() | st.integers() | st.text(max_size=4) | _TRICKY
_JSON = st.recursive(
    _LEAF,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=3) | _TRICKY, inner, max_size=4)
    ),
    max_leaves=40,
)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


@settings(max_examples=400)
@given(_JSON, st.sampled_from([(",", ":"), (", ", ": ")]), st.integers(0, 8))
def test_the_bound_is_never_below_the_depth(
    value: Any, separators: tuple[str, str], limit: int
) -> None:
    text = json.dumps(value, separators=separators)
    assert depth_bound(text) >= _depth(value)
    assert nests_at_most(value, limit, text) == (_depth(value) <= limit)
    assert nests_at_most(value, limit) == (_depth(value) <= limit)


def test_siblings_do_not_add_to_the_bound() -> None:
    steps = [{"P1": "pass"} for _ in range(100)]
    text = json.dumps({"case": {"steps": steps, "deck": ["AC", "KC"]}}, separators=(",", ":"))
    assert _depth(json.loads(text)) == 4
    # 104 opening brackets; the 99 seams between steps take back all but the deck's
    assert depth_bound(text) == 5
