"""The fields of an outcome, by the names an implementation uses in its start answer to
say which of them it cannot report (``not_reported``, PROTOCOL.md).

A check on a field the implementation did not report fails as "not reported", unless the
field (or a field that contains it) is declared here; then the check is skipped with that
reason and the report says so. One list, so that the protocol schema, the documents and
the harness cannot disagree (a test holds them together).
"""

from __future__ import annotations

from collections.abc import Iterable

# The fields of an outcome, and of each state in ``states`` (the same fields).
OUTCOME_FIELDS = (
    "values",
    "losses",
    "steps",
    "rounds",
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
