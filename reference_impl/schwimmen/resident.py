"""Objects a long run keeps to its end, kept out of the cyclic garbage collector's way.

A fuzz run and a ``serve`` process build their tables once (the catalog, a ruleset's kit,
the fuzzer's mutants) and then make and drop a great many small objects, case after case.
Each of the collector's passes over the older generations walks every object still
tracked there, the tables included, although none of them will become garbage before the
run ends: moved to the permanent generation (``gc.freeze``) they are not walked again.
A case's objects die young, mostly as their last reference goes, so the youngest
generation is collected less often (:data:`YOUNG`). Nothing changes but the time: an
object is freed as before when its last reference goes.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import dataclass

YOUNG = 10_000
"""Allocations (net of deallocations) between two collections of the youngest generation
while a run keeps its tables (Python's default: 700). A case of the fuzzer or of
``serve`` holds a few thousand objects at most, so a collection walks no more; ten times
fewer of them cost about a third of the time the collector took (``serve``, online)."""


@dataclass(frozen=True)
class Kept:
    """What :func:`keep` changed, for :func:`release` to undo."""

    thresholds: tuple[int, int, int]
    froze: bool


def keep() -> Kept | None:
    """Leave every object tracked now to the permanent generation, and collect the
    youngest generation less often. None, and nothing done, where the collector is off or
    objects are frozen already (by a caller that alone may thaw them). No collection comes
    first (a whole one costs ``serve`` some 50 ms, the time of 60 cases): a cycle that is
    garbage already waits for :func:`release`, or for the end of the process."""
    if not gc.isenabled() or gc.get_freeze_count():
        return None
    gc.freeze()
    thresholds = gc.get_threshold()
    first, *rest = thresholds
    gc.set_threshold(max(first, YOUNG), *rest)
    return Kept(thresholds, True)


def release(kept: Kept | None) -> None:
    """Undo :func:`keep`: thaw what it froze and give the collector its thresholds back."""
    if kept is None:
        return
    gc.set_threshold(*kept.thresholds)
    if kept.froze:
        gc.unfreeze()


@contextlib.contextmanager
def keeping() -> Iterator[None]:
    """``with keeping(): ...``: :func:`keep` now and :func:`release` when the block is
    left, however (a caller that goes on afterwards gets its collector back as it was)."""
    kept = keep()
    try:
        yield
    finally:
        release(kept)
