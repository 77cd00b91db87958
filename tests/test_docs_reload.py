"""A reload of ``mkdocs serve`` renders again only the rule pages whose data changed
(:func:`schwimmen.docsgen.templates.kept`), and an edit reaches every page that shows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from schwimmen.docsgen import rulepages, templates
from schwimmen.docsgen.context import Site, build_context
from schwimmen.spec.loader import Catalog

HOUSE_RULE = "knocker-loses-two"


def _pages(site: Site) -> dict[str, str]:
    """Every ruleset's and house rule's page, in both languages, by a name of its own."""
    fits = {hid: site.fits(hid) for hid in site.house_rules}
    out = {}
    for language in ("en", "de"):
        for rid in site.rulesets:
            out[f"{rid} {language}"] = rulepages.ruleset_markdown(site, rid, fits, language)
        for hid in site.house_rules:
            page = rulepages.house_rule_markdown(site, hid, fits, None, language)
            out[f"{hid} {language}"] = page
    return out


def test_an_edited_value_reaches_its_pages_and_only_they_are_rendered_again(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _pages(build_context(Catalog.load(scratch)))
    path = scratch / "house-rules" / f"{HOUSE_RULE}.yaml"
    text = path.read_text(encoding="utf-8")
    assert "      value: 2\n" in text, "the test's edit needs updating"
    path.write_text(text.replace("      value: 2\n", "      value: 3\n", 1), encoding="utf-8")
    rendered: list[str] = []
    render = templates.render

    def recorded(name: str, language: str, **data: Any) -> str:
        rendered.append(f"{data.get('hid', data.get('rid'))} {language}")
        return render(name, language, **data)

    monkeypatch.setattr(templates, "render", recorded)
    site = build_context(Catalog.load(scratch))
    after = _pages(site)
    changed = sorted(name for name in after if after[name] != before[name])
    assert changed == [f"{HOUSE_RULE} de", f"{HOUSE_RULE} en"]
    assert sorted(rendered) == changed
    monkeypatch.setattr(templates, "_KEPT", {})
    assert _pages(site) == after  # rendered afresh: what was kept is what a build makes
