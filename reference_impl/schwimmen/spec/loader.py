"""Load spec files, check them, and resolve ``ruleset+house-rule+...`` into a Ruleset.

The one way through: YAML text → :class:`Document` (positions, no duplicate keys) →
JSON Schema → per-file checks (sources, quotes, requirements) → resolution (``extends``
chain, overlays, conflicts, applicability, completeness, consistency) →
:class:`~schwimmen.spec.model.Ruleset`. Every problem on the way is a located
:class:`SpecError`; nothing past this module reads YAML.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from schwimmen.resources import spec_dir
from schwimmen.spec import consistency, termination
from schwimmen.spec.errors import JsonPath, Notice, SpecError, SpecErrors, SpecWarning
from schwimmen.spec.model import (
    TRANSLATED,
    Citation,
    Provenance,
    ProvenanceKind,
    Ruleset,
    Setting,
    Translations,
    Unresolved,
    freeze,
    shown,
)
from schwimmen.spec.parameters import BY_PATH, PARAMETERS, applicable
from schwimmen.spec.rules import build_rules
from schwimmen.spec.sources import Bibliography, citation_problems, load_bibliography
from schwimmen.spec.yamlread import Document, YamlError, read_file

# jsonschema (schwimmen.spec.validation) is imported where a file is
# checked, not here: a catalog from the cache (schwimmen.spec.cache) needs neither.

SCHEMA = "ruleset.schema.json"
SEPARATOR = "+"


@dataclass(frozen=True)
class SpecFile:
    """One parsed and schema-valid ruleset or house-rule file."""

    doc: Document

    @property
    def data(self) -> Mapping[str, Any]:
        data: Mapping[str, Any] = self.doc.data
        return data

    @property
    def id(self) -> str:
        return str(self.data["id"])

    @property
    def kind(self) -> str:
        return str(self.data["kind"])

    @property
    def file(self) -> str:
        return self.doc.file

    def title_and_summary(self, language: str = "en") -> tuple[str, str]:
        """The file's title and summary in ``language`` (its ``de:`` block for German), in
        English where the file has no translation."""
        title, summary = str(self.data["title"]), str(self.data.get("summary", ""))
        given = self.data.get(language) if language != "en" else None
        if isinstance(given, dict):
            title = str(given.get("title", title))
            summary = str(given.get("summary", summary))
        return title, " ".join(summary.split())

    def entries(self) -> Iterable[tuple[str, Mapping[str, Any], JsonPath]]:
        """Yield ``(param path, entry, JSON path of the entry)`` for every parameter set."""
        for group, params in self.data.get("rules", {}).items():
            for name, entry in params.items():
                yield f"{group}.{name}", entry, ("rules", group, name)

    def where(self, path: JsonPath) -> str:
        line, _ = self.doc.locate(path)
        return f"{self.file}:{line}"


@dataclass(frozen=True)
class _Placed:
    """A parameter value while resolving: the setting and where in which file it stands."""

    setting: Setting
    file: SpecFile
    path: JsonPath


def _citation(raw: Mapping[str, Any]) -> Citation:
    return Citation(
        source=raw["source"],
        section=raw["section"],
        quote=raw["quote"],
        line=raw.get("line"),
        attribution=raw.get("attribution"),
    )


def translations_of(raw: Mapping[str, Any]) -> Translations:
    """The ``de:`` block beside a piece of prose (the schema allows no other language yet),
    with its folded lines joined like the English."""
    return tuple(
        (language, field, " ".join(str(text).split()))
        for language in TRANSLATED
        for field, text in (raw.get(language) or {}).items()
    )


def provenance_of(entry: Mapping[str, Any]) -> Provenance:
    if "cited" in entry:
        return Provenance(
            ProvenanceKind.CITED, citations=tuple(_citation(c) for c in entry["cited"])
        )
    if "interpreted" in entry:
        raw = entry["interpreted"]
        return Provenance(
            ProvenanceKind.INTERPRETED,
            citations=tuple(_citation(c) for c in raw["quotes"]),
            reading=raw["reading"].strip(),
            why=raw["why"].strip(),
            decision=raw.get("decision"),
            translations=translations_of(raw),
        )
    raw = entry["default"]
    return Provenance(
        ProvenanceKind.DEFAULT,
        citations=tuple(_citation(c) for c in raw.get("quotes", ())),
        why=raw["why"].strip(),
        decision=raw.get("decision"),
        translations=translations_of(raw),
    )


def _citations_in(data: Mapping[str, Any]) -> Iterable[tuple[Mapping[str, Any], JsonPath]]:
    for group, params in data.get("rules", {}).items():
        for name, entry in params.items():
            base: JsonPath = ("rules", group, name)
            for i, c in enumerate(entry.get("cited", ())):
                yield c, (*base, "cited", i)
            for key in ("interpreted", "default"):
                for i, c in enumerate(entry.get(key, {}).get("quotes", ())):
                    yield c, (*base, key, "quotes", i)
    for u, item in enumerate(data.get("unresolved", ())):
        for i, c in enumerate(item.get("quotes", ())):
            yield c, ("unresolved", u, "quotes", i)


def check_file(
    sf: SpecFile, bib: Bibliography, *, expected_kind: str | None = None
) -> list[SpecError]:
    """Checks one schema-valid file on its own: names, sources, quotes, requirements."""
    from schwimmen.spec.validation import value_errors

    doc = sf.doc
    errors: list[SpecError] = []
    stem = Path(sf.file).stem
    if stem.endswith(".yaml"):
        stem = stem[:-5]
    if stem != sf.id:
        errors.append(doc.error(("id",), f"id {sf.id!r} does not match the file name {stem!r}"))
    if expected_kind and sf.kind != expected_kind:
        errors.append(
            doc.error(("kind",), f"files in this folder must be of kind {expected_kind!r}")
        )
    for i, source_id in enumerate(sf.data.get("sources", ())):
        if source_id not in bib.sources:
            errors.append(doc.error(("sources", i), f"unknown source id {source_id!r}"))
    for raw, path in _citations_in(sf.data):
        for key, message in citation_problems(bib, raw):
            errors.append(doc.error((*path, key), message))
    for i, cond in enumerate(sf.data.get("requires", ())):
        param = BY_PATH.get(cond["param"])
        if param is None:
            errors.append(
                doc.error(("requires", i, "param"), f"unknown parameter {cond['param']!r}")
            )
            continue
        key = "in" if "in" in cond else "not_in"
        for j, value in enumerate(cond[key]):
            errors.extend(value_errors(doc, ("requires", i, key, j), value, param.schema, SCHEMA))
    return errors


def parse_file(path: Path, shown_as: str | None = None) -> tuple[SpecFile | None, list[SpecError]]:
    from schwimmen.spec.validation import schema_errors

    try:
        doc = read_file(path, shown_as)
    except YamlError as exc:
        return None, [exc.error]
    if not isinstance(doc.data, dict):
        return None, [doc.error((), "a spec file must be a mapping (key: value) at the top")]
    errors = schema_errors(doc, SCHEMA)
    if errors:
        return None, errors
    return SpecFile(doc), []


class Catalog:
    """All known rulesets and house rules, and the resolver for compositions of them."""

    def __init__(self, bibliography: Bibliography) -> None:
        self.bibliography = bibliography
        self.rulesets: dict[str, SpecFile] = {}
        self.house_rules: dict[str, SpecFile] = {}
        self.file_errors: list[SpecError] = []
        self._cache: dict[str, Ruleset] = {}
        # A ruleset's settings with all it inherits, built once: every house rule on it
        # shares them (fewer objects to resolve, and to pickle in the cache).
        self._chains: dict[str, tuple[SpecFile, dict[str, _Placed]]] = {}
        # Throw-away house rules (mutant): each built once, each changed value checked once.
        self._mutants: dict[tuple[str, str, str, bool], Ruleset | SpecErrors] = {}
        self._checked_changes: dict[tuple[str, str], list[SpecError]] = {}

    @property
    def notices(self) -> list[Notice]:
        return self.bibliography.notices

    # ----------------------------------------------------------------- loading
    @classmethod
    def load(cls, root: Path | None = None, texts_dir: Path | None = None) -> Catalog:
        root = root or spec_dir()
        catalog = cls(load_bibliography(root / "sources.yaml", texts_dir))
        for path, kind in catalog_files(root):
            catalog.add(path, expected_kind=kind, shown_as=f"spec/{path.parent.name}/{path.name}")
        return catalog

    def add(
        self, path: Path, *, expected_kind: str | None = None, shown_as: str | None = None
    ) -> SpecFile | None:
        """Parse and check one file and register it; errors go to ``file_errors``."""
        sf, errors = parse_file(path, shown_as)
        if sf is not None:
            errors = check_file(sf, self.bibliography, expected_kind=expected_kind)
            table = self.rulesets if sf.kind == "ruleset" else self.house_rules
            other = self.house_rules if sf.kind == "ruleset" else self.rulesets
            clash = table.get(sf.id) or other.get(sf.id)
            if clash is not None and clash.file != sf.file:
                errors.append(
                    sf.doc.error(("id",), f"id {sf.id!r} is already used by {clash.file}")
                )
            else:
                table[sf.id] = sf
                self._cache.clear()
                self._mutants.clear()
                self._chains.clear()
        self.file_errors.extend(errors)
        return sf

    def names(self) -> list[str]:
        return sorted(self.rulesets) + sorted(self.house_rules)

    def standard_names(self) -> list[str]:
        """The rulesets of a default run: every ruleset, and every house rule on the
        ruleset it comes from (``pagat+no-triples``), each a name ``resolve`` accepts."""
        out = sorted(self.rulesets)
        out += [
            f"{sf.data['origin']}{SEPARATOR}{hid}" for hid, sf in sorted(self.house_rules.items())
        ]
        return out

    # ----------------------------------------------------------------- resolution
    def resolve(self, name: str) -> Ruleset:
        """Resolve ``base+overlay+...``; raise :class:`SpecErrors` with every problem found."""
        if name in self._cache:
            return self._cache[name]
        parts = [p.strip() for p in name.split(SEPARATOR)]
        base_file, overlay_files = self._lookup(parts)
        ruleset = self._resolved(name, base_file, overlay_files)
        self._cache[name] = ruleset
        return ruleset

    def mutant(self, name: str, changes: Mapping[str, Any], why: str = "mutation") -> Ruleset:
        """``name`` (a ruleset or a composition) with the parameters in ``changes`` set to
        other values, as one throw-away house rule laid over it last.

        The test double of ``serve --play``, the fingerprint's candidates and the mutation
        lint are all such rulesets. Nothing is registered, so the catalog's names and its
        default run stay as they were. The values are checked as any house rule's are;
        a bad one raises :class:`SpecErrors`. The id reads ``pagat+{penalties.lowest=2}``.

        The fingerprint and the mutation lint ask for thousands of these, so the overlay
        is built as data (no YAML written and read back), each changed value is checked
        against the schema once per catalog, and a mutant asked for again (with the
        contradiction table read or not, as then) is the same object (a Ruleset is
        immutable).
        """
        try:
            plain = json.loads(json.dumps(dict(changes), allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise SpecErrors(
                [SpecError("<changes>", 1, 1, "$", f"not a value a spec file can hold: {exc}")]
            ) from None
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in changes.items())
        memo = (name, json.dumps(plain), why, termination.checking())
        found = self._mutants.get(memo)
        if isinstance(found, SpecErrors):
            raise found
        if found is not None:
            return found
        try:
            ruleset = self._mutant(name, plain, shown, why)
        except SpecErrors as exc:
            self._mutants[memo] = exc
            raise
        self._mutants[memo] = ruleset
        return ruleset

    def _mutant(self, name: str, changes: dict[str, Any], shown: str, why: str) -> Ruleset:
        parts = [p.strip() for p in name.split(SEPARATOR)]
        base_file, overlay_files = self._lookup(parts)
        rules: dict[str, dict[str, Any]] = {}
        errors: list[SpecError] = []
        for path, value in changes.items():
            errors.extend(self._change_errors(path, value))
            group, _, param = path.partition(".")
            rules.setdefault(group, {})[param] = {"value": value, "default": {"why": why}}
        if errors:
            raise SpecErrors([_relabel(e, shown) for e in errors])
        data = {
            "id": "mutant",
            "kind": "house-rule",
            "title": "parameters changed: " + ", ".join(changes),
            "origin": base_file.id,
            "rules": rules,
        }
        doc = Document(file="mutant.yaml", data=data)
        overlay = SpecFile(doc)
        errors = check_file(overlay, self.bibliography, expected_kind="house-rule")
        if errors:
            raise SpecErrors([_relabel(e, shown) for e in errors])
        ruleset = self._resolved(f"{name}+{{{shown}}}", base_file, [*overlay_files, overlay])
        if not ruleset.warnings:
            return ruleset
        named = tuple(
            SpecWarning(f"<changes {shown}>", 1, 1, w.path, w.message, w.parameters)
            if w.file == doc.file
            else w
            for w in ruleset.warnings
        )
        return dataclasses.replace(ruleset, warnings=named)

    def _change_errors(self, path: str, value: Any) -> list[SpecError]:
        """What the schema says of setting ``path`` to ``value`` in a house rule (each
        value is checked alone: the schema ties no two parameters together)."""
        memo = (path, json.dumps(value, sort_keys=True))
        found = self._checked_changes.get(memo)
        if found is None:
            from schwimmen.spec.validation import schema_errors

            group, _, param = path.partition(".")
            entry = {"value": value, "default": {"why": "checked"}}
            data = {
                "id": "mutant",
                "kind": "house-rule",
                "title": "a changed parameter",
                "origin": "mutant",
                "rules": {group: {param: entry}},
            }
            found = schema_errors(Document(file="mutant.yaml", data=data), SCHEMA)
            self._checked_changes[memo] = found
        return list(found)

    def _lookup(self, parts: list[str]) -> tuple[SpecFile, list[SpecFile]]:
        errors: list[SpecError] = []
        base_file = self._lookup_ruleset(parts[0], errors)
        overlays = [self._lookup_house_rule(p, errors) for p in parts[1:]]
        if base_file is None or any(o is None for o in overlays) or errors:
            raise SpecErrors(errors)
        return base_file, [o for o in overlays if o is not None]

    def _resolved(self, name: str, base_file: SpecFile, overlay_files: list[SpecFile]) -> Ruleset:
        errors: list[SpecError] = []
        placed = self._chain(base_file, [], errors)
        if errors:
            raise SpecErrors(errors)
        base_values = {k: p.setting.value for k, p in placed.items()}
        self._apply_overlays(placed, base_file, base_values, overlay_files, errors)
        if errors:
            raise SpecErrors(errors)
        self._check_resolved(placed, base_file, base_values, errors)
        if errors:
            raise SpecErrors(errors)
        warnings = self._warnings(placed, base_file, base_values)
        return self._build(name, base_file, overlay_files, placed, warnings)

    def _lookup_ruleset(self, name: str, errors: list[SpecError]) -> SpecFile | None:
        if name in self.rulesets:
            return self.rulesets[name]
        hint = (
            "it is a house rule; put a ruleset first"
            if name in self.house_rules
            else _suggest(name, self.rulesets, "known rulesets")
        )
        errors.append(SpecError("<command line>", 1, 1, "$", f"unknown ruleset {name!r} ({hint})"))
        return None

    def _lookup_house_rule(self, name: str, errors: list[SpecError]) -> SpecFile | None:
        if name in self.house_rules:
            return self.house_rules[name]
        path = Path(name)
        if _is_path(name):
            if not path.exists():
                errors.append(SpecError("<command line>", 1, 1, "$", f"no such file: {name}"))
                return None
            sf = self.add(path)
            if sf is not None and sf.kind == "house-rule" and not self.file_errors_for(sf):
                return sf
            errors.extend(self.file_errors_for_path(str(path)))
            if sf is not None and sf.kind != "house-rule":
                errors.append(sf.doc.error(("kind",), "only house rules can be added with '+'"))
            return None
        hint = (
            "it is a ruleset, not a house rule"
            if name in self.rulesets
            else _suggest(name, self.house_rules, "known house rules")
        )
        errors.append(
            SpecError("<command line>", 1, 1, "$", f"unknown house rule {name!r} ({hint})")
        )
        return None

    def file_errors_for(self, sf: SpecFile) -> list[SpecError]:
        return self.file_errors_for_path(sf.file)

    def file_errors_for_path(self, file: str) -> list[SpecError]:
        return [e for e in self.file_errors if e.file == file]

    def _chain(self, sf: SpecFile, stack: list[str], errors: list[SpecError]) -> dict[str, _Placed]:
        """The settings of ``sf`` with everything it inherits through ``extends`` (a fresh
        dict, the caller's to change)."""
        known = self._chains.get(sf.id)
        if known is not None and known[0] is sf:
            return dict(known[1])
        found: list[SpecError] = []
        placed = self._chain_of(sf, stack, found)
        errors.extend(found)
        if not found:
            self._chains[sf.id] = (sf, placed)
        return dict(placed)

    def _chain_of(
        self, sf: SpecFile, stack: list[str], errors: list[SpecError]
    ) -> dict[str, _Placed]:
        if self.file_errors_for(sf):
            errors.extend(self.file_errors_for(sf))
            return {}
        placed: dict[str, _Placed] = {}
        parent_id = sf.data.get("extends")
        if parent_id is not None:
            if parent_id in stack or parent_id == sf.id:
                cycle = " -> ".join([*stack, sf.id, parent_id])
                errors.append(sf.doc.error(("extends",), f"'extends' cycle: {cycle}"))
                return {}
            parent = self.rulesets.get(parent_id)
            if parent is None:
                errors.append(
                    sf.doc.error(("extends",), f"unknown ruleset {parent_id!r} in 'extends'")
                )
                return {}
            for key, p in self._chain(parent, [*stack, sf.id], errors).items():
                inherited = Setting(
                    p.setting.param,
                    p.setting.value,
                    p.setting.provenance,
                    p.setting.origin,
                    True,
                    p.setting.note,
                    p.setting.translations,
                )
                placed[key] = _Placed(inherited, p.file, p.path)
        for param, entry, path in sf.entries():
            setting = Setting(
                param,
                freeze(entry["value"]),
                provenance_of(entry),
                sf.id,
                False,
                entry.get("note"),
                translations_of(entry),
            )
            placed[param] = _Placed(setting, sf, path)
        return placed

    def _apply_overlays(
        self,
        placed: dict[str, _Placed],
        base: SpecFile,
        base_values: Mapping[str, Any],
        overlays: list[SpecFile],
        errors: list[SpecError],
    ) -> None:
        set_by: dict[str, _Placed] = {}
        for overlay in overlays:
            if self.file_errors_for(overlay):
                errors.extend(self.file_errors_for(overlay))
                continue
            for i, cond in enumerate(overlay.data.get("requires", ())):
                key = "in" if "in" in cond else "not_in"
                ok = cond["param"] in base_values and (
                    (base_values[cond["param"]] in [freeze(x) for x in cond[key]]) == (key == "in")
                )
                if not ok:
                    actual = base_values.get(cond["param"], "not applicable")
                    errors.append(
                        overlay.doc.error(
                            ("requires", i),
                            f"house rule {overlay.id!r} does not fit ruleset {base.id!r}: "
                            f"{cond['why']} ({cond['param']} is {shown(actual)} there)",
                        )
                    )
            for param, entry, path in overlay.entries():
                setting = Setting(
                    param,
                    freeze(entry["value"]),
                    provenance_of(entry),
                    overlay.id,
                    False,
                    entry.get("note"),
                    translations_of(entry),
                )
                earlier = set_by.get(param)
                if earlier is not None and earlier.setting.value != setting.value:
                    errors.append(
                        overlay.doc.error(
                            path,
                            f"conflict: house rules {earlier.file.id!r} "
                            f"({earlier.file.where(earlier.path)}) and {overlay.id!r} set "
                            f"{param} differently ({shown(earlier.setting.value)} vs "
                            f"{shown(setting.value)})",
                        )
                    )
                    continue
                if earlier is None:
                    set_by[param] = _Placed(setting, overlay, path)
                    placed[param] = set_by[param]

    def _check_resolved(
        self,
        placed: dict[str, _Placed],
        base: SpecFile,
        base_values: Mapping[str, Any],
        errors: list[SpecError],
    ) -> None:
        """Drop values that a later layer made inapplicable, report values that never applied,
        then require every applicable parameter and check consistency."""
        values = {k: p.setting.value for k, p in placed.items()}
        for key in list(placed):
            param = BY_PATH[key]
            failed = applicable(param, values)
            if failed is None:
                continue
            p = placed[key]
            from_overlay = p.file.kind == "house-rule"
            if p.setting.inherited or (not from_overlay and applicable(param, base_values) is None):
                del placed[key]
                continue
            actual = values.get(failed.param, "not applicable")
            errors.append(
                p.file.doc.error(
                    p.path,
                    f"{key} does not apply to {base.id!r}: it needs {failed.describe()}, "
                    f"but {failed.param} is {shown(actual)}",
                    key=True,
                )
            )
        values = {k: p.setting.value for k, p in placed.items()}
        for param in PARAMETERS:
            if param.path not in placed and applicable(param, values) is None:
                chain = base.data.get("extends")
                via = f" nor inherited from {chain!r}" if chain else ""
                errors.append(
                    base.doc.error(("rules",), f"parameter {param.path} is not set{via}", key=True)
                )
        if errors:
            return
        for key, message in consistency.problems(values):
            p = placed[key]
            errors.append(p.file.doc.error((*p.path, "value"), message))
        if errors:
            return
        for key, message in termination.problems(base.id, base_values, values):
            p = placed[key]
            errors.append(p.file.doc.error((*p.path, "value"), message))

    def _warnings(
        self, placed: dict[str, _Placed], base: SpecFile, base_values: Mapping[str, Any]
    ) -> tuple[SpecWarning, ...]:
        """What the composition makes doubtful: each suspected pair of the contradiction
        table it makes, at the value of the first parameter it names (where the second is
        set elsewhere, the message says where)."""
        values = {k: p.setting.value for k, p in placed.items()}
        out = []
        for suspect, message in termination.suspicions(base.id, base_values, values):
            p = placed[suspect.changes[0][0]]
            for other, _ in suspect.changes[1:]:
                q = placed[other]
                if q.file is not p.file:
                    message += f" ({other} is set at {q.file.where((*q.path, 'value'))})"
            error = p.file.doc.error((*p.path, "value"), message)
            out.append(
                SpecWarning(
                    error.file, error.line, error.col, error.path, message, suspect.parameters
                )
            )
        return tuple(sorted(out))

    def _build(
        self,
        name: str,
        base: SpecFile,
        overlays: list[SpecFile],
        placed: dict[str, _Placed],
        warnings: tuple[SpecWarning, ...] = (),
    ) -> Ruleset:
        order = {p.path: i for i, p in enumerate(PARAMETERS)}
        settings = {k: placed[k].setting for k in sorted(placed, key=order.__getitem__)}
        title = str(base.data["title"])
        if overlays:
            title += " with " + ", ".join(str(o.data["title"]) for o in overlays)
        unresolved = tuple(
            Unresolved(
                u["topic"],
                tuple(_citation(c) for c in u["quotes"]),
                u["why"].strip(),
                u.get("decision"),
                translations_of(u),
            )
            for u in base.data.get("unresolved", ())
        )
        values = {k: s.value for k, s in settings.items()}
        return Ruleset(
            id=name,
            title=title,
            summary=str(base.data.get("summary", "")).strip(),
            base=base.id,
            overlays=tuple(o.id for o in overlays),
            settings=MappingProxyType(settings),
            unresolved=unresolved,
            rules=build_rules(values),
            warnings=warnings,
        )

    # ----------------------------------------------------------------- whole catalog
    def check_all(self) -> list[SpecError]:
        """Every error in the catalog: per file, and for each ruleset and house rule resolved
        (a house rule is resolved on the ruleset its ``origin`` names)."""
        errors = list(self.file_errors)
        for rid in sorted(self.rulesets):
            errors.extend(self._errors_of(rid))
        for hid, sf in sorted(self.house_rules.items()):
            origin = str(sf.data["origin"])
            if origin not in self.rulesets:
                errors.append(sf.doc.error(("origin",), f"unknown ruleset {origin!r}"))
                continue
            errors.extend(self._errors_of(f"{origin}{SEPARATOR}{hid}"))
        return sorted(set(errors))

    def check_all_warnings(self) -> list[SpecWarning]:
        """Every warning of the rulesets and house rules :meth:`check_all` resolves (those
        that resolve; the others have errors)."""
        names = sorted(self.rulesets) + [
            f"{sf.data['origin']}{SEPARATOR}{hid}"
            for hid, sf in sorted(self.house_rules.items())
            if str(sf.data["origin"]) in self.rulesets
        ]
        out: set[SpecWarning] = set()
        for name in names:
            try:
                out.update(self.resolve(name).warnings)
            except SpecErrors:
                continue
        return sorted(out)

    def _errors_of(self, name: str) -> list[SpecError]:
        try:
            self.resolve(name)
        except SpecErrors as exc:
            return list(exc.errors)
        return []


def catalog_files(root: Path) -> list[tuple[Path, str]]:
    """The ruleset and house-rule files the catalog of ``root`` loads, with their kind.

    ``schwimmen validate`` asks the same question to learn which files under ``spec/``
    the catalog checks and which it must check on its own.
    """
    return [
        (path, kind)
        for folder, kind in (("rulesets", "ruleset"), ("house-rules", "house-rule"))
        for path in sorted((root / folder).glob("*.yaml"))
    ]


def _relabel(error: SpecError, changes: str) -> SpecError:
    """An error in a throw-away house rule, named by what it changes."""
    return SpecError(f"<changes {changes}>", 1, 1, error.path, error.message)


def _is_path(name: str) -> bool:
    """A house rule named by its file: an id has neither a slash nor a ``.yaml`` suffix."""
    return name.endswith((".yaml", ".yml")) or "/" in name or os.sep in name


def _suggest(name: str, known: Collection[str], label: str) -> str:
    """``did you mean 'x'?`` for a near miss, otherwise the list of what is known."""
    import difflib  # only for a name that is not found

    close = difflib.get_close_matches(name, known, n=3)
    if close:
        return "did you mean " + " or ".join(repr(c) for c in close) + "?"
    return f"{label}: " + ", ".join(sorted(known))


def load_catalog(texts_dir: Path | None = None) -> Catalog:
    return Catalog.load(texts_dir=texts_dir)
