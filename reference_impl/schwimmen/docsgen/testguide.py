"""The generated parts of the guide "Test your implementation" (its prose is
``docs/guides/test-your-implementation.md``).

What the guide shows is produced while the site builds, from the things it describes:
the request, the answer and the report are the suite's own
(:func:`schwimmen.conformance.examples.make_examples`), the coverage figures come from
the coverage module, and the adapter's code is the example file itself.
"""

from __future__ import annotations

import json
from typing import Any

from schwimmen.conformance.examples import Examples
from schwimmen.conformance.plan import Suite
from schwimmen.docsgen.markup import (
    ADAPTER_EXAMPLE,
    GUIDE_TEST,
    admonition,
    code,
    esc,
    fixture_page,
    link,
    table,
)
from schwimmen.spec.pagedata import words


def _json_block(data: Any, title: str) -> str:
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return f'??? example "{title}"\n\n    ```json\n' + _indent(text) + "\n    ```\n"


def _indent(block: str) -> str:
    return "\n".join("    " + line if line.strip() else "" for line in block.splitlines())


# ----------------------------------------------------------------------------- the parts


def guide_parts(
    suite: Suite | None, adapter_code: str | None, examples: Examples | None
) -> dict[str, str]:
    """The generated parts of ``docs/guides/test-your-implementation.md``: the real request,
    answer and report, the coverage figures and the adapter's code. A part whose input is
    missing (a quick build without the examples) is left out."""
    here = GUIDE_TEST
    parts: dict[str, str] = {}
    if examples is not None:
        asked, failing = examples.request_fixture, examples.failing_fixture
        parts["test-guide-ruleset"] = code(examples.ruleset)
        parts["test-guide-request-fixture"] = link(here, fixture_page(asked.id), code(asked.id))
        parts["test-guide-failing-fixture"] = link(here, fixture_page(failing.id), code(failing.id))
        parts["test-guide-request"] = "\n".join(
            [
                _json_block(
                    {"cmd": "run", "seq": 1, "case": examples.request},
                    words()("testguide.request", title=asked.title),
                ),
                _json_block({"seq": 1, **examples.answer}, words()("testguide.answer")),
            ]
        )
        parts["test-guide-report"] = f"```text\n{examples.report}\n```"
    if suite is not None:
        parts.update(coverage_parts(suite))
    if adapter_code is not None:
        parts["adapter-example"] = f'```js title="{ADAPTER_EXAMPLE}"\n{adapter_code.rstrip()}\n```'
    return parts


def coverage_parts(suite: Suite) -> dict[str, str]:
    """The figures of ``schwimmen conformance coverage`` and the values no case pins."""
    cov = suite.coverage
    pinned = [n for n, ids in cov.disagreements.items() if ids]
    gaps = cov.gaps
    parts = {
        "coverage-values": str(len(cov.values)),
        "coverage-values-pinned": str(len(cov.values) - len(gaps)),
        "coverage-disagreements": str(len(cov.disagreements)),
        "coverage-disagreements-pinned": str(len(pinned)),
    }
    out: list[str] = []
    if gaps:
        rows = [
            [code(g.param), code(json.dumps(g.value, ensure_ascii=False)), esc(g.reason())]
            for g in gaps
        ]
        say = words()
        header = [say(f"testguide.head.{k}") for k in ("parameter", "value", "why-not-pinned")]
        title = say("testguide.not-pinned", n=len(gaps))
        out.append(admonition("info", title, table(header, rows), collapsible=True))
    if cov.unpinned:
        out.append(words()("testguide.unpinned", ids=", ".join(cov.unpinned)))
    parts["coverage-gaps"] = "\n\n".join(out)
    return parts
