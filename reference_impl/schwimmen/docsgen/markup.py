"""Small markdown and HTML building blocks shared by every generated page.

Everything that ends up on the site passes through these helpers, so escaping, the
look of a citation and the three provenance kinds are decided once. Text from the spec
files is user-written prose (quotes, readings, reasons): it is always escaped before it
is placed into markdown, so a ``*`` or ``|`` in a quote cannot break a table or a page.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from schwimmen.spec.model import ProvenanceKind
from schwimmen.spec.pagedata import words

# ----------------------------------------------------------------------------- paths
HOME = "index.md"
RULESETS_INDEX = "rulesets/index.md"
HOUSE_RULES_INDEX = "house-rules/index.md"
COMPARISON = "compare/index.md"
PAIRS_INDEX = "compare/pairs.md"
DISAGREEMENTS = "compare/disagreements.md"
GLOSSARY = "reference/glossary.md"
DECISIONS = "reference/decisions.md"
CLI_REFERENCE = "reference/cli.md"
ENGINE_API = "reference/engine.md"
SCHEMA_REFERENCE = "reference/schema.md"
GUIDE_HOUSE_RULE = "guides/add-a-house-rule.md"
GUIDE_TEST = "guides/test-your-implementation.md"
GUIDE_PLAY = "guides/play-and-simulate.md"
FIXTURES_INDEX = "fixtures/index.md"
STATISTICS = "compare/statistics.md"
CALCULATOR = "tools/calculator.md"  # written by hand in docs/
# The conformance suite's own documents, rendered under their file names so that the
# links between them (``PROTOCOL.md``, ``examples/minimal-adapter.mjs``) work on the site.
CONFORMANCE_DOCS: Mapping[str, str] = {
    "FIXTURES.md": "Fixture format",
    "PROTOCOL.md": "Protocol",
    "INTERPRETING.md": "Interpreting the suite",
    "ADAPTERS.md": "Writing an adapter",
    "FINGERPRINT.md": "What does my engine really play?",
}
ADAPTER_EXAMPLE = "conformance/examples/minimal-adapter.mjs"


def ruleset_page(rid: str) -> str:
    return f"rulesets/{rid}.md"


def house_rule_page(hid: str) -> str:
    return f"house-rules/{hid}.md"


def pair_page(a: str, b: str) -> str:
    return f"compare/pairs/{a}-vs-{b}.md"


def area_page(area: str) -> str:
    """The page of the fixtures of one area (``fixtures/round.md``)."""
    return f"fixtures/{area}.md"


def fixture_page(fid: str, case: int | None = None) -> str:
    """Where a fixture stands: on its area's page, under its name
    (``round/thirty-one-by-a-swap`` → ``fixtures/round.md#thirty-one-by-a-swap``), and
    where its ``case``-th case (from 1) does."""
    area, _, name = fid.partition("/")
    return f"{area_page(area)}#{name}" + (f"--case-{case}" if case else "")


def conformance_doc(name: str) -> str:
    return f"conformance/{name}"


def param_anchor(param: str) -> str:
    """The HTML id of a parameter's section (``cards.hand_size`` → ``cards-hand_size``).

    Dots are avoided because they would need escaping in CSS selectors and some tools
    treat them as separators.
    """
    return param.replace(".", "-")


def rel(here: str, target: str) -> str:
    """A link from the page ``here`` to ``target`` (both docs-relative ``.md`` paths,
    ``target`` optionally with ``#anchor``). MkDocs resolves relative ``.md`` links, so
    links stay valid whatever ``site_url`` and ``use_directory_urls`` say."""
    path, _, anchor = target.partition("#")
    link = _relative(path, here.rpartition("/")[0]) if path else ""
    return link + (f"#{anchor}" if anchor else "")


@lru_cache(maxsize=4096)
def _relative(path: str, folder: str) -> str:
    """``posixpath.relpath(path, folder)`` for the generator's normalized paths (a few
    thousand links a page set, each pair met many times)."""
    return posixpath.relpath(path, folder or ".")


# ----------------------------------------------------------------------------- escaping
_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}|])")


def esc(text: str) -> str:
    """Escape free text for inline markdown (and for a table cell)."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def attr(text: str) -> str:
    """Escape text for an HTML attribute value in double quotes."""
    return html.escape(" ".join(str(text).split()), quote=True)


def code(text: str) -> str:
    """Inline code; backticks inside are avoided by widening the fence."""
    text = str(text)
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def link(here: str, target: str, text: str) -> str:
    return f"[{text}]({rel(here, target)})"


def table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """A markdown table; cells must already be escaped markdown."""
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(c.replace("\n", " ") for c in row) + " |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- cards
SUIT_CLASS: Mapping[str, str] = {"♣": "clubs", "♠": "spades", "♥": "hearts", "♦": "diamonds"}
LETTER_SUIT: Mapping[str, str] = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def suit_symbols(text: str) -> str:
    """``C, S, H, D`` → ``♣ ♠ ♥ ♦`` for the suit parameters."""
    return " ".join(LETTER_SUIT.get(part.strip(), part.strip()) for part in text.split(","))


# ----------------------------------------------------------------------------- provenance
KIND_SYMBOL: Mapping[ProvenanceKind, str] = {
    ProvenanceKind.CITED: "❝",
    ProvenanceKind.INTERPRETED: "≈",
    ProvenanceKind.DEFAULT: "◇",
}


def decision_anchor(decision: str) -> str:
    return decision.lower()


def badge(kind: ProvenanceKind, decision: str | None = None, language: str = "en") -> str:
    """The coloured provenance badge; its tooltip says what the kind means."""
    say = words()
    label = say(f"kind.{kind.value}", language) + (f" {decision}" if decision else "")
    help_text = attr(say(f"kind.{kind.value}.help", language))
    return (
        f'<span class="prov prov-{kind.value}" title="{help_text}">'
        f"{KIND_SYMBOL[kind]} {label}</span>"
    )
