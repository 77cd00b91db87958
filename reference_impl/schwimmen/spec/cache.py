"""The loaded and checked catalog, kept between commands by the content of what made it.

Loading the catalog parses every spec file, validates it against its JSON Schema, checks
every quote against the source texts and resolves every ruleset: seconds of work that
gives the same answer as long as the same bytes go in. ``schwimmen list`` or
``schwimmen score`` should answer at once, so the result is pickled in the user's cache
folder under a key that hashes everything it was made of: the ruleset and house-rule
files (names and contents), the bibliography, the table of contradictions, the schemas,
the source texts the quotes were checked against, the code of :mod:`schwimmen.spec` that
read them, the package version and the Python version. Any change to any of these is a
different key, so the next command loads and checks afresh; a cached catalog is never
stale.

A cache is only ever a shortcut: a file that cannot be read, is corrupt, was written by
another version or belongs to someone else is ignored and the catalog is built again,
and a cache folder that cannot be written to only costs the time. Two commands that
write at once each write a temporary file and rename it into place, so a reader sees
one whole file or none. ``SCHWIMMEN_CACHE_DIR`` names another folder;
``SCHWIMMEN_NO_CACHE=1`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import copyreg
import functools
import gc
import hashlib
import io
import itertools
import os
import pickle
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from schwimmen import __version__
from schwimmen.resources import SOURCES_ENV, schema_dir, sources_dir, spec_dir
from schwimmen.spec import termination
from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.loader import Catalog, catalog_files

CACHE_DIR_ENV = "SCHWIMMEN_CACHE_DIR"
NO_CACHE_ENV = "SCHWIMMEN_NO_CACHE"
FORMAT = b"schwimmen-catalog-cache 1"
KEEP = 16  # cached values of a kind kept (several checkouts or spec trees share a folder)
_SUFFIX = ".pickle"
T = TypeVar("T")
_SPEC_CODE = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """The folder the catalog is cached in, or None when caching is off.

    ``SCHWIMMEN_CACHE_DIR`` wins; otherwise the platform's per-user cache folder
    (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux, ``~/Library/Caches`` on macOS,
    ``%LOCALAPPDATA%`` on Windows), in a ``schwimmen`` folder of its own.
    """
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    configured = os.environ.get(CACHE_DIR_ENV)
    if configured:
        return Path(configured)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "schwimmen" / "cache" if base else None
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "schwimmen"
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "schwimmen"
    try:
        return Path.home() / ".cache" / "schwimmen"
    except RuntimeError:  # no home folder to be found
        return None


@functools.cache
def source(path: Path) -> bytes:
    """The hash of a source file of the package (code, a template) as this process runs
    it: read once per process, since the code a process runs is what it imported
    whatever the file says later (a site reload asks for the same files hundreds of
    times, for each kept value's key)."""
    return hashlib.sha256(path.read_bytes()).digest()


def _common() -> Iterator[tuple[str, bytes]]:
    """What every cached value depends on: this cache's format, the package and Python
    versions, the schemas and the code of :mod:`schwimmen.spec`."""
    yield "format", FORMAT
    yield "version", __version__.encode()
    yield "python", sys.version.encode()
    for path in sorted(schema_dir().glob("*.json")):
        yield f"schema:{path.name}", path.read_bytes()
    for path in sorted(_SPEC_CODE.glob("*.py")):
        yield f"code:{path.name}", source(path)


def _catalog_inputs(root: Path, texts_dir: Path | None) -> Iterator[tuple[str, bytes]]:
    """Everything the loaded catalog depends on, as (label, bytes)."""
    yield "root", str(root.resolve()).encode()
    yield "sources-env", os.environ.get(SOURCES_ENV, "").encode()
    yield "texts-dir", str(texts_dir.resolve() if texts_dir else "").encode()
    for path, kind in catalog_files(root):
        yield f"{kind}:{path.name}", path.read_bytes()
    yield "bibliography", (root / "sources.yaml").read_bytes()
    table = root / termination.FILE
    if table.is_file():  # what the loader refuses and warns about
        yield "contradictions", table.read_bytes()
    if texts_dir is not None and texts_dir.is_dir():
        for path in sorted(texts_dir.rglob("*")):
            if path.is_file():
                yield f"text:{path.relative_to(texts_dir)}", path.read_bytes()


def content_key(kind: str, inputs: Iterable[tuple[str, bytes]]) -> str:
    """The hash that names a cached value of ``kind``: any change to any input (or to
    what every cached value depends on) changes it."""
    digest = hashlib.sha256()
    for label, data in itertools.chain([("kind", kind.encode())], _common(), inputs):
        for part in (label.encode(), data):
            digest.update(len(part).to_bytes(8, "big"))
            digest.update(part)
    return digest.hexdigest()


def catalog_key(root: Path, texts_dir: Path | None) -> str:
    return content_key("catalog", _catalog_inputs(root, texts_dir))


def cached_catalog(root: Path | None = None, texts_dir: Path | None = None) -> Catalog:
    """:meth:`Catalog.load`, from the cache when nothing it was made of has changed.

    The catalog comes back with every ruleset and house rule of a default run already
    resolved. Raises :class:`SpecErrors` as :meth:`Catalog.load` does (a broken
    bibliography); that case is never cached.
    """
    root = root or spec_dir()
    texts = texts_dir if texts_dir is not None else sources_dir()

    def build() -> Catalog:
        catalog = Catalog.load(root, texts)
        _warm(catalog)
        return catalog

    return cached("catalog", lambda: _catalog_inputs(root, texts), build, Catalog)


def cached(
    kind: str,
    inputs: Callable[[], Iterable[tuple[str, bytes]]],
    build: Callable[[], T],
    expected: type[T],
) -> T:
    """``build()``, or what an earlier ``build()`` made from the same ``inputs``.

    ``inputs`` is asked again after building: a file edited meanwhile leaves nothing in
    the cache, so the next command builds again.
    """
    folder = cache_dir()
    if folder is None:
        return build()
    try:
        key = content_key(kind, inputs())
    except OSError:
        return build()
    path = folder / f"{kind}-{key}{_SUFFIX}"
    found = _read(path, key)
    if isinstance(found, expected):
        return found
    value = build()
    try:
        unchanged = content_key(kind, inputs()) == key
    except OSError:
        unchanged = False
    if unchanged:
        _write(folder, path, key, value)
    return value


def checked_finder(
    path: Path, shown_as: str | None, check: Callable[[], list[SpecError]]
) -> list[SpecError]:
    """``check()`` of the variant finder's file at ``path``: its errors, from the cache
    while the file, the schemas and the code that checks it are unchanged.

    The finder is checked by its schema and the parameters' own schemas (jsonschema, the
    slowest import there is), which ``validate`` of an unchanged catalog file should not
    pay each time; its answers name parameters and values, not the catalog's files.
    """

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "path", str(path.resolve()).encode()
        yield "shown-as", (shown_as or "").encode()
        yield "finder", path.read_bytes()  # its code is :mod:`schwimmen.spec`'s (``_common``)

    return cached("finder", inputs, check, list)


def checked_source_words(root: Path, check: Callable[[], list[SpecError]]) -> list[SpecError]:
    """``check()`` of the German texts of the rulesets and house rules under ``root``
    against the glossary's words their sources do not use, from the cache while those
    files and the glossary are unchanged (the glossary is read through its schema, which
    ``validate`` of an unchanged file should not pay each time)."""

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "root", str(root.resolve()).encode()
        for path, kind in catalog_files(root):
            yield f"{kind}:{path.name}", path.read_bytes()
        yield "glossary", (root / "glossary.yaml").read_bytes()

    return cached("source-words", inputs, check, list)


def _warm(catalog: Catalog) -> None:
    """Resolve every name of a default run now, so that the cache holds the results."""
    for name in catalog.standard_names():
        with contextlib.suppress(SpecErrors):  # reported by whichever command asks for it
            catalog.resolve(name)


def _trusted(folder: Path) -> bool:
    """Only a folder of one's own that nobody else may write to holds pickles worth
    loading (unpickling runs code)."""
    try:
        info = folder.stat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    if hasattr(os, "getuid"):
        return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return True


def _read(path: Path, key: str) -> object:
    if not _trusted(path.parent):
        return None
    try:
        with path.open("rb") as f:
            header = f.read(len(FORMAT) + 1 + len(key))
            if header != FORMAT + b" " + key.encode():
                return None
            value = _unpickled(f)
    except Exception:  # missing, unreadable or corrupt: built again
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: kept when older ones are pruned
    return value


def _unpickled(f: io.BufferedReader) -> object:
    """The pickled value, read with the cycle collector paused: unpickling makes tens of
    thousands of objects and none of them garbage, which the collector would walk again
    and again for nothing."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return pickle.load(f)
    finally:
        if paused:
            gc.enable()


def _proxy(items: Mapping[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(dict(items))


def _reduce_proxy(proxy: MappingProxyType[Any, Any]) -> tuple[Any, tuple[Any, ...]]:
    return _proxy, (dict(proxy),)


def dumps(value: object) -> bytes:
    """The pickle of ``value``. A resolved ruleset's settings are a read-only mapping,
    which pickle cannot store as such; it is stored as the dict it wraps."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    table = copyreg.dispatch_table.copy()
    table[MappingProxyType] = _reduce_proxy
    pickler.dispatch_table = table
    pickler.dump(value)
    return buffer.getvalue()


def _write(folder: Path, path: Path, key: str, value: object) -> None:
    import tempfile  # only on a miss

    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _trusted(folder):
            return
        data = FORMAT + b" " + key.encode() + dumps(value)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.stem}", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(folder, path)
    except (OSError, pickle.PicklingError):
        pass  # no cache this time; the command goes on with the catalog it built


def _prune(folder: Path, keep: Path) -> None:
    """Remove all but the :data:`KEEP` most recently used cached values of ``keep``'s
    kind, and temporary files a killed command left behind an hour ago or more."""
    kind = keep.name.rsplit("-", 1)[0]
    now = time.time()
    for path in folder.glob(".*.tmp"):
        try:
            if now - path.stat().st_mtime > 3600:
                path.unlink(missing_ok=True)
        except OSError:
            continue
    found = []
    for path in folder.glob(f"{kind}-*{_SUFFIX}"):
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:
            continue
    found.sort(reverse=True)
    for _, path in found[KEEP:]:
        if path != keep:
            path.unlink(missing_ok=True)
