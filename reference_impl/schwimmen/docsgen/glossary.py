"""The generated parts of the glossary (``docs/reference/glossary.md`` and its
translations): the German words of the game, each with the source sentences that use it.

The sources are German and the spec quotes them verbatim, so a reader meets words like
*schieben* or *Feuer* in every quote. The terms are data (``spec/glossary.yaml``, read by
:mod:`schwimmen.spec.pagedata`); each entry quotes a source the way the spec does
(source, section, line) and the build checks every quote against the source texts like the
loader checks the spec's own quotes, so a wrong quote fails the build instead of misleading
a reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import GLOSSARY
from schwimmen.docsgen.templates import render_markdown
from schwimmen.spec.pagedata import glossary


def glossary_inserts() -> Mapping[str, Insert]:
    """The line of links to every term and a section per term (``glossary.md``)."""
    terms = glossary()

    def part(name: str, language: str) -> str:
        text = render_markdown("glossary.md", language, part=name, terms=terms, here=GLOSSARY)
        return text.removesuffix("\n")

    return {"glossary-index": partial(part, "index"), "glossary-terms": partial(part, "terms")}
