"""Words files: the words an interactive page of the site shows, in English and German.

A page's widget (the hand calculator's buttons, headings and labels) is drawn by a script,
so its words cannot live in the page's Markdown; they live in a small YAML file under
``spec/widgets/``, checked against ``schemas/widget-words.schema.json`` like every file we read,
so that fixing or translating a word never means editing code.
"""

from __future__ import annotations

from pathlib import Path

from schwimmen.resources import spec_dir

FOLDER = "widgets"
SCHEMA = "widget-words.schema.json"
LANGUAGES = ("en", "de")


def words_path(name: str) -> Path:
    """The words file of the page part ``name`` (``calculator``)."""
    return spec_dir() / FOLDER / f"{name}.yaml"


def load_words(path: Path) -> dict[str, dict[str, str]]:
    """The words by language (``{"en": {...}, "de": {...}}``); raises :class:`SpecErrors`
    with file, line and the rule broken when the file is wrong."""
    from schwimmen.spec.validation import read_checked  # jsonschema: only when loading

    doc = read_checked(path, SCHEMA)
    by_language: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}
    for key, forms in doc.data["words"].items():
        for language, shown in forms.items():
            by_language[language][key] = shown
    return by_language
