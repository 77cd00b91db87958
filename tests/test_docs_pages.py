"""The hand-written pages under ``docs/`` say only what the program really does.

Their prose is Markdown a writer edits without Python, so nothing generates their option
tables or command lines any more: these tests hold them to the CLI's own parser instead
(an option the CLI lacks, or shows under another name, fails here, not on the site). They
read the Markdown files and need no MkDocs.
"""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

import pytest

from schwimmen.cli.main import build_parser
from schwimmen.docsgen.reference import option_help, subcommand

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
OPTION_CELL = re.compile(r'^\| <span class="opt">`([^`]+)`</span> \|', re.M)


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
    shown = {form for form, _ in option_help(sub).values()}
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
