"""The home page's generated parts speak the page's language (``docs/index.de.md``)."""

from __future__ import annotations

from schwimmen.docsgen.context import build_context
from schwimmen.docsgen.home import sources
from schwimmen.spec.loader import Catalog


def test_the_reported_sources_are_described_in_german_on_the_german_page(
    catalog: Catalog,
) -> None:
    """Who made a reported text, what kind of text it is and the note on it are German on
    the German home page and English on the English one; the text's title is its own."""
    site = build_context(catalog)
    german, english = sources(site, "de"), sources(site, "en")
    reports = [r for s in catalog.bibliography.sources.values() for r in s.reports]
    assert reports
    for report in reports:
        assert report.translations.get("de"), f"{report.id} has no German"
        for name in ("by", "kind", "note"):
            ours, theirs = report.text(name, "de"), getattr(report, name)
            if not theirs:
                continue
            assert ours != theirs or name == "by", (report.id, name)
            assert ours in german and (ours == theirs or ours not in english), (report.id, name)
            assert theirs in english and (ours == theirs or theirs not in german)
        assert report.title in german and report.title in english
    assert "footnote" not in german and "Fußnote" in german
