"""One negative test per class of error: each is reported with its file, line and message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.yamlread import MAX_BYTES, YamlError, read_text

HEADER = "# yaml-language-server: $schema=../../schemas/ruleset.schema.json\n"

HOUSE = """\
id: my-rule
kind: house-rule
title: My house rule
origin: pagat
rules:
  penalties:
    knocker_lowest:
      value: 2
      default:
        why: we like it
"""


def _errors(root: Path, texts: Path | None, resolve: str | None = None) -> list[SpecError]:
    catalog = Catalog.load(root, texts)
    errors = list(catalog.file_errors)
    if resolve:
        try:
            catalog.resolve(resolve)
        except SpecErrors as exc:
            errors.extend(exc.errors)
    return errors


def _one(errors: list[SpecError], contains: str) -> SpecError:
    hits = [e for e in errors if contains in e.message]
    assert hits, [str(e) for e in errors]
    return hits[0]


def _house(root: Path, text: str, name: str = "my-rule") -> Path:
    path = root / "house-rules" / f"{name}.yaml"
    path.write_text(HEADER + text, encoding="utf-8")
    return path


def test_yaml_syntax_error_is_located() -> None:
    with pytest.raises(YamlError) as info:
        read_text("x.yaml", "a: [1, 2\nb: 3\n")
    assert info.value.error.file == "x.yaml"
    assert "YAML syntax" in info.value.error.message
    assert info.value.error.line == 2


def test_duplicate_key_is_rejected_at_the_second_key() -> None:
    with pytest.raises(YamlError) as info:
        read_text("x.yaml", "id: a\ntitle: one\ntitle: two\n")
    err = info.value.error
    assert (err.line, err.col) == (3, 1)
    assert "duplicate key 'title' (first at line 2)" in err.message


def test_alias_bomb_is_rejected_quickly() -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 12):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    with pytest.raises(YamlError, match="expands to more than"):
        read_text("bomb.yaml", "\n".join(lines) + "\n")


def test_recursive_alias_is_rejected() -> None:
    with pytest.raises(YamlError, match=r"nesting deeper|expands to more"):
        read_text("loop.yaml", "a: &x [1, *x]\n")


def test_oversized_file_is_rejected_without_parsing(tmp_path: Path) -> None:
    from schwimmen.spec.yamlread import read_file

    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * (MAX_BYTES + 10) + "\n", encoding="utf-8")
    with pytest.raises(YamlError, match="larger than"):
        read_file(big)


@pytest.mark.parametrize(
    "number", ["9" * 5000, "-" + "9" * 5000, "0x" + "f" * 5000, str(2**64), str(-(2**64))]
)
def test_a_huge_number_is_located_not_a_traceback(number: str) -> None:
    with pytest.raises(YamlError) as info:
        read_text("x.yaml", f"id: x\nvalue: {number}\n")
    err = info.value.error
    assert (err.line, err.col, err.path) == (2, 8, "$.value")
    assert err.message == "number too large (more than 64 bits)"


def test_a_64_bit_number_is_read() -> None:
    doc = read_text("x.yaml", f"a: {2**64 - 1}\nb: {-(2**64) + 1}\n")
    assert doc.data == {"a": 2**64 - 1, "b": -(2**64) + 1}


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("id: x\nrules:\n\tfoo: 1\n", 3, 1),
        ("id: x\nrules:\n  \tfoo: 1\n", 3, 3),
        ("a:\n  - 1\n\t- 2\n", 3, 1),
    ],
)
def test_a_tab_in_the_indentation_is_named(text: str, line: int, col: int) -> None:
    with pytest.raises(YamlError) as info:
        read_text("x.yaml", text)
    err = info.value.error
    assert (err.line, err.col) == (line, col)
    assert err.message == "YAML syntax: a tab character: YAML indents with spaces only"


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null here")
def test_a_device_or_folder_is_not_read(tmp_path: Path) -> None:
    from schwimmen.spec.yamlread import read_file

    for path in (Path("/dev/null"), tmp_path):
        with pytest.raises(YamlError) as info:
            read_file(path)
        assert info.value.error.message == "cannot read: not a regular file"


def test_python_tags_are_refused() -> None:
    with pytest.raises(YamlError, match="unsupported YAML tag"):
        read_text("x.yaml", "a: !!python/object:os.system {}\n")


def test_unknown_key_points_at_the_key_and_suggests(scratch: Path, texts_dir: Path | None) -> None:
    _house(scratch, HOUSE.replace("    knocker_lowest:", "    knocker_lowst:"))
    err = _one(_errors(scratch, texts_dir), "unknown key 'knocker_lowst'")
    assert err.file.endswith("my-rule.yaml")
    assert err.line == 8 and err.col == 5
    assert "did you mean 'knocker_lowest'" in err.message
    assert err.path == "$.rules.penalties.knocker_lowst"


def test_bad_enum_value_names_the_choices(scratch: Path, texts_dir: Path | None) -> None:
    text = HOUSE.replace(
        "penalties:\n    knocker_lowest:\n      value: 2",
        "turns:\n    passing:\n      value: sometimes",
    )
    _house(scratch, text)
    err = _one(_errors(scratch, texts_dir), '"sometimes" is not allowed')
    assert err.line == 9
    assert '"once-per-deal"' in err.message


def test_missing_provenance_is_one_clear_error(scratch: Path, texts_dir: Path | None) -> None:
    _house(scratch, HOUSE.replace("      default:\n        why: we like it\n", ""))
    errors = [e for e in _errors(scratch, texts_dir) if e.file.endswith("my-rule.yaml")]
    assert len(errors) == 1
    assert "exactly one provenance" in errors[0].message
    assert errors[0].line == 8


def test_quote_not_in_source(scratch: Path, texts_dir: Path | None) -> None:
    if texts_dir is None:
        pytest.skip("source texts not available")
    text = HOUSE.replace(
        "      default:\n        why: we like it\n",
        "      cited:\n        - {source: s001, section: Leben, line: 23, quote: "
        '"Wer klopft, verliert drei Leben"}\n',
    )
    _house(scratch, text)
    err = _one(_errors(scratch, texts_dir), "quote not found verbatim in s001")
    assert err.line == 11
    assert err.path.endswith(".cited[0].quote")


def test_quote_on_the_wrong_line(scratch: Path, texts_dir: Path | None) -> None:
    if texts_dir is None:
        pytest.skip("source texts not available")
    text = HOUSE.replace(
        "      default:\n        why: we like it\n",
        "      cited:\n        - {source: s001, section: Leben, line: 22, quote: "
        '"Wer klopft und dann selbst die wenigsten Punkte hat"}\n',
    )
    _house(scratch, text)
    _one(_errors(scratch, texts_dir), "quote stands on line 23 of s001, not on line 22")


def test_missing_texts_are_said_plainly(scratch: Path, tmp_path: Path) -> None:
    catalog = Catalog.load(scratch, tmp_path / "nowhere")
    catalog.check_all()
    assert any("NOT checked" in str(n) for n in catalog.notices)


def test_unknown_source_id(scratch: Path, texts_dir: Path | None) -> None:
    text = HOUSE.replace(
        "      default:\n        why: we like it\n",
        '      cited:\n        - {source: s999, section: X, quote: "irgendwas"}\n',
    )
    _house(scratch, text)
    err = _one(_errors(scratch, texts_dir), "unknown source 's999'")
    assert err.line == 11


def test_wrong_attribution(scratch: Path, texts_dir: Path | None) -> None:
    text = HOUSE.replace(
        "      default:\n        why: we like it\n",
        "      cited:\n        - {source: s001, section: Leben, attribution: pagat, quote: "
        '"Wer klopft und dann selbst die wenigsten Punkte hat"}\n',
    )
    _house(scratch, text)
    _one(_errors(scratch, texts_dir), "s001 does not report 'pagat'")


def test_id_must_match_file_name(scratch: Path, texts_dir: Path | None) -> None:
    _house(scratch, HOUSE, name="other-name")
    err = _one(_errors(scratch, texts_dir), "does not match the file name 'other-name'")
    assert err.line == 2


def test_extends_cycle(scratch: Path, texts_dir: Path | None) -> None:
    for name, parent in (("loop-a", "loop-b"), ("loop-b", "loop-a")):
        (scratch / "rulesets" / f"{name}.yaml").write_text(
            HEADER
            + f"id: {name}\nkind: ruleset\ntitle: Loop {name}\nextends: {parent}\nrules: {{}}\n",
            encoding="utf-8",
        )
    err = _one(_errors(scratch, texts_dir, "loop-a"), "'extends' cycle")
    assert err.line == 5 and "loop-a -> loop-b -> loop-a" in err.message


def test_unknown_extends(scratch: Path, texts_dir: Path | None) -> None:
    (scratch / "rulesets" / "orphan.yaml").write_text(
        HEADER + "id: orphan\nkind: ruleset\ntitle: Orphan\nextends: nobody\nrules: {}\n",
        encoding="utf-8",
    )
    err = _one(_errors(scratch, texts_dir, "orphan"), "unknown ruleset 'nobody' in 'extends'")
    assert err.line == 5


def test_parameter_missing_after_resolution(scratch: Path, texts_dir: Path | None) -> None:
    path = scratch / "rulesets" / "pagat.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  washout:\n")
    end = text.index("  comparison:\n")
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    _one(_errors(scratch, texts_dir, "pagat"), "parameter washout.rule is not set")


def test_house_rule_setting_an_inapplicable_parameter(
    scratch: Path, texts_dir: Path | None
) -> None:
    text = HOUSE.replace("origin: pagat", "origin: scat").replace(
        "penalties:\n    knocker_lowest:\n      value: 2",
        "all_pass:\n    replacement:\n      value: none",
    )
    _house(scratch, text)
    err = _one(_errors(scratch, texts_dir, "scat+my-rule"), "all_pass.replacement does not apply")
    assert "turns.move" in err.message and err.line == 8


def test_requirement_not_met(scratch: Path, texts_dir: Path | None) -> None:
    text = HOUSE.replace(
        "rules:",
        "requires:\n  - {param: three_aces.kind, in: [feuer], why: it changes Feuer}\nrules:",
    )
    _house(scratch, text)
    err = _one(_errors(scratch, texts_dir, "online+my-rule"), "does not fit ruleset 'online'")
    assert "it changes Feuer" in err.message and err.line == 7


def test_inconsistent_values_are_reported_at_the_culprit(
    scratch: Path, texts_dir: Path | None
) -> None:
    text = HOUSE.replace(
        "penalties:\n    knocker_lowest:\n      value: 2",
        'triples:\n    ranks:\n      value: ["2", "J"]',
    )
    _house(scratch, text)
    err = _one(_errors(scratch, texts_dir, "pagat+my-rule"), "rank(s) 2 are not in the pack")
    assert err.line == 9


def test_free_passing_without_replacement_is_rejected(
    scratch: Path, texts_dir: Path | None
) -> None:
    text = HOUSE.replace(
        "penalties:\n    knocker_lowest:\n      value: 2",
        "all_pass:\n    no_replacement:\n      value: play-on",
    )
    _house(scratch, text)
    _one(_errors(scratch, texts_dir, "pagat+my-rule"), "could pass forever")


def test_error_format_is_file_line_col_path_message(scratch: Path, texts_dir: Path | None) -> None:
    _house(scratch, HOUSE.replace("    knocker_lowest:", "    knocker_lowst:"))
    err = _one(_errors(scratch, texts_dir), "unknown key")
    assert str(err).startswith(f"{err.file}:8:5: $.rules.penalties.knocker_lowst: unknown key")


def test_validate_command_reports_a_broken_house_rule(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from schwimmen.cli.main import main

    path = write("mine/my-rule.yaml", HEADER + HOUSE.replace("value: 2", "value: two"))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:9:14: $.rules.penalties.knocker_lowest.value:" in out
