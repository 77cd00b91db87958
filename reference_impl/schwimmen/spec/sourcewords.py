"""The German texts of a ruleset or house rule take the words of the source they speak
for: where ``spec/glossary.yaml`` says a source does not use a word for a term (``avoid``:
altenburg and pagat end the swapping by „schließen“ or passing, not by „klopfen“), a German
text of those rulesets that uses the word is an error, with its file and line. The site's
build refuses such a text (:mod:`schwimmen.docsgen.site`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from schwimmen.spec.errors import SpecError
from schwimmen.spec.loader import Catalog
from schwimmen.spec.pagedata import Term


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
