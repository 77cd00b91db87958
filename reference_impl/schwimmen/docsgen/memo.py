"""What the build computes slowly, kept by the content of what it was made from.

A full build values every hand of every ruleset for the calculator and simulates every
ruleset for the statistics: most of a minute that gives the same answer as long as the
same rules and the same engine go in. Those results are kept in the user's cache folder
(:mod:`schwimmen.spec.cache`, the catalog's cache) under a key that hashes the rules
they depend on and the code that computes them, so a second build, or ``mkdocs serve``
reloading after an edit, computes only what changed. The cache is a shortcut only: off
(``SCHWIMMEN_NO_CACHE=1``), unwritable or stale, the value is computed again.

A reload of ``mkdocs serve`` runs the whole generator again in the same process; when no
file it reads has changed (a hand-written page was edited), the last generated site is
used as it is (:func:`remembered`). The whole generated site is kept in the cache folder
too, by the content of every file it is made from and of the package's code
(:func:`package`), so that a second ``mkdocs build`` of the same checkout generates
nothing.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

from schwimmen.resources import spec_dir
from schwimmen.spec.cache import cached, source
from schwimmen.spec.model import Ruleset, thaw

T = TypeVar("T")
_PACKAGE = Path(__file__).resolve().parent.parent
_LAST: dict[str, tuple[str, Any]] = {}


def code(*modules: str) -> Iterator[tuple[str, bytes]]:
    """The source of the engine and of the given modules of the package (``docsgen/x``)."""
    for path in sorted((_PACKAGE / "engine").glob("*.py")):
        yield f"engine:{path.name}", source(path)
    for module in modules:
        yield f"code:{module}", source(_PACKAGE / f"{module}.py")


def package() -> Iterator[tuple[str, bytes]]:
    """Every source file of the package, code and templates (HTML and Markdown), and the
    versions of the Python and the template engine that run them: what the whole
    generator is made of."""
    for path in sorted(_PACKAGE.rglob("*")):
        code_or_template = path.suffix in (".py", ".html") or path.parent.name == "templates"
        if code_or_template and path.is_file() and "__pycache__" not in path.parts:
            yield f"package:{path.relative_to(_PACKAGE)}", source(path)
    versions = [sys.version, metadata.version("jinja2"), metadata.version("markupsafe")]
    yield "versions", "\n".join(versions).encode()


_SETTINGS: dict[int, tuple[Ruleset, bytes]] = {}


def settings_of(ruleset: Ruleset) -> bytes:
    """A ruleset's resolved values as canonical JSON: what its play depends on. Worked
    out once per ruleset object: a build asks it for every fixture's and page's key, some
    eight thousand times, of the same few dozen rulesets."""
    found = _SETTINGS.get(id(ruleset))
    if found is not None and found[0] is ruleset:
        return found[1]
    values = {path: thaw(setting.value) for path, setting in ruleset.settings.items()}
    text = json.dumps(values, sort_keys=True).encode()
    if len(_SETTINGS) > 4096:
        _SETTINGS.clear()
    _SETTINGS[id(ruleset)] = (ruleset, text)
    return text


def kept(
    kind: str,
    inputs: Callable[[], Iterable[tuple[str, bytes]]],
    build: Callable[[], T],
    of: type[T],
) -> T:
    """``build()``, or what an earlier build made from the same ``inputs``."""
    return cached(f"site-{kind}", inputs, build, of)


def digest(folders: Iterable[Path | None], extra: Iterable[str] = ()) -> str:
    """A hash of every file under ``folders`` (names and contents) and of ``extra``."""
    found = hashlib.sha256()
    for part in extra:
        found.update(part.encode() + b"\0")
    for folder in folders:
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                found.update(str(path).encode() + b"\0")
                found.update(path.read_bytes())
    return found.hexdigest()


def words_digest() -> str:
    """A hash of the site's words (``spec/words.yaml``), which most pages show."""
    return hashlib.sha256((spec_dir() / "words.yaml").read_bytes()).hexdigest()


def remembered(kind: str, key: str, make: Callable[[], T]) -> T:
    """``make()``, or its last result in this process when ``key`` is the same."""
    last = _LAST.get(kind)
    if last is not None and last[0] == key:
        value: T = last[1]
        return value
    value = make()
    _LAST[kind] = (key, value)
    return value
