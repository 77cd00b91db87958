"""The disagreement scenarios (rules-matrix §3, F01–F62) as a page with real cards.

The rules matrix is the project's research notebook; it lives next to the checkout,
not in it. When it is found, its §3 is parsed at build time and each scenario is shown
with its cards drawn as cards and every ruleset label linked to the ruleset (or house
rule) page. When it is not found the page says where the scenarios live, so a build
never depends on it. The conformance fixtures that will pin each scenario do not exist
yet; the page keeps a marked place for them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from schwimmen.docsgen.context import Site
from schwimmen.docsgen.fixturepages import kind_badge
from schwimmen.docsgen.markup import (
    DISAGREEMENTS,
    FIXTURES_INDEX,
    GUIDE_TEST,
    SCHEMA_REFERENCE,
    admonition,
    attr,
    cards_in,
    code,
    esc,
    fixture_page,
    house_rule_page,
    link,
    link_refs,
    param_anchor,
    rel,
    ruleset_page,
)
from schwimmen.docsgen.suite import Suite, scenario_numbers
from schwimmen.spec.parameters import PARAMETERS

# The matrix names rulesets by short labels (§1.3), the spec by ids; the table of labels
# is data (matrix-labels.json), so no ruleset is named in the package's code.
_LABELS = json.loads((Path(__file__).parent / "matrix-labels.json").read_text(encoding="utf-8"))
MATRIX_RULESETS: Mapping[str, str] = _LABELS["rulesets"]
MATRIX_OPTIONS: Mapping[str, str] = _LABELS["options"]
KINDS: Mapping[str, str] = {"E": "evaluation", "R": "round", "M": "match"}

_SECTION = re.compile(r"^## 3\.")
_END = re.compile(r"^## 4\.")
_SUBSECTION = re.compile(r"^### (3\.\d+) (.+)$")
_SCENARIO = re.compile(r"^\*\*(F\d\d) \(([ERM])\) — (.+?)\.?\*\*\s*(.*)$")
_DIMS = re.compile(r"Dims ([0-9., ]+);?")
_DECISION_TITLE = re.compile(r"^\*\*(U\d\d) — (.+?)\.?\*\*")
_QUOTE = re.compile(r"\[(\d{3}):(\d+)\] «([^»]*)»")
_REF = re.compile(r"\[(\d{3}):(\d+)\]")
_LABEL = re.compile(
    r"(?<![\w.-])(ALT|PAG|NL|TP|V41|HOSA|R001|G002|O003|SCAT)(\.[a-z][a-z0-9]*)?(?![\w])"
)
_FIXTURE = re.compile(r"\bF(\d\d)\b")


@dataclass
class Scenario:
    number: str
    kind: str
    title: str
    dims: tuple[str, ...]
    lines: list[str] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return self.number.lower()


@dataclass
class Section:
    number: str
    title: str
    scenarios: list[Scenario] = field(default_factory=list)


def parse_scenarios(matrix: str) -> list[Section]:
    """Split the matrix's §3 into sections and scenarios, keeping each scenario's lines."""
    sections: list[Section] = []
    inside = False
    current: Scenario | None = None
    for line in matrix.splitlines():
        if _SECTION.match(line):
            inside = True
            continue
        if not inside:
            continue
        if _END.match(line):
            break
        sub = _SUBSECTION.match(line)
        if sub:
            sections.append(Section(sub.group(1), sub.group(2)))
            current = None
            continue
        head = _SCENARIO.match(line)
        if head and sections:
            number, kind, title, rest = head.groups()
            dims = _DIMS.search(rest)
            found = tuple(d.strip() for d in dims.group(1).split(",") if d.strip()) if dims else ()
            current = Scenario(number, kind, title, tuple(d.rstrip(".") for d in found))
            depends = _DIMS.sub("", rest).strip(" ;.")
            if depends:
                current.lines.append(f"Depends on {depends}.")
            sections[-1].scenarios.append(current)
            continue
        if current is not None and line.strip() != "---":
            current.lines.append(line)
    return [s for s in sections if s.scenarios]


def decision_titles(matrix: str) -> dict[str, str]:
    """``U01`` → its title, from the matrix's §4 (``**U01 — title.**``)."""
    out: dict[str, str] = {}
    for line in matrix.splitlines():
        m = _DECISION_TITLE.match(line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def label_link(label: str, option: str | None, here: str, known: Collection[str]) -> str:
    """A matrix ruleset label (``PAG``, ``R001.knock2``) as a link to its page."""
    base = MATRIX_RULESETS[label]
    if option is None:
        return f"[{code(base)}]({rel(here, ruleset_page(base))})" if base in known else label
    full = label + option
    house = MATRIX_OPTIONS.get(full)
    if house is None or house not in known:
        return code(full)
    return f"[{code(base + '+' + house)}]({rel(here, house_rule_page(house))})"


def render_line(line: str, here: str, known: Collection[str], decisions: Collection[str]) -> str:
    """One matrix line with quotes, cards, ruleset labels, decisions and fixtures linked."""
    quotes: list[str] = []

    def keep_quote(m: re.Match[str]) -> str:
        source, number, quote = m.group(1), m.group(2), m.group(3)
        target = rel(here, f"index.md#s{source}")
        quotes.append(
            f'<span class="de-quote" lang="de">„{quote}“</span> '
            f"<small>([s{source}]({target}) line {number})</small>"
        )
        return f"\x00{len(quotes) - 1}\x00"

    text = _QUOTE.sub(keep_quote, line)
    text = _REF.sub(lambda m: f"s{m.group(1)} line {m.group(2)}", text)
    text = _LABEL.sub(lambda m: label_link(m.group(1), m.group(2), here, known), text)
    text = _FIXTURE.sub(lambda m: f"[F{m.group(1)}](#f{m.group(1)})", text)
    text = link_refs(text, here, decisions)
    text = cards_in(text)
    return re.sub("\x00(\\d+)\x00", lambda m: quotes[int(m.group(1))], text)


def _dims_links(dims: tuple[str, ...], here: str) -> str:
    params = [p for p in PARAMETERS if set(d.strip() for d in p.matrix.split(",")) & set(dims)]
    if not params:
        return ""
    links = ", ".join(
        link(here, f"{SCHEMA_REFERENCE}#{param_anchor(p.path)}", code(p.path)) for p in params
    )
    return f"<small>Rules it pins: {links}</small>\n{{: .dims }}"


def fixtures_block(number: str, suite: Suite, here: str) -> str:
    """The fixtures that pin scenario ``number`` (their ``disagreement`` names it), and
    those that only refer to it, as links to their pages."""
    pinned = suite.pinned.get(number, ())
    also = suite.mentioned.get(number, ())
    titles = {f.id: f for f in suite.fixtures}
    if not pinned and not also:
        return "<small>No conformance fixture pins this scenario yet.</small>\n{: .fx-none }\n"
    lines = [
        f"- {kind_badge(titles[i].kind)} {link(here, fixture_page(i), esc(titles[i].title))} "
        f"<small>{code(i)}</small>"
        for i in pinned
    ]
    if also:
        refs = ", ".join(
            f'[{code(i)}]({rel(here, fixture_page(i))} "{attr(titles[i].title)}")' for i in also
        )
        lines += ["", f"Also refers to it: {refs}."]
    count = len(pinned)
    title = (
        f"Pinned by {count} conformance fixture{'s' if count != 1 else ''}"
        if count
        else "Referred to by conformance fixtures"
    )
    return admonition("fixtures", title, "\n".join(lines))


def _suite_intro(suite: Suite | None, numbers: list[str], here: str) -> list[str]:
    if suite is None:
        return []
    pinned = [n for n in numbers if suite.pinned.get(n)]
    fixtures = sum(len(suite.pinned.get(n, ())) for n in numbers)
    return [
        f"Each scenario lists the {link(here, FIXTURES_INDEX, 'conformance fixtures')} that pin "
        f"it: {len(pinned)} of the {len(numbers)} scenarios are pinned by {fixtures} fixtures, "
        "which state the outcome under every ruleset with the sources' words.",
        "",
    ]


def _extra_scenarios(suite: Suite | None, known: set[str], here: str) -> list[str]:
    """Scenarios the fixtures name that the matrix (or its absence) does not show."""
    if suite is None:
        return []
    extra = sorted(n for n in scenario_numbers(suite) if n not in known)
    if not extra:
        return []
    out = ["## Scenarios named by the fixtures {#named-by-fixtures}", ""]
    for number in extra:
        out += [f"### {number} {{#{number.lower()}}}", "", fixtures_block(number, suite, here), ""]
    return out


def disagreements_markdown(
    site: Site, sections: list[Section] | None, looked_for: str, suite: Suite | None = None
) -> str:
    """The disagreements page; ``sections`` is None when the rules matrix was not found."""
    here = DISAGREEMENTS
    known = set(site.rulesets) | set(site.house_rules)
    numbers = [sc.number for section in sections or () for sc in section.scenarios]
    out = [
        "# Where the rulesets disagree",
        "",
        "Concrete situations in which the rulesets give different results: the cards dealt, "
        "the moves, and the outcome under each ruleset. They come from §3 of the project's "
        "rules matrix (scenarios F01–F62); outcomes marked with a U number depend on a "
        "decision where the sources are silent.",
        "",
        *_suite_intro(suite, numbers, here),
        f"See also {link(here, GUIDE_TEST, 'Test your implementation')}.",
        "",
    ]
    if sections is None:
        out += [
            '!!! info "The scenarios live in the rules matrix"',
            "",
            '    The rules matrix (`rules-matrix.md`, §3 "Disagreements as concrete '
            'scenarios") is not part of the repository and was not found when this site was '
            f"built (looked for: {code(looked_for)}). Build the site next to the workplace's "
            "`shared/` folder, or set `SCHWIMMEN_RULES_MATRIX` to the file, to show them here.",
            "",
        ]
        out += _extra_scenarios(suite, set(), here)
        return "\n".join(out)
    count = sum(len(s.scenarios) for s in sections)
    out += [
        f"{count} scenarios in {len(sections)} topics. Kinds: "
        + ", ".join(f"**{k}** {v}" for k, v in KINDS.items())
        + ".",
        "",
    ]
    for section in sections:
        out += [f"## {section.number} {section.title} {{#s{section.number.replace('.', '-')}}}", ""]
        for sc in section.scenarios:
            title = render_line(sc.title, here, known, site.decisions)
            out += [
                f"### {sc.number} — {title} {{#{sc.anchor}}}",
                "",
                f'<span class="fkind fkind-{sc.kind}">{KINDS[sc.kind]}</span> ',
                "",
            ]
            dims = _dims_links(sc.dims, here)
            if dims:
                out += [dims, ""]
            body = [render_line(line, here, known, site.decisions) for line in sc.lines]
            out += _ensure_blank_before_tables(body)
            out.append("")
            if suite is not None:
                out += [fixtures_block(sc.number, suite, here), ""]
    out += _extra_scenarios(suite, set(numbers), here)
    return "\n".join(out)


def _ensure_blank_before_tables(lines: list[str]) -> list[str]:
    """Markdown needs a blank line before a table; the matrix sometimes has none."""
    out: list[str] = []
    for line in lines:
        starts_table = line.startswith("|")
        if starts_table and out and out[-1].strip() and not out[-1].startswith("|"):
            out.append("")
        if not starts_table and out and out[-1].startswith("|") and line.strip():
            out.append("")
        out.append(line)
    return out
