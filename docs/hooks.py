"""MkDocs hooks: generate the site's pages from the spec loader at build time.

MkDocs loads this file through ``hooks:`` in ``mkdocs.yml``. It gathers the inputs
(the catalog, the guide's example, the rules matrix if found, the CLI parser, the JSON
Schemas, the conformance fixtures through their loader, the conformance documents and the
adapter example) and hands them to :func:`schwimmen.docsgen.site.build_site`, which turns
them into markdown (and runs the simulator for the statistics). The pages exist only in
memory: nothing generated is written into ``docs/``. Any problem that would make the site
wrong (a spec error, a fixture that does not load, an example that does not resolve, a
wrong quote) stops the build with the loader's messages.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

# Document this checkout's spec: put its package first on the path when the docs are
# built from a checkout (an installed copy of the package is used otherwise).
_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "reference_impl" / "schwimmen").is_dir():
    sys.path.insert(0, str(_CHECKOUT / "reference_impl"))

from schwimmen.cli.main import build_parser  # noqa: E402
from schwimmen.conformance.fixtures import load_fixtures  # noqa: E402
from schwimmen.docsgen.finder import DATA as FINDER_DATA  # noqa: E402
from schwimmen.docsgen.finder import load_finder  # noqa: E402
from schwimmen.docsgen.inserts import fill  # noqa: E402
from schwimmen.docsgen.inserts import markers as _markers  # noqa: E402
from schwimmen.docsgen.markup import ADAPTER_EXAMPLE, CONFORMANCE_DOCS  # noqa: E402
from schwimmen.docsgen.site import (  # noqa: E402
    DocsBuildError,
    SiteInput,
    SiteOutput,
    build_site,
    resolve_example,
)
from schwimmen.resources import conformance_dir, schema_dir, sources_dir, spec_dir  # noqa: E402
from schwimmen.spec.errors import SpecErrors  # noqa: E402
from schwimmen.spec.loader import Catalog  # noqa: E402

EXAMPLE = Path("examples") / "house-rule-example.yaml"
PUBLISHED_SCHEMAS = ("protocol.schema.json", "fixture.schema.json", "ruleset.schema.json")
MATRIX_ENV = "SCHWIMMEN_RULES_MATRIX"

log = logging.getLogger("mkdocs.plugins.schwimmen")
_state: dict[str, Any] = {}


def _matrix_path() -> Path:
    """Where the rules matrix is looked for: ``$SCHWIMMEN_RULES_MATRIX``, else next to the
    source texts (the workplace's ``shared/`` folder), else ``../shared`` of the checkout."""
    configured = os.environ.get(MATRIX_ENV)
    if configured:
        return Path(configured)
    texts = sources_dir()
    if texts is not None:
        return texts.parent / "rules-matrix.md"
    return _CHECKOUT.parent / "shared" / "rules-matrix.md"


def _gather(config: MkDocsConfig) -> SiteInput:
    example_path = Path(config.docs_dir) / EXAMPLE
    if not example_path.is_file():
        raise DocsBuildError(f"the guide's example {example_path} is missing")
    catalog = Catalog.load()
    for notice in catalog.notices:
        log.info(str(notice))
    # Resolving a file path registers the file in the catalog, so the example is resolved
    # on a scratch catalog and never shows up among the spec's house rules.
    example = resolve_example(Catalog.load(), example_path)
    matrix = _matrix_path()
    matrix_text = matrix.read_text(encoding="utf-8") if matrix.is_file() else None
    if matrix_text is None:
        log.info(f"rules matrix not found at {matrix}: the disagreements page says where it lives")
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
        catalog=catalog,
        example_text=example_path.read_text(encoding="utf-8"),
        example=example,
        cli_parser=build_parser(),
        schema=schema,
        house_rule_texts=texts,
        matrix_text=matrix_text,
        matrix_looked_for=str(matrix),
        fixtures=fixtures,
        conformance_docs=docs,
        adapter_example=adapter,
        static_files=static,
        finder=finder,
    )


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Generate every page once per build and set the navigation from the catalog."""
    try:
        output = build_site(_gather(config))
    except DocsBuildError as exc:
        raise PluginError(f"schwimmen docs: {exc}") from None
    _state["output"] = output
    _state["used"] = set()
    config.nav = output.nav
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages as virtual files (nothing is written into docs/)."""
    output: SiteOutput = _state["output"]
    for page in output.pages:
        existing = files.get_file_from_path(page.path)
        if existing is not None:
            raise PluginError(
                f"schwimmen docs: docs/{page.path} exists but the page is generated; remove it"
            )
        inclusion = InclusionLevel.UNDEFINED if page.in_nav else InclusionLevel.NOT_IN_NAV
        files.append(File.generated(config, page.path, content=page.markdown, inclusion=inclusion))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill the ``<!-- insert: NAME -->`` lines of a hand-written page with the parts
    generated from the spec; a marker naming no part stops the build with file and line."""
    if page.file.generated_by is not None:
        return markdown
    output: SiteOutput = _state["output"]
    filled, problems = fill(markdown, output.inserts, page.file.src_uri)
    if problems:
        raise PluginError("schwimmen docs: " + "; ".join(str(p) for p in problems))
    _state["used"].update(name for _, name in _markers(markdown))
    return filled


def on_post_build(config: MkDocsConfig) -> None:
    """Every generated part must stand on some page: one no page asks for is a table
    the site silently lost."""
    output: SiteOutput = _state["output"]
    unused = sorted(set(output.inserts) - _state["used"])
    if unused:
        raise PluginError(
            "schwimmen docs: generated parts no page in docs/ inserts: " + ", ".join(unused)
        )


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    """``mkdocs serve`` rebuilds when the spec, the schemas or the conformance suite change,
    not only docs/."""
    for folder in (spec_dir(), schema_dir(), conformance_dir()):
        server.watch(str(folder))
    return server
