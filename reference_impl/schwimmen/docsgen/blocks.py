"""HTML a generator writes straight into a page, past Markdown.

Python-Markdown spent most of a build on the generated pages: their bodies are tables,
cards and lists that a template writes as HTML anyway, and Markdown parses all of it again
(raw HTML included) for every page in every language. So a generator may put HTML between
:data:`OPEN` and :data:`CLOSE` (:func:`block`); the hook takes each such block out of the
page before Markdown runs (:func:`stash`) and puts it back into the converted page
(:func:`unstash`). The page's outline (its title and headings) stays Markdown, so the
table of contents, the permalinks and the search sections are the theme's own.

A heading inside a block that carries ``data-toc`` joins the page's table of contents,
in its place among the page's Markdown headings (:func:`contents`), so that a page whose
body is one template keeps the theme's table of contents and search sections.

A link inside a block names its target as a Markdown link does, by the target's file
under ``docs/`` (``href="md:rulesets/pagat.md#feuer"``, made by :func:`href`); the hook
resolves it as MkDocs resolves a Markdown link (:func:`resolve`), to the page in the
page's own language where there is one, and a target no page has stops a strict build
as a broken Markdown link does. The ids a block holds are made known to MkDocs, whose
check of links to anchors then covers them too (:func:`anchors`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

OPEN = "<!-- sw:html -->"
CLOSE = "<!-- sw:/html -->"
_BLOCK = re.compile(
    r"^([ \t]*)" + re.escape(OPEN) + r"[ \t]*\n(.*?)\n[ \t]*" + re.escape(CLOSE) + r"[ \t]*$",
    re.S | re.M,
)
_PLACE = "<!-- sw:block {} -->"
_PLACED = re.compile(r"(?:<p>)?<!-- sw:block (\d+) -->(?:</p>)?")
_LINK = re.compile(r'\bhref="md:([^"#]*)(?:#([^"]*))?"')
_ID = re.compile(r'\bid="([^"]+)"')
_HEADING = re.compile(r'<h([1-6]) id="([^"]+)"( data-toc)?[^>]*>(.*?)</h\1>', re.S)
_TAG = re.compile(r"<[^>]+>")
_PERMALINK = re.compile(r'<a class="headerlink".*?</a>', re.S)
PREFIX = "md:"


def block(html: str) -> str:
    """``html`` marked to pass Markdown untouched (on lines of its own)."""
    return f"{OPEN}\n{html.strip(chr(10))}\n{CLOSE}"


def href(target: str) -> str:
    """The ``href`` value of a link to ``target``: a file under ``docs/`` as a Markdown
    link names it (``rulesets/pagat.md``, optionally ``#anchor``; ``#anchor`` alone for
    the same page)."""
    return PREFIX + target


def stash(markdown: str) -> tuple[str, list[str]]:
    """``markdown`` with each block replaced by a placeholder Markdown leaves alone, and
    the blocks in order."""
    blocks: list[str] = []

    def place(match: re.Match[str]) -> str:
        blocks.append(match.group(2))
        return match.group(1) + _PLACE.format(len(blocks) - 1)

    return _BLOCK.sub(place, markdown), blocks


def unstash(html: str, blocks: list[str]) -> str:
    """The converted page with each placeholder replaced by its block."""
    return _PLACED.sub(lambda m: blocks[int(m.group(1))], html)


def links(html: str) -> Iterator[tuple[str, str]]:
    """The (file, anchor) of every link a block names with :func:`href`."""
    for match in _LINK.finditer(html):
        yield match.group(1), match.group(2) or ""


def resolve(html: str, url_of: Callable[[str, str], str | None]) -> tuple[str, list[str]]:
    """``html`` with each :func:`href` link given its address, ``url_of(file, anchor)``
    (None: no such page), and the links that lead nowhere."""
    missing: list[str] = []

    def address(match: re.Match[str]) -> str:
        path, anchor = match.group(1), match.group(2) or ""
        url = url_of(path, anchor)
        if url is None:
            missing.append(path + (f"#{anchor}" if anchor else ""))
            return match.group(0)
        return f'href="{url}"'

    return _LINK.sub(address, html), missing


def anchors(html: str) -> set[str]:
    """The ids of the elements of ``html``: where a link may lead on its page."""
    return set(_ID.findall(html))


def contents(html: str, known: set[str]) -> list[dict[str, object]]:
    """The table of contents of a converted page, as Python-Markdown's ``toc`` extension
    gives it (nested tokens): its headings whose id is ``known`` (the Markdown's own) or
    that carry ``data-toc``, in page order."""
    tokens: list[dict[str, object]] = []
    stack: list[dict[str, object]] = []
    for match in _HEADING.finditer(html):
        level, anchor, marked, inner = match.groups()
        if anchor not in known and not marked:
            continue
        name = " ".join(_TAG.sub("", _PERMALINK.sub("", inner)).split())
        token: dict[str, object] = {
            "level": int(level),
            "id": anchor,
            "name": name,
            "children": [],
        }
        while stack and int(str(stack[-1]["level"])) >= int(level):
            stack.pop()
        siblings = tokens if not stack else stack[-1]["children"]
        assert isinstance(siblings, list)
        siblings.append(token)
        stack.append(token)
    return tokens
