"""The bibliography (``spec/sources.yaml``) and the check that every quote is verbatim.

A citation is only worth something if its quote stands, character for character, in
the source text. The texts are not shipped with the project (they are other people's
prose); they are read from the workplace's ``shared/sources`` or from the directory
named by ``SCHWIMMEN_SOURCES``. Where no texts are found the check says so and is
skipped, never silently passed: ``schwimmen validate`` and ``schwimmen conformance lint``
fail when they could not check a quote, unless told ``--no-quotes``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schwimmen.resources import SOURCES_ENV, sources_dir, spec_dir
from schwimmen.spec.errors import Notice, SpecError, SpecErrors
from schwimmen.spec.model import Citation


@dataclass(frozen=True)
class Report:
    """A primary source that a source article reports (s000's footnotes)."""

    id: str
    footnote: int
    title: str
    by: str
    kind: str
    note: str = ""
    # language → field (by, kind, note) → the words in that language
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def text(self, name: str, language: str = "en") -> str:
        """The field ``name`` (by, kind, note) in ``language``, English where the file
        gives no translation."""
        given = self.translations.get(language, {}).get(name)
        return " ".join(given.split()) if given else str(getattr(self, name))


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
    # language → field (title, covers, reliability) → the words in that language
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def text(self, name: str, language: str = "en") -> str:
        """The field ``name`` (title, covers, reliability) in ``language``, English where
        the file gives no translation."""
        given = self.translations.get(language, {}).get(name)
        return " ".join(given.split()) if given else str(getattr(self, name))


@dataclass
class Bibliography:
    """The sources, and the check of quotes against their texts.

    Every quote looked up is logged with whether its text could be read, so that a
    command reports what concerns the quotes it checked and nothing else: validating a
    file without quotes says nothing about texts, and a run that could not check its
    quotes knows how many it missed and can refuse to pass."""

    sources: Mapping[str, Source]
    texts_dir: Path | None
    _lines: dict[str, list[str] | None] = field(default_factory=dict)
    _notes: dict[str, Notice] = field(default_factory=dict)
    _looked_up: list[tuple[str, bool]] = field(default_factory=list)

    @property
    def notices(self) -> list[Notice]:
        """What kept the quotes looked up so far from being checked (or checked them
        against a text other than the recorded one); empty when no quote was looked up."""
        return self.notices_since(0)

    @property
    def quotes_looked_up(self) -> int:
        """How many quotes were looked up so far: a mark for :meth:`notices_since`."""
        return len(self._looked_up)

    def notices_since(self, start: int) -> list[Notice]:
        """The notices about the quotes looked up after the first ``start`` ones."""
        sources = dict.fromkeys(source for source, _ in self._looked_up[start:])
        return list(dict.fromkeys(self._notes[s] for s in sources if s in self._notes))

    def unchecked_since(self, start: int = 0) -> int:
        """How many of the quotes looked up after the first ``start`` could not be checked
        because their source's text was not found."""
        return sum(1 for _, checked in self._looked_up[start:] if not checked)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (the catalog's cache) without the texts read: they are other people's
        prose, read again should a quote be checked later."""
        state = dict(self.__dict__)
        state["_lines"] = {}
        return state

    def lines(self, source_id: str) -> list[str] | None:
        """The source's text split into lines, or None (with a notice) when unavailable."""
        if source_id not in self._lines:
            self._lines[source_id] = self._read(source_id)
        return self._lines[source_id]

    def _read(self, source_id: str) -> list[str] | None:
        source = self.sources[source_id]
        if self.texts_dir is None:
            configured = os.environ.get(SOURCES_ENV)
            where = (
                f"{SOURCES_ENV}={configured} is not a directory"
                if configured
                else f"looked for ../shared/sources; set {SOURCES_ENV} to a directory with them"
            )
            self._notes[source_id] = Notice(
                f"source texts not found ({where}): quotes were NOT checked"
            )
            return None
        path = self.texts_dir / source.file
        if not path.is_file():
            self._notes[source_id] = Notice(
                f"{path} not found: quotes of {source_id} were NOT checked"
            )
            return None
        raw = path.read_bytes()
        if hashlib.sha256(raw).hexdigest() != source.sha256:
            self._notes[source_id] = Notice(
                f"{path} differs from the text the bibliography records (sha256); "
                "quotes checked against it anyway"
            )
        return raw.decode("utf-8").splitlines()

    def check_quote(self, citation: Citation) -> str | None:
        """Return why ``citation`` does not hold, or None if it holds or cannot be checked."""
        lines = self.lines(citation.source)
        self._looked_up.append((citation.source, lines is not None))
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


def citation_problems(bib: Bibliography, raw: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What is wrong with one citation as written in a data file (``source``, ``section``,
    ``quote``, optional ``line`` and ``attribution``): (the key at fault, the message). The
    same checks for every file that quotes a source: the source exists, reports the
    attribution, and holds the quote verbatim (on its line)."""
    source = bib.sources.get(str(raw.get("source")))
    if source is None:
        known = ", ".join(bib.sources)
        return [("source", f"unknown source {raw.get('source')!r} (known: {known})")]
    problems: list[tuple[str, str]] = []
    attribution = raw.get("attribution")
    if attribution is not None and attribution not in {r.id for r in source.reports}:
        reported = ", ".join(r.id for r in source.reports) or "nothing"
        problems.append(
            ("attribution", f"{source.id} does not report {attribution!r} (it reports: {reported})")
        )
    problem = bib.check_quote(
        Citation(
            source=source.id,
            section=str(raw.get("section", "")),
            quote=str(raw.get("quote", "")),
            line=raw.get("line"),
            attribution=attribution,
        )
    )
    if problem:
        problems.append(("quote", problem))
    return problems


def quote_problems(bib: Bibliography, citations: Iterable[Citation]) -> list[str]:
    """Every problem with quotes placed outside the rulesets (the site's quotes and
    glossary, the disagreements), checked like the spec's own quotes (skipped, with the
    loader's notice, when the source texts are not available)."""
    problems = []
    for citation in citations:
        if citation.source not in bib.sources:
            problems.append(f"unknown source {citation.source!r} for „{citation.quote}“")
            continue
        problem = bib.check_quote(citation)
        if problem:
            problems.append(f"„{citation.quote}“: {problem}")
    return problems


NO_QUOTES_HELP = (
    "go on without the quote check where the source texts are not found (quotes are still "
    "checked against the texts that are); without it, quotes that could not be checked fail"
)


def quote_check_skipped(unchecked: int) -> str:
    """The plain statement a command prints before it fails for quotes it could not check:
    a check that did not happen must not read as a check that passed."""
    return (
        f"quote check skipped: {unchecked} quote(s) could not be checked against the source "
        f"texts; set {SOURCES_ENV} to a directory with them, or pass --no-quotes to go on "
        "without the check"
    )


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
    from schwimmen.spec.validation import read_checked  # jsonschema: only when loading

    path = path or spec_dir() / "sources.yaml"
    doc = read_checked(path, "sources.schema.json", _display(path))
    errors: list[SpecError] = []
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
                Report(
                    r["id"],
                    r["footnote"],
                    r["title"],
                    r["by"],
                    r["kind"],
                    r.get("note", ""),
                    {"de": dict(r["de"])} if "de" in r else {},
                )
                for r in raw.get("reports", ())
            ),
            translations={"de": dict(raw["de"])} if "de" in raw else {},
        )
    if errors:
        raise SpecErrors(errors)
    return Bibliography(sources, texts_dir if texts_dir is not None else sources_dir())


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
