"""Small HTML pieces for the templates: words, cards, links and references.

Everything a template shows passes through Jinja's escaping; a piece built here is
:class:`~markupsafe.Markup`, made with ``Markup.format``, which escapes every text put
into it, so text from the spec files (quotes, readings, titles) can never break a page.
A link names its target as a Markdown link would, by its file under ``docs/``
(:func:`schwimmen.docsgen.blocks.href`); the hook gives it its address.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from markupsafe import Markup, escape

from schwimmen.docsgen.blocks import href
from schwimmen.docsgen.markup import (
    DECISIONS,
    DISAGREEMENTS,
    HOME,
    LETTER_SUIT,
    SUIT_CLASS,
    decision_anchor,
    house_rule_page,
    ruleset_page,
)
from schwimmen.spec.loader import SEPARATOR
from schwimmen.spec.pagedata import DEFAULT_LANGUAGE, words

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CARD = re.compile(r"^(10|[2-9AKQJ])([CSHD])$")
_REFERENCE = re.compile(r"\b[UF][0-9]{2}\b")
_SOURCE = re.compile(r"\bs[0-9]{3}\b")


def say(key: str, language: str = DEFAULT_LANGUAGE, **fields: object) -> Markup:
    """The label ``key`` of ``spec/words.yaml`` in ``language`` as HTML: its text escaped,
    its ``**bold**`` made bold, its ``{placeholders}`` filled with ``fields`` (escaped
    unless they are :class:`Markup`)."""
    text = _label(key, language)
    if not fields:
        return text
    # str.format on the escaped label with escaped fields: what Markup.format does, in C
    return Markup(str.format(text, **{k: escape(v) for k, v in fields.items()}))


def forget() -> None:
    """Take the labels from ``spec/words.yaml`` again (after :func:`pagedata.forget`)."""
    _label.cache_clear()


@lru_cache(maxsize=2048)
def _label(key: str, language: str) -> Markup:
    entry = words().labels[key]
    return Markup(_BOLD.sub(r"<strong>\1</strong>", str(escape(entry.get(language, entry["en"])))))


def fill(text: str, **fields: object) -> Markup:
    """``text`` (with ``{name}`` blanks) escaped, each blank filled with its field, escaped
    unless it is :class:`Markup`."""
    out = escape(text)
    for name, value in fields.items():
        out = Markup(out.replace("{" + name + "}", escape(value)))
    return out


def strong(text: object) -> Markup:
    return Markup(f"<strong>{escape(text)}</strong>")


def code(text: object) -> Markup:
    return Markup(f"<code>{escape(text)}</code>")


def link(target: str, text: object, title: str | None = None) -> Markup:
    """A link to ``target`` (a file under ``docs/``, ``#anchor`` optional)."""
    tip = f' title="{escape(" ".join(title.split()))}"' if title else ""
    return Markup(f'<a href="{escape(href(target))}"{tip}>{escape(text)}</a>')


def card(text: str) -> Markup:
    """A card in the protocol's text (``10H``) drawn as a card; anything else as it is."""
    found = _CARD.match(text)
    if found is None:
        return escape(text)
    rank, suit = found.group(1), LETTER_SUIT[found.group(2)]
    return Markup(f'<span class="card {SUIT_CLASS[suit]}">{rank}{suit}</span>')


def cards(texts: Iterable[object]) -> Markup:
    """Cards in the protocol's text drawn as a row of cards ('—' for none)."""
    drawn = [card(str(t)) for t in texts]
    if not drawn:
        return Markup("—")
    return Markup(f'<span class="cards">{"".join(drawn)}</span>')


def joined(parts: Iterable[object], separator: str = ", ") -> Markup:
    return escape(separator).join(escape(p) for p in parts)


def name_link(name: str) -> Markup:
    """A ruleset (``pagat``) or composed name (``pagat+no-triples``) linked to its page."""
    house = name.rsplit(SEPARATOR, 1)[1] if SEPARATOR in name else None
    return link(house_rule_page(house) if house else ruleset_page(name), code(name))


def reference(ref: str, known: Iterable[str], titles: Mapping[str, str] | None = None) -> Markup:
    """A decision (``U12``) linked to the decisions page, a scenario (``F31``) to the
    disagreements page, when that page lists it; plain text otherwise."""
    if ref not in set(known):
        return escape(ref)
    page = DECISIONS if ref.startswith("U") else DISAGREEMENTS
    title = (titles or {}).get(ref)
    return link(f"{page}#{decision_anchor(ref)}", ref, title)


def with_references(text: str, known: Iterable[str]) -> Markup:
    """``text`` escaped, with every ``U12`` / ``F31`` the site lists linked."""
    listed = set(known)
    return _linked(text, _REFERENCE, lambda ref: reference(ref, listed))


def source(sid: str) -> Markup:
    """A source (``s000``) linked to its entry on the home page."""
    return link(f"{HOME}#{sid}", sid)


def with_sources(text: str, known: Iterable[str]) -> Markup:
    """``text`` escaped, with every source id (``s000``) the bibliography has linked."""
    listed = set(known)
    return _linked(text, _SOURCE, lambda sid: source(sid) if sid in listed else escape(sid))


def _linked(text: str, pattern: re.Pattern[str], make: Callable[[str], Markup]) -> Markup:
    out, last = [], 0
    for found in pattern.finditer(text):
        out += [escape(text[last : found.start()]), make(found.group(0))]
        last = found.end()
    return Markup("").join([*out, escape(text[last:])])
