"""Which processes a test's fake implementations started are still alive: the fakes
append their pids to the file named by ``FAKE_PIDS`` (tests/fakes/fake_impl.py), and a
run must leave none of them behind."""

from __future__ import annotations

from pathlib import Path


def alive(pid: int) -> bool:
    """Whether ``pid`` runs: a zombie or a dead process is not alive (reads /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def recorded(path: Path) -> list[int]:
    """The pids the fakes wrote to ``path``."""
    return [int(p) for p in path.read_text().split()] if path.exists() else []
