"""MkDocs hooks: generate the site's pages from the spec loader at build time.

MkDocs loads this file through ``hooks:`` in ``mkdocs.yml``. It gathers the inputs
(the catalog, the guide's example, the disagreements and decisions of ``spec/``, the
comparison's words, the CLI parser, the JSON Schemas, the conformance fixtures through
their loader, the conformance documents and the adapter example), all from the
repository and nothing outside it, and hands them to
:func:`schwimmen.docsgen.site.build_site`, which turns them into pages (and runs the
engine for the disagreements and the simulator for the statistics); the command line's
own output for the play guide is made here, since the generator imports no command-line
code. The pages exist only in memory (and, by the content they were made from, in the
cache folder): nothing generated is written into ``docs/``. Any problem that would make
the site wrong (a spec error, a fixture that does not load, an example that does not
resolve, a wrong quote) stops the build with the loader's messages.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import logging
import os
import pickle
import re
import sys
import zlib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
import jinja2.bccache
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc
from mkdocs.utils import get_relative_url

# Document this checkout's spec: put its package first on the path when the docs are
# built from a checkout (an installed copy of the package is used otherwise).
_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "reference_impl" / "schwimmen").is_dir():
    sys.path.insert(0, str(_CHECKOUT / "reference_impl"))

from rich.console import Console  # noqa: E402
from rich.text import Text  # noqa: E402

from schwimmen.cli.main import build_parser  # noqa: E402
from schwimmen.cli.play_command import play  # noqa: E402
from schwimmen.cli.simulate_command import print_simulation, run_simulation  # noqa: E402
from schwimmen.conformance.fixtures import load_fixtures  # noqa: E402
from schwimmen.docsgen import playguide  # noqa: E402
from schwimmen.docsgen.blocks import anchors, contents, resolve, stash, unstash  # noqa: E402
from schwimmen.docsgen.fixturepages import SearchEntry  # noqa: E402
from schwimmen.docsgen.inserts import fill  # noqa: E402
from schwimmen.docsgen.inserts import markers as _markers  # noqa: E402
from schwimmen.docsgen.markup import ADAPTER_EXAMPLE, CONFORMANCE_DOCS  # noqa: E402
from schwimmen.docsgen.memo import (  # noqa: E402
    code,
    digest,
    kept,
    package,
    remembered,
    settings_of,
)
from schwimmen.docsgen.playguide import PlayedExamples  # noqa: E402
from schwimmen.docsgen.rebuild import (  # noqa: E402
    Built,
    in_page_order,
    page_fingerprint,
    search_key,
    site_fingerprint,
)
from schwimmen.docsgen.searchrank import split_index  # noqa: E402
from schwimmen.docsgen.site import (  # noqa: E402
    DocsBuildError,
    SiteInput,
    SiteOutput,
    build_site,
    forget_data,
    resolve_example,
)
from schwimmen.resources import conformance_dir, schema_dir, sources_dir, spec_dir  # noqa: E402
from schwimmen.spec.decisions import load_decisions  # noqa: E402
from schwimmen.spec.disagreements import load_disagreements  # noqa: E402
from schwimmen.spec.errors import SpecErrors  # noqa: E402
from schwimmen.spec.finder import DATA as FINDER_DATA  # noqa: E402
from schwimmen.spec.finder import load_finder  # noqa: E402
from schwimmen.spec.glance import load_glance  # noqa: E402
from schwimmen.spec.loader import Catalog  # noqa: E402
from schwimmen.spec.model import Ruleset  # noqa: E402

EXAMPLE = Path("examples") / "house-rule-example.yaml"
SEARCH_INDEX = Path("search") / "search_index.json"
PUBLISHED_SCHEMAS = ("protocol.schema.json", "fixture.schema.json", "ruleset.schema.json")

log = logging.getLogger("mkdocs.plugins.schwimmen")
_state: dict[str, Any] = {}


def _gather(config: MkDocsConfig) -> SiteInput:
    example_path = Path(config.docs_dir) / EXAMPLE
    if not example_path.is_file():
        raise DocsBuildError(f"the guide's example {example_path} is missing")
    catalog = Catalog.load()
    for notice in catalog.notices:
        log.info(str(notice))
    example = resolve_example(catalog, example_path)
    disagreements, data_problems = load_disagreements(bibliography=catalog.bibliography)
    decisions, more = load_decisions()
    data_problems += more
    if data_problems:
        raise DocsBuildError(
            "the disagreements or decisions do not load:\n"
            + "\n".join(str(p) for p in data_problems)
        )
    house_dir = spec_dir() / "house-rules"
    texts = {
        hid: (house_dir / f"{hid}.yaml").read_text(encoding="utf-8")
        for hid in catalog.house_rules
        if (house_dir / f"{hid}.yaml").is_file()
    }
    schema = json.loads((schema_dir() / "ruleset.schema.json").read_text(encoding="utf-8"))
    fixtures, problems = load_fixtures()
    if problems:
        raise DocsBuildError(
            "the conformance fixtures do not load:\n" + "\n".join(str(p) for p in problems)
        )
    suite_dir = conformance_dir()
    docs = {
        name: (suite_dir / name).read_text(encoding="utf-8")
        for name in CONFORMANCE_DOCS
        if (suite_dir / name).is_file()
    }
    adapter_file = suite_dir / "examples" / Path(ADAPTER_EXAMPLE).name
    adapter = adapter_file.read_text(encoding="utf-8") if adapter_file.is_file() else None
    try:
        glance = load_glance()
    except SpecErrors as exc:
        raise DocsBuildError(f"the comparison's words do not load:\n{exc}") from None
    # Files the conformance documents link to, published as they are.
    static = {
        f"schemas/{name}": (schema_dir() / name).read_text(encoding="utf-8")
        for name in PUBLISHED_SCHEMAS
        if (schema_dir() / name).is_file()
    }
    # The example engines, so that the guide's links to their files work on the site.
    examples = suite_dir / "examples"
    for path in sorted(examples.rglob("*.mjs")):
        static[f"conformance/examples/{path.relative_to(examples).as_posix()}"] = path.read_text(
            encoding="utf-8"
        )
    try:
        finder = load_finder(Path(config.docs_dir) / FINDER_DATA, f"docs/{FINDER_DATA}")
    except SpecErrors as exc:
        raise DocsBuildError(f"the variant finder's questions do not load:\n{exc}") from None
    return SiteInput(
        played=_played(catalog, example.base),
        catalog=catalog,
        example_text=example_path.read_text(encoding="utf-8"),
        example=example,
        cli_parser=build_parser(),
        schema=schema,
        house_rule_texts=texts,
        disagreements=disagreements,
        decisions=decisions,
        fixtures=fixtures,
        conformance_docs=docs,
        adapter_example=adapter,
        static_files=static,
        glance=glance,
        finder=finder,
    )


def _played(catalog: Catalog, game: str) -> PlayedExamples | None:
    """The command line's own output for the play guide: the first round of a scripted
    game of ``schwimmen play`` and the table of ``schwimmen simulate``, both in the
    ruleset of the guide's example (the generator imports no command-line code); from
    the build cache while the ruleset's values and the code that plays and prints are as
    they were."""
    if game not in catalog.rulesets:
        return None
    ruleset = catalog.resolve(game)

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "settings", settings_of(ruleset)
        yield "rich", metadata.version("rich").encode()
        commands = sorted((Path(playguide.__file__).parent.parent / "cli").glob("*.py"))
        yield from code("docsgen/playguide", *(f"cli/{path.stem}" for path in commands))

    return kept(f"played-{game}", inputs, lambda: _play(ruleset, game), PlayedExamples)


def _play(ruleset: Ruleset, game: str) -> PlayedExamples:
    """The scripted game and the simulation of :func:`_played`, run."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=78, color_system=None, force_terminal=False)
    answers: Iterator[str] = iter(playguide.GAME_ANSWERS)

    def read(prompt: str) -> str:
        answer = next(answers, "quit")
        console.print(Text(prompt + answer))
        return answer

    play(ruleset, 4, 0, playguide.GAME_SEED, "greedy", console, read)
    transcript = playguide.transcript_of(buffer.getvalue().rstrip().splitlines())
    data = run_simulation(
        ruleset,
        4,
        playguide.SIMULATE_MATCHES,
        playguide.SIMULATE_SEED,
        1,
        playguide.SIMULATE_SAMPLE,
        quiet=True,
    )
    buffer = io.StringIO()
    print_simulation(
        Console(file=buffer, width=80, color_system=None, force_terminal=False), data, "text"
    )
    return PlayedExamples(transcript, playguide.simulate_command(game), buffer.getvalue().rstrip())


def _kept(config: MkDocsConfig) -> SiteOutput:
    """:func:`_generate`, or the site an earlier build generated from the same files and
    the same code (kept compressed in the user's cache folder: a few MB)."""

    def inputs() -> Iterator[tuple[str, bytes]]:
        yield "files", _inputs_digest(config).encode()
        yield from package()

    def build() -> bytes:
        return zlib.compress(pickle.dumps(_generate(config)), 1)

    output = pickle.loads(zlib.decompress(kept("site", inputs, build, bytes)))
    if not isinstance(output, SiteOutput):
        raise PluginError("schwimmen docs: the kept site is not a site; remove the cache")
    return output


def _generate(config: MkDocsConfig) -> SiteOutput:
    """Every generated page and part, from the files as they are now."""
    forget_data()
    return build_site(_gather(config))


def _i18n(config: MkDocsConfig) -> Any:
    """The languages plugin (mkdocs-static-i18n), if configured."""
    return config.plugins.get("i18n")


def _building_another_language(config: MkDocsConfig) -> bool:
    """True while the languages plugin builds a further language into the same site: it
    runs a whole MkDocs build per language, and the generated pages do not change between
    them."""
    return bool(getattr(_i18n(config), "building", False)) and "output" in _state


def _inputs_digest(config: MkDocsConfig) -> str:
    """A hash of every file the generator reads (the spec, the schemas, the suite, the
    source texts, the guide's example and the finder's data) and the settings that choose
    them: the same digest in one process means the same generated site."""
    docs = Path(config.docs_dir)
    folders = [spec_dir(), schema_dir(), conformance_dir(), sources_dir()]
    folders += [docs / EXAMPLE.parent, docs / Path(FINDER_DATA).parent]
    settings = [f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("SCHWIMMEN_")]
    return digest(folders, [str(_CHECKOUT), *settings])


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate every page once per build and set the navigation from the catalog. A
    reload of ``mkdocs serve`` after an edit of a hand-written page reads the same files:
    it takes the pages generated last time in this process instead of generating them
    again (:func:`schwimmen.docsgen.memo.remembered`)."""
    if not _building_another_language(config):
        # ``mkdocs serve`` generates the site itself at its start, rather than take it from
        # the cache folder: what generating leaves in this process (the pages of the areas,
        # the suite's plan, the engine's answers) makes its reloads after an edit of the
        # spec generate only what the edit changed.
        make = _generate if _SERVING.get("command") == "serve" else _kept
        try:
            output = remembered("site", _inputs_digest(config), lambda: make(config))
        except DocsBuildError as exc:
            raise PluginError(f"schwimmen docs: {exc}") from None
        _state["output"] = output
        _state["used"] = set()
        _state["pending"] = {}
        _state["order"] = []
    config.nav = copy.deepcopy(_state["output"].nav)
    _record_search(config)
    return config


@event_priority(50)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages (nothing is written into docs/).

    This runs before the languages plugin sorts the files by language (it runs last, at
    priority -100), so it sees the generated pages and their German variants
    (``page.de.md``) as if they stood in docs/. The plugin rebuilds each file from its path
    under docs/, which would lose an in-memory content, so the pages are added as files of
    docs/ and their content is attached after the sorting, in :func:`on_nav`.
    """
    output: SiteOutput = _state["output"]
    content: dict[str, str] = {}
    for page in output.pages:
        existing = files.get_file_from_path(page.path)
        if existing is not None:
            raise PluginError(
                f"schwimmen docs: docs/{page.path} exists but the page is generated; remove it"
            )
        inclusion = InclusionLevel.UNDEFINED if page.in_nav else InclusionLevel.NOT_IN_NAV
        files.append(
            File(
                page.path,
                config.docs_dir,
                config.site_dir,
                config.use_directory_urls,
                inclusion=inclusion,
            )
        )
        content[page.path] = page.markdown
    _state["content"] = content
    return files


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Give the generated files their content (see :func:`on_files`); the files the
    languages plugin kept for this language are the ones MkDocs renders and copies.

    A page with no version in the language being built (a fixture, a reference page) is
    not built again under that language's folder: its file is left out of the build and
    points at the default language's page, so the navigation and every link of this
    language's pages lead there (MkDocs still checks that the page exists). The plugin
    would otherwise render each such page a second time, the same English page under
    ``de/``: a third of the site's size and of its build."""
    _state["targets"] = {}  # each language's build finds the files in its own language
    content: dict[str, str] = _state["content"]
    for file in files:
        text = content.get(file.src_uri)
        if text is not None:
            file.content_string = text
    language = _building_language(config)
    if language is not None:
        for file in files.documentation_pages():
            if getattr(file, "locale", language) != language:
                _point_at_default_language(file, language)
                _ELSEWHERE.targets.add(file.src_uri)
    _fingerprint_pages(config, files, language or "")
    return nav


class _LinkedElsewhere(logging.Filter):
    """MkDocs says of every link to a file left out of a build that it leads to a page
    "excluded from the built site"; of a page served in the default language only, which
    the link reaches there (:func:`on_nav`), that is not so, and fifty such lines hid the
    build's real messages."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not message.endswith("which is excluded from the built site."):
            return True
        return message.split("' which is excluded", 1)[0].rsplit("'", 1)[-1] not in self.targets


_ELSEWHERE = _LinkedElsewhere()


class _DirtyIsExact(logging.Filter):
    """MkDocs warns that a ``--dirty`` build "will likely lead to inaccurate navigation and
    other links", since it builds only the pages whose file is newer than their output.
    Here each page says itself whether its output would change (:func:`_fingerprint_pages`),
    navigation and links included, so the warning is not so; it would also stop
    ``mkdocs serve --dirty --strict`` at every build."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


_BUILD_LOG = logging.getLogger("mkdocs.commands.build")
for _old in [f for f in _BUILD_LOG.filters if type(f).__name__ == "_DirtyIsExact"]:
    _BUILD_LOG.removeFilter(_old)
_BUILD_LOG.addFilter(_DirtyIsExact())
_PAGES_LOG = logging.getLogger("mkdocs.structure.pages")
# ``mkdocs serve`` loads this file again for every build: one filter, the newest
for _old in [f for f in _PAGES_LOG.filters if type(f).__name__ == "_LinkedElsewhere"]:
    _PAGES_LOG.removeFilter(_old)
_PAGES_LOG.addFilter(_ELSEWHERE)


def _building_language(config: MkDocsConfig) -> str | None:
    """The language the languages plugin is building, when it is not the default one."""
    i18n = _i18n(config)
    if i18n is None or not getattr(i18n, "building", False):
        return None
    return str(i18n.current_language)


def _point_at_default_language(file: File, language: str) -> None:
    """Leave ``file`` (a page that falls back to the default language) out of this
    language's build, its address the default language's page."""
    prefix = f"{language}/"
    file.inclusion = InclusionLevel.EXCLUDED
    file.dest_uri = file.dest_uri.removeprefix(prefix)
    file.url = file.url.removeprefix(prefix)


def _language(page: Page) -> str:
    """The language a page is written in: the languages plugin's ``locale`` of its file
    (a German page's English fallback is English), English without the plugin."""
    return str(getattr(page.file, "locale", None) or "en")


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill the ``<!-- insert: NAME -->`` lines of a hand-written page with the parts
    generated from the spec, in the page's language; a marker naming no part stops the
    build with file and line. The HTML blocks of a page (:mod:`schwimmen.docsgen.blocks`)
    are kept aside until Markdown has converted the rest (:func:`on_page_content`)."""
    if page.file.src_uri not in _state["content"]:
        output: SiteOutput = _state["output"]
        parts = {name: output.insert(name) for name in output.inserts}
        filled, problems = fill(markdown, parts, page.file.src_uri, _language(page))
        if problems:
            raise PluginError("schwimmen docs: " + "; ".join(str(p) for p in problems))
        used = {name for _, name in _markers(markdown)}
        _state["used"].update(used)
        _state["inserts"][page.file.dest_uri] = frozenset(used)
        markdown = filled
    markdown, kept = stash(markdown)
    if kept:
        _state.setdefault("blocks", {})[page.file.src_uri] = kept
    return markdown


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Put the page's HTML blocks back, each link in them resolved as MkDocs resolves a
    Markdown link (a missing page is a warning, which fails a strict build) and each id
    in them known to MkDocs' check of links to anchors."""
    kept = _state.get("blocks", {}).pop(page.file.src_uri, None)
    if not kept:
        return html
    resolved = []
    for html_block in kept:
        text, missing = resolve(html_block, lambda path, anchor: _url(page, files, path, anchor))
        for target in missing:
            log.warning(
                f"Doc file '{page.file.src_uri}' contains a generated link to '{target}', "
                "but the target is not found among documentation files."
            )
        resolved.append(text)
    if page.present_anchor_ids is not None:
        for text in resolved:
            page.present_anchor_ids |= anchors(text)
    html = unstash(html, resolved)
    if any("data-toc" in text for text in resolved):
        page.toc = get_toc(contents(html, {item.id for item in _flat(page.toc)}))
    return html


def _flat(toc: Any) -> Iterator[Any]:
    for item in toc:
        yield item
        yield from _flat(item.children)


def _url(page: Page, files: Files, path: str, anchor: str) -> str | None:
    """The address of ``path#anchor`` (a file under docs/) from ``page``, in the page's
    language where the target has a version in it; None if no page is there."""
    targets: dict[str, File | None] = _state["targets"]
    if path and path not in targets:
        targets[path] = files.get_file_from_path(path)
    target = targets[path] if path else page.file
    if target is None:
        return None
    if anchor and page.links_to_anchors is not None:
        original = f"{path}#{anchor}"
        page.links_to_anchors.setdefault(target, {}).setdefault(anchor, original)
    url = _relative_url(target.url, page.file.url) if path else ""
    return url + (f"#{anchor}" if anchor else "")


@functools.lru_cache(maxsize=8192)
def _relative_url(url: str, other: str) -> str:
    return get_relative_url(url, other)


def on_page_context(
    context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation
) -> dict[str, Any]:
    """Make the language switch's links relative, the home page's too (the languages plugin
    leaves ``/`` and ``/de/`` there, which break when the site is served below a path).
    A page with no version in a language leads to that language's home page."""
    alternates = getattr(page.file, "alternates", None)
    # The plugin sets ``extra.alternate`` as an attribute, which the template reads first.
    switch = getattr(config.extra, "alternate", None) or config.extra.get("alternate") or ()
    i18n = _i18n(config)
    default = str(i18n.default_language) if i18n is not None else "en"
    for alternate in switch:
        lang = alternate.get("lang")
        target = (alternates or {}).get(lang)
        if target is None:
            continue
        if lang != default and getattr(target, "locale", lang) != lang:
            alternate["link"] = f"{lang}/"
        else:
            alternate["link"] = target.url or "./"
    return context


def on_template_context(
    context: dict[str, Any], template_name: str, config: MkDocsConfig
) -> dict[str, Any]:
    """The page "not found" is served at any address that leads nowhere, so its language
    switch leads to each language's home page. The switch's links are set anew for every
    page (:func:`on_page_context`) and this page is made after them all: without this it
    led where the last page built led (after a full build, English meant the fingerprint
    guide; after a reload of ``serve --dirty``, whichever page was edited last)."""
    if template_name != "404.html":
        return context
    switch = getattr(config.extra, "alternate", None) or config.extra.get("alternate") or ()
    i18n = _i18n(config)
    default = str(i18n.default_language) if i18n is not None else "en"
    base = urlsplit(config.site_url or "/").path.rstrip("/") + "/"
    for alternate in switch:
        lang = alternate.get("lang")
        if lang:
            alternate["link"] = base if lang == default else f"{base}{lang}/"
    return context


# The theme's head links to the other languages (``<link rel="alternate" hreflang=…>``).
_HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Let the language switch's links lead straight to the same page in the other language.

    The theme's script takes the head's alternate links for language roots, fetches a
    ``sitemap.xml`` beside each and, on a click, looks the page up there; with links to
    pages it fetches files that do not exist, and without a ``site_url`` the site map
    cannot name the pages. Without the head links the script stays out of the way and the
    switch's own links (set in :func:`on_page_context`) are followed as they are.
    """
    _remember(page)
    return _HEAD_ALTERNATE.sub("", output)


@event_priority(-110)
def on_post_build(config: MkDocsConfig) -> None:
    """Once the last language is built (this runs after the languages plugin, at -100,
    which builds the other languages and writes one search index for all of them):

    * every generated part must stand on some page of some language: one no page asks
      for is a table the site silently lost;
    * the index is split into one per language: ``de/search/search_index.json`` for the
      German pages, whose theme configuration points their search there
      (``overrides/main.html``)."""
    i18n = _i18n(config)
    if i18n is not None and getattr(i18n, "building", False):
        return
    output: SiteOutput = _state["output"]
    _BUILT.update(_state["pending"])
    _state["pending"] = {}
    used = set(_state["used"]).union(*(r.inserts for r in _BUILT.values()))
    unused = sorted(set(output.inserts) - used)
    if unused:
        raise PluginError(
            "schwimmen docs: generated parts no page in docs/ inserts: " + ", ".join(unused)
        )
    if i18n is None:
        return
    others = [lang for lang in i18n.build_languages if lang != i18n.default_language]
    merged = Path(config.site_dir) / SEARCH_INDEX
    if not others or not merged.is_file():
        return
    index = json.loads(merged.read_text(encoding="utf-8"))
    index["docs"] = in_page_order(index["docs"], _state["order"])
    index["docs"] += [_search_entry(entry, config) for entry in output.search]
    split = split_index(index, others)
    for folder, index in split.items():
        target = Path(config.site_dir) / folder / SEARCH_INDEX
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
        )


def _search_entry(entry: SearchEntry, config: MkDocsConfig) -> dict[str, Any]:
    """A search entry the generator made (the fixtures), located as the theme's are."""
    url = File(entry.page, config.docs_dir, config.site_dir, config.use_directory_urls).url
    location = url + (f"#{entry.anchor}" if entry.anchor else "")
    return {"location": location, "title": entry.title, "text": entry.text, "boost": entry.boost}


# ---------------------------------------------------------------- mkdocs serve --dirty
# What each page's last build left, by its place in the site (``de/rulesets/pagat/...``):
# kept for the life of the process (MkDocs loads this file once per process and keeps it
# between the builds of ``mkdocs serve``).
_BUILT: dict[str, Built] = {}


def _fingerprint_pages(config: MkDocsConfig, files: Files, language: str) -> None:
    """Say for each page of this language whether its output can have changed since it
    was last built (MkDocs asks ``File.is_modified`` under ``--dirty``, and builds only
    the pages that say yes): a page is unchanged when its own Markdown (the generated
    text, or the file with its inserts filled in this language) and everything every page
    shows (the navigation and the titles in it, the files and their addresses, the
    configuration, the theme's overrides, this hook) are as they were, and its output is
    still there. A plain build asks nothing of this and builds every page."""
    output: SiteOutput = _state["output"]
    parts = {name: output.insert(name) for name in output.inserts}
    pages: dict[str, str] = {}
    generated: dict[str, str] = _state["content"]
    for file in files.documentation_pages(inclusion=lambda _: True):
        text = file.content_string
        if file.src_uri not in generated:
            text, _ = fill(text, parts, file.src_uri, getattr(file, "locale", None) or "en")
        pages[file.dest_uri] = text
    common = [
        language,
        Path(config.config_file_path or "").read_text(encoding="utf-8"),
        Path(__file__).read_text(encoding="utf-8"),
        *(f"{f.src_uri} {f.dest_uri} {f.inclusion} {getattr(f, 'locale', '')}" for f in files),
    ]
    content = site_fingerprint(common, {})
    nav = json.dumps(config.nav, sort_keys=True, default=str)
    shared = site_fingerprint([*common, nav, digest([Path(config.theme.custom_dir or "")])], pages)
    _state["populating"] = True
    for file in files.documentation_pages(inclusion=lambda _: True):
        text = pages[file.dest_uri]
        fingerprint = page_fingerprint(shared, file.dest_uri, text)
        own = page_fingerprint(content, file.dest_uri, text)
        _state["fingerprints"][file.dest_uri] = (fingerprint, own)
        file.is_modified = functools.partial(_modified, file, fingerprint, own)  # type: ignore[method-assign]


def _modified(file: File, fingerprint: str, content: str) -> bool:
    """Whether MkDocs must read and build the page again. A page whose own content
    (:func:`_fingerprint_pages`: its Markdown, the files and their addresses, the
    configuration, this hook) is as it was, but not what every page shows (a title in the
    navigation changed), is not read again: its Markdown is not converted again
    (:data:`_CONTENT`, given back in :func:`on_env`), only its page is written again with
    the new navigation."""
    built = _BUILT.get(file.dest_uri)
    if built is None or not os.path.isfile(file.abs_dest_path):
        return True
    if built.fingerprint == fingerprint:
        return False
    kept = _CONTENT.get(file.dest_uri)
    return not (_state.get("populating") and kept is not None and kept[0] == content)


def on_env(env: Any, config: MkDocsConfig, files: Files) -> Any:
    """A page ``--dirty`` left as it was (:func:`_fingerprint_pages`) was not read: give it
    what the pages that are built again show or check of it, as its last build left it
    (its title in their navigation, its anchors and its links for the check of anchors,
    its search entries), and note the order of the pages for the search index. The
    theme's templates are compiled once per process (:class:`_Compiled`)."""
    env.bytecode_cache = _COMPILED
    _state["populating"] = False
    search = _search_index(config)
    by_path = {file.src_uri: file for file in files}
    for file in files.documentation_pages():
        page = file.page
        if page is None:
            continue
        _state["order"].append(page.url)
        built = _BUILT.get(file.dest_uri)
        if page.markdown is not None or built is None:
            continue
        again = file.is_modified()
        if again:
            # its content as it was (:func:`_modified`), written with a new navigation (its
            # title: from the navigation, or from its content as before)
            _, page.markdown, meta, page.content, page.toc, title = _CONTENT[file.dest_uri]
            page.meta, page._title_from_render = dict(meta), title
            _state["inserts"][file.dest_uri] = built.inserts
        else:
            page.title = built.title  # type: ignore[assignment]
        page.present_anchor_ids = set(built.anchors)
        page.links_to_anchors = {}
        for target, anchor, original in built.links:
            to = by_path.get(target)
            if to is not None:
                page.links_to_anchors.setdefault(to, {})[anchor] = original
        if again:
            continue
        if search is not None:
            search.entries.extend(dict(e) for e in built.entries)
        _state["pending"][file.dest_uri] = built
    return env


class _Compiled(jinja2.BytecodeCache):
    """The theme's templates compiled once per process: MkDocs makes a new template
    environment for every build (two per reload, one per language), which compiled the
    same templates again each time (Jinja names each by its source's checksum)."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _Compiled()


def _remember(page: Page) -> None:
    """What this page's build leaves for a later ``--dirty`` build (:func:`on_env`)."""
    dest = page.file.dest_uri
    fingerprints = _state["fingerprints"].get(dest)
    if fingerprints is None:
        return
    fingerprint, content = fingerprints
    _CONTENT[dest] = (
        content,
        page.markdown,
        dict(page.meta),
        page.content,
        page.toc,
        page._title_from_render,
    )
    links = tuple(
        (to.src_uri, anchor, original)
        for to, anchors in (page.links_to_anchors or {}).items()
        for anchor, original in anchors.items()
    )
    _state["pending"][dest] = Built(
        fingerprint=fingerprint,
        title=page.title,
        anchors=frozenset(page.present_anchor_ids or ()),
        links=links,
        entries=tuple(_state["entries"].pop(dest, ())),
        inserts=_state["inserts"].pop(dest, frozenset()),
    )


def _search_index(config: MkDocsConfig) -> Any:
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    return getattr(plugin, "search_index", None)


def _record_search(config: MkDocsConfig) -> None:
    """Keep each page's search entries (:func:`_remember`) and take them from the last
    build of the same content (the theme parses every page's HTML for them: a third of
    rendering). The theme's own handling of ``--dirty`` (it keeps the last index and
    replaces one page's entries) is turned off: the entries of every page left as it was
    are added here (:func:`on_env`)."""
    _state["fingerprints"] = {}
    _state.setdefault("entries", {})
    _state.setdefault("inserts", {})
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    index = getattr(plugin, "search_index", None)
    if index is None:
        return
    plugin.is_dirty = False  # type: ignore[union-attr]
    plugin.search_index_prev = None  # type: ignore[union-attr]
    add = index.add_entry_from_context

    def recorded(page: Page) -> None:
        key = search_key(page.url, page.content or "", page.title, page.meta, _toc(page.toc))
        found = _ENTRIES.get(key)
        if found is None:
            before = len(index.entries)
            add(page)
            found = _ENTRIES[key] = tuple(dict(e) for e in index.entries[before:])
        else:
            index.entries.extend(dict(e) for e in found)
        _state["entries"][page.file.dest_uri] = found

    index.add_entry_from_context = recorded


# Each page's content as its last build made it, by its place in the site: the hash of what
# it was made from (:func:`_modified`), its Markdown, front matter, HTML, table of contents
# and the title its first heading gives.
_CONTENT: dict[str, tuple[str, str | None, dict[str, Any], str | None, Any, str | None]] = {}

# The search entries of a page's content, by its hash (:func:`_record_search`).
_ENTRIES: dict[str, tuple[dict[str, Any], ...]] = {}


def _toc(toc: Any) -> list[Any]:
    return [[item.title, item.id, item.url, item.level, _toc(item.children)] for item in toc]


_SERVING: dict[str, str] = {}


def on_startup(command: str, dirty: bool) -> None:
    """Note which command runs the builds (see :func:`on_config`)."""
    _SERVING["command"] = command


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    """``mkdocs serve`` rebuilds when the spec, the schemas or the conformance suite change,
    not only docs/."""
    for folder in (spec_dir(), schema_dir(), conformance_dir()):
        server.watch(str(folder))
    return server
