"""An engine answer (cut to what a fixture asks, :mod:`schwimmen.conformance.outcomes`) in the
short form of a table cell: ``ends after step 1: P1 shows Feuer · P2 −1, P3 −1``.

The words are the disagreements file's labels (``spec/disagreements.yaml``), in the
page's language; this module only puts them together with seats, cards and numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from schwimmen.docsgen.markup import LETTER_SUIT
from schwimmen.docsgen.tags import cards, code, fill, joined, strong
from schwimmen.spec.present import points

SEP = Markup(" · ")


def _seat_key(seat: str) -> int:
    return int(seat[1:]) if seat[1:].isdigit() else 0


def _by_seat(mapping: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return sorted(((str(k), v) for k, v in mapping.items()), key=lambda x: _seat_key(x[0]))


def _fill(words: Mapping[str, str], key: str, **parts: object) -> Markup:
    """The label ``key`` escaped, with its ``{name}`` places filled by ``parts``."""
    return fill(words[key], **parts)


def _per_seat(mapping: Mapping[str, Any], after: str = " ") -> Markup:
    """``P1 2, P2 1`` (``after`` between seat and number)."""
    return joined(Markup(f"{strong(s)}{after}{n}") for s, n in _by_seat(mapping))


def seats(names: Sequence[Any], words: Mapping[str, str]) -> Markup:
    listed = sorted((str(s) for s in names), key=_seat_key)
    return joined(strong(s) for s in listed) if listed else escape(words["nobody"])


def losses(mapping: Mapping[str, Any], words: Mapping[str, str]) -> Markup:
    named = {s: n for s, n in _by_seat(mapping) if n}
    return _per_seat(named, " −") if named else escape(words["nobody_loses"])


def _hands(mapping: Mapping[str, Any], words: Mapping[str, str], of: Any) -> Markup:
    return joined((Markup(f"{strong(s)} {of(v, words)}") for s, v in _by_seat(mapping)), "; ")


def value(worth: Any, words: Mapping[str, str]) -> Markup:
    """``30½ triple``, ``20 ♦``, ``Feuer``: a hand's worth in a few characters."""
    if not isinstance(worth, Mapping):
        return escape(words["no_value"])
    parts: list[str] = []
    if worth.get("points") is not None:
        parts.append(points(worth["points"]))
    hand = worth.get("hand")
    if hand == "suit" and worth.get("suit"):
        parts.append(LETTER_SUIT.get(str(worth["suit"]), str(worth["suit"])))
    elif hand and hand != "suit":
        parts.append(words.get(f"hand_{hand}", str(hand)))
    if worth.get("maximum") is True:
        parts.append(words["maximum"])
    return escape(" ".join(parts) or words["no_value"])


def _step(number: int, steps: Sequence[tuple[str, str]]) -> Markup:
    if 0 < number <= len(steps):
        seat, action = steps[number - 1]
        return Markup(f"{number} ({escape(seat)} {code(action)})")
    return escape(str(number))


def round_text(
    record: Mapping[str, Any], steps: Sequence[tuple[str, str]], words: Mapping[str, str]
) -> Markup:
    """How a round ended: when, why, who knocked, who loses."""
    after = record.get("after_step")
    if record.get("at_deal") is True or after == 0:
        text = escape(words["ends_at_deal"])
    elif isinstance(after, int):
        text = _fill(words, "ends_after", step=_step(after, steps))
    else:
        text = escape(words["ends"])
    reason = record.get("reason")
    if reason:
        by = strong(record["by"]) if record.get("by") else escape(words["a_player"])
        key = f"reason_{reason}"
        text += Markup(": ") + (_fill(words, key, by=by) if key in words else code(str(reason)))
    if record.get("knocker"):
        text += SEP + _fill(words, "knocked", seat=strong(record["knocker"]))
    if "losses" in record:
        text += SEP + losses(record["losses"], words)
    if "lives_lost" in record:
        text += SEP + _fill(words, "lives_taken", list=losses(record["lives_lost"], words))
    if "values" in record:
        text += SEP + _hands(record["values"], words, value)
    if "hands" in record:
        text += SEP + _hands(record["hands"], words, lambda c, _: cards(c))
    return text


def outcome_lines(
    outcome: Mapping[str, Any], steps: Sequence[tuple[str, str]], words: Mapping[str, str]
) -> list[Markup]:
    """The answer as short lines, in the order the case states them."""
    lines: list[Markup] = []
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
                lines.append(escape(words["goes_on"]))
            for n, record in enumerate(item, start=1):
                lines.append(
                    _fill(words, "round", n=str(n)) + " " + round_text(record, steps, words)
                )
        elif key == "round_over":
            if item is False:
                lines.append(escape(words["goes_on"]))
        else:
            lines.append(_state(key, item, words))
    return [line for line in lines if line]


def _state(key: str, item: Any, words: Mapping[str, str]) -> Markup:
    said = escape  # a label with no places
    if key == "losses":
        return losses(item, words)
    if key == "values":
        return _hands(item, words, value)
    if key == "to_move":
        return _fill(words, "to_move", seat=strong(item)) if item else said(words["nobody_moves"])
    if key in ("legal_includes", "legal_excludes"):
        label = "may" if key == "legal_includes" else "may_not"
        return _fill(words, label, actions=joined(code(str(a)) for a in item))
    if key == "middle":
        if item is None:
            return said(words["middle_hidden"])
        return _fill(words, "middle", cards=cards(item))
    if key == "hands":
        return _hands(item, words, lambda c, _: cards(c))
    if key == "knocker":
        if item is None:
            return said(words["nobody_knocked"])
        return _fill(words, "knocked", seat=strong(item))
    if key == "dealer":
        return _fill(words, "deals", seat=strong(item))
    if key in ("lives", "points"):
        return _fill(words, key, list=_per_seat(item))
    if key in ("swimming", "eliminated", "winners"):
        label = {"swimming": "swimming", "eliminated": "out", "winners": "winners"}[key]
        return _fill(words, label, seats=seats(item, words))
    if key == "match_over":
        return said(words["match_over" if item else "match_goes_on"])
    if key == "accepted":
        return said(words["allowed" if item else "not_allowed"])
    if key == "pack":
        return _fill(words, "pack", n=str(item))
    if key == "phase":
        return _fill(words, "phase", phase=code(str(item)))
    return Markup(f"{code(key)}: {code(str(item))}")
