"""How deep a JSON value nests: the harness bounds every answer, the server every
request (PROTOCOL.md: no nesting deeper than the limit), with this one walk."""

from __future__ import annotations

from typing import Any


def nests_at_most(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest at most ``limit`` deep in ``value`` (what
    ``json.loads`` made: exactly dicts and lists). One level at a time: every answer is
    walked, so the walk keeps to the containers."""
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 1
    while level:
        if depth > limit:
            return False
        deeper = []
        for item in level:
            for child in item.values() if type(item) is dict else item:
                kind = type(child)
                if kind is dict or kind is list:
                    deeper.append(child)
        level = deeper
        depth += 1
    return True
