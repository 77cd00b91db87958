"""``serve --play R --set P=V`` reads each value as a spec file is read: within the loader's
limits (size, nesting, aliases, 64-bit numbers, finite numbers), and a parameter given twice
is refused, never the last one kept silently. Each refusal is one line and exit 2."""

from __future__ import annotations

import argparse

import pytest
from test_cli_arguments import assert_usage_error

from schwimmen.cli.argtypes import setting
from schwimmen.spec.yamlread import MAX_BYTES, MAX_DEPTH, MAX_NODES

_BOMB = "\n".join(
    [
        "- &a [x, x, x, x, x, x, x, x, x, x]",
        "- &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
        "- &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]",
        "- &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]",
        "- [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]",
    ]
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("[" * 20_000 + "]" * 20_000, "nesting"),
        ("[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2), f"nesting deeper than {MAX_DEPTH}"),
        ("1" * 5_000, "number too large"),
        ("-" + "9" * 30, "number too large"),
        (".nan", "NaN is not a value"),
        (".inf", "infinity is not a value"),
        ("-.Inf", "infinity is not a value"),
        (_BOMB, f"more than {MAX_NODES} nodes"),
        ("x" * (MAX_BYTES + 1), f"larger than {MAX_BYTES} bytes"),
        ("!!python/object:os.system ls", "unsupported YAML tag"),
        ("", "no value after '='"),
        ("[1, 2", "YAML syntax"),
    ],
)
def test_a_value_outside_the_loaders_limits_is_refused(value: str, expected: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=expected) as caught:
        setting(f"penalties.lowest={value}")
    assert str(caught.value).startswith("penalties.lowest: ")
    assert "\n" not in str(caught.value)


def test_a_value_within_the_limits_is_read_as_yaml() -> None:
    assert setting("comparison.suit_order=[C, S, H, D]") == (
        "comparison.suit_order",
        ["C", "S", "H", "D"],
    )
    assert setting(" penalties.lowest = 2") == ("penalties.lowest", 2)


@pytest.mark.parametrize(
    ("sets", "expected"),
    [
        (["penalties.lowest=2", "penalties.lowest=3"], "penalties.lowest is set twice (2 and 3)"),
        (["penalties.lowest=2", " penalties.lowest=2"], "penalties.lowest is set twice (2 and 2)"),
        (["penalties.lowest=.nan"], "argument --set: penalties.lowest: NaN is not a value"),
        (["penalties.lowest=" + "7" * 5_000], "number too large"),
        (["penalties.lowest"], "write PARAMETER=VALUE"),
    ],
)
def test_serve_refuses_in_one_line(
    sets: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["serve", "--play", "pagat"]
    for item in sets:
        args += ["--set", item]
    assert_usage_error(args, expected, capsys)
