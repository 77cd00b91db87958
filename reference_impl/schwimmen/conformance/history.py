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


def complete(suite: SuiteResult) -> bool:
    """Did the run cover the whole suite (no -k, no --kind, no --ruleset)? Only then is
    a case missing from it removed; a narrower run leaves the other cases' history alone."""
    return not (suite.pattern or suite.kinds or suite.named)


def save(path: Path, suite: SuiteResult, before: Mapping[str, str]) -> None:
    statuses = {} if complete(suite) else dict(before)
    statuses.update({r.key: r.status.value for r in suite.results})
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
    if complete(suite):
        out["removed"] = sorted(k for k in before if k not in now)
    return out


LISTED = 20  # more new or removed cases than this are summed up per ruleset


def _by_ruleset(entries: list[str]) -> str:
    counts: dict[str, int] = {}
    for entry in entries:
        ruleset = entry.split("[", 1)[-1].split("]", 1)[0]
        counts[ruleset] = counts.get(ruleset, 0) + 1
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))


def changes_text(found: Mapping[str, list[str]], suite: SuiteResult) -> str:
    """What changed, for a person: a regression with its whole failure (expected against
    actual, and the sources' words), long lists of new or removed cases summed up per
    ruleset, and the totals of this run."""
    from schwimmen.conformance.report import failure_text

    results = {r.key: r for r in suite.results}
    lines = []
    if not any(found.values()):
        lines.append("No change since the last tracked run.")
    for title, items in found.items():
        if not items:
            continue
        lines.append(f"{title} ({len(items)})")
        if title == "newly failing":
            for item in items:
                result = results.get(item.split(":", 1)[0])
                if result is not None:
                    lines.extend(f"  {line}" for line in failure_text(result))
            continue
        if len(items) > LISTED:
            lines.append(f"  by ruleset: {_by_ruleset(items)}")
            continue
        lines.extend(f"  {item}" for item in items)
    counts = suite.counts()
    lines.append(
        f"this run: {len(suite.results)} cases, {counts['passed']} passed, "
        f"{counts['failed']} failed, {counts['errored']} errored, {counts['skipped']} skipped"
    )
    return "\n".join(lines) + "\n"
