"""Which pages the site's search puts first, and which it leaves out.

A player who types "Feuer" or "drei Asse" wants the rule, not one of the 270 fixture
pages that set up a Feuer for an engine to get right, nor one of the 45 pair pages that
repeat two rulesets' quotes side by side. The theme ranks by how well the words match,
times a page's ``search: boost`` front matter, and skips a page whose front matter says
``search: exclude: true``. This module decides both for the generated pages, by path;
a hand-written page under ``docs/`` says it in its own front matter.
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

from schwimmen.docsgen.markup import (
    FIXTURES_INDEX,
    GLOSSARY,
    fixture_page,
    pair_page,
    ruleset_page,
)


@dataclass(frozen=True)
class Rank:
    """A page's weight in search results (1 is the theme's default), or its absence."""

    boost: float = 1.0
    exclude: bool = False

    def front_matter(self) -> list[str]:
        if self.exclude:
            return ["search:", "  exclude: true"]
        return ["search:", f"  boost: {self.boost:g}"]


# The rules first: a ruleset's page, the glossary (and the comparison, whose hand-written
# page carries the same boost). House rules keep the default: boosted, their titles ("Feuer
# costs the others two lives") beat the glossary's Feuer for the word alone.
RULES = Rank(boost=4)
# Tests for engines: still found by their ids and titles, but after any rule page.
FIXTURES = Rank(boost=0.1)
# The pairs repeat the rulesets' pages two by two; the grid of pairs leads to them.
PAIRS = Rank(exclude=True)

_POLICY: tuple[tuple[str, Rank], ...] = (
    (ruleset_page("*"), RULES),
    (GLOSSARY, RULES),
    (pair_page("*", "*"), PAIRS),
    (FIXTURES_INDEX, Rank()),
    (fixture_page("*"), FIXTURES),
)


def rank(path: str) -> Rank | None:
    """The rank of the page at a docs-relative ``path``; None: the theme's default."""
    for pattern, given in _POLICY:
        if fnmatchcase(path, pattern):
            return given
    return None


def with_rank(path: str, markdown: str) -> str:
    """``markdown`` with its page's rank in the front matter (added to the front matter it
    has, or as a new one); a page that sets ``search:`` itself keeps its own."""
    given = rank(path)
    if given is None:
        return markdown
    lines = given.front_matter()
    if markdown.startswith("---\n"):
        end = markdown.find("\n---\n", 3)
        if end != -1:
            head = markdown[4:end]
            if any(line.startswith("search:") for line in head.splitlines()):
                return markdown
            return "---\n" + head + "\n" + "\n".join(lines) + markdown[end:]
    return "---\n" + "\n".join(lines) + "\n---\n\n" + markdown
