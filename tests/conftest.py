"""Shared fixtures: the shipped catalog, a scratch spec tree, a CLI runner, and the
documentation site built once per test session from a clean copy of the checkout."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from schwimmen.resources import sources_dir, spec_dir
from schwimmen.spec.loader import Catalog

REQUIRE_SOURCES = os.environ.get("SCHWIMMEN_REQUIRE_SOURCES") == "1"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test of the whole built site waits for a full ``mkdocs build`` (minutes of CPU), so
    it belongs to the slow set that ``.ci/run`` runs beside the README's test command."""
    for item in items:
        if "clean_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


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


ROOT = Path(__file__).resolve().parent.parent


def mkdocs_build(
    config_dir: Path, out: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of the site configured in ``config_dir`` into ``out``."""
    env = {**(os.environ if env is None else env), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=config_dir,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="session")
def build_site() -> Callable[..., subprocess.CompletedProcess[str]]:
    return mkdocs_build


def _checkout_files() -> list[str]:
    """The repository's files as a clone has them (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:  # not a git checkout (an unpacked sdist): take the folders
        folders = ("docs", "overrides", "spec", "schemas", "conformance", "reference_impl")
        found = [p for f in folders for p in (ROOT / f).rglob("*") if p.is_file()]
        names = [str(p.relative_to(ROOT)) for p in found] + ["mkdocs.yml", "pyproject.toml"]
    else:
        names = [n for n in listed.stdout.decode("utf-8").split("\0") if n]
    return [n for n in names if (ROOT / n).is_file() and "__pycache__" not in n]


@pytest.fixture(scope="session")
def clean_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout with nothing next to it: no ``shared/`` folder, no matrix."""
    root = tmp_path_factory.mktemp("clone") / "schwimmen"
    for name in _checkout_files():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    assert not (root.parent / "shared").exists()
    return root


@pytest.fixture(scope="session")
def clean_site(tmp_path_factory: pytest.TempPathFactory, clean_checkout: Path) -> Path:
    """The site as a fresh clone builds it (no ``SCHWIMMEN_*`` settings, nothing outside the
    repository), built once for the build test and the browser test (a minute each)."""
    out = tmp_path_factory.mktemp("site")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHWIMMEN_")}
    result = mkdocs_build(clean_checkout, out, env)
    assert result.returncode == 0, result.stdout + result.stderr
    return out
