"""The composition whose rounds never end, shared by the tests of the turn caps: "a knock
counts as a pass" with "passing is forbidden" (the issue's own contradiction), which the
loader refuses, built past the contradiction table as a composition the table missed would
be built."""

from __future__ import annotations

from functools import cache

from schwimmen.spec import termination
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

NEVER_ENDS = {"knocking.form": "close-by-passing", "turns.passing": "forbidden"}


@cache
def catalog() -> Catalog:
    """The shipped catalog, loaded once per test process."""
    return Catalog.load()


@cache
def never_ending() -> Ruleset:
    """pagat with ``NEVER_ENDS``, past the contradiction check."""
    with termination.unchecked():
        return catalog().mutant("pagat", NEVER_ENDS)
