"""The page layouts: Jinja templates beside this module (``templates/``).

A template lays out what the loader, the fixtures and the engine export; the words come
from ``spec/words.yaml`` (``say``) and the small pieces (cards, links) from
:mod:`schwimmen.docsgen.tags`. Templates write HTML (escaped by Jinja), which the page
carries past Markdown as a block (:mod:`schwimmen.docsgen.blocks`).
"""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from schwimmen.docsgen import markup, tags

FOLDER = Path(__file__).resolve().parent / "templates"


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(FOLDER),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=StrictUndefined,
    )
    env.globals.update(
        card=tags.card,
        cards=tags.cards,
        code=tags.code,
        link=tags.link,
        name_link=tags.name_link,
        reference=tags.reference,
        with_references=tags.with_references,
        source=tags.source,
        strong=tags.strong,
        fixture_page=markup.fixture_page,
        house_rule_page=markup.house_rule_page,
        ruleset_page=markup.ruleset_page,
    )
    return env


def render(name: str, language: str, **data: Any) -> str:
    """The template ``name`` filled with ``data``, its words in ``language``."""
    template = environment().get_template(name)
    return template.render(say=partial(tags.say, language=language), language=language, **data)
