"""A pytest plugin: run the conformance suite inside a Python engine's own test run.

Installed with this package (entry point ``pytest11``), it does nothing until asked:

    pytest --schwimmen-adapter=my_engine.conformance:run_case

``run_case(case) -> answer`` is the same function an adapter process would call for a
``run`` request (PROTOCOL.md). Each case becomes one test item,
``schwimmen::<fixture>[<ruleset>]``; failed cases fail with the diff and the sources' words,
skipped cases are skipped, errored cases error.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from schwimmen.conformance.fixtures import Case, Fixture, load_fixtures, select
from schwimmen.conformance.harness import default_rulesets, resolve_all
from schwimmen.conformance.report import failure_text
from schwimmen.conformance.runner import Status, judge, planned
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

Adapter = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("schwimmen", "schwimmen conformance suite")
    group.addoption(
        "--schwimmen-adapter",
        metavar="MODULE:FUNCTION",
        help="run the schwimmen conformance suite against this run_case function",
    )
    group.addoption(
        "--schwimmen-ruleset",
        action="append",
        default=[],
        metavar="RULESET",
        help="only these rulesets (repeatable; default: all and every house rule)",
    )
    group.addoption("--schwimmen-k", metavar="PATTERN", help="only fixtures matching PATTERN")


def load_adapter(spec: str) -> Adapter:
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise pytest.UsageError("--schwimmen-adapter takes MODULE:FUNCTION")
    function = getattr(importlib.import_module(module_name), attr)
    if not callable(function):
        raise pytest.UsageError(f"{spec} is not callable")
    return function  # type: ignore[no-any-return]


class CaseFailed(Exception):
    """Raised by a case item that failed or errored; its text is the report."""


class ConformanceItem(pytest.Item):
    def __init__(
        self,
        *,
        fixture: Fixture,
        case: Case,
        ruleset: Ruleset,
        adapter: Adapter,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.fixture = fixture
        self.case = case
        self.ruleset = ruleset
        self.adapter = adapter

    def runtest(self) -> None:
        try:
            answer = self.adapter(self.fixture.request(self.ruleset))
        except Exception as exc:  # the engine under test may raise anything
            answer = {"status": "errored", "message": f"{type(exc).__name__}: {exc}"}
        result = judge(self.fixture, self.case, self.ruleset, answer)
        if result.status is Status.SKIPPED:
            pytest.skip(result.message or "skipped by the implementation")
        if result.status is not Status.PASSED:
            raise CaseFailed("\n".join(failure_text(result)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int, str]:
        return self.fixture.file, 0, f"schwimmen::{self.fixture.id}[{self.ruleset.id}]"


def _items(session: pytest.Session, adapter: Adapter) -> Iterator[ConformanceItem]:
    config = session.config
    catalog = Catalog.load()
    names = config.getoption("--schwimmen-ruleset") or default_rulesets(catalog)
    fixtures, errors = load_fixtures()
    if errors:
        raise pytest.UsageError("\n".join(str(e) for e in errors))
    fixtures = select(fixtures, pattern=config.getoption("--schwimmen-k"))
    for fixture, case, ruleset in planned(fixtures, resolve_all(catalog, names)):
        yield ConformanceItem.from_parent(
            session,
            name=f"schwimmen::{fixture.id}[{ruleset.id}]",
            fixture=fixture,
            case=case,
            ruleset=ruleset,
            adapter=adapter,
        )


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    spec = config.getoption("--schwimmen-adapter")
    if not spec:
        return
    items.extend(_items(session, load_adapter(spec)))
