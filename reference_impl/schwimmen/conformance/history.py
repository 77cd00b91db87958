"""``--track FILE``: the statuses of the last run, to report only what changed.

The file is the suite's own history and nothing else: it names its format, it is read
before the run starts (a file that is not such a history, or cannot be read, stops the
run with a message instead of being taken for an empty history and overwritten), and it
is replaced atomically (written beside itself, then renamed), so an interrupted write
never leaves half a history behind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from schwimmen.conformance.harness import SuiteResult
from schwimmen.conformance.output import write_atomically
from schwimmen.conformance.runner import Status

FORMAT = "schwimmen-conformance-history"
VERSION = 1
STATUSES = {s.value for s in Status}


class HistoryError(ValueError):
    """A tracking file that is not this suite's history, or cannot be read or written."""


def load(path: Path) -> dict[str, str]:
    """The statuses stored in ``path`` (empty if there is no such file yet)."""
    if not path.exists():
        return {}
    if not path.is_file():
        raise HistoryError(f"--track {path} is not a regular file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise HistoryError(f"--track {path} cannot be read: {exc}") from None
    not_ours = (
        f"--track {path} is not a history written by this suite; "
        "give another file name, or delete it to start a new history"
    )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise HistoryError(f"{not_ours} (it is not JSON)") from None
    if not isinstance(data, dict):
        raise HistoryError(not_ours)
    if data.get("format") != FORMAT and set(data) != {"statuses"}:
        raise HistoryError(not_ours)
    if data.get("format") == FORMAT and data.get("version") != VERSION:
        raise HistoryError(
            f"--track {path} is history format version {data.get('version')!r}; "
            f"this suite writes version {VERSION}"
        )
    statuses = data.get("statuses")
    if not isinstance(statuses, dict) or not all(
        isinstance(k, str) and v in STATUSES for k, v in statuses.items()
    ):
        raise HistoryError(f"{not_ours} (its statuses are damaged)")
    return dict(statuses)


def save(path: Path, suite: SuiteResult) -> None:
    statuses = {r.key: r.status.value for r in suite.results}
    data = {"format": FORMAT, "version": VERSION, "statuses": statuses}
    write_atomically(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def changes(before: Mapping[str, str], suite: SuiteResult) -> dict[str, list[str]]:
    """What changed since ``before``: newly failing (incl. errored), fixed, new cases,
    removed cases, and other status changes."""
    now = {r.key: r.status.value for r in suite.results}
    bad = {Status.FAILED.value, Status.ERRORED.value}
    out: dict[str, list[str]] = {
        "newly failing": [],
        "fixed": [],
        "new": [],
        "removed": [],
        "changed": [],
    }
    for key, status in sorted(now.items()):
        old = before.get(key)
        if old is None:
            out["new"].append(f"{key}: {status}")
        elif old == status:
            continue
        elif status in bad and old not in bad:
            out["newly failing"].append(f"{key}: {old} -> {status}")
        elif old in bad and status == Status.PASSED.value:
            out["fixed"].append(f"{key}: {old} -> {status}")
        else:
            out["changed"].append(f"{key}: {old} -> {status}")
    out["removed"] = sorted(k for k in before if k not in now)
    return out


def changes_text(found: Mapping[str, list[str]]) -> str:
    if not any(found.values()):
        return "No change since the last tracked run.\n"
    lines = []
    for title, items in found.items():
        if items:
            lines.append(f"{title} ({len(items)})")
            lines.extend(f"  {item}" for item in items)
    return "\n".join(lines) + "\n"
