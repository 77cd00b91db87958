"""The documentation site in a real browser: pages load without console errors and
without fetching anything from outside, search finds "Feuer", and screenshots at desktop
and phone size are saved for a person to look at.

Needs selenium, a Chromium and its chromedriver (Debian: ``apt-get install chromium
chromium-driver``) and mkdocs (``pip install -e '.[docs]'``); skipped with the reason
when any is missing. Set ``SCHWIMMEN_SITE_DIR`` to test an already built site, and
``SCHWIMMEN_SCREENSHOTS`` to keep the screenshots (default: a temporary directory).

The whole tour is in the slow set (``pytest -m slow``, which ``.ci/run`` runs too): it
needs the full site build and a browser, minutes of CPU.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DESKTOP = (1280, 900)
PHONE = (390, 844)
PAGES = {
    "home": "",
    "ruleset-pagat": "rulesets/pagat/",
    "comparison": "compare/",
    "pairs": "compare/pairs/",
    "fixture": "fixtures/round/#thirty-one-by-a-swap",
    "fixture-evaluation": "fixtures/evaluation/#card-values",
    "fixtures-index": "fixtures/",
    "statistics": "compare/statistics/",
    "guide-test": "guides/test-your-implementation/",
    "engine-api": "reference/engine/",
    "guide-play": "guides/play-and-simulate/",
    "file-format": "reference/schema/",
    "rulesets-index": "rulesets/",
    # the German pages a player reads
    "home-de": "de/",
    "ruleset-pagat-de": "de/rulesets/pagat/",
    "house-rule-de": "de/house-rules/knocker-loses-two/",
    "glossary-de": "de/reference/glossary/",
    "guide-house-rule-de": "de/guides/add-a-house-rule/",
    "comparison-de": "de/compare/",
    "calculator-de": "de/tools/calculator/",
    "finder-de": "de/tools/finder/",
    "disagreements-de": "de/compare/disagreements/",
    "statistics-de": "de/compare/statistics/",
    "pairs-de": "de/compare/pairs/",
    "pair-de": "de/compare/pairs/pagat-vs-scat/",
    "disagreements": "compare/disagreements/",
    "calculator": "tools/calculator/",
    "finder": "tools/finder/",
}
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def _find(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name) or (name if os.path.isfile(name) else None)
        if found:
            return found
    return None


CHROMIUM = _find("chromium", "chromium-browser", "google-chrome", "/usr/bin/chromium")
CHROMEDRIVER = _find("chromedriver", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")


def _requirements() -> str | None:
    """Why the browser test cannot run here, or None."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install -e '.[docs]')"
    if CHROMIUM is None:
        return "chromium is not installed (apt-get install chromium)"
    if CHROMEDRIVER is None:
        return "chromedriver is not installed (apt-get install chromium-driver)"
    if not os.environ.get("SCHWIMMEN_SITE_DIR") and importlib.util.find_spec("mkdocs") is None:
        return "mkdocs is not installed (pip install -e '.[docs]') and SCHWIMMEN_SITE_DIR is unset"
    return None


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(_requirements() is not None, reason=str(_requirements())),
]


@pytest.fixture(scope="module")
def site_dir(request: pytest.FixtureRequest) -> Path:
    """``SCHWIMMEN_SITE_DIR`` when given, else the session's clean build (``conftest.py``)."""
    given = os.environ.get("SCHWIMMEN_SITE_DIR")
    if given:
        path = Path(given)
        assert (path / "index.html").is_file(), f"SCHWIMMEN_SITE_DIR={given} has no index.html"
        return path
    built: Path = request.getfixturevalue("clean_site")
    return built


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(site_dir: Path) -> Iterator[str]:
    """Serve the built site on a free port of 127.0.0.1 for the duration of the module."""
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("SCHWIMMEN_SCREENSHOTS")
    path = Path(given) if given else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {path}")
    return path


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    browser.set_page_load_timeout(30)
    try:
        yield browser
    finally:
        browser.quit()


def _viewport(driver: Any, size: tuple[int, int], *, mobile: bool) -> None:
    """Emulate the viewport exactly (headless window sizes include no browser chrome, but
    a phone also needs the mobile flag so the page's viewport meta tag applies)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile},
    )


def _open(driver: Any, url: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )
    time.sleep(0.3)  # let the theme's scripts settle (search index, tooltips)


def _severe(driver: Any) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def _foreign_resources(driver: Any, base_url: str) -> list[str]:
    """Everything the page loaded from anywhere but the local server."""
    names: list[str] = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
    )
    return [n for n in names if not n.startswith(base_url) and not n.startswith("data:")]


@pytest.mark.parametrize("name", list(PAGES))
def test_page_loads_cleanly_and_offline(
    driver: Any, base_url: str, screenshots: Path, name: str
) -> None:
    url = base_url + PAGES[name]
    driver.get_log("browser")  # drop entries from earlier pages
    for label, size, mobile in (("desktop", DESKTOP, False), ("phone", PHONE, True)):
        _viewport(driver, size, mobile=mobile)
        _open(driver, url)
        assert driver.title, f"{url} has no title"
        assert driver.find_element("css selector", "article h1").text
        assert _severe(driver) == [], f"console errors on {url} ({label})"
        assert _foreign_resources(driver, base_url) == [], f"{url} fetched from elsewhere"
        path = screenshots / f"{name}-{label}-{size[0]}x{size[1]}.png"
        assert driver.save_screenshot(str(path)), path


def test_comparison_page_has_every_ruleset(driver: Any, base_url: str) -> None:
    """Every table of the comparison heads its columns with each ruleset's name for
    players and its id; the rules at a glance come first."""
    from schwimmen.spec.glance import load_glance
    from schwimmen.spec.loader import Catalog

    words = load_glance()
    _viewport(driver, DESKTOP, mobile=False)
    _open(driver, base_url + PAGES["comparison"])
    tables = driver.find_elements("css selector", "article table")
    assert "glance-table" in (tables[0].get_attribute("class") or "")
    for table in tables:
        headers = [th.text.strip() for th in table.find_elements("css selector", "thead th")]
        for rid in Catalog.load().rulesets:
            assert f"{words.name(rid)}\n{rid}" in headers, (rid, headers)


def test_search_finds_feuer(driver: Any, base_url: str, screenshots: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    _viewport(driver, DESKTOP, mobile=False)
    _open(driver, base_url)
    driver.get_log("browser")
    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    box.click()
    box.send_keys("Feuer")

    def results(d: Any) -> list[Any]:
        found: list[Any] = d.find_elements(By.CSS_SELECTOR, ".md-search-result__item")
        return found

    found = WebDriverWait(driver, 20).until(results)
    assert any("Feuer" in item.text for item in found)
    meta = driver.find_element(By.CSS_SELECTOR, ".md-search-result__meta").text
    assert "matching" in meta.lower() or meta[:1].isdigit(), meta
    assert _severe(driver) == []
    driver.save_screenshot(str(screenshots / "search-feuer-desktop-1280x900.png"))


def _search(driver: Any, base_url: str, query: str, *, mobile: bool, start: str = "") -> list[str]:
    """Type ``query`` into the search of the page at ``start`` and return the result
    links, best first, as site paths with their anchors (``rulesets/pagat/#three_aces``)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    _open(driver, base_url + start)
    if mobile:  # on a phone the search opens from the magnifier in the header
        driver.find_element(By.CSS_SELECTOR, "label.md-header__button[for='__search']").click()
    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    WebDriverWait(driver, 10).until(lambda d: box.is_displayed())
    box.click()
    box.send_keys(query)

    def links(d: Any) -> list[str]:
        found = d.find_elements(By.CSS_SELECTOR, ".md-search-result__item > a")
        return [a.get_attribute("href") for a in found]

    hrefs: list[str] = WebDriverWait(driver, 20).until(links)
    time.sleep(0.5)  # the worker may refine the first answer as the index settles
    hrefs = links(driver)
    out = []
    for href in hrefs:
        path, _, anchor = href.removeprefix(base_url).partition("#")
        out.append(path.split("?", 1)[0] + (f"#{anchor}" if anchor else ""))
    return out


def _is_rule_page(link: str, rulesets: set[str], language: str = "en") -> bool:
    """A ruleset's page, the glossary, or the comparison's rules at a glance, in
    ``language`` (German pages are under ``de/``)."""
    page, _, anchor = link.partition("#")
    if language != "en":
        if not page.startswith(f"{language}/"):
            return False
        page = page.removeprefix(f"{language}/")
    elif page.startswith("de/"):
        return False
    if page.startswith("rulesets/") and page.strip("/").split("/")[-1] in rulesets:
        return True
    if page == "reference/glossary/":
        return True
    return page == "compare/" and anchor in ("", "at-a-glance")


@pytest.mark.parametrize("query", ["Feuer", "drei Asse", "schwimmen"])
@pytest.mark.parametrize(
    ("label", "size", "mobile"), [("desktop", DESKTOP, False), ("phone", PHONE, True)]
)
def test_search_puts_a_rule_page_first(
    driver: Any, base_url: str, query: str, label: str, size: tuple[int, int], mobile: bool
) -> None:
    """A player's words find the rules before the conformance fixtures and the pairs."""
    from schwimmen.spec.loader import Catalog

    _viewport(driver, size, mobile=mobile)
    driver.get_log("browser")
    found = _search(driver, base_url, query, mobile=mobile)
    assert found, query
    assert _is_rule_page(found[0], set(Catalog.load().rulesets)), (query, label, found[:5])
    assert not [link for link in found if "/pairs/" in link and "-vs-" in link]
    assert _severe(driver) == []


@pytest.mark.parametrize("query", ["Feuer", "drei Asse", "schwimmen", "klopfen"])
def test_german_search_puts_a_german_rule_page_first(
    driver: Any, base_url: str, query: str
) -> None:
    """From a German page the search reads the German index: a player's words find a
    German ruleset page, the German glossary or the German comparison first, and every
    result is a German page or one that has no German version (a fixture, served in
    English only)."""
    from schwimmen.spec.loader import Catalog

    _viewport(driver, DESKTOP, mobile=False)
    driver.get_log("browser")
    found = _search(driver, base_url, query, mobile=False, start="de/")
    assert found, query
    assert _is_rule_page(found[0], set(Catalog.load().rulesets), "de"), (query, found[:5])
    english_only = [link for link in found if not link.startswith("de/")]
    assert all(link.startswith("fixtures/") for link in english_only), (query, found[:5])
    assert _severe(driver) == []


def test_pairs_grid_keeps_names_whole_on_a_phone(driver: Any, base_url: str) -> None:
    """No ruleset name in the grid of pairs is broken inside a word, and no two column
    headings overlap."""
    _viewport(driver, PHONE, mobile=True)
    _open(driver, base_url + PAGES["pairs"])
    broken: list[str] = driver.execute_script(
        """
        const out = [];
        for (const cell of document.querySelectorAll('.pairs-grid th, .pairs-grid td')) {
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/\\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              if (range.getClientRects().length > 1) out.push(m[0]);
            }
          }
        }
        return out;"""
    )
    assert broken == []
    boxes: list[list[float]] = driver.execute_script(
        "return [...document.querySelectorAll('.pairs-grid thead th .upright')].map(e => {"
        " const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })"
    )
    assert len(boxes) >= 10
    for a, b in pairwise(boxes):
        assert a[1] <= b[0] + 0.5, (a, b)  # each heading ends before the next begins


# The words of the cells matched by a selector that the browser broke across lines
# anywhere but after a hyphen or at a soft hyphen (where it shows a hyphen).
_BROKEN_WORDS = """
const out = [];
for (const cell of document.querySelectorAll(arguments[0])) {
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      if (range.getClientRects().length < 2) continue;
      let top = null;
      for (let i = 0; i < m[0].length; i++) {
        range.setStart(node, m.index + i);
        range.setEnd(node, m.index + i + 1);
        // a character after a broken soft hyphen also covers the hyphen drawn at the
        // line's end: its own box is the last
        const rects = range.getClientRects();
        if (!rects.length) continue;
        const box = rects[rects.length - 1];
        if (top !== null && box.top > top + 1 && !"-\\u00ad".includes(m[0][i - 1])) {
          out.push(m[0]);
          break;
        }
        top = box.top;
      }
    }
  }
}
return out;"""


@pytest.mark.parametrize(("page", "size"), [("comparison-de", DESKTOP), ("comparison-de", PHONE)])
def test_german_ruleset_names_break_only_where_hyphenated(
    driver: Any, base_url: str, page: str, size: tuple[int, int]
) -> None:
    """The German names in the heading of the rules at a glance break, where a column is
    too narrow, at a soft hyphen of the data (shown as a hyphen), never inside a word
    without one (\u201eNiederl\u00e4ndisc|h\u201c)."""
    _viewport(driver, size, mobile=size == PHONE)
    _open(driver, base_url + PAGES[page])
    broken = driver.execute_script(_BROKEN_WORDS, ".glance-table thead th")
    assert broken == [], broken


@pytest.mark.parametrize(
    "name",
    [
        "fixture",
        "fixture-evaluation",
        "statistics",
        "guide-test",
        "engine-api",
        "comparison",
        "pairs",
        "disagreements",
        "disagreements-de",
        "ruleset-pagat-de",
        "statistics-de",
        "pair-de",
        "calculator",
        "finder",
    ],
)
def test_new_pages_fit_a_phone(driver: Any, base_url: str, name: str) -> None:
    """Nothing makes the page itself scroll sideways on a phone (wide tables and code
    scroll inside their own boxes), and the charts are drawn at a readable size."""
    _viewport(driver, PHONE, mobile=True)
    _open(driver, base_url + PAGES[name])
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"{name} is {overflow}px wider than a phone"
    if name == "statistics":
        widths: list[float] = driver.execute_script(
            "return [...document.querySelectorAll('svg.sw-svg')]"
            ".map(s => s.getBoundingClientRect().width)"
        )
        assert len(widths) > 30
        assert min(widths) > 300, widths  # about the SVG's own 360 units: text stays legible


def _switch_to(driver: Any, language: str) -> None:
    """Click the language switch's entry for ``language`` (through the page, so the
    theme's own handling of the click applies) and wait for the new page."""
    from selenium.webdriver.support.ui import WebDriverWait

    before = driver.current_url
    link = driver.find_element("css selector", f'a.md-select__link[hreflang="{language}"]')
    driver.execute_script("arguments[0].click()", link)
    WebDriverWait(driver, 20).until(
        lambda d: (
            d.current_url != before and d.execute_script("return document.readyState") == "complete"
        )
    )


@pytest.mark.parametrize("start", ["home", "ruleset-pagat"], ids=["home", "ruleset-page"])
def test_language_switch_leads_to_german_and_back(driver: Any, base_url: str, start: str) -> None:
    """From an English page the switch leads to the same page in German, and back."""
    english = base_url + PAGES[start]
    _viewport(driver, DESKTOP, mobile=False)
    _open(driver, english)
    driver.get_log("browser")
    assert driver.execute_script("return document.documentElement.lang") == "en"
    english_title = driver.find_element("css selector", "article h1").text
    _switch_to(driver, "de")
    assert driver.current_url == base_url + PAGES[f"{start}-de"]
    assert driver.execute_script("return document.documentElement.lang") == "de"
    assert driver.find_element("css selector", "article h1").text != english_title
    _switch_to(driver, "en")
    assert driver.current_url == english
    assert driver.find_element("css selector", "article h1").text == english_title
    assert _severe(driver) == []


def test_language_switch_of_a_page_only_in_english_leads_to_the_german_home(
    driver: Any, base_url: str
) -> None:
    """A fixture has no German page (nor an English copy under de/): the switch leads to
    the German home page."""
    _viewport(driver, DESKTOP, mobile=False)
    _open(driver, base_url + PAGES["fixture"])
    driver.get_log("browser")
    _switch_to(driver, "de")
    assert driver.current_url == base_url + PAGES["home-de"]
    assert driver.execute_script("return document.documentElement.lang") == "de"
    assert _severe(driver) == []


# ---------------------------------------------------------------- the hand calculator
_CELLS = """
return [...document.querySelectorAll('.calc-table tbody tr')].map(tr => ({
  id: tr.dataset.ruleset,
  cells: [...tr.querySelectorAll('[data-hand]')].map(td => td.classList.contains('calc-none')
    ? null
    : {points: td.dataset.points, kind: td.dataset.kind, suit: td.dataset.suit,
       flags: Number(td.dataset.flags)}),
  losers: tr.querySelector('.calc-loses') ? tr.querySelector('.calc-loses').dataset.losers : null,
}));
"""


def _open_calculator(driver: Any, base_url: str, page: str = "calculator") -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    _open(driver, base_url + PAGES[page])
    WebDriverWait(driver, 20).until(
        lambda d: d.execute_script(
            "return !!(window.schwimmenCalculator && window.schwimmenCalculator.ready)"
        )
    )


def _pick(driver: Any, *cards: str) -> None:
    for card in cards:
        driver.find_element("css selector", f'.calc-picker [data-card="{card}"]').click()


def _shown_rows(driver: Any, rulesets: int) -> list[dict[str, Any]]:
    """The table's rows once every ruleset has one (the hands' tables load first)."""
    from selenium.webdriver.support.ui import WebDriverWait

    def rows(d: Any) -> list[dict[str, Any]] | None:
        found: list[dict[str, Any]] = d.execute_script(_CELLS)
        return found if len(found) == rulesets else None

    result: list[dict[str, Any]] = WebDriverWait(driver, 20).until(rows)
    return result


def _engine_cell(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    points = value.points
    shown = (
        ""
        if points is None
        else (str(int(points)) if points == int(points) else str(float(points)))
    )
    return {
        "points": shown,
        "kind": value.kind.value,
        "suit": value.suit or "",
        "flags": value.flags,
    }


def _check_rows(driver: Any, catalog: Any, hands: list[list[str]]) -> None:
    from schwimmen.engine.handscore import ruleset_names, score
    from schwimmen.protocol.cards import parse

    names = ruleset_names(catalog)
    rows = _shown_rows(driver, len(names))
    # the rulesets first, then each one's house rules (folded under it)
    bases = [n for n in names if "+" not in n]
    assert [r["id"] for r in rows] == bases + [
        n for base in bases for n in names if n.startswith(f"{base}+")
    ]
    parsed = [[parse(c) for c in hand] for hand in hands]
    for row in rows:
        result = score(catalog.resolve(row["id"]).rules, parsed)
        assert row["cells"] == [_engine_cell(v) for v in result.values], row["id"]
        if len(hands) > 1:
            losers = (
                ""
                if result.showdown is None
                else ",".join(str(s) for s in sorted(result.showdown.losses))
            )
            assert row["losers"] == losers, row["id"]


@pytest.mark.parametrize(
    ("label", "size", "mobile"), [("desktop", DESKTOP, False), ("phone", PHONE, True)]
)
def test_calculator_shows_the_engines_values_and_losers(
    driver: Any, base_url: str, screenshots: Path, label: str, size: tuple[int, int], mobile: bool
) -> None:
    """Cards picked on the page: each ruleset's row shows the engine's value of each hand
    (or none where the cards are no hand of it) and, with two hands, the engine's losers;
    four cards are looked up in the four-card tables."""
    from schwimmen.spec.loader import Catalog

    catalog = Catalog.load()
    _viewport(driver, size, mobile=mobile)
    driver.get_log("browser")
    _open_calculator(driver, base_url)
    _pick(driver, "AC", "KC", "10C")
    _check_rows(driver, catalog, [["AC", "KC", "10C"]])
    driver.find_element("css selector", ".calc-add").click()
    _pick(driver, "7H", "8H", "9D")
    _check_rows(driver, catalog, [["AC", "KC", "10C"], ["7H", "8H", "9D"]])
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"the calculator is {overflow}px wider than the screen ({label})"
    driver.save_screenshot(
        str(screenshots / f"calculator-two-hands-{label}-{size[0]}x{size[1]}.png")
    )
    driver.find_element("css selector", ".calc-clear").click()
    _pick(driver, "AS", "AH", "AD", "2C")
    _check_rows(driver, catalog, [["AS", "AH", "AD", "2C"]])
    assert _severe(driver) == []
    assert _foreign_resources(driver, base_url) == []


def test_the_german_calculator_uses_the_same_tables(driver: Any, base_url: str) -> None:
    """Under /de/ the page finds the tables published once for both languages, speaks
    German, and shows the engine's values."""
    from schwimmen.spec.loader import Catalog

    _viewport(driver, PHONE, mobile=True)
    driver.get_log("browser")
    _open_calculator(driver, base_url, "calculator-de")
    assert driver.execute_script("return document.documentElement.lang") == "de"
    # German card letters: B (Bube), D (Dame), K (König), A (Ass)
    shown = {
        card: driver.find_element("css selector", f'.calc-picker [data-card="{card}"]').text
        for card in ("JC", "QH", "KS", "AD")
    }
    assert shown == {"JC": "B♣", "QH": "D♥", "KS": "K♠", "AD": "A♦"}
    _pick(driver, "AC", "AH", "AS")
    _check_rows(driver, Catalog.load(), [["AC", "AH", "AS"]])
    # rows are named as the comparison names the rulesets, in German
    from schwimmen.spec.glance import load_glance

    glance = load_glance()
    heads = driver.execute_script(
        "return Object.fromEntries([...document.querySelectorAll('.calc-table th.calc-ruleset')]"
        ".map(th => [th.parentNode.dataset.ruleset, th.textContent.replaceAll('\\u00ad', '')]))"
    )
    for rid in Catalog.load().rulesets:
        assert heads[rid] == glance.name(rid, "de"), rid
    assert _severe(driver) == []
    assert _foreign_resources(driver, base_url) == []


_WHY = {
    "why-punished": "three aces",
    "why-complete-tie": "complete tie",
    "why-all-protected": "every hand is protected",
    "why-lowest-protected": "the lowest hand is protected",
    "why-last-to-reach": "only the one reached last loses",
}


def test_calculator_showdowns_agree_with_the_engine(driver: Any, base_url: str) -> None:
    """Random showdowns of two to six hands under random rulesets (hands of three of a
    rank made often, so that triples, three aces and protected hands are met), each looked
    up and decided by the page's script, against the engine's values and showdown."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from schwimmen.engine.hands import evaluator_for
    from schwimmen.engine.handscore import ruleset_names, showdown
    from schwimmen.protocol.cards import text
    from schwimmen.spec.loader import Catalog

    catalog = Catalog.load()
    names = ruleset_names(catalog)
    _viewport(driver, DESKTOP, mobile=False)
    _open_calculator(driver, base_url)
    driver.set_script_timeout(30)
    driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all([3, 4].map(n => window.schwimmenCalculator.load(n))).then(() => done(1));"
    )

    @st.composite
    def case(draw: st.DrawFn) -> tuple[str, list[list[int]]]:
        name = draw(st.sampled_from(names))
        rules = catalog.resolve(name).rules
        free = list(evaluator_for(rules).pack)
        size = rules.cards.hand_size
        hands = []
        for _ in range(draw(st.integers(min_value=2, max_value=6))):
            groups = [r for r in {c & 15 for c in free} if sum(c & 15 == r for c in free) >= 3]
            if groups and draw(st.booleans()):
                rank = draw(st.sampled_from(sorted(groups)))
                hand = [c for c in free if c & 15 == rank][:3]
                rest = [c for c in free if c not in hand]
                hand += draw(st.permutations(rest))[: size - 3]
            else:
                hand = draw(st.permutations(free))[:size]
            hands.append(hand)
            free = [c for c in free if c not in hand]
        return name, hands

    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(case(), min_size=25, max_size=25))
    def check(batch: list[tuple[str, list[list[int]]]]) -> None:
        shown = driver.execute_script(
            "const c = window.schwimmenCalculator;"
            "return arguments[0].map(([r, hands]) => ["
            "  hands.map(h => c.lookup(r, h)), c.showdown(r, hands)]);",
            [[name, [[text(c) for c in h] for h in hands]] for name, hands in batch],
        )
        for (name, hands), (values, decided) in zip(batch, shown, strict=True):
            rules = catalog.resolve(name).rules
            evaluator = evaluator_for(rules)
            for hand, value in zip(hands, values, strict=True):
                engine = evaluator.value(hand)
                assert value["kind"] == engine.kind.value and value["flags"] == engine.flags
                assert value["suit"] == engine.suit, (name, hand)
                assert (value["points"] is None) == (engine.points is None)
                assert value["points"] is None or value["points"] == float(engine.points)
            expected = showdown(rules, hands)
            assert sorted(decided["losers"]) == sorted(expected.losses), (name, hands)
            assert all(lives == decided["lives"] for lives in expected.losses.values())
            if decided["why"]:
                assert _WHY[decided["why"]] in expected.why, (decided, expected.why)

    check()


# --------------------------------------------------------------------- the variant finder
def _finder_data(driver: Any) -> dict[str, Any]:
    """The data the finder page embeds (what its script reads)."""
    text: str = driver.execute_script(
        "return document.getElementById('sw-finder-data').textContent"
    )
    data: dict[str, Any] = json.loads(text)
    return data


def _answer(driver: Any, answers: dict[str, str]) -> None:
    """Click the answers on the page, after clearing any earlier ones."""
    from selenium.webdriver.common.by import By

    clear = driver.find_element(By.CSS_SELECTOR, ".sw-finder__clear")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", clear)
    clear.click()
    for question, answer in answers.items():
        box = driver.find_element(By.CSS_SELECTOR, f'fieldset[data-question="{question}"]')
        if box.is_displayed():
            field = box.find_element(By.CSS_SELECTOR, f'input[value="{answer}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
            field.click()


def test_finder_leads_to_every_ruleset(driver: Any, base_url: str, screenshots: Path) -> None:
    """On a phone, clicking the answers a table playing a ruleset would give names that
    ruleset, with nothing left to differ and nothing to download, and the page does not
    grow wider than the phone."""
    from selenium.webdriver.common.by import By

    from schwimmen.spec import finder

    _viewport(driver, PHONE, mobile=True)
    _open(driver, base_url + PAGES["finder"])
    driver.get_log("browser")
    data = _finder_data(driver)
    assert len(data["rulesets"]) == 10
    for ruleset in data["rulesets"]:
        _answer(driver, finder.own_answers(data, ruleset["id"]))
        shown = driver.find_element(By.CSS_SELECTOR, ".sw-finder__nearest")
        assert shown.get_attribute("data-ruleset") == ruleset["id"]
        assert driver.find_elements(By.CSS_SELECTOR, ".sw-finder__same")
        assert not driver.find_elements(By.CSS_SELECTOR, ".sw-finder__yaml")
        assert not driver.find_elements(By.CSS_SELECTOR, ".sw-finder__tied")
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"the finder is {overflow}px wider than a phone"
    assert _severe(driver) == []
    driver.save_screenshot(str(screenshots / "finder-answered-phone-390x844.png"))


def test_finder_script_agrees_with_the_python_logic(driver: Any, base_url: str) -> None:
    """The page's script and ``schwimmen.spec.finder`` give the same ranking, the same
    differences and the same house rule, in both languages, for many sets of answers."""
    import random

    from schwimmen.spec import finder

    _viewport(driver, DESKTOP, mobile=False)
    _open(driver, base_url + PAGES["finder"])
    data = _finder_data(driver)
    rng = random.Random(13)
    cases = [finder.own_answers(data, r["id"]) for r in data["rulesets"]]
    for _ in range(40):
        cases.append(
            {
                q["id"]: rng.choice(q["answers"])["id"]
                for q in data["questions"]
                if rng.random() < 0.7
            }
        )
    ids = [r["id"] for r in data["rulesets"]]
    for answers in cases:
        script = driver.execute_script(
            """
            const f = window.schwimmenFinder, answers = arguments[0], ids = arguments[1];
            return {
              ranking: f.ranking(answers).map(k => [k.id, k.game, k.other]),
              nearest: f.nearest(answers),
              differences: ids.map(rid => f.differences(rid, answers)),
              yaml: ids.map(rid => ["en", "de"].map(lang => f.houseRuleYaml(rid, answers, lang))),
            };
            """,
            answers,
            ids,
        )
        assert script["ranking"] == [
            [k.id, k.game, k.other] for k in finder.ranking(data, answers)
        ], answers
        assert script["nearest"] == finder.nearest(data, answers)
        for rid, diffs, texts in zip(ids, script["differences"], script["yaml"], strict=True):
            assert diffs == [vars(d) for d in finder.differences(data, rid, answers)], (
                rid,
                answers,
            )
            assert texts == [
                finder.house_rule_yaml(data, rid, answers, lang) for lang in ("en", "de")
            ]


def test_finder_offers_a_house_rule_that_validates(
    driver: Any, base_url: str, tmp_path: Path, screenshots: Path
) -> None:
    """Answers no ruleset gives: the page shows a house rule on the nearest ruleset, the
    download button saves exactly that text, and ``schwimmen validate`` accepts it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from schwimmen.spec import finder
    from schwimmen.spec.validate import validate_paths

    _viewport(driver, DESKTOP, mobile=False)
    _open(driver, base_url + PAGES["finder"])
    driver.get_log("browser")
    data = _finder_data(driver)
    unmatched = {
        q["id"]: a["id"]
        for q in data["questions"]
        for a in q["answers"]
        if not any(finder.agrees(r["values"], a) for r in data["rulesets"])
    }
    assert unmatched
    _answer(driver, unmatched)
    nearest = driver.find_element(By.CSS_SELECTOR, ".sw-finder__nearest")
    rid = nearest.get_attribute("data-ruleset")
    assert rid == finder.nearest(data, unmatched)[0]
    text = driver.find_element(By.CSS_SELECTOR, ".sw-finder__yaml").get_attribute("textContent")
    assert text == finder.house_rule_yaml(data, rid, unmatched, "en")
    listed = driver.find_elements(By.CSS_SELECTOR, ".sw-finder__differences > li")
    assert {li.get_attribute("data-question") for li in listed} == set(unmatched)

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    button = driver.find_element(By.CSS_SELECTOR, ".sw-finder__download")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    name = finder.file_name(data, "en")
    WebDriverWait(driver, 10).until(lambda d: (downloads / name).is_file())
    saved = downloads / name
    assert saved.read_text(encoding="utf-8") == text
    report = validate_paths([saved])
    assert report.ok, "\n".join(str(e) for e in report.errors)
    assert _severe(driver) == []
    assert _foreign_resources(driver, base_url) == []
    driver.save_screenshot(str(screenshots / "finder-house-rule-desktop-1280x900.png"))


# The admonition's look the theme gives a box written in Markdown (the statistics page's
# "!!! info"), which a clash message must share; only the colour tells the kinds apart.
_ADMONITION_LOOK = (
    "border-top-style",
    "border-top-width",
    "border-left-width",
    "border-top-left-radius",
    "padding-left",
    "font-size",
    "background-color",
)


def _style(driver: Any, element: Any, names: tuple[str, ...]) -> dict[str, str]:
    style: dict[str, str] = driver.execute_script(
        "const s = getComputedStyle(arguments[0]);"
        "return Object.fromEntries(arguments[1].map(n => [n, s.getPropertyValue(n)]));",
        element,
        list(names),
    )
    return style


def _clashes(data: dict[str, Any]) -> dict[str, tuple[str, dict[str, str]]]:
    """For each kind of clash the page knows (refused, suspected), the first ruleset and
    one or two answers that make it."""
    from itertools import combinations

    from schwimmen.spec import finder

    options = [
        (q["id"], a["id"]) for q in data["questions"] if not q["decides_game"] for a in q["answers"]
    ]
    sets = [dict([o]) for o in options]
    sets += [dict([a, b]) for a, b in combinations(options, 2) if a[0] != b[0]]
    found: dict[str, tuple[str, dict[str, str]]] = {}
    for ruleset in data["rulesets"]:
        for answers in sets:
            clash = finder.clash(data, ruleset["id"], answers)
            if clash is not None and clash.kind not in found:
                found[clash.kind] = (ruleset["id"], answers)
    return found


@pytest.mark.parametrize("page", ["finder", "finder-de"])
def test_finder_shows_a_clash_as_the_themes_admonition(
    driver: Any, base_url: str, screenshots: Path, page: str
) -> None:
    """Where the contradiction table refuses the house rule the answers make, the page says
    so in a failure admonition and offers no file; where it only suspects it, in a warning
    admonition above the file. Both have the theme's admonition look (the same border,
    corners, padding and type size as a Markdown "!!! info" box on the statistics page) in
    the colour of their kind, and say what ``clash_text`` says, in the page's language."""
    from selenium.webdriver.common.by import By

    from schwimmen.spec import finder

    _viewport(driver, DESKTOP, mobile=False)
    _open(driver, base_url + PAGES["statistics"])
    info = driver.find_element(By.CSS_SELECTOR, "article .admonition.info")
    look = _style(driver, info, _ADMONITION_LOOK)
    info_colour = _style(driver, info, ("border-top-color",))
    assert look["border-top-style"] == "solid" and look["border-top-width"] != "0px"

    lang = "de" if page.endswith("-de") else "en"
    _open(driver, base_url + PAGES[page])
    driver.get_log("browser")
    data = _finder_data(driver)
    clashes = _clashes(data)
    assert "refused" in clashes, "no answers make a combination the table refuses"
    colours: dict[str, str] = {}
    for kind, (rid, answers) in clashes.items():
        _answer(driver, answers)
        driver.execute_script(
            "document.querySelector(arguments[0]).click()",
            f'.sw-finder__pick[data-ruleset="{rid}"]',
        )
        shown = driver.find_element(By.CSS_SELECTOR, ".sw-finder__nearest")
        assert shown.get_attribute("data-ruleset") == rid
        boxes = driver.find_elements(By.CSS_SELECTOR, ".sw-finder__result .admonition")
        assert len(boxes) == 1, (kind, rid, answers)
        box = boxes[0]
        theme_kind = {"refused": "failure", "suspected": "warning"}[kind]
        assert set((box.get_attribute("class") or "").split()) >= {
            "admonition",
            theme_kind,
            f"sw-finder__{kind}",
        }
        found = finder.clash(data, rid, answers)
        assert found is not None
        assert box.get_attribute("textContent") == finder.clash_text(data, rid, found, lang)
        assert _style(driver, box, _ADMONITION_LOOK) == look, kind
        colours[kind] = _style(driver, box, ("border-top-color",))["border-top-color"]
        offered = driver.find_elements(By.CSS_SELECTOR, ".sw-finder__yaml")
        assert bool(offered) == (kind == "suspected"), kind
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        driver.save_screenshot(str(screenshots / f"{page}-{kind}-desktop-1280x900.png"))
    assert len({*colours.values(), info_colour["border-top-color"]}) == len(colours) + 1, colours
    assert _severe(driver) == []
