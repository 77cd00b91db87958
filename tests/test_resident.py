"""What a long run keeps to its end is frozen out of the collector's way, and given back:
``resident.keep`` freezes and collects the youngest generation less often, ``release``
undoes both, and neither touches objects a caller froze itself."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from schwimmen import resident


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector as a test found it, whatever the test does to it."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()


def test_keeping_freezes_and_gives_everything_back(collector: None) -> None:
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with resident.keeping():
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == max(before[0], resident.YOUNG)
        assert gc.get_threshold()[1:] == before[1:]
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before


def test_objects_a_caller_froze_stay_frozen(collector: None) -> None:
    gc.freeze()
    frozen = gc.get_freeze_count()
    before = gc.get_threshold()
    assert resident.keep() is None
    resident.release(None)
    assert gc.get_freeze_count() == frozen
    assert gc.get_threshold() == before


def test_nothing_is_done_with_the_collector_off(collector: None) -> None:
    gc.disable()
    assert resident.keep() is None
    assert gc.get_freeze_count() == 0


def test_a_kept_cycle_is_still_collected_once_released(collector: None) -> None:
    """Freezing costs no memory for good: what died while frozen is found after."""

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    kept = resident.keep()  # a and b are frozen alive
    assert kept is not None
    gone = weakref.ref(a)
    del a, b
    gc.collect()
    assert gone() is not None  # the frozen cycle is not looked at
    resident.release(kept)
    gc.collect()
    assert gone() is None
