"""An engine answer (cut to what a fixture asks, :mod:`schwimmen.docsgen.outcomes`) in the
short form of a table cell: ``ends after step 1: P1 shows Feuer · P2 −1, P3 −1``.

The words are the disagreements file's labels (``spec/disagreements.yaml``), in the
page's language; this module only puts them together with seats, cards and numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schwimmen.docsgen.markup import LETTER_SUIT, cards_row, code, esc
from schwimmen.spec.present import points

SEP = " · "


def _seat_key(seat: str) -> int:
    return int(seat[1:]) if seat[1:].isdigit() else 0


def _by_seat(mapping: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return sorted(((str(k), v) for k, v in mapping.items()), key=lambda x: _seat_key(x[0]))


def _fill(words: Mapping[str, str], key: str, **parts: str) -> str:
    """The label ``key`` escaped, with its ``{name}`` places filled by markdown ``parts``."""
    marks = {name: f"\x00{i}\x00" for i, name in enumerate(parts)}
    text = esc(words[key].format(**marks))
    for name, mark in marks.items():
        text = text.replace(mark, parts[name])
    return text


def seats(names: Sequence[Any], words: Mapping[str, str]) -> str:
    listed = sorted((str(s) for s in names), key=_seat_key)
    return ", ".join(f"**{s}**" for s in listed) if listed else esc(words["nobody"])


def losses(mapping: Mapping[str, Any], words: Mapping[str, str]) -> str:
    named = [(s, n) for s, n in _by_seat(mapping) if n]
    if not named:
        return esc(words["nobody_loses"])
    return ", ".join(f"**{s}** −{n}" for s, n in named)


def value(worth: Any, words: Mapping[str, str]) -> str:
    """``30½ triple``, ``20 ♦``, ``Feuer``: a hand's worth in a few characters."""
    if not isinstance(worth, Mapping):
        return esc(words["no_value"])
    parts = []
    if worth.get("points") is not None:
        parts.append(points(worth["points"]))
    hand = worth.get("hand")
    if hand == "suit" and worth.get("suit"):
        parts.append(LETTER_SUIT.get(str(worth["suit"]), str(worth["suit"])))
    elif hand and hand != "suit":
        parts.append(esc(words.get(f"hand_{hand}", str(hand))))
    if worth.get("maximum") is True:
        parts.append(esc(words["maximum"]))
    return " ".join(parts) or esc(words["no_value"])


def _step(number: int, steps: Sequence[tuple[str, str]]) -> str:
    if 0 < number <= len(steps):
        seat, action = steps[number - 1]
        return f"{number} ({seat} {code(action)})"
    return str(number)


def round_text(
    record: Mapping[str, Any], steps: Sequence[tuple[str, str]], words: Mapping[str, str]
) -> str:
    """How a round ended: when, why, who knocked, who loses."""
    after = record.get("after_step")
    if record.get("at_deal") is True or after == 0:
        text = esc(words["ends_at_deal"])
    elif isinstance(after, int):
        text = _fill(words, "ends_after", step=_step(after, steps))
    else:
        text = esc(words["ends"])
    reason = record.get("reason")
    if reason:
        by = f"**{record['by']}**" if record.get("by") else esc(words["a_player"])
        key = f"reason_{reason}"
        text += ": " + (_fill(words, key, by=by) if key in words else code(str(reason)))
    if record.get("knocker"):
        text += SEP + _fill(words, "knocked", seat=f"**{record['knocker']}**")
    if "losses" in record:
        text += SEP + losses(record["losses"], words)
    if "lives_lost" in record:
        text += SEP + _fill(words, "lives_taken", list=losses(record["lives_lost"], words))
    if "values" in record:
        text += SEP + "; ".join(f"**{s}** {value(v, words)}" for s, v in _by_seat(record["values"]))
    if "hands" in record:
        text += SEP + "; ".join(f"**{s}** {cards_row(c)}" for s, c in _by_seat(record["hands"]))
    return text


def outcome_lines(
    outcome: Mapping[str, Any], steps: Sequence[tuple[str, str]], words: Mapping[str, str]
) -> list[str]:
    """The answer as short lines, in the order the case states them."""
    lines: list[str] = []
    for key, item in outcome.items():
        if key == "after_step":
            for number, state in sorted(item.items(), key=lambda x: int(x[0])):
                inner = SEP.join(outcome_lines(state, steps, words))
                lines.append(_fill(words, "after", step=_step(int(number), steps)) + " " + inner)
        elif key == "steps":
            for number, verdict in item.items():
                where = _step(int(number), steps)
                if isinstance(verdict, Mapping):
                    reason = code(str(verdict.get("rejected")))
                    lines.append(_fill(words, "step_refused", step=where, reason=reason))
                else:
                    lines.append(_fill(words, "step_allowed", step=where))
        elif key == "end":
            lines.append(round_text(item, steps, words))
        elif key == "rounds":
            if not item:
                lines.append(esc(words["goes_on"]))
            for n, record in enumerate(item, start=1):
                lines.append(
                    _fill(words, "round", n=str(n)) + " " + round_text(record, steps, words)
                )
        elif key == "round_over":
            if item is False:
                lines.append(esc(words["goes_on"]))
        else:
            lines.append(_state(key, item, words))
    return [line for line in lines if line]


def _state(key: str, item: Any, words: Mapping[str, str]) -> str:
    if key == "losses":
        return losses(item, words)
    if key == "values":
        return "; ".join(f"**{s}** {value(v, words)}" for s, v in _by_seat(item))
    if key == "to_move":
        return _fill(words, "to_move", seat=f"**{item}**") if item else esc(words["nobody_moves"])
    if key in ("legal_includes", "legal_excludes"):
        label = "may" if key == "legal_includes" else "may_not"
        return _fill(words, label, actions=", ".join(code(str(a)) for a in item))
    if key == "middle":
        return (
            esc(words["middle_hidden"])
            if item is None
            else _fill(words, "middle", cards=cards_row(item))
        )
    if key == "hands":
        return "; ".join(f"**{s}** {cards_row(c)}" for s, c in _by_seat(item))
    if key == "knocker":
        return (
            esc(words["nobody_knocked"])
            if item is None
            else _fill(words, "knocked", seat=f"**{item}**")
        )
    if key == "dealer":
        return _fill(words, "deals", seat=f"**{item}**")
    if key == "lives":
        return _fill(words, "lives", list=", ".join(f"**{s}** {n}" for s, n in _by_seat(item)))
    if key == "swimming":
        return _fill(words, "swimming", seats=seats(item, words))
    if key == "eliminated":
        return _fill(words, "out", seats=seats(item, words))
    if key == "winners":
        return _fill(words, "winners", seats=seats(item, words))
    if key == "match_over":
        return esc(words["match_over" if item else "match_goes_on"])
    if key == "points":
        return _fill(words, "points", list=", ".join(f"**{s}** {n}" for s, n in _by_seat(item)))
    if key == "accepted":
        return esc(words["allowed" if item else "not_allowed"])
    if key == "pack":
        return _fill(words, "pack", n=str(item))
    if key == "phase":
        return _fill(words, "phase", phase=code(str(item)))
    return f"{code(key)}: {code(str(item))}"
