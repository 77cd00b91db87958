"""The site's data files (glossary, quotes, words) load, and a broken one is reported with
its file, line and the rule it breaks."""

from __future__ import annotations

from pathlib import Path

import pytest

from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.pagedata import glossary, page_quotes, words
from schwimmen.spec.parameters import BY_PATH


def test_the_shipped_files_load() -> None:
    terms = glossary()
    assert len({t.anchor for t in terms}) == len(terms)
    assert all(p in BY_PATH for t in terms for p in t.params)
    assert page_quotes()
    assert words()("kind.cited", "en") == "cited"


def _errors(path: Path, loader: object) -> list[str]:
    with pytest.raises(SpecErrors) as caught:
        loader(path)  # type: ignore[operator]
    return [str(e) for e in caught.value.errors]


def test_a_glossary_term_without_german_is_located(tmp_path: Path) -> None:
    path = tmp_path / "glossary.yaml"
    path.write_text(
        "terms:\n  - term: Feuer\n    en: {gloss: fire, meaning: Three aces.}\n",
        encoding="utf-8",
    )
    (message,) = _errors(path, glossary.__wrapped__)
    assert message.startswith("spec/glossary.yaml:2:") and "'de'" in message, message


def test_an_unknown_parameter_in_the_words_is_located(tmp_path: Path) -> None:
    path = tmp_path / "words.yaml"
    path.write_text(
        "labels:\n  a.b: {en: x, de: y}\nparameters:\n  lives.cuont: {title: Leben}\n",
        encoding="utf-8",
    )
    (message,) = _errors(path, words.__wrapped__)
    assert message.startswith("spec/words.yaml:4:") and "lives.cuont" in message, message


def test_a_label_missing_its_german_is_located(tmp_path: Path) -> None:
    path = tmp_path / "words.yaml"
    path.write_text("labels:\n  a.b: {en: x}\n", encoding="utf-8")
    (message,) = _errors(path, words.__wrapped__)
    assert message.startswith("spec/words.yaml:2:") and "'de'" in message, message


def test_a_label_whose_german_drops_a_placeholder_is_located(tmp_path: Path) -> None:
    path = tmp_path / "words.yaml"
    path.write_text(
        "labels:\n  a.b: {en: 'runs under {name}', de: 'läuft unter {nmae}'}\n", encoding="utf-8"
    )
    (message,) = _errors(path, words.__wrapped__)
    assert message.startswith("spec/words.yaml:2:") and "['name']" in message, message


def test_a_house_rule_gives_its_german_where_it_has_some_and_its_english_elsewhere(
    scratch: Path,
) -> None:
    from schwimmen.spec.loader import Catalog

    (scratch / "house-rules" / "longer-matches.yaml").write_text(
        "id: longer-matches\nkind: house-rule\ntitle: Longer matches\norigin: pagat\n"
        "requires:\n  - {param: lives.after_last, in: [swim], why: before swimming,\n"
        "     de: {why: vor dem Schwimmen}}\n"
        "rules:\n  lives:\n    count:\n      value: 4\n"
        "      default: {why: We like long matches., de: {why: Wir spielen gern lange.}}\n"
        "      note: An English note only.\n",
        encoding="utf-8",
    )
    setting = Catalog.load(scratch).resolve("pagat+longer-matches").settings["lives.count"]
    assert setting.provenance.why_in("de") == "Wir spielen gern lange."
    assert setting.provenance.why_in("en") == "We like long matches."
    assert setting.note_in("de") == "An English note only."
