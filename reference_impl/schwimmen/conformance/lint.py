"""``schwimmen conformance lint``: the suite checks itself before it judges anybody.

Fixtures validate against their schema; ids are unique and match their paths; cited
sources exist and every quote stands verbatim in its source; every case cites a source or
a stated default; predicates name real parameters; no card is dealt twice in a position
or pack; every fixture applies to at least one ruleset; every ruleset a case names is one
the case (and no earlier case) applies to; no two cases of a fixture apply to one ruleset.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from schwimmen.conformance.fixtures import Fixture, case_applies, load_fixtures, parameter_values
from schwimmen.conformance.harness import default_rulesets
from schwimmen.spec.errors import SpecError, SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset
from schwimmen.spec.parameters import BY_PATH


def _err(fixture: Fixture, path: tuple[str | int, ...], message: str) -> SpecError:
    return fixture.doc.error(path, message)


_Pack = list[tuple[tuple[str | int, ...], str]]  # (where in the fixture, card)


def _duplicate_cards(fixture: Fixture) -> list[SpecError]:
    """A card that appears twice in one position (or in one stacked pack): no pack holds
    it twice, so no engine can set the position up (the reference refuses it)."""
    setup = fixture.setup
    position: _Pack = []
    for key in ("middle", "extra", "stock", "discard"):
        position += [((key, i), card) for i, card in enumerate(setup.get(key, ()))]
    for seat, hand in setup.get("hands", {}).items():
        position += [(("hands", seat, i), card) for i, card in enumerate(hand)]
    deck: _Pack = [(("deck", i), c) for i, c in enumerate(setup.get("deck", ()))]
    packs: list[_Pack] = [position, deck]
    for n, later in enumerate(setup.get("decks", ())):
        packs.append([(("decks", n, i), c) for i, c in enumerate(later)])
    errors = []
    for pack in packs:
        seen: dict[str, tuple[str | int, ...]] = {}
        for path, card in pack:
            if card in seen:
                first = ".".join(str(p) for p in seen[card])
                errors.append(_err(fixture, path, f"card {card} is dealt twice (also at {first})"))
            else:
                seen[card] = path
    return errors


def lint(catalog: Catalog, fixtures_dir: Path | None = None) -> tuple[list[SpecError], int]:
    """All problems found, and the number of fixtures checked."""
    fixtures, errors = load_fixtures(fixtures_dir)
    rulesets: dict[str, Ruleset] = {}
    for name in default_rulesets(catalog):
        rulesets[name] = catalog.resolve(name)
    counts = Counter(f.id for f in fixtures)
    bib = catalog.bibliography
    for f in fixtures:
        rel = f.file.split("fixtures/", 1)[-1].rsplit(".", 1)[0]
        if rel != f.id:
            errors.append(_err(f, ("id",), f"id {f.id!r} does not match the file path {rel!r}"))
        if counts[f.id] > 1:
            errors.append(_err(f, ("id",), f"id {f.id!r} is used by {counts[f.id]} fixtures"))
        errors.extend(_duplicate_cards(f))
        applies_somewhere = False
        for ruleset in rulesets.values():
            if f.fits(ruleset) is not None:
                continue
            values = parameter_values(ruleset)
            hits = [c for c in f.cases if case_applies(c, ruleset.id, values)]
            if hits:
                applies_somewhere = True
            if len(hits) > 1:
                names = ", ".join(c.label() for c in hits)
                errors.append(_err(f, ("cases",), f"several cases apply to {ruleset.id}: {names}"))
        if not applies_somewhere:
            errors.append(_err(f, ("cases",), "the fixture applies to no ruleset"))
        for case in f.cases:
            base = ("cases", case.index)
            if not case.because and not case.defaults:
                errors.append(_err(f, base, "a case cites no source ('because') and no default"))
            for i, citation in enumerate(case.because):
                source = bib.sources.get(citation.source)
                if source is None:
                    errors.append(
                        _err(
                            f,
                            (*base, "because", i, "source"),
                            f"unknown source {citation.source!r}",
                        )
                    )
                    continue
                problem = bib.check_quote(citation)
                if problem:
                    errors.append(_err(f, (*base, "because", i, "quote"), problem))
            for param in case.where:
                if param not in BY_PATH:
                    errors.append(_err(f, (*base, "where", param), f"unknown parameter {param!r}"))
            for i, name in enumerate(case.rulesets):
                found = rulesets.get(name)
                if found is not None:
                    ruleset = found
                else:
                    try:
                        ruleset = catalog.resolve(name)
                    except SpecErrors:
                        errors.append(_err(f, (*base, "rulesets", i), f"unknown ruleset {name!r}"))
                        continue
                why = f.fits(ruleset)
                if why is not None:
                    errors.append(
                        _err(
                            f,
                            (*base, "rulesets", i),
                            f"names {name}, but the position does not fit it: {why}",
                        )
                    )
                elif f.applicable_case(ruleset) is not case:
                    errors.append(
                        _err(
                            f,
                            (*base, "rulesets", i),
                            f"names {name}, but the case does not apply to it",
                        )
                    )
    return sorted(set(errors)), len(fixtures)
