"""Validate spec files and folders: the work behind ``schwimmen validate PATH...``.

A file the catalog loads (``spec/sources.yaml``, ``spec/rulesets/*.yaml``,
``spec/house-rules/*.yaml``) is checked as part of the catalog. Any other file, under
``spec/`` or elsewhere (a player's own house rule), is checked on its own: as a
bibliography, the decisions, the disagreements (with their quotes), a widget's words
(``spec/widgets/``, a ``words`` mapping), a ruleset or a house rule as its name, folder or
``kind`` says, and then
resolved on the ruleset its ``origin`` names (a ruleset on the one it ``extends``), so
every error a later ``show`` or ``play`` would hit is reported now, and every warning
(what the loader suspects and does not refuse) beside them. Checking the catalog
also checks the site's variant finder (``docs/data/finder.yaml``), whose answers are
rule values and go stale with the rules, and the German texts against the glossary's words
their sources do not use (:mod:`schwimmen.spec.sourcewords`), which the site's build
would refuse. A file that is none
of these is an error, never passed unread; so is a folder without a single YAML file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from schwimmen.resources import schema_dir, spec_dir
from schwimmen.spec.cache import cached_catalog, checked_finder, checked_source_words
from schwimmen.spec.errors import Notice, SpecError, SpecErrors, SpecWarning
from schwimmen.spec.loader import SEPARATOR, Catalog, catalog_files
from schwimmen.spec.sources import load_bibliography
from schwimmen.spec.words import load_words
from schwimmen.spec.yamlread import YamlError, read_file

BIBLIOGRAPHY = "sources.yaml"
_FOLDER_KIND = {"rulesets": "ruleset", "house-rules": "house-rule"}
FINDER = Path("docs/data/finder.yaml")  # read by the site, checked with the catalog


@dataclass
class Report:
    """What validating found. ``notices`` and ``unchecked_quotes`` concern the quotes of
    the files validated only: the catalog loaded to resolve a house rule checks its own
    quotes too, and a file without quotes has nothing to say about missing texts."""

    files: int = 0
    errors: list[SpecError] = field(default_factory=list)
    warnings: list[SpecWarning] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    unchecked_quotes: int = 0

    @property
    def ok(self) -> bool:
        return not self.errors


def _key(path: Path) -> tuple[Path, str]:
    """The same file however it was named (``spec/x.yaml``, ``./spec/../spec/x.yaml``).

    The folder is resolved, not the file: a symlink in ``spec/rulesets`` is the file the
    catalog loads under that name, wherever it points.
    """
    return path.parent.resolve(), path.name


def _folder_kind(path: Path, root: Path) -> str | None:
    """``ruleset`` or ``house-rule`` for a file under ``spec/rulesets`` or ``spec/house-rules``."""
    try:
        parts = path.parent.resolve().relative_to(root.resolve()).parts
    except ValueError:
        return None
    return _FOLDER_KIND.get(parts[0]) if parts else None


def _yaml_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(
            p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and not p.is_dir()
        )
    return [path]


def _check_alone(
    file: Path, catalog: Catalog, root: Path, warnings: list[SpecWarning]
) -> list[SpecError]:
    """Check a file the catalog does not load, as what its name, folder or content says;
    a ruleset or house rule that resolves adds its warnings to ``warnings``."""
    # jsonschema and the data files' own loaders: only for a file checked on its own (a
    # catalog file is checked by the cached catalog).
    from schwimmen.spec import decisions, disagreements
    from schwimmen.spec.validation import schema_errors

    try:
        doc = read_file(file)
    except YamlError as exc:
        return [exc.error]
    kind = _folder_kind(file, root)
    data = doc.data
    keys = set(data) if isinstance(data, dict) else set()
    if file.name == BIBLIOGRAPHY or (kind is None and keys == {"sources"}):
        try:
            load_bibliography(file)
        except SpecErrors as exc:
            return list(exc.errors)
        return []
    if kind is None and keys == {"words"}:
        try:
            load_words(file)
        except SpecErrors as exc:
            return list(exc.errors)
        return []
    if file.name == FINDER.name or (kind is None and keys == {"words", "questions"}):
        return _finder_errors(file)
    if file.name == decisions.FILE or (kind is None and keys == {"decisions"}):
        return decisions.load_decisions(file)[1]
    if file.name == disagreements.FILE or (kind is None and keys == {"labels", "sections"}):
        return disagreements.load_disagreements(file, catalog.bibliography)[1]
    # A data file beside the rules (the glossary, the site's words) has a schema of its name.
    data_schema = schema_dir() / f"{file.stem}.schema.json"
    beside = kind is None and "kind" not in keys and file.parent.resolve() == root.resolve()
    if beside and data_schema.is_file():
        return schema_errors(doc, data_schema.name)
    if kind is None and "kind" not in keys:
        return [
            doc.error(
                (),
                "not a ruleset, house rule, bibliography, decisions, disagreements or words "
                "file: it has no 'kind' (ruleset or house-rule) and is not a 'sources' list or "
                "a 'words' mapping",
            )
        ]
    sf = catalog.add(file, expected_kind=kind)
    errors = catalog.file_errors_for_path(str(file))
    if sf is not None and not errors:
        name = f"{sf.data['origin']}{SEPARATOR}{file}" if sf.kind == "house-rule" else sf.id
        try:
            warnings.extend(catalog.resolve(name).warnings)
        except SpecErrors as exc:
            errors = list(exc.errors)
    return errors


def _finder_errors(file: Path, shown_as: str | None = None) -> list[SpecError]:
    from schwimmen.spec.finder import load_finder

    try:
        load_finder(file, shown_as)
    except SpecErrors as exc:
        return list(exc.errors)
    return []


def _source_words(catalog: Catalog, root: Path) -> list[SpecError]:
    # the glossary is read through its schema: jsonschema is imported only when the
    # cache holds no answer
    from schwimmen.spec import pagedata, sourcewords

    try:
        terms = pagedata.glossary(root / "glossary.yaml")
    except SpecErrors as exc:
        return list(exc.errors)
    return sourcewords.avoided_words(catalog, terms)


def _beside(root: Path) -> Path | None:
    """The variant finder's questions in the checkout that holds ``root`` (an installed
    wheel ships no site, so there is none to check there)."""
    path = root.parent / FINDER
    return path if path.is_file() else None


def validate_paths(paths: Iterable[Path], catalog: Catalog | None = None) -> Report:
    report = Report()
    root = spec_dir()
    try:
        catalog = catalog or cached_catalog(root)  # checked afresh whenever a file changed
    except SpecErrors as exc:
        report.errors.extend(exc.errors)
        return report
    bibliography = catalog.bibliography
    after_load = bibliography.quotes_looked_up
    loaded = {_key(p) for p, _ in catalog_files(root)} | {_key(root / BIBLIOGRAPHY)}
    checked_catalog = False
    alone: list[Path] = []
    for path in paths:
        if not path.exists():
            report.errors.append(SpecError(str(path), 1, 1, "$", "no such file or folder"))
            continue
        files = _yaml_files(path)
        if not files:
            report.errors.append(
                SpecError(str(path), 1, 1, "$", "no .yaml or .yml files in this folder")
            )
        for file in files:
            report.files += 1
            if _key(file) in loaded:
                checked_catalog = True
            else:
                alone.append(file)
    if checked_catalog:
        report.errors.extend(catalog.check_all())
        report.warnings.extend(catalog.check_all_warnings())
        report.errors.extend(checked_source_words(root, lambda: _source_words(catalog, root)))
        finder = _beside(root)
        if finder is not None and _key(finder) not in {_key(f) for f in alone}:
            report.files += 1
            found = checked_finder(finder, str(FINDER), lambda: _finder_errors(finder, str(FINDER)))
            report.errors.extend(found)
    for file in alone:
        report.errors.extend(_check_alone(file, catalog, root, report.warnings))
    report.errors = sorted(set(report.errors))
    report.warnings = sorted(set(report.warnings))
    start = 0 if checked_catalog else after_load
    report.notices = bibliography.notices_since(start)
    report.unchecked_quotes = bibliography.unchecked_since(start)
    return report
