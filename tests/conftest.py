"""Shared fixtures: the shipped catalog, a scratch spec tree, and a CLI runner."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from schwimmen.resources import sources_dir, spec_dir
from schwimmen.spec.loader import Catalog

REQUIRE_SOURCES = os.environ.get("SCHWIMMEN_REQUIRE_SOURCES") == "1"


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return Catalog.load()


@pytest.fixture(scope="session")
def texts_dir() -> Path | None:
    found = sources_dir()
    if found is None and REQUIRE_SOURCES:
        pytest.fail("SCHWIMMEN_REQUIRE_SOURCES=1 but no source texts were found")
    return found


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A spec tree with the real bibliography and the real rulesets, to break on purpose."""
    root = tmp_path / "spec"
    shutil.copytree(spec_dir(), root)
    return root


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return _write
