"""Rules are data: no ruleset or house rule is named anywhere in the package's code.

Behaviour comes from spec parameters only; a house rule written tomorrow plays without a
code change. The names may appear in tests, in spec files and in data files, not in code.
"""

from __future__ import annotations

import re
from pathlib import Path

from schwimmen.spec.loader import Catalog

PACKAGE = Path(__file__).resolve().parent.parent / "reference_impl" / "schwimmen"


def test_no_ruleset_or_house_rule_is_named_in_code(catalog: Catalog) -> None:
    names = sorted(set(catalog.rulesets) | set(catalog.house_rules), key=len, reverse=True)
    pattern = re.compile(r"[\"'](" + "|".join(re.escape(n) for n in names) + r")[\"']")
    hits = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert hits == []
