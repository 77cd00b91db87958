"""Validate spec files and folders: the work behind ``schwimmen validate PATH...``.

A file inside the project's ``spec/`` is checked as part of the catalog. A file from
elsewhere (a player's own house rule) is checked on its own and then resolved on the
ruleset its ``origin`` names (a ruleset on the one it ``extends``), so every error a
later ``show`` or ``play`` would hit is reported now.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from schwimmen.resources import spec_dir
from schwimmen.spec.errors import Notice, SpecError, SpecErrors
from schwimmen.spec.loader import SEPARATOR, Catalog
from schwimmen.spec.sources import load_bibliography


@dataclass
class Report:
    files: int = 0
    errors: list[SpecError] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _is_inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _yaml_files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml"))
    return [path]


def validate_paths(paths: Iterable[Path], catalog: Catalog | None = None) -> Report:
    report = Report()
    root = spec_dir()
    try:
        catalog = catalog or Catalog.load(root)
    except SpecErrors as exc:
        report.errors.extend(exc.errors)
        return report
    checked_catalog = False
    outside: list[Path] = []
    for path in paths:
        if not path.exists():
            report.errors.append(SpecError(str(path), 1, 1, "$", "no such file or folder"))
            continue
        for file in _yaml_files(path):
            report.files += 1
            if _is_inside(file, root):
                checked_catalog = True
            else:
                outside.append(file)
    if checked_catalog:
        report.errors.extend(catalog.check_all())
    for file in outside:
        if file.name == "sources.yaml":
            try:
                load_bibliography(file)
            except SpecErrors as exc:
                report.errors.extend(exc.errors)
            continue
        sf = catalog.add(file)
        errors = catalog.file_errors_for_path(str(file))
        if sf is not None and not errors:
            name = f"{sf.data['origin']}{SEPARATOR}{file}" if sf.kind == "house-rule" else sf.id
            try:
                catalog.resolve(name)
            except SpecErrors as exc:
                errors = list(exc.errors)
        report.errors.extend(errors)
    report.errors = sorted(set(report.errors))
    report.notices = list(catalog.notices)
    return report
