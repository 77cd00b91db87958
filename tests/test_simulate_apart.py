"""The README's recipe for a run too large for one machine, as written there: chunks
played apart by ``Simulator(rules, seats, bot)`` with the bot ``simulate`` chooses, merged,
give the figures of one ``simulate`` run, also where that bot is the greedy one (a
composition whose knock needs a 31)."""

from __future__ import annotations

from schwimmen.engine.simulate import Simulator, Stats, choose_bot, simulate
from schwimmen.spec.loader import Catalog


def test_chunks_played_apart_by_the_chosen_bot_add_up_to_the_run(catalog: Catalog) -> None:
    rules = catalog.resolve("tri-palki+close-only-with-31").rules
    bot = choose_bot(rules, "auto")[0]
    assert bot == "greedy"
    whole = simulate(rules, 4, 12, 5, jobs=1, bot=bot, chunk=4).to_json(4)
    merged = Stats()
    for first in (8, 0, 4):
        part = Stats()
        Simulator(rules, 4, bot).play_chunk(5, first, 4, part)
        merged.merge(part)
    assert merged.to_json(4) == whole
    assert whole["matches"] == 12 and whole["unfinished_matches"] == 0
