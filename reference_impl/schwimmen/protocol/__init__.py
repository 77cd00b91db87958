"""The canonical forms shared by the engine, the conformance fixtures and every
implementation under test: cards (``QC``, ``10H``), seats (``P1``), actions and events,
each with one text form and one JSON form."""
