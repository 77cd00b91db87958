"""The observation shares parts between calls (a per-round template copied whole, the
round's lives and seat lists, remembered value forms): whatever a caller does to the
observation it got must not reach the next one."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from schwimmen.engine.bots import RandomBot
from schwimmen.engine.match import Match
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

# a hidden middle (tri-palki), swimming (pagat), four-card hands (forty-one), a knock
# that ends the turn (scat)
NAMES = ["pagat", "scat", "tri-palki", "forty-one"]


@cache
def _ruleset(name: str) -> Ruleset:
    return Catalog.load().resolve(name)


def _spoil(obs: dict[str, Any]) -> None:
    """Change everything a caller could change in ``obs``: every list and dict in it, and
    every top-level field."""
    for key, value in list(obs.items()):
        if isinstance(value, list):
            value.append("spoiled")
        elif isinstance(value, dict):
            value["spoiled"] = -1
            for inner in list(value):
                value[inner] = "spoiled"
        obs[key] = "spoiled"
    obs["spoiled"] = True


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(NAMES), st.integers(0, 10_000), st.integers(0, 400))
def test_a_changed_observation_leaves_the_next_one_alone(name: str, seed: int, steps: int) -> None:
    ruleset = _ruleset(name)
    match = Match(ruleset.rules, 4, seed=seed)
    bot = RandomBot(random.Random(seed))
    for _ in range(steps):
        if match.over:
            break
        match.apply(bot.choose(match))
    seats = range(match.table_size)
    before = [copy.deepcopy(match.observation(s)) for s in seats]
    for seat in seats:
        obs = match.observation(seat)
        assert obs == before[seat]
        _spoil(obs)
    assert [match.observation(s) for s in seats] == before
