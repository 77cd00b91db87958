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

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    GLOSSARY,
)
from schwimmen.docsgen.templates import render_markdown
from schwimmen.spec.errors import SpecError
from schwimmen.spec.loader import Catalog
from schwimmen.spec.pagedata import Term, glossary


def glossary_inserts() -> Mapping[str, Insert]:
    """The line of links to every term and a section per term (``glossary.md``)."""
    terms = glossary()

    def part(name: str, language: str) -> str:
        text = render_markdown("glossary.md", language, part=name, terms=terms, here=GLOSSARY)
        return text.removesuffix("\n")

    return {"glossary-index": partial(part, "index"), "glossary-terms": partial(part, "terms")}


def german_texts(data: Any) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every German text of a spec file (the strings under its ``de:`` keys), with its
    path in the file."""

    def walk(node: Any, path: tuple[str | int, ...], german: bool) -> Iterator[Any]:
        if isinstance(node, str):
            if german:
                yield path, node
        elif isinstance(node, Mapping):
            for key, value in node.items():
                yield from walk(value, (*path, key), german or key == "de")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from walk(value, (*path, index), german)

    yield from walk(data, (), False)


def avoided_words(catalog: Catalog, terms: Sequence[Term]) -> list[SpecError]:
    """Where a German text of a ruleset or house rule uses a word the glossary says its
    source does not use for the term (``avoid`` in ``spec/glossary.yaml``): the text
    speaks for the source, so it takes the source's own word. A whole-word match, any
    case; the file, line and the glossary's reason are given."""
    files = {**catalog.rulesets, **catalog.house_rules}
    out: list[SpecError] = []
    for term in terms:
        for avoid in term.avoid:
            pattern = re.compile(
                r"(?<!\w)(" + "|".join(re.escape(w) for w in avoid.words) + r")(?!\w)",
                re.IGNORECASE,
            )
            for name in avoid.rulesets:
                sf = files.get(name)
                if sf is None:
                    continue
                for path, text in german_texts(sf.data):
                    found = pattern.search(text)
                    if found:
                        out.append(
                            sf.doc.error(
                                path,
                                f"„{found.group(1)}“ where the source says „{term.german}“ "
                                f"(spec/glossary.yaml): {avoid.why}",
                            )
                        )
    return out
