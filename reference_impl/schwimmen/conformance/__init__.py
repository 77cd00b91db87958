"""The conformance suite: fixtures, the protocol to any implementation, and the harness
that runs one against the other and reports."""
