"""Writing a report or a history file so that nothing is lost.

A file the run cannot write is found before the run starts (a folder, a missing folder,
no permission, a full disk), not after minutes of cases; and the file is written beside
itself and renamed into place, so a reader never sees half of it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputError(ValueError):
    """A file the run is asked to write but cannot."""


def check_writable(path: Path, what: str) -> None:
    """Raise OutputError unless a file can be written at ``path`` (checked before a run,
    so that a report is not lost at its end)."""
    if path.is_dir():
        raise OutputError(f"{what} {path} is a directory")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{what} {path}: the folder {folder} does not exist")
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"{what} {path} is not writable")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{what} {path}: cannot write in the folder {folder}")
    try:
        stat = os.statvfs(folder)
    except OSError:
        return
    if stat.f_bavail * stat.f_frsize < 1024 * 1024:
        raise OutputError(f"{what} {path}: the disk is full (less than 1 MiB free)")


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` by way of a temporary file and a rename."""
    folder = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
