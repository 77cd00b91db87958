"""The variant finder's page (``docs/tools/finder.md``): the element its script fills
with the finder's export (:func:`schwimmen.spec.finder.export`), and the rulesets its
questions cannot tell apart."""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping

from schwimmen.docsgen.markup import ruleset_page
from schwimmen.spec.finder import (
    PAGE,
    Data,
    inseparable,
    pick,
    ruleset_entry,
    script_json,
    word,
)
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import PARAMETERS


def widget_markdown(data: Data, language: str) -> str:
    """The element the script fills, with the data it reads; a note without JavaScript."""
    return (
        '<div class="sw-finder" id="sw-finder">\n'
        f"<noscript><p>{_escape(word(data, 'no-script', language))}</p></noscript>\n"
        "</div>\n"
        f'<script type="application/json" id="sw-finder-data">{script_json(data)}</script>\n'
    )


def limits_markdown(
    data: Data,
    rulesets: Mapping[str, Ruleset],
    language: str,
    param_title: Callable[[str, str], str] | None = None,
) -> str:
    """Which rulesets the questions cannot tell apart, and the rules they differ in (named
    by ``param_title(path, language)``, the parameter's English title without it)."""
    groups = inseparable(data)
    if not groups:
        return word(data, "all-apart", language, n=str(len(data["rulesets"]))) + "\n"
    lines = [word(data, "together", language), ""]
    for group in groups:
        first = rulesets[group[0]].values()
        differ = [
            param_title(p.path, language) if param_title else p.title
            for p in PARAMETERS
            if any(rulesets[rid].values().get(p.path) != first.get(p.path) for rid in group)
        ]
        here = posixpath.dirname(PAGE)
        names = ", ".join(
            f"[{pick(ruleset_entry(data, rid)['title'], language)}]"
            f"({posixpath.relpath(ruleset_page(rid), here)})"
            for rid in group
        )
        lines.append(f"- {names}: {word(data, 'differ-in', language)} {', '.join(differ)}")
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
