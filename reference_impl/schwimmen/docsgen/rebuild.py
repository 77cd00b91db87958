"""What a reload of ``mkdocs serve --dirty`` builds again: only the pages that changed.

MkDocs renders every page in both languages on every reload (eight seconds of a
tinkerer's wait after editing one paragraph). Under ``--dirty`` it asks each page's file
whether it was modified and builds only those; the hook answers by fingerprints
(:func:`site_fingerprint`, :func:`page_fingerprint`) and gives a page left as it was what
the rebuilt pages need of it, as its last build left it (:class:`Built`). Nothing here
knows MkDocs: the hook (``docs/hooks.py``) passes plain values.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Built:
    """What one page's last build left: its fingerprint, its title (shown in every other
    page's navigation), its anchors and its links to anchors (MkDocs checks them all
    after each build), its search entries and the generated parts it inserts."""

    fingerprint: str
    title: str | None
    anchors: frozenset[str]
    links: tuple[tuple[str, str, str], ...]
    entries: tuple[Mapping[str, Any], ...]
    inserts: frozenset[str]


def _hash(parts: Iterable[str]) -> str:
    found = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass")
        found.update(len(data).to_bytes(8, "big") + data)
    return found.hexdigest()


def title_lines(markdown: str) -> str:
    """The lines of a page's Markdown its title comes from: a ``title:`` of the front
    matter and the first first-level heading (``# Title``, or a line underlined with
    ``===``). A page whose title changes changes these, and with them every page's
    navigation; a heading further down does not."""
    lines = markdown.splitlines()
    found = [line for line in lines[:40] if line.startswith("title:")]
    for number, line in enumerate(lines):
        if re.match(r"#[ \t]", line):
            return "\n".join([*found, line])
        if number and re.fullmatch(r"=+[ \t]*", line) and lines[number - 1].strip():
            return "\n".join([*found, lines[number - 1], line])
    return "\n".join(found)


def site_fingerprint(shared: Sequence[str], pages: Mapping[str, str]) -> str:
    """A hash of what every page of a language shows: ``shared`` (the navigation, the
    files and their addresses, the configuration, the theme, the hook) and the lines each
    page's title comes from (``pages``: each page's Markdown by its place in the site)."""
    return _hash([*shared, *(f"{dest}\n{title_lines(pages[dest])}" for dest in sorted(pages))])


def page_fingerprint(site: str, dest: str, markdown: str) -> str:
    """A hash of everything one page's output is made of: what every page shows (``site``),
    its place and its Markdown."""
    return _hash([site, dest, markdown])


def search_key(url: str, content: str, title: str | None, meta: Mapping[str, Any], toc: Any) -> str:
    """A hash of what the theme makes a page's search entries of."""
    return _hash([url, content, title or "", json.dumps([meta, toc], sort_keys=True, default=str)])


def in_page_order(
    entries: Sequence[Mapping[str, Any]], order: Sequence[str]
) -> list[Mapping[str, Any]]:
    """The search entries sorted by the order their pages were built in (``order``: the
    pages' addresses), as a full build writes them; a page left as it was by ``--dirty``
    had its entries added before the others. Entries of no page listed keep their place
    after them."""
    place = {url: i for i, url in reversed(list(enumerate(order)))}

    def rank(entry: Mapping[str, Any]) -> int:
        return place.get(str(entry.get("location", "")).partition("#")[0], len(order))

    return sorted(entries, key=rank)
