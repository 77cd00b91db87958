"""Turn the spec loader's objects into the pages of the documentation site.

The site must say exactly what the loader says: every page is generated at build time
from the same :class:`~schwimmen.spec.loader.Catalog` the tests and the CLI use, so a
ruleset page can never drift from its YAML file. The functions here are pure (objects
in, markdown out); the MkDocs hook in ``docs/hooks.py`` does the reading and writing.

Entry point: :func:`schwimmen.docsgen.site.build_site`.
"""

from __future__ import annotations
