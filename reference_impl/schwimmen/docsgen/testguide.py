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
    code,
    fixture_page,
    link,
)
from schwimmen.docsgen.templates import render_markdown
from schwimmen.spec.pagedata import words


def _dump(data: Any, indent: int | None = 2) -> str:
    return json.dumps(data, indent=indent, ensure_ascii=False)


# ----------------------------------------------------------------------------- the parts


def guide_parts(
    suite: Suite | None, adapter_code: str | None, examples: Examples | None
) -> dict[str, str]:
    """The generated parts of ``docs/guides/test-your-implementation.md``: the real request,
    answer and report, the coverage figures and the adapter's code. A part whose input is
    missing (a quick build without the examples) is left out."""
    here, say = GUIDE_TEST, words()
    parts: dict[str, str] = {}
    if examples is not None:
        asked, failing = examples.request_fixture, examples.failing_fixture
        parts["test-guide-ruleset"] = code(examples.ruleset)
        parts["test-guide-request-fixture"] = link(here, fixture_page(asked.id), code(asked.id))
        parts["test-guide-failing-fixture"] = link(here, fixture_page(failing.id), code(failing.id))
        blocks = [
            (
                {"cmd": "run", "seq": 1, "case": examples.request},
                say("testguide.request", title=asked.title),
            ),
            ({"seq": 1, **examples.answer}, say("testguide.answer")),
        ]
        parts["test-guide-request"] = render_markdown(
            "testguide.md", "en", part="request", blocks=blocks, dump=_dump
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
    parts["coverage-gaps"] = render_markdown(
        "testguide.md", "en", part="gaps", gaps=gaps, unpinned=cov.unpinned, dump=_dump
    )
    return parts
