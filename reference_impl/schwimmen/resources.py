"""Where the shipped data lives: ``spec/``, ``schemas/`` and ``conformance/``.

An installed wheel carries the data under ``schwimmen/_data``; a source checkout
keeps it at the repository root. Both layouts are looked up here and nowhere else,
so a non-editable ``pip install .`` works from any directory.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_CHECKOUT_ROOT = _PACKAGE_DIR.parent.parent

SOURCES_ENV = "SCHWIMMEN_SOURCES"


def data_dir(name: str) -> Path:
    """Return the directory of shipped data ``name`` (``spec``, ``schemas``, ...)."""
    bundled = _PACKAGE_DIR / "_data" / name
    if bundled.is_dir():
        return bundled
    return _CHECKOUT_ROOT / name


def spec_dir() -> Path:
    return data_dir("spec")


def schema_dir() -> Path:
    return data_dir("schemas")


def conformance_dir() -> Path:
    return data_dir("conformance")


def sources_dir() -> Path | None:
    """The directory with the German source texts, or None when none can be found.

    The environment variable ``SCHWIMMEN_SOURCES`` wins; otherwise the workplace's
    ``../shared/sources`` next to a checkout or next to the current directory.
    """
    configured = os.environ.get(SOURCES_ENV)
    if configured:
        path = Path(configured)
        return path if path.is_dir() else None
    for base in (_CHECKOUT_ROOT, Path.cwd()):
        candidate = base.parent / "shared" / "sources"
        if candidate.is_dir():
            return candidate
    return None
