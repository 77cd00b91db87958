"""The fixture lint finds what it promises, each problem at its line (FIXTURES.md, The lint):
a step outside the grammar, a step result without its code, a misspelt ruleset, a case
that leaves out rulesets its predicates select, a position play cannot reach, a round case
checking the match, a case whose verdict rests on a shuffle, and a case that depends on a
number or open value it does not pin."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from schwimmen.conformance import mutations
from schwimmen.conformance.fixtures import load_fixtures
from schwimmen.conformance.lint import lint
from schwimmen.engine.adapter import run_case
from schwimmen.resources import conformance_dir
from schwimmen.spec.errors import SpecError
from schwimmen.spec.loader import Catalog

FIXTURES = conformance_dir() / "fixtures"
Edit = Callable[[str], str]


def _lint(catalog: Catalog, tmp_path: Path, fixture: str, edit: Edit) -> list[SpecError]:
    """Lint one shipped fixture, changed by ``edit``, alone in a scratch tree."""
    original = (FIXTURES / f"{fixture}.yaml").read_text(encoding="utf-8")
    changed = edit(original)
    assert changed != original, "the edit changed nothing"
    target = tmp_path / f"{fixture}.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(changed, encoding="utf-8")
    errors, count = lint(catalog, tmp_path)
    assert count <= 1  # none where the schema refuses it
    return errors


def _line(fixture: str, text: str) -> int:
    """The line of the shipped fixture that holds ``text`` (1-based)."""
    lines = (FIXTURES / f"{fixture}.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


SWAP = "round/thirty-one-by-a-swap"


def test_the_shipped_fixture_lints_clean(catalog: Catalog, tmp_path: Path) -> None:
    errors = _lint(catalog, tmp_path, SWAP, lambda t: t + "\n")
    assert errors == []


def test_a_step_outside_the_grammar_is_reported_at_its_line(
    catalog: Catalog, tmp_path: Path
) -> None:
    errors = _lint(
        catalog, tmp_path, SWAP, lambda t: t.replace("P1: swap 9S 10H", "P1: draw stock")
    )
    (error,) = errors  # the reference is not asked to run a step no engine could read
    assert error.line == _line(SWAP, "P1: swap 9S 10H")
    assert error.path == "$.steps[0].P1"
    assert "'draw stock' is not an action of the grammar" in error.message


def test_a_step_by_a_seat_not_at_the_table(catalog: Catalog, tmp_path: Path) -> None:
    errors = _lint(catalog, tmp_path, SWAP, lambda t: t.replace("P1: swap 9S 10H", "P7: pass"))
    assert "there is no P7 at a table of 3" in [e.message for e in errors]


def test_a_step_result_names_both_forms(catalog: Catalog, tmp_path: Path) -> None:
    def refuse(text: str) -> str:
        return text.replace("      round_over: false\n", '      steps: {"1": rejected}\n', 1)

    (error,) = _lint(catalog, tmp_path, SWAP, refuse)
    assert error.path == "$.cases[1].expect.steps['1']"
    assert '"accepted" or {rejected: CODE}' in error.message


@pytest.mark.parametrize(
    ("wrong", "meant"),
    [("beginner guide", "beginner-guide"), ("pagat+knocker-loses-tow", "pagat+knocker-loses-two")],
)
def test_a_misspelt_ruleset_gets_a_did_you_mean(
    catalog: Catalog, tmp_path: Path, wrong: str, meant: str
) -> None:
    def misspell(text: str) -> str:
        return text.replace(
            "rulesets: [tri-palki, rules-page, beginner-guide]",
            f"rulesets: [tri-palki, rules-page, beginner-guide, {wrong}]",
        )

    errors = _lint(catalog, tmp_path, SWAP, misspell)
    assert [e.message for e in errors] == [f"unknown ruleset {wrong!r}; did you mean {meant}?"]


def test_a_case_names_every_ruleset_its_predicates_select(catalog: Catalog, tmp_path: Path) -> None:
    def drop(text: str) -> str:
        return text.replace("rulesets: [altenburg, pagat, dutch,", "rulesets: [pagat, dutch,")

    (error,) = _lint(catalog, tmp_path, SWAP, drop)
    assert error.path == "$.cases[0].rulesets"
    assert error.message.startswith("leaves out altenburg, which its predicates select")


def test_compositions_are_named_all_or_none(catalog: Catalog, tmp_path: Path) -> None:
    def partial(text: str) -> str:
        return text.replace("online]", "online, pagat+no-triples]", 1)

    (error,) = _lint(catalog, tmp_path, SWAP, partial)
    assert "names 1 of the" in error.message and "name them all or none" in error.message
    applying = [
        n
        for n in ("pagat+no-triples", "pagat+last-two-share-the-win", "dutch+last-two-play-on")
        if "+" in n
    ]
    every = _every_composition(catalog, SWAP, 0)
    assert set(applying) <= set(every)

    def complete(text: str) -> str:
        return text.replace("online]", "online, " + ", ".join(every) + "]", 1)

    assert _lint(catalog, tmp_path / "all", SWAP, complete) == []


def _every_composition(catalog: Catalog, fixture: str, index: int) -> list[str]:
    from schwimmen.conformance.harness import default_rulesets

    (found,) = [f for f in load_fixtures()[0] if f.id == fixture]
    names = [n for n in default_rulesets(catalog) if "+" in n]
    return [n for n in names if found.applicable_case(catalog.resolve(n)) is found.cases[index]]


ACES = "showdown/aces-and-kings"


def test_a_showdown_play_cannot_reach_is_reported(catalog: Catalog, tmp_path: Path) -> None:
    """Feuer ends the round at once and costs the others a life: no showdown holds it."""

    def forget(text: str) -> str:
        head, tail = text.split("  - name: Feuer beats everything", 1)
        return (
            head
            + "  - name: Feuer beats everything"
            + tail.replace("    evaluation_only: true\n", "", 1)
        )

    errors = _lint(catalog, tmp_path, ACES, forget)
    assert {e.path for e in errors} == {"$.cases[3]"}
    messages = sorted(e.message for e in errors)
    assert "cannot come about in play under beginner-guide, rules-page" in messages[0]
    assert "P1 holds a hand that ends the round at once" in messages[0]
    assert "under hosa-aba, pagat" in messages[1] and "P1 and P3 hold" in messages[1]
    assert all("evaluation_only: true" in m for m in messages)


def test_two_thirty_ones_meet_where_a_thirty_one_has_a_showdown(
    catalog: Catalog, tmp_path: Path
) -> None:
    """Two 31s dealt end a pagat round with a showdown of the hands, so that position is
    reachable there; in Scat a 31 costs the others a life, so it is not."""

    def forget(text: str) -> str:
        return text.replace("    evaluation_only: true\n", "")

    errors = _lint(catalog, tmp_path, "showdown/card-by-card", forget)
    messages = [e.message for e in errors]
    assert any("under scat" in m for m in messages), messages
    assert not any("under pagat," in m or "under pagat:" in m for m in messages), messages


def test_lives_no_ruleset_deals_are_unreachable(catalog: Catalog, tmp_path: Path) -> None:
    def more(text: str) -> str:
        return text.replace("lives: {P1: 2, P2: 0}", "lives: {P1: 9, P2: 0}")

    errors = _lint(catalog, tmp_path, "match/match-won", more)
    assert errors and all("P1 starts with 9 lives" in e.message for e in errors)


def test_evaluation_only_is_for_showdowns(catalog: Catalog, tmp_path: Path) -> None:
    def mark(text: str) -> str:
        return text.replace(
            "      to_move: P2\n", "      to_move: P2\n    evaluation_only: true\n", 1
        )

    (error,) = _lint(catalog, tmp_path, SWAP, mark)
    assert error.path == "$.cases[1].evaluation_only"


def test_a_round_case_checks_one_round(catalog: Catalog, tmp_path: Path) -> None:
    def match(text: str) -> str:
        return text.replace(
            "      round_over: false\n", "      round_over: false\n      winners: []\n", 1
        )

    (error,) = _lint(catalog, tmp_path, SWAP, match)
    assert error.path == "$.cases[1].expect.winners"
    assert "belongs to kind: match" in error.message


def test_a_case_that_passes_by_the_seed_is_reported(catalog: Catalog, tmp_path: Path) -> None:
    """The 31 ends the round at step 1; the next round comes from a shuffled pack. A case
    that checks its hands passes under the one seed it was written from."""
    (fixture,) = [f for f in load_fixtures()[0] if f.id == SWAP]
    shuffled = run_case(fixture.request(catalog.resolve("pagat")) | {"seed": 0})
    hand = ", ".join(shuffled["outcome"]["hands"]["P2"])

    def lucky(text: str) -> str:
        return text.replace(
            "losses: {P2: 1}}\n", f"losses: {{P2: 1}}}}\n      hands: {{P2: [{hand}]}}\n", 1
        )

    errors = _lint(catalog, tmp_path, SWAP, lucky)
    (error,) = errors
    assert error.path == "$.cases[0]"
    assert "passes under seed 0 but fails under seed 1" in error.message
    assert "give the packs (decks) or deals it rests on" in error.message


def test_a_deal_the_reference_cannot_set_up_is_reported(catalog: Catalog, tmp_path: Path) -> None:
    """A later deal with a hand for a seat that is not at the table: only running the
    case shows it, and the seed lint runs every case."""

    def stray(text: str) -> str:
        return text.replace("P3: [JC, 9C, 7S]}", "P3: [JC, 9C, 7S], P4: [AD, KH, 7C]}")

    errors = _lint(catalog, tmp_path, "match/later-round-as-dealt", stray)
    (error,) = errors
    assert error.message.startswith("the reference cannot run it under altenburg: ")
    assert "P4" in error.message


def test_the_mutations_vary_numbers_and_open_values() -> None:
    values = mutations.alternatives()
    assert {31, 33} <= set(values["three_aces.points"])
    assert 30 in values["triples.points"] and 2 in values["lives.count"]
    assert "none" in values["comparison.suit_order"]
    assert {"kind": "showdown"} in values["maximum.penalty_at_deal"]
    assert "not-in-first-cycle" in values["knocking.first_turn"]


def test_an_unpinned_suit_order_is_a_hidden_dependency(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """thirty-one/extra-hand-holds-thirty-one-a: Karo loses to Pik only where suits are
    ordered; without its pin the reference fails it under pagat with no suit order."""
    name = "thirty-one/extra-hand-holds-thirty-one-a"
    text = (FIXTURES / f"{name}.yaml").read_text(encoding="utf-8")
    unpinned = text.replace(", comparison.suit_order: [[C, S, H, D]]}", "}", 1)
    assert unpinned != text
    target = tmp_path / f"{name}.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(unpinned, encoding="utf-8")
    fixtures, errors = load_fixtures(tmp_path)
    assert not errors
    monkeypatch.setattr(mutations, "alternatives", lambda: {"comparison.suit_order": ["none"]})
    hidden, tried = mutations.hidden_dependencies(fixtures)
    assert tried > 0
    found = {(h.parameter, h.ruleset) for h in hidden}
    assert ("comparison.suit_order", "pagat") in found
