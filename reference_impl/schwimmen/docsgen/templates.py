"""The page layouts: Jinja templates beside this module (``templates/``).

A template lays out what the loader, the fixtures and the engine export; the words come
from ``spec/words.yaml`` (``say``) and the small pieces (cards, links) from
:mod:`schwimmen.docsgen.tags`. Templates write HTML (escaped by Jinja), which the page
carries past Markdown as a block (:mod:`schwimmen.docsgen.blocks`).
"""

from __future__ import annotations

import html
import re
from functools import cache, partial
from hashlib import sha256
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from schwimmen.docsgen import markup, tags
from schwimmen.docsgen.context import kind_counts
from schwimmen.docsgen.memo import words_digest
from schwimmen.docsgen.values import shown
from schwimmen.spec.model import ProvenanceKind
from schwimmen.spec.pagedata import words
from schwimmen.spec.parameters import BY_PATH, SUIT_NAMES_DE
from schwimmen.spec.present import points

FOLDER = Path(__file__).resolve().parent / "templates"


def _bare(*, autoescape: bool) -> Environment:
    """The templates folder with the settings every page template is written for: blocks
    trimmed, an unknown name an error, ``do`` statements; each template read once per
    process, as the code is (:func:`kept`)."""
    return Environment(
        loader=FileSystemLoader(FOLDER),
        auto_reload=False,
        autoescape=autoescape,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
        extensions=["jinja2.ext.do"],
    )


@cache
def environment() -> Environment:
    env = _bare(autoescape=True)
    env.globals.update(
        card=tags.card,
        cards=tags.cards,
        code=tags.code,
        fill=tags.fill,
        pair_page=markup.pair_page,
        link=tags.link,
        name_link=tags.name_link,
        reference=tags.reference,
        with_references=tags.with_references,
        with_sources=tags.with_sources,
        source=tags.source,
        strong=tags.strong,
        fixture_page=markup.fixture_page,
        house_rule_page=markup.house_rule_page,
        ruleset_page=markup.ruleset_page,
        anchor=markup.param_anchor,
        schema=markup.SCHEMA_REFERENCE,
        symbols=markup.KIND_SYMBOL,
        kinds=list(ProvenanceKind),
        kind_counts=kind_counts,
        parameter=BY_PATH.__getitem__,
        value_text=shown,
        suit_symbol=markup.LETTER_SUIT.__getitem__,
        letter_suit=markup.LETTER_SUIT,
        points_text=points,
        suit_name=SUIT_NAMES_DE.__getitem__,
        x=escaped,
    )
    return env


@cache
def markdown_environment() -> Environment:
    """The templates that write Markdown (``*.md``: parts a hand-written page inserts into
    its prose, whose tables and links stay Markdown): nothing is escaped for HTML by
    itself; ``esc`` escapes a text for Markdown, ``code`` writes inline code, ``link``
    links from the page ``here`` to a file under ``docs/``, ``anchor`` writes a heading's
    ``{#id}`` (which Jinja would read as a comment)."""
    env = _bare(autoescape=False)
    env.filters.update(esc=markup.esc, code=markup.code)
    env.globals.update(
        link=markup.link,
        table=markup.table,
        badge=markup.badge,
        ruleset_page=markup.ruleset_page,
        home=markup.HOME,
        schema=markup.SCHEMA_REFERENCE,
        param_anchor=markup.param_anchor,
        anchor=lambda name: "{#" + name + "}",
    )
    return env


def render_markdown(name: str, language: str, **data: Any) -> str:
    """The Markdown template ``name`` filled with ``data``, its words (``say``, plain text)
    in ``language``."""
    template = markdown_environment().get_template(name)
    return template.render(say=partial(words(), language=language), language=language, **data)


def escaped(text: object) -> Markup:
    """``text`` escaped for HTML as :func:`html.escape` does, quotes as ``&quot;`` and
    ``&#x27;`` (the charts' SVG escapes so)."""
    return Markup(html.escape(str(text)))


def render(name: str, language: str, **data: Any) -> str:
    """The template ``name`` filled with ``data``, its words in ``language``."""
    template = environment().get_template(name)
    say = partial(tags.say, language=language)
    return plain_quotes(template.render(say=say, language=language, w=words(), **data))


_KEPT: dict[str, str] = {}


def kept(name: str, language: str, **data: Any) -> str:
    """:func:`render`, or what it gave in this process for the same words and data that
    reads the same (``data``: values whose ``repr`` shows all of them): a reload of
    ``mkdocs serve`` after an edit renders again only the pages that show what changed."""
    key = sha256(repr((name, language, words_digest(), sorted(data.items()))).encode())
    found = _KEPT.get(digest := key.hexdigest())
    if found is None:
        if len(_KEPT) > 4096:
            _KEPT.clear()
        found = _KEPT[digest] = render(name, language, **data)
    return found


_TAG = re.compile(r"(<[^>]*>)")


def plain_quotes(html: str) -> str:
    """``html`` with the quotation marks of its text as they are (Jinja escapes them as
    ``&#34;`` and ``&#39;``, which a text needs no more than Markdown writes them); inside
    tags, where an attribute's value may need them escaped, nothing changes."""
    parts = _TAG.split(html)
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("&#34;", '"').replace("&#39;", "'")
    return "".join(parts)
