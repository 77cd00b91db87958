"""Which pages the site's search puts first, and which it leaves out.

A player who types "Feuer" or "drei Asse" wants the rule, not one of the 270 fixtures
that set up a Feuer for an engine to get right, nor one of the 45 pair pages that repeat
two rulesets' quotes side by side. The theme ranks by how well the words match, times a
page's ``search: boost`` front matter, and skips a page whose front matter says
``search: exclude: true``. This module decides both for the generated pages, by path;
a hand-written page under ``docs/`` says it in its own front matter. The fixtures' pages
leave the theme's index and get entries of their own, light ones
(:func:`schwimmen.docsgen.fixturepages.search_entries`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from schwimmen.docsgen.markup import (
    FIXTURES_INDEX,
    GLOSSARY,
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
# The pairs repeat the rulesets' pages two by two; the grid of pairs leads to them.
PAIRS = Rank(exclude=True)

_POLICY: tuple[tuple[str, Rank], ...] = (
    (ruleset_page("*"), RULES),
    (GLOSSARY, RULES),
    (pair_page("*", "*"), PAIRS),
    (FIXTURES_INDEX, Rank()),
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


def split_index(index: Mapping[str, Any], languages: Sequence[str]) -> dict[str, dict[str, Any]]:
    """One search index per language from the languages plugin's merged one.

    The plugin builds each language in turn and writes every language's entries into the
    one ``search/search_index.json`` at the site's root, which the theme's search reads on
    every page: a German reader's "Feuer" then finds English pages first. Here the
    entries under ``de/`` become the German index (their locations relative to ``de/``,
    where the German pages look for it), the others the default language's. A page with
    no German version is found from the German pages too: the German index takes its
    English entries, located from ``de/`` (``../fixtures/``), where the English page is.
    Returns the index for each folder: ``""`` for the root, ``"de"`` for German.
    """
    config = dict(index.get("config", {}))
    docs = [dict(entry) for entry in index.get("docs", [])]
    prefixes = {language: f"{language}/" for language in languages}

    def language_of(entry: Mapping[str, Any]) -> str | None:
        location = str(entry.get("location", ""))
        return next((lang for lang, p in prefixes.items() if location.startswith(p)), None)

    default = [e for e in docs if language_of(e) is None]
    out = {"": {"config": config | {"lang": [_first(config, languages)]}, "docs": default}}
    for language, prefix in prefixes.items():
        own = [
            dict(e, location=str(e["location"]).removeprefix(prefix))
            for e in docs
            if language_of(e) == language
        ]
        translated = {_page(str(e["location"])) for e in own}
        up = "../" * prefix.count("/")
        fallback = [
            dict(e, location=up + str(e["location"]))
            for e in default
            if _page(str(e["location"])) not in translated
        ]
        out[language] = {"config": config | {"lang": [language]}, "docs": own + fallback}
    return out


def _first(config: Mapping[str, Any], languages: Sequence[str]) -> str:
    """The default language among the index's languages: the one no folder holds."""
    given = [str(lang) for lang in config.get("lang", ["en"])]
    return next((lang for lang in given if lang not in languages), "en")


def _page(location: str) -> str:
    return location.partition("#")[0]
