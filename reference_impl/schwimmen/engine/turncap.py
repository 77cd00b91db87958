"""The cap on the turns of one round, shared by every engine that plays rounds.

A round whose rules leave it no way to end (a contradiction
:mod:`schwimmen.spec.termination` missed) would otherwise be played for ever: the compiled
round, the rounds in lockstep and the full engine all stop at this cap with
:class:`RoundTooLong`, which names the round, its deal and the cap (the guide: an
implementation that hangs is reported as such, and the reference does not hang itself).
"""

from __future__ import annotations

MAX_TURNS = 5_000_000
"""The turns a round may take before it is given up (a parameter of the engine, not of
the rules). A random-bot round that ends only on a 31 can take long: of 60 random rounds
of a shipped composition where only a 31 may close (a 36-card pack, up to 6 players), 3
took between 100,000 and 1,000,000 turns. A round still going after this many (seconds
of play) is taken for one that cannot end, and is reported rather than played for ever."""


class RoundTooLong(RuntimeError):
    """A round still going at the turn cap: which composition (where the caller knows it,
    see :meth:`named`), which round, the deal, and how many turns."""

    def __init__(
        self,
        turns: int,
        where: str,
        players: int,
        deal: str,
        composition: str | None = None,
    ) -> None:
        super().__init__(turns, where, players, deal, composition)
        self.turns = turns
        self.where = where
        self.players = players
        self.deal = deal
        self.composition = composition

    def named(self, composition: str) -> RoundTooLong:
        """The same error naming the composition the caller played."""
        return RoundTooLong(self.turns, self.where, self.players, self.deal, composition)

    def __str__(self) -> str:
        whose = f" of {self.composition}" if self.composition else ""
        return (
            f"{self.where}{whose} ({self.players} players, deal: {self.deal}) had not ended "
            f"after {self.turns:,} turns, the cap on a round's turns: under these rules a "
            "round may never end (check the composition with schwimmen validate; a "
            "composition whose rounds cannot end belongs in spec/contradictions.yaml)"
        )
