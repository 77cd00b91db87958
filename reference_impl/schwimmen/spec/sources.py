"""The bibliography (``spec/sources.yaml``) and the check that every quote is verbatim.

A citation is only worth something if its quote stands, character for character, in
the source text. The texts are not shipped with the project (they are other people's
prose); they are read from the workplace's ``shared/sources`` or from the directory
named by ``SCHWIMMEN_SOURCES``. Where no texts are found the check says so and is
skipped, never silently passed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from schwimmen.resources import SOURCES_ENV, sources_dir, spec_dir
from schwimmen.spec.errors import Notice, SpecError, SpecErrors
from schwimmen.spec.model import Citation
from schwimmen.spec.validation import schema_errors
from schwimmen.spec.yamlread import YamlError, read_file


@dataclass(frozen=True)
class Report:
    """A primary source that a source article reports (s000's footnotes)."""

    id: str
    footnote: int
    title: str
    by: str
    kind: str
    note: str = ""


@dataclass(frozen=True)
class Source:
    id: str
    file: str
    sha256: str
    title: str
    kind: str
    covers: str
    reliability: str
    rulesets: tuple[str, ...]
    reports: tuple[Report, ...] = ()


@dataclass
class Bibliography:
    sources: Mapping[str, Source]
    texts_dir: Path | None
    notices: list[Notice] = field(default_factory=list)
    _lines: dict[str, list[str] | None] = field(default_factory=dict)
    _noticed: set[str] = field(default_factory=set)

    def lines(self, source_id: str) -> list[str] | None:
        """The source's text split into lines, or None (with a notice) when unavailable."""
        if source_id in self._lines:
            return self._lines[source_id]
        source = self.sources[source_id]
        result: list[str] | None = None
        if self.texts_dir is None:
            self._notice(
                "texts",
                "source texts not found (looked for ../shared/sources; set "
                f"{SOURCES_ENV} to a directory with them): quotes were NOT checked",
            )
        else:
            path = self.texts_dir / source.file
            if not path.is_file():
                self._notice(source_id, f"{path} not found: quotes of {source_id} were NOT checked")
            else:
                raw = path.read_bytes()
                if hashlib.sha256(raw).hexdigest() != source.sha256:
                    self._notice(
                        source_id + "-hash",
                        f"{path} differs from the text the bibliography records (sha256); "
                        "quotes checked against it anyway",
                    )
                result = raw.decode("utf-8").splitlines()
        self._lines[source_id] = result
        return result

    def _notice(self, key: str, message: str) -> None:
        if key not in self._noticed:
            self._noticed.add(key)
            self.notices.append(Notice(message))

    def check_quote(self, citation: Citation) -> str | None:
        """Return why ``citation`` does not hold, or None if it holds or cannot be checked."""
        lines = self.lines(citation.source)
        if lines is None:
            return None
        quote = citation.quote
        if citation.line is not None:
            if citation.line > len(lines):
                return f"{citation.source} has only {len(lines)} lines, not {citation.line}"
            if quote in lines[citation.line - 1]:
                return None
            found = [i + 1 for i, text in enumerate(lines) if quote in text]
            if found:
                return (
                    f"quote stands on line {found[0]} of {citation.source}, not on line "
                    f"{citation.line}"
                )
        elif any(quote in text for text in lines):
            return None
        return f"quote not found verbatim in {citation.source}{_divergence(quote, lines)}"


def _divergence(quote: str, lines: list[str]) -> str:
    """Say where the longest matching prefix of ``quote`` stops, to help fix a typo."""
    best = 0
    for text in lines:
        lo, hi = 0, len(quote)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if quote[:mid] in text:
                lo = mid
            else:
                hi = mid - 1
        best = max(best, lo)
    if best < 8:
        return ""
    return (
        f" (it matches up to {quote[:best][-30:]!r}, then differs at {quote[best : best + 15]!r})"
    )


def load_bibliography(path: Path | None = None, texts_dir: Path | None = None) -> Bibliography:
    """Load and validate ``spec/sources.yaml``; raise :class:`SpecErrors` if it is broken."""
    path = path or spec_dir() / "sources.yaml"
    try:
        doc = read_file(path, _display(path))
    except YamlError as exc:
        raise SpecErrors([exc.error]) from None
    errors: list[SpecError] = schema_errors(doc, "sources.schema.json")
    if errors:
        raise SpecErrors(errors)
    sources: dict[str, Source] = {}
    for index, raw in enumerate(doc.data["sources"]):
        if raw["id"] in sources:
            errors.append(doc.error(("sources", index, "id"), f"duplicate source id {raw['id']!r}"))
            continue
        sources[raw["id"]] = Source(
            id=raw["id"],
            file=raw["file"],
            sha256=raw["sha256"],
            title=raw["title"],
            kind=raw["kind"],
            covers=raw["covers"].strip(),
            reliability=raw["reliability"].strip(),
            rulesets=tuple(raw["rulesets"]),
            reports=tuple(
                Report(r["id"], r["footnote"], r["title"], r["by"], r["kind"], r.get("note", ""))
                for r in raw.get("reports", ())
            ),
        )
    if errors:
        raise SpecErrors(errors)
    return Bibliography(sources, texts_dir if texts_dir is not None else sources_dir())


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
