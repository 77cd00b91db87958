"""Compositions under which a round cannot end, or a rule can never apply: refused.

Every round of a valid ruleset can end (issue 19). Whether it can is a question for the
engine (:mod:`schwimmen.engine.reachability` searches small positions); here that search
is run over every parameter pair, once, offline, and what it finds is kept in
``spec/contradictions.yaml``, which the loader reads so that ``validate`` and ``show``
refuse such a composition when it is written, naming the parameters that clash.

The sweep, for every ruleset as the base:

* every other value of every parameter (an enum's choices; for a number, a list or a
  table, every value some shipped ruleset or house rule gives it), set alone on the base
  (a *single*), where the loader accepts it;
* every two singles of two different parameters, set together (a *pair*), where the
  loader accepts them.

A finding is a single or a pair under which the search met a position with no legal
action, or a position from which no sequence of actions ends the round (the search saw
every position reachable from it), or under which something the base and each of its
changes alone allow (a knock, a pass) was never possible; that no round searched could
be ended is noted with these, and is no finding on its own (without a proof it may be a
round that ends only rarely). A pair is a
finding only where neither of its singles is one; a single is reported with the base's
parameters that take part (``with``: changing one of them to some other value lets the
search find what was missing), so that the message names both sides of the clash.

A single or pair under which only the end of a round went missing (no round the search
looked at ended, though the base and each change alone end rounds robustly, and nothing
proves that none can) is *suspected*: kept in the file's ``suspected`` section with the
evidence (positions visited, positions checked, breadth-first searches made, each up to
the search's ``budget``), and the loader warns about it rather than refusing it (a
warning: the composition loads and plays). A single is suspected only with the base's
parameters that take part, as a single finding is.

``python -m schwimmen.spec.termination --write`` runs the sweep and writes the file; the
slow test ``tests/test_termination.py`` runs it again and requires the same file, so the
table can never go stale.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schwimmen.resources import spec_dir
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.model import shown, thaw
from schwimmen.spec.parameters import PARAMETERS
from schwimmen.spec.yamlread import read_file

if TYPE_CHECKING:
    from schwimmen.engine.reachability import Outcome
    from schwimmen.spec.loader import Catalog

FILE = "contradictions.yaml"
IMPOSSIBLE: Mapping[str, str] = {
    "knock": "nobody may knock (or close) in any position searched",
    "pass": "nobody may pass in any position searched",
    "round-ends": "no round searched could be ended",
}
ROUND_ENDS = "round-ends"
_ABILITY_ORDER = tuple(IMPOSSIBLE)


def _parts(
    base: str,
    changes: tuple[tuple[str, Any], ...],
    partners: tuple[str, ...],
    base_values: Mapping[str, Any],
) -> str:
    """``knocking.form close-by-passing and turns.passing forbidden (from dutch)``."""
    parts = [f"{path} {shown(value)}" for path, value in changes]
    parts += [f"{p} {shown(thaw(base_values.get(p)))} (from {base})" for p in partners]
    return " and ".join(parts)


@dataclass(frozen=True)
class Clash:
    """Changes on ``base`` that the search met something in, with the base's parameters
    that take part (``partners``)."""

    base: str
    changes: tuple[tuple[str, Any], ...]
    partners: tuple[str, ...]

    def matches(self, base: str, base_values: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
        """True when a composition on ``base`` with ``values`` makes these changes and
        keeps the base's values of the partners (the clash the search found)."""
        if base != self.base:
            return False
        for path, value in self.changes:
            if thaw(values.get(path)) != value or thaw(base_values.get(path)) == value:
                return False
        return all(thaw(values.get(p)) == thaw(base_values.get(p)) for p in self.partners)

    @property
    def parameters(self) -> tuple[str, ...]:
        """Every parameter named: the changed ones, then the partners."""
        return (*(path for path, _ in self.changes), *self.partners)

    def _data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"base": self.base, "set": dict(self.changes)}
        if self.partners:
            out["with"] = list(self.partners)
        return out


@dataclass(frozen=True)
class Finding(Clash):
    """One single or pair of changes on ``base`` that the search refused."""

    impossible: tuple[str, ...]
    dead_end: str | None = None
    never_ends: str | None = None

    def message(self, base_values: Mapping[str, Any]) -> str:
        what = [IMPOSSIBLE[a] for a in self.impossible]
        if self.dead_end:
            what.append(f"a position is reached where nobody has a legal action ({self.dead_end})")
        if self.never_ends:
            what.append(f"a round can never end from a reachable position ({self.never_ends})")
        return (
            f"with {_parts(self.base, self.changes, self.partners, base_values)}, "
            + "; ".join(what)
            + f" (found by the search over small positions on {self.base}; see spec/{FILE})"
        )

    def to_data(self) -> dict[str, Any]:
        out = self._data()
        if self.impossible:
            out["impossible"] = list(self.impossible)
        if self.dead_end:
            out["dead_end"] = self.dead_end
        if self.never_ends:
            out["never_ends"] = self.never_ends
        return out


@dataclass(frozen=True)
class Suspect(Clash):
    """Changes under which no round the search looked at could be ended, though the base
    and each change alone end rounds: not refused (without a proof it may be a round that
    ends only rarely, as one that needs a dealt 31), only warned about, with the evidence.

    ``positions`` were visited by the walk; from each of the ``checked`` ones two playouts
    looked for the end, and from ``searched`` of them a breadth-first search of up to
    ``budget`` positions; none found one."""

    positions: int
    checked: int
    searched: int
    budget: int

    def message(self, base_values: Mapping[str, Any]) -> str:
        bfs = (
            f", nor did a breadth-first search of up to {self.budget:,} positions from "
            + ("one of them" if self.searched == 1 else f"{self.searched} of them")
            if self.searched
            else ""
        )
        return (
            f"with {_parts(self.base, self.changes, self.partners, base_values)}, no round "
            f"ended in {self.positions} positions searched on {self.base} (no playout from "
            f"the {self.checked} checked ended one{bfs}); this may never end, or end only "
            f"rarely: it is a suspicion, not a proof (see spec/{FILE})"
        )

    def to_data(self) -> dict[str, Any]:
        out = self._data()
        out["evidence"] = {
            "positions": self.positions,
            "checked": self.checked,
            "searched": self.searched,
        }
        return out


def _clash(raw: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "base": str(raw["base"]),
        "changes": tuple((str(k), v) for k, v in raw["set"].items()),
        "partners": tuple(raw.get("with", ())),
    }


def _finding(raw: Mapping[str, Any]) -> Finding:
    return Finding(
        **_clash(raw),
        impossible=tuple(raw.get("impossible", ())),
        dead_end=raw.get("dead_end"),
        never_ends=raw.get("never_ends"),
    )


def _suspect(raw: Mapping[str, Any], budget: int) -> Suspect:
    evidence = raw["evidence"]
    return Suspect(
        **_clash(raw),
        positions=int(evidence["positions"]),
        checked=int(evidence["checked"]),
        searched=int(evidence["searched"]),
        budget=budget,
    )


@dataclass(frozen=True)
class Table:
    """The file: what the loader refuses and what it warns about."""

    findings: tuple[Finding, ...] = ()
    suspects: tuple[Suspect, ...] = ()


@cache
def _table(path: Path) -> Table:
    if not path.is_file():
        return Table()
    data = read_file(path).data
    budget = int(data.get("search", {}).get("budget", 0))
    return Table(
        tuple(_finding(raw) for raw in data.get("findings", ())),
        tuple(_suspect(raw, budget) for raw in data.get("suspected", ())),
    )


_checking = [True]


@contextmanager
def unchecked() -> Iterator[None]:
    """Resolve without this table: the sweep that writes it must not read it."""
    _checking.append(False)
    try:
        yield
    finally:
        _checking.pop()


def checking() -> bool:
    """Whether resolution reads the table now (not inside :func:`unchecked`)."""
    return _checking[-1]


def table(root: Path | None = None) -> Table:
    return _table((root or spec_dir()) / FILE)


def findings(root: Path | None = None) -> tuple[Finding, ...]:
    return table(root).findings


def suspects(root: Path | None = None) -> tuple[Suspect, ...]:
    return table(root).suspects


def problems(
    base: str, base_values: Mapping[str, Any], values: Mapping[str, Any], root: Path | None = None
) -> Iterator[tuple[str, str]]:
    """``(parameter to blame, message)`` for every finding the composition makes."""
    if not _checking[-1]:
        return
    for found in findings(root):
        if found.matches(base, base_values, values):
            yield found.changes[0][0], found.message(base_values)


def suspicions(
    base: str, base_values: Mapping[str, Any], values: Mapping[str, Any], root: Path | None = None
) -> Iterator[tuple[Suspect, str]]:
    """``(suspect, message)`` for every suspected pair the composition makes: a warning,
    never an error."""
    if not _checking[-1]:
        return
    for suspect in suspects(root):
        if suspect.matches(base, base_values, values):
            yield suspect, suspect.message(base_values)


# ---------------------------------------------------------------------- the sweep
def domains(catalog: Catalog) -> dict[str, list[Any]]:
    """The values the sweep tries for each parameter: an enum's choices, and every value
    a shipped ruleset or house rule gives it."""
    out: dict[str, list[Any]] = {}
    for param in PARAMETERS:
        if "enum" in param.schema:
            out[param.path] = list(param.schema["enum"])
    for name in catalog.standard_names():
        for path, value in catalog.resolve(name).values().items():
            known = out.setdefault(path, [])
            if value not in known:
                known.append(value)
    return out


@dataclass
class _Run:
    catalog: Catalog
    searched: int = 0
    tried: int = 0
    unknown: int = 0
    progress: Callable[[str], None] | None = None

    def outcome(
        self, base: str, changes: Mapping[str, Any], *, prove: bool = True
    ) -> Outcome | None:
        """The search's outcome on ``base`` with ``changes``, or None where the loader
        refuses them; ``prove``: search breadth-first where no playout ends the round."""
        from schwimmen.engine.reachability import SEARCHES, explore

        self.tried += 1
        try:
            with unchecked():
                ruleset = self.catalog.mutant(base, changes, "termination search")
        except SpecErrors:
            return None
        self.searched += 1
        return explore(ruleset.rules, searches=SEARCHES if prove else 0)


ROBUST = 0.05
"""An ability counts as allowed by a comparison only where the search saw it this often
(of the positions visited): a knock that needs a dealt 31 shows rarely, and its absence
is chance, not a contradiction."""


def _lost(outcome: Outcome, *before: Outcome) -> tuple[str, ...]:
    """What ``outcome`` never saw though every one of ``before`` saw it robustly."""
    return tuple(
        a
        for a in _ABILITY_ORDER
        if outcome.share(a) == 0 and all(b.share(a) >= ROBUST for b in before)
    )


def _restores(pair: Outcome, lost: tuple[str, ...]) -> bool:
    """The pair ends every round the search checked and allows what went missing."""
    return pair.ok and not pair.unknown and all(pair.share(a) >= ROBUST for a in lost)


def _refusable(lost: tuple[str, ...], outcome: Outcome) -> bool:
    """Refused: a proof (a dead end, a round that can never end), or a knock or a pass
    that was never legal. A round that no search could end, without a proof, is not
    enough: rounds that end only on a rare 31 (tri-palki with close-only-with-31) are
    possible, only long."""
    return not outcome.ok or any(a != "round-ends" for a in lost)


def _witnesses(outcome: Outcome) -> dict[str, str]:
    out = {}
    if outcome.dead_end is not None:
        out["dead_end"] = outcome.dead_end.describe()
    if outcome.never_ends is not None:
        out["never_ends"] = outcome.never_ends.describe()
    return out


_Key = tuple[str, str]


def _suspect_of(
    base: str, changes: tuple[tuple[str, Any], ...], partners: tuple[str, ...], outcome: Outcome
) -> Suspect:
    return Suspect(
        base,
        changes,
        partners,
        positions=outcome.positions,
        checked=outcome.checked,
        searched=outcome.searched,
        budget=search_budget(),
    )


def search_budget() -> int:
    from schwimmen.engine.reachability import BUDGET

    return BUDGET


def _base_findings(
    run: _Run, base: str, domain: Mapping[str, list[Any]]
) -> tuple[list[Finding], list[Suspect]]:
    """Singles and pairs on ``base`` (see the module doc for what makes a finding), and
    those under which only the end of a round went missing, without a proof (suspects)."""
    values = {k: thaw(v) for k, v in run.catalog.resolve(base).values().items()}
    base_outcome = run.outcome(base, {})
    assert base_outcome is not None
    singles: dict[_Key, tuple[tuple[str, Any], Outcome]] = {}
    for path, options in domain.items():
        for value in options:
            if values.get(path) == value:
                continue
            outcome = run.outcome(base, {path: value})
            if outcome is not None:
                singles[(path, repr(value))] = ((path, value), outcome)
    broken = {k for k, (_, o) in singles.items() if not o.ok}
    lossy = {k: lost for k, (_, o) in singles.items() if o.ok and (lost := _lost(o, base_outcome))}
    pairs: dict[tuple[_Key, _Key], Outcome] = {}
    for a, b in combinations(sorted(singles), 2):
        if a[0] == b[0] or (a in broken and b in broken):
            continue
        prove = a not in broken and b not in broken
        outcome = run.outcome(base, dict([singles[a][0], singles[b][0]]), prove=prove)
        if outcome is not None:
            pairs[(a, b)] = outcome
            run.unknown += bool(outcome.unknown)
    found: list[Finding] = []
    suspected: list[Suspect] = []
    flagged = set(broken)
    for key in sorted(broken | set(lossy)):
        change, outcome = singles[key]
        lost = lossy.get(key) or _lost(outcome, base_outcome)
        partners = tuple(
            sorted(
                {
                    (b if a == key else a)[0]
                    for (a, b), pair in pairs.items()
                    if key in (a, b)
                    and (b if a == key else a) not in broken
                    and _restores(pair, lost)
                }
            )
        )
        if key in lossy and (not partners or not _refusable(lost, outcome)):
            if partners and ROUND_ENDS in lost:
                suspected.append(_suspect_of(base, (change,), partners, outcome))
            continue  # what the rule means (passing forbidden: nobody passes), not a clash
        flagged.add(key)
        found.append(Finding(base, (change,), partners, lost, **_witnesses(outcome)))
    for (a, b), outcome in pairs.items():
        if a in flagged or b in flagged:
            continue
        lost = _lost(outcome, singles[a][1], singles[b][1])
        changes = (singles[a][0], singles[b][0])
        if _refusable(lost, outcome):
            found.append(Finding(base, changes, (), lost, **_witnesses(outcome)))
        elif ROUND_ENDS in lost:
            suspected.append(_suspect_of(base, changes, (), outcome))
    return found, suspected


def _one_base(
    base: str,
    catalog: Catalog | None = None,
    domain: Mapping[str, list[Any]] | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, int], list[Finding], list[Suspect]]:
    """The findings on one base, with how many compositions were tried and searched (in
    a worker process the catalog is loaded there)."""
    if catalog is None:
        from schwimmen.spec.loader import load_catalog

        catalog = load_catalog()
    run = _Run(catalog, progress=progress)
    found, suspected = _base_findings(run, base, domain or domains(catalog))
    counts = {
        "tried": run.tried,
        "searched": run.searched,
        "searched_with_unknown": run.unknown,
    }
    return counts, found, suspected


def sweep(
    catalog: Catalog,
    bases: list[str] | None = None,
    progress: Callable[[str], None] | None = None,
    jobs: int = 1,
) -> dict[str, Any]:
    """Run the search over every single and pair on every base; the file's data. The
    result does not depend on ``jobs``: every base is searched on its own."""
    from concurrent.futures import ProcessPoolExecutor  # only the sweep runs processes

    from schwimmen.engine import reachability as search

    start = time.perf_counter()
    domain = domains(catalog)
    found: list[Finding] = []
    suspected: list[Suspect] = []
    per_base: dict[str, dict[str, int]] = {}
    names = bases or sorted(catalog.rulesets)
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        results: Iterator[tuple[dict[str, int], list[Finding], list[Suspect]]] = (
            pool.map(_one_base, names)
            if pool is not None
            else (_one_base(base, catalog, domain) for base in names)
        )
        for base, (counts, base_found, base_suspected) in zip(names, results, strict=True):
            per_base[base] = counts
            found.extend(base_found)
            suspected.extend(base_suspected)
            if progress:
                took = time.perf_counter() - start
                progress(
                    f"{base}: {counts}, {len(base_found)} finding(s), "
                    f"{len(base_suspected)} suspected, {took:.0f} s"
                )
    if progress:
        progress(f"{time.perf_counter() - start:.0f} s")

    def order(clash: Clash) -> tuple[str, list[tuple[str, str]], tuple[str, ...]]:
        return clash.base, [(k, repr(v)) for k, v in clash.changes], clash.partners

    found.sort(key=order)
    suspected.sort(key=order)
    return {
        "search": {
            "seats": list(search.SEATS),
            "deals": search.DEALS,
            "walk": search.WALK,
            "sample_every": search.SAMPLE_EVERY,
            "budget": search.BUDGET,
        },
        "bases": per_base,
        "findings": [f.to_data() for f in found],
        "suspected": [s.to_data() for s in suspected],
    }


HEADER = (
    "# yaml-language-server: $schema=../schemas/contradictions.schema.json\n"
    "# Compositions the loader refuses because a round cannot end or a rule can never apply\n"
    "# (findings), and those it only warns about (suspected: no round searched ended).\n"
    "# Written by `python -m schwimmen.spec.termination --write` (the search over small\n"
    "# positions, schwimmen.engine.reachability, over every single and pair of parameter\n"
    "# changes on every ruleset); tests/test_termination.py (slow) writes it again and\n"
    "# requires the same text. Do not edit by hand.\n"
)


def render(data: Mapping[str, Any]) -> str:
    import yaml  # the writer: the loader only reads the table, with the YAML reader

    return HEADER + yaml.safe_dump(dict(data), sort_keys=False, allow_unicode=True, width=100)


def main(argv: list[str] | None = None) -> int:
    import argparse

    from schwimmen.spec.loader import load_catalog

    parser = argparse.ArgumentParser(prog="python -m schwimmen.spec.termination")
    parser.add_argument("--write", action="store_true", help=f"write spec/{FILE}")
    parser.add_argument("--base", action="append", help="only this ruleset (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    data = sweep(load_catalog(), args.base, lambda line: print(line, file=sys.stderr), args.jobs)
    text = render(data)
    if args.write:
        (spec_dir() / FILE).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    print(f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    # Run as the imported module, not as ``__main__``: the loader consults the module
    # ``schwimmen.spec.termination``, and :func:`unchecked` must switch off its table, not
    # a copy's (as ``__main__`` the sweep would be refused its own pairs).
    from schwimmen.spec import termination

    raise SystemExit(termination.main())
