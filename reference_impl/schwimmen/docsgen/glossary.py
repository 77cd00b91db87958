"""The generated parts of the glossary (``docs/reference/glossary.md`` and its
translations): the German words of the game, each with the source sentences that use it.

The sources are German and the spec quotes them verbatim, so a reader meets words like
*schieben* or *Feuer* in every quote. The terms are data (``spec/glossary.yaml``, read by
:mod:`schwimmen.docsgen.pagedata`); each entry quotes a source the way the spec does
(source, section, line) and the build checks every quote against the source texts like the
loader checks the spec's own quotes, so a wrong quote fails the build instead of misleading
a reader.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from schwimmen.docsgen.inserts import Insert
from schwimmen.docsgen.markup import (
    GLOSSARY,
    SCHEMA_REFERENCE,
    citation_md,
    code,
    esc,
    link,
    param_anchor,
)
from schwimmen.docsgen.pagedata import Term, glossary, words


def term_index(terms: Sequence[Term]) -> str:
    """One line of links to every term."""
    return " · ".join(f"[{esc(t.german)}](#{t.anchor})" for t in terms)


def term_sections(terms: Sequence[Term], language: str, here: str = GLOSSARY) -> str:
    """A section per term: the English gloss, the meaning, the quotes, the rules."""
    say = words()
    out: list[str] = []
    for term in terms:
        out += [f"## {esc(term.german)} {{#{term.anchor}}}", ""]
        prefix = say("glossary.gloss-prefix", language)
        gloss = f"{prefix} *{esc(term.gloss)}*" if prefix else f"*{esc(term.gloss)}*"
        out += [f"{gloss}. {esc(term.meaning[language])}", ""]
        for quote in term.quotes:
            out += [citation_md(quote, here, language), ""]
        if term.params:
            links = ", ".join(
                link(here, f"{SCHEMA_REFERENCE}#{param_anchor(p)}", code(p)) for p in term.params
            )
            out += [f"<small>{say('glossary.rules', language)} {links}</small>", ""]
    return "\n".join(out)


def glossary_inserts() -> Mapping[str, Insert]:
    terms = glossary()
    return {
        "glossary-index": lambda language: term_index(terms),
        "glossary-terms": lambda language: term_sections(terms, language),
    }
