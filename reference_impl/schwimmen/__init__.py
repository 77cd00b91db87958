"""schwimmen: the executable specification of Schwimmen (31) and its relatives.

The package holds the spec loader (``schwimmen.spec``), the reference engine and the
command line; the rulesets themselves are data under ``spec/`` and are validated
against ``schemas/`` before anything else sees them.
"""

__version__ = "0.1.0"
