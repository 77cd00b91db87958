"""The fields of an outcome, by the names an implementation uses in its start answer to
say which of them it cannot report (``not_reported``, PROTOCOL.md).

A check on a field the implementation did not report fails as "not reported", unless the
field (or a field that contains it) is declared here; then the check is skipped with that
reason and the report says so. One list, so that the protocol schema, the documents and
the harness cannot disagree (a test holds them together).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# The fields of a state: the final state of an outcome, and each state in ``states``.
# The order is the one a state is read (and compared, by fuzz) in: whose turn first.
STATE_FIELDS = (
    "to_move",
    "phase",
    "dealer",
    "middle",
    "hands",
    "knocker",
    "legal",
    "lives",
    "swimming",
    "eliminated",
    "match_over",
    "winners",
    "points",
)

# The fields of an outcome: the state's, and what a case reports besides.
OUTCOME_FIELDS = (
    "values",
    "losses",
    "steps",
    "rounds",
    *STATE_FIELDS,
    "accepted",
    "pack",
    "states",
)

# Parts of a field. ``values.suit`` covers the suit of every hand value, the final
# state's and each round's alike; ``steps.reason`` the reason code of a refused step.
PART_FIELDS = (
    "values.points",
    "values.hand",
    "values.suit",
    "values.maximum",
    "rounds.reason",
    "rounds.at_deal",
    "rounds.after_step",
    "rounds.by",
    "rounds.knocker",
    "rounds.losses",
    "rounds.lives_lost",
    "rounds.values",
    "rounds.hands",
    "steps.reason",
)

FIELDS = OUTCOME_FIELDS + PART_FIELDS


def unknown_fields(names: Iterable[object]) -> list[str]:
    """The names in a ``not_reported`` list that are no field of the protocol."""
    return [str(n) for n in names if n not in FIELDS]


def covering(path: tuple[str, ...], declared: Iterable[str]) -> str | None:
    """The declared field that covers a check on ``path`` (seat keys and list indices
    left out: ``("rounds", "values", "suit")``), or None when the check must be judged."""
    candidates = [path]
    if path and path[0] == "states":
        candidates.append(path[1:])
    for name in sorted(declared):
        parts = tuple(name.split("."))
        for candidate in candidates:
            if candidate[: len(parts)] == parts:
                return name
            if parts[0] == "values" and "values" in candidate:
                at = candidate.index("values")
                if candidate[at : at + len(parts)] == parts:
                    return name
    return None


PROTOCOL_VERSION = 2
"""The version the harness speaks (PROTOCOL.md, version history)."""
VERSIONS = (1, 2)
"""The versions of a start answer the harness accepts."""


@dataclass(frozen=True)
class Added:
    """Something checked that an adapter written for an earlier version could not know.

    ``paths`` are the checks (as ``covering`` reads them: seat keys left out) that are not
    judged where such an adapter leaves the field out, as if it had declared it not
    reported; ``kinds`` limits them to cases of those kinds (empty: every kind). An entry
    without paths is new case content, told but not excused: nothing is missing."""

    version: int
    name: str
    paths: tuple[tuple[str, ...], ...] = ()
    kinds: tuple[str, ...] = ()


ADDED = (
    Added(2, "states (the state after a step, asked for by checkpoints)", (("states",),)),
    Added(2, "values of the state", (("values",), ("states", "values")), ("round", "match")),
    Added(2, "rounds.lives_lost", (("rounds", "lives_lost"),)),
    Added(2, "the case's deals and points"),
    Added(2, 'the step {"table": "next-match"}'),
    Added(2, "the round ending one-open"),
)
"""What was added to the checks after version 1 was first published, under version 1
and called backward-compatible, and is part of version 2 (PROTOCOL.md, version history)."""


def added_since(version: int) -> tuple[Added, ...]:
    """What an adapter of ``version`` could not know."""
    return tuple(a for a in ADDED if a.version > version)


def excused(version: int, kind: str) -> dict[tuple[str, ...], str]:
    """The checks of a case of ``kind`` not judged where an adapter of ``version`` leaves the
    field out, each with the name the report gives it."""
    out = {}
    for a in added_since(version):
        if not a.kinds or kind in a.kinds:
            for path in a.paths:
                out[path] = f"{a.name} (new since protocol {version})"
    return out
