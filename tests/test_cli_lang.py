"""German on the command line: ``--lang de`` or ``LANG=de_*`` for score, show, diff and play,
German rank letters as input, and tables that keep whole ruleset names in a pipe."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from schwimmen.cli import lang
from schwimmen.cli.console import printable_console
from schwimmen.cli.main import main
from schwimmen.cli.play_command import play, typed_action
from schwimmen.engine.handscore import ruleset_names
from schwimmen.protocol.actions import parse_text
from schwimmen.protocol.cards import parse
from schwimmen.resources import spec_dir
from schwimmen.spec.loader import Catalog
from schwimmen.spec.parameters import BY_PATH

CLI = Path(lang.__file__).parent


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _site_words() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((spec_dir() / "words.yaml").read_text(encoding="utf-8"))
    return data


def _calculator_words() -> dict[str, dict[str, str]]:
    path = spec_dir() / "widgets" / "calculator.yaml"
    words: dict[str, dict[str, str]] = yaml.safe_load(path.read_text(encoding="utf-8"))["words"]
    return words


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "200")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT"}, "de"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANG": "C", "LC_MESSAGES": "de_CH.UTF-8"}, "de"),
    ],
)
def test_the_locale_chooses_the_language(environ: dict[str, str], expected: str) -> None:
    assert lang.default_language(environ) == expected


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [("DC", "QC"), ("BH", "JH"), ("KS", "KS"), ("AD", "AD"), ("DD", "QD"), ("10D", "10D")],
)
def test_german_rank_letters_are_cards(typed: str, canonical: str) -> None:
    assert lang.parse_card(typed) == parse(canonical)
    suit = canonical[-1]
    symbol = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}[suit]
    assert lang.parse_card(typed[:-1] + symbol) == parse(canonical)


@pytest.mark.parametrize("word", ["D", "dc", "BX", "1C", "QQ", "♣D"])
def test_what_is_no_card_stays_refused(word: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        lang.parse_card(word)


def test_score_takes_german_letters_and_answers_in_german(
    capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    code, german_json, _ = _run(["score", "AS", "DS", "KS", "--format", "json"], capsys)
    assert code == 0
    _, english_json, _ = _run(["score", "AS", "QS", "KS", "--format", "json"], capsys)
    assert json.loads(german_json) == json.loads(english_json)
    code, out, _ = _run(["score", "AS", "DS", "KS", "/", "7H", "8H", "9D", "--lang", "de"], capsys)
    assert code == 0
    words = {k: v["de"] for k, v in _calculator_words().items()}
    header = out.splitlines()[0]
    assert words["ruleset"] in header and words["loses"] in header
    assert "D♠" in header and "Q♠" not in header
    assert words["mark-maximum"] in out
    cells = " ".join(line.split(maxsplit=1)[-1] for line in out.splitlines()[1:])
    for word in ("maximum", "loses", "ruleset", "life"):  # the English of the same table
        assert not re.search(rf"\b{word}\b", cells), word


def test_lang_follows_the_locale_unless_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    german = _calculator_words()["ruleset"]["de"]
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    _, out, _ = _run(["score", "AC", "KC", "10C", "--ruleset", "pagat"], capsys)
    assert out.splitlines()[0].startswith(german)
    _, out, _ = _run(["score", "AC", "KC", "10C", "--ruleset", "pagat", "--lang", "en"], capsys)
    assert out.splitlines()[0].startswith("ruleset")


def test_show_speaks_german_from_the_files(
    capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    code, out, _ = _run(["show", "pagat+no-triples", "--lang", "de"], capsys)
    assert code == 0
    text = " ".join(out.split())
    base = catalog.rulesets["pagat"].data["de"]["title"]
    house = catalog.house_rules["no-triples"].data["de"]["title"]
    assert base in text and house in text
    site = _site_words()
    shown = {BY_PATH[p].group for p in catalog.resolve("pagat+no-triples").settings}
    assert shown and all(str(site["groups"][g]) in out for g in shown)
    labels = site["labels"]
    assert isinstance(labels, dict)
    for key in ("rule.reading", "rule.why", "kind.cited.title"):
        assert str(labels[key]["de"]).upper() in text.upper(), key
    assert "reading:" not in text and "inherited from" not in text


def test_diff_speaks_german(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["diff", "altenburg", "pagat", "--lang", "de"], capsys)
    assert code == 0
    labels = _site_words()["labels"]
    assert isinstance(labels, dict)
    title = str(labels["cli.diff-title"]["de"]).split("{n}")[1].strip()
    assert title in " ".join(out.split())
    assert "parameters differ" not in out


def test_a_piped_table_keeps_every_ruleset_name_whole(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    monkeypatch.delenv("COLUMNS")
    hands = ["AC", "KC", "10C", "/", "7H", "8H", "9D", "/", "7S", "8S", "9S", "/", "JH", "QH"]
    code, out, _ = _run(["score", *hands, "KH"], capsys)
    assert code == 0
    firsts = [line.split()[0] for line in out.splitlines()[1:] if line.strip()]
    assert firsts == ruleset_names(catalog)
    assert "…" not in out


def test_play_takes_a_move_in_german_letters() -> None:
    assert typed_action("swap DC BH") == parse_text("swap QC JH")
    assert typed_action("swap DC+BC 10H+AH knock") == parse_text("swap QC+JC 10H+AH knock")
    assert typed_action("pass") == parse_text("pass")


def test_play_speaks_german(capsys: pytest.CaptureFixture[str], catalog: Catalog) -> None:
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return "quit" if len(prompts) > 2 else "1"

    w = lang.words(lang.GERMAN)
    console = printable_console()
    assert play(catalog.resolve("pagat"), 4, 0, 3, "greedy", console, read, w=w) == 1
    out = capsys.readouterr().out
    labels = _site_words()["labels"]
    assert isinstance(labels, dict)
    assert prompts[0] == labels["cli.play.prompt"]["de"]
    assert str(labels["cli.play.your-hand"]["de"]) in out
    assert str(labels["cli.play.swap"]["de"]) in out
    assert "Your hand" not in out and " for " not in out


def test_every_word_the_commands_ask_for_is_in_the_words_file() -> None:
    labels = _site_words()["labels"]
    calculator = _calculator_words()
    used_labels: set[str] = set()
    used_calc: set[str] = set()
    for path in CLI.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        used_labels |= set(re.findall(r'label\(\s*"([a-z][a-z0-9.-]*)"', source))
        used_calc |= set(re.findall(r'calc\(\s*"([a-z][a-z0-9-]*)"', source))
    assert used_labels and used_calc
    assert sorted(used_labels - set(labels)) == []
    assert sorted(used_calc - set(calculator)) == []


def test_the_words_file_passes_the_sites_checks() -> None:
    from schwimmen.spec.pagedata import words

    words.cache_clear()
    assert words()("cli.diff-title", "de", a="a", b="b", n=2)


def test_every_refusal_reason_has_its_german_words() -> None:
    """The engine refuses a move with a protocol code; the German words for each code are
    in ``spec/words.yaml`` (``reason.CODE``), whose English is the protocol's description."""
    from schwimmen.engine.reasons import DESCRIPTION, Reason

    labels = _site_words()["labels"]
    for reason in Reason:
        entry = labels.get(f"reason.{reason.value}")
        assert entry is not None, reason
        assert entry["en"] == DESCRIPTION[reason], reason
        assert entry["de"] and entry["de"] != entry["en"], reason


def test_play_refuses_a_move_in_german_and_ends_rounds_in_german(
    capsys: pytest.CaptureFixture[str], catalog: Catalog
) -> None:
    """A refused move is explained with the German words of its reason code (the code
    kept), a text that is no move gets a German answer, and a round's end says in German
    who loses how much: none of the engine's English reaches the German player."""
    from schwimmen.engine.reasons import DESCRIPTION, Reason

    answers = iter(["swap AC AH", "blah", *(["1", "11k"] * 200)])
    w = lang.words(lang.GERMAN)
    console = printable_console()
    code = play(catalog.resolve("pagat"), 3, 0, 5, "greedy", console, lambda _: next(answers), w=w)
    assert code == 0
    out = capsys.readouterr().out
    labels = _site_words()["labels"]
    german = labels[f"reason.{Reason.NOT_IN_HAND.value}"]["de"]
    assert f"Nicht erlaubt: {german} (not-in-hand)." in out
    assert labels["cli.play.not-a-move"]["de"] in out
    assert DESCRIPTION[Reason.NOT_IN_HAND] not in out and "Not a move" not in out
    ends = out.count("Die Runde endet")
    assert ends >= 2
    assert out.count(" verliert ") + out.count(" verlieren je ") + out.count("Niemand") >= ends
    assert "Why:" not in out and "lowest hand" not in out and "(maximum)" not in out


def test_a_round_end_in_german_names_the_losers_and_the_exempt() -> None:
    from schwimmen.cli.play_command import why_line
    from schwimmen.protocol import events as ev

    w = lang.words(lang.GERMAN)
    value = {"points": 20, "hand": "suit", "suit": "H"}
    feuer = {"points": None, "hand": "feuer", "suit": None}
    event = ev.RoundEnded(
        reason="feuer",
        at_deal=True,
        by=0,
        knocker=None,
        hands={},
        values={0: feuer, 1: value, 2: value},
        losses={1: 2, 2: 2},
        exempt=(0,),
        why="Feuer shown by P1: every other player loses 2",
    )
    expected = "P2 (du) mit 20 und P3 mit 20 verlieren je 2 Leben; ausgenommen: P1."
    assert why_line(event, 1, w) == expected
    nobody = ev.RoundEnded("knock", False, None, 1, {}, {0: value, 1: value}, {}, (), "tie")
    assert why_line(nobody, 0, w) == "Niemand verliert ein Leben."
    assert why_line(nobody, 0) == "Why: tie"


def test_the_piped_conformance_report_keeps_every_ruleset_name_whole(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The conformance report is written by the suite's library with its own tables; in a
    pipe they are as wide as their names, and the text around them keeps the 80 columns."""
    monkeypatch.delenv("COLUMNS")
    names = ["beginner-guide+feuer-costs-two", "pagat+knocker-loses-two"]
    code, out, _ = _run(["conformance", *(f"--ruleset={n}" for n in names)], capsys)
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows[: len(names)]] == names
    assert "…" not in "".join(rows)
    first, verdict = out.splitlines()[0], next(x for x in out.splitlines() if " cases from " in x)
    assert len(first) <= 80 and len(verdict) <= 80
