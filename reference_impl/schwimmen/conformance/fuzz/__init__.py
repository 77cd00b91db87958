"""Differential fuzzing: seeded random cases played on the reference and on an
implementation, each difference shrunk and written as a fixture.

The parts, one job each: :mod:`.cases` makes and plays a case, :mod:`.supply` where the
cases are made (in worker processes with several jobs), :mod:`.probes` the actions
the reference refuses, :mod:`.diff` finds the first difference, :mod:`.params` the
parameters it depends on, :mod:`.shrink` makes it small, :mod:`.words` says which
finding it is and names it, :mod:`.fixture` writes it, and :mod:`.driver` runs it all.
Code outside this package imports only what is named here.
"""

from schwimmen.conformance.fuzz.driver import GRACE, FuzzOptions, FuzzReport, fuzz

__all__ = ["GRACE", "FuzzOptions", "FuzzReport", "fuzz"]
