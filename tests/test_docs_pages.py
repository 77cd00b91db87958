"""The hand-written pages under ``docs/`` say only what the program really does.

Their prose is Markdown a writer edits without Python, so nothing generates their option
tables or command lines any more: these tests hold them to the CLI's own parser instead
(an option the CLI lacks, or shows under another name, fails here, not on the site). They
read the Markdown files and need no MkDocs.
"""

from __future__ import annotations

import argparse
import itertools
import re
import shlex
from pathlib import Path

import pytest

from schwimmen.cli.main import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
OPTION_CELL = re.compile(r'^\| <span class="opt">`([^`]+)`</span> \|', re.M)


def subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser | None:
    """The parser of one subcommand (``conformance``), or None when the CLI has none."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(name)
    return None


def option_forms(parser: argparse.ArgumentParser) -> set[str]:
    """Every option of ``parser`` as an option table names it: its spellings, each with
    its value's name (``--ruleset RULESET``)."""
    forms = set()
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        names = list(action.option_strings) or [str(action.metavar or action.dest)]
        metavar = ""
        if action.option_strings and action.nargs != 0:
            metavar = " " + str(action.metavar or action.dest.upper())
        forms.add(", ".join(n + metavar for n in names))
    return forms


def _section(page: str, anchor: str) -> str:
    """The text of the section of ``page`` whose heading ends in ``{#anchor}``."""
    text = (DOCS / page).read_text(encoding="utf-8")
    sections = re.split(r"^(?=## )", text, flags=re.M)
    found = [s for s in sections if s.splitlines()[0].endswith(f"{{#{anchor}}}")]
    assert len(found) == 1, f"docs/{page} has no section {{#{anchor}}}"
    return found[0]


@pytest.mark.parametrize(
    ("page", "anchor", "command"),
    [
        ("guides/test-your-implementation.md", "run", "conformance"),
        ("guides/play-and-simulate.md", "play", "play"),
        ("guides/play-and-simulate.md", "simulate", "simulate"),
    ],
)
def test_option_tables_show_options_as_the_cli_has_them(
    page: str, anchor: str, command: str
) -> None:
    sub = subcommand(build_parser(), command)
    assert sub is not None, command
    shown = option_forms(sub)
    cells = OPTION_CELL.findall(_section(page, anchor))
    assert cells, f"docs/{page}#{anchor} has no option table"
    for cell in cells:
        assert cell in shown, f"docs/{page}#{anchor}: {cell!r} is not an option of {command}"


def test_the_commands_on_the_pages_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``schwimmen ...`` line in a sh block of a page parses with the CLI's parser."""
    parser = build_parser()
    monkeypatch.chdir(tmp_path)
    seen = 0
    for page in sorted(DOCS.rglob("*.md")):
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for line in block.splitlines():
                line = line.split("  #", 1)[0].strip()
                if not line.startswith("schwimmen "):
                    continue
                words = shlex.split(line)[1:]
                for option, value in itertools.pairwise(words):
                    if option == "--fixtures":
                        (tmp_path / value).mkdir(exist_ok=True)
                parser.parse_args(words)
                seen += 1
    assert seen >= 5


def _table(page: str, heading: str) -> list[list[str]]:
    """The rows of the first table after the line ``heading`` of ``page`` (Markdown)."""
    after = (DOCS / page).read_text(encoding="utf-8").split(f"\n{heading}\n", 1)[1]
    lines = after.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    block = list(itertools.takewhile(lambda line: line.startswith("|"), lines[start:]))
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in block[2:]]


def _code(cell: str) -> str:
    assert cell.startswith("`") and cell.endswith("`"), cell
    return cell.strip("`")


def test_the_engine_api_page_describes_the_real_api() -> None:
    """The page's hand-written tables (constructor, state, observation) name exactly what
    the engine has, with the defaults it has."""
    import inspect
    import random

    from schwimmen.docsgen import engineapi
    from schwimmen.engine.bots import RandomBot
    from schwimmen.engine.match import Match
    from schwimmen.protocol.actions import ActionKind
    from schwimmen.spec.loader import Catalog

    page = "reference/engine.md"
    signature = inspect.signature(Match.__init__).parameters
    params = [p for p in signature.values() if p.name != "self"]
    rows = _table(page, "## Creating a match")
    assert [_code(row[0]) for row in rows] == [p.name for p in params]
    for row, param in zip(rows, params, strict=True):
        default = "" if param.default is inspect.Parameter.empty else f"`{param.default!r}`"
        assert row[1] == default, param.name
    attributes = [_code(row[0]) for row in _table(page, "## State to read")]
    observed = {_code(row[0]) for row in _table(page, "## Observations")}
    for name in engineapi.METHODS:
        assert inspect.getdoc(getattr(Match, name)), f"Match.{name} has no docstring"
    catalog = Catalog.load()
    keys: set[str] = set()
    for name in ("pagat", "scat", "beginner-guide", "dutch"):
        match = Match(catalog.resolve(name), 4, seed=2)
        for attribute in attributes:
            assert hasattr(match, attribute), attribute
        bot = RandomBot(random.Random(3))
        for _ in range(300):
            if match.over:
                break
            for seat in range(4):
                keys |= set(match.observation(seat))
            match.apply(bot.choose(match))
    assert keys == observed
    texts = " ".join(form for form, _ in engineapi.action_rows())
    for kind in ActionKind:
        assert kind.value in texts, kind
    for cls in engineapi.event_classes():
        assert cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("), cls.__name__


def test_the_statistics_page_says_what_every_ending_means() -> None:
    """Each way a round can end, as the charts label it, is explained on the page."""
    from schwimmen.docsgen.statistics import REASONS, reason_label

    text = " ".join((DOCS / "compare" / "statistics.md").read_text(encoding="utf-8").split())
    for reason in REASONS:
        assert f"*{reason_label(reason)}*: " in text, reason


def test_generated_parts_are_merged_by_name_and_never_twice() -> None:
    from schwimmen.docsgen.site import DocsBuildError, merge_parts

    merged = merge_parts([{"count": "270"}, {"words": lambda language: f"in {language}"}])
    assert merged["count"]("de") == "270"
    assert merged["words"]("de") == "in de"
    with pytest.raises(DocsBuildError, match="'count'"):
        merge_parts([{"count": "270"}, {"count": "271"}])


def test_german_texts_use_the_words_of_their_source() -> None:
    """The glossary's ``avoid`` lists: no ruleset's German text uses a word its source
    does not use for the term (Klopfer for pagat.com's "schließen", schieben in the
    beginner's guide, "besonderes Blatt" for Tri Palki's "Sonderhand"), and the check
    names the file, the line and the word when one does."""
    from schwimmen.spec.loader import Catalog
    from schwimmen.spec.pagedata import Avoid, Term, glossary
    from schwimmen.spec.sourcewords import avoided_words, german_texts

    catalog = Catalog.load()
    terms = glossary()
    assert any(term.avoid for term in terms)
    assert avoided_words(catalog, terms) == []
    # a word pagat's German texts do use, planted as one to avoid, is found and located
    texts = [text for _, text in german_texts(catalog.rulesets["pagat"].data)]
    assert any("Mitte" in text for text in texts)
    planted = Term(
        "Tisch", "table", {"en": "x", "de": "y"}, avoid=(Avoid(("Mitte",), ("pagat",), "test"),)
    )
    found = avoided_words(catalog, [planted])
    assert found and all(e.file.endswith("pagat.yaml") and e.line > 0 for e in found)
    assert "„Mitte“" in str(found[0])
