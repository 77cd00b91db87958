"""A bad command line gets one line on stderr and exit status 2, never a usage dump,
a traceback or a game played with the value quietly ignored."""

from __future__ import annotations

import json

import pytest

from schwimmen.cli.main import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``schwimmen ARGS``, whether argparse exits or not."""
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_usage_error(args: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("schwimmen") and ": error: " in err, err
    assert expected in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "pagat", "--seat", "x"], "schwimmen play: error: argument --seat: not a whole"),
        (["play", "pagat", "--seat", "0"], "argument --seat: must be at least 1, not 0"),
        (["simulate", "pagat", "--matches", "0"], "argument --matches: must be at least 1, not 0"),
        (["simulate", "pagat", "--matches", "-5"], "argument --matches: must be at least 1"),
        (["simulate", "pagat", "--jobs", "0"], "argument --jobs: must be at least 1, not 0"),
        (["simulate", "pagat", "--sample", "-1"], "argument --sample: must be at least 0"),
        (["simulate", "pagat", "--players", "four"], "argument --players: invalid int value"),
        (["list", "--format", "xml"], "schwimmen list: error: argument --format: invalid choice"),
        (["show"], "schwimmen show: error: the following arguments are required: RULESET"),
        (["validate"], "schwimmen validate: error: the following arguments are required: PATH"),
        (["show", "pagat", "--bogus"], "unrecognized arguments: --bogus"),
        (["no-such-command"], "schwimmen: error: argument COMMAND: invalid choice"),
        (["conformance", "--kind", "nope"], "schwimmen conformance: error: argument --kind:"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_usage_error(args, expected, capsys)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["play", "pagat", "--seat", "9"],
            "schwimmen play: error: argument --seat: must be 1 to 4 (the number of players)",
        ),
        (
            ["play", "pagat", "--players", "3", "--seat", "4"],
            "argument --seat: must be 1 to 3",
        ),
        (
            ["play", "pagat", "--players", "12"],
            "schwimmen play: error: argument --players: pagat is played by 2 to 8 players",
        ),
        (
            ["simulate", "pagat", "--players", "1"],
            "schwimmen simulate: error: argument --players: pagat is played by 2 to 8 players",
        ),
    ],
)
def test_a_value_the_ruleset_rules_out_is_one_line_and_exit_2(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checked once the ruleset is resolved: before, four bots played the match, exit 0."""
    assert_usage_error(args, expected, capsys)


def test_the_smallest_accepted_values_still_run(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        ["simulate", "pagat", "--matches", "1", "--jobs", "1", "--sample", "0", "--json"], capsys
    )
    assert code == 0, err
    data = json.loads(out)
    assert (data["matches"], data["jobs"]) == (1, 1)
    assert "showdown_sample_rounds" not in data


def test_control_characters_in_an_argument_are_not_echoed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(["show", "pagat", "--\x1b]0;pwned\x07"], capsys)
    assert code == 2
    assert "\x1b" not in err and "\x07" not in err
    assert "--\\u001b]0;pwned\\u0007" in err
