"""How deep a JSON value nests: the harness bounds every answer, the server every
request (PROTOCOL.md: no nesting deeper than the limit), with this one check."""

from __future__ import annotations

from typing import Any


def depth_bound(text: str) -> int:
    """An upper bound on how deep arrays and objects nest in the JSON ``text``, from a
    few counts over the text (no parse, no walk).

    Every opening bracket could add a level, except one that opens an object right after
    a sibling object closed (``},{``, as between the steps of a case): of two such
    siblings at most one lies on the path to the deepest point. So the depth is at most
    the opening brackets less those seams. Brackets inside strings only raise the bound:
    a seam inside a string holds an opening bracket of its own, counted once each way.
    (Four passes over the text, quicker than walking the value it was read into.)"""
    return text.count("[") + text.count("{") - text.count("},{")


def nests_at_most(value: Any, limit: int, text: str | None = None) -> bool:
    """Whether arrays and objects nest at most ``limit`` deep in ``value`` (what
    ``json.loads`` made of ``text``, when given: exactly dicts and lists). The text's
    :func:`depth_bound` answers most values at once; the others are walked one level at
    a time, keeping to the containers."""
    if text is not None and depth_bound(text) <= limit:
        return True
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
