"""Fingerprint: which ruleset an implementation plays and where it deviates.

The reasoning is laid out in :mod:`.analysis`; the package's one way in is
:func:`fingerprint`, and a finding is read out by :mod:`.report`. Code outside this
package imports only what is named here.
"""

from schwimmen.conformance.fingerprint import report
from schwimmen.conformance.fingerprint.analysis import Fingerprint, fingerprint

__all__ = ["Fingerprint", "fingerprint", "report"]
