"""The sitemap (overrides/sitemap.xml) holds absolute addresses or none: with the address
the site is served from (``SITE_URL``, read by mkdocs.yml) every page of each language is
listed with its other languages as alternates; without it the sitemap is empty, never a
list of addresses that begin with "None" (as the theme's own template wrote them)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import jinja2
import yaml

ROOT = Path(__file__).resolve().parent.parent
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


def _file(url: str, *, link: bool = False) -> SimpleNamespace:
    return SimpleNamespace(
        url=url, page=SimpleNamespace(is_link=link, update_date="2026-12-06"), alternates={}
    )


def _render(site_url: str | None) -> ET.Element:
    home_en, home_de = _file("./"), _file("de/")
    rules_en, rules_de = _file("rulesets/pagat/"), _file("de/rulesets/pagat/")
    for en, de in ((home_en, home_de), (rules_en, rules_de)):
        en.alternates = de.alternates = {"en": en, "de": de}
    outside = _file("https://example.com/", link=True)
    unpaged = SimpleNamespace(url="x/", page=None, alternates={})
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(ROOT / "overrides"), autoescape=False)
    text = env.get_template("sitemap.xml").render(
        config={"site_url": site_url},
        i18n_alternates={"en": [home_en, rules_en, outside, unpaged], "de": [home_de, rules_de]},
    )
    assert text.startswith("<?xml") and "None" not in text
    return ET.fromstring(text.encode())


def test_with_the_site_address_every_page_is_listed_with_its_languages() -> None:
    tree = _render("https://example.org/schwimmen")
    locs = [loc.text for loc in tree.findall("s:url/s:loc", NS)]
    assert locs == [
        "https://example.org/schwimmen/",
        "https://example.org/schwimmen/rulesets/pagat/",
        "https://example.org/schwimmen/de/",
        "https://example.org/schwimmen/de/rulesets/pagat/",
    ]
    for url in tree.findall("s:url", NS):
        links = {a.get("hreflang"): a.get("href") for a in url.findall("x:link", NS)}
        assert set(links) == {"en", "de"} and url.findtext("s:loc", namespaces=NS) in links.values()
        assert links["de"] == links["en"].replace("/schwimmen/", "/schwimmen/de/")


def test_without_it_the_sitemap_is_empty() -> None:
    assert _render(None).findall("s:url", NS) == []
    assert _render("").findall("s:url", NS) == []


def test_the_site_reads_the_address_from_the_environment() -> None:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!ENV", lambda loader, node: ("ENV", loader.construct_scalar(node)))
    Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda *_: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    assert config["site_url"] == ("ENV", "SITE_URL")
    assert config["theme"]["custom_dir"] == "overrides"
