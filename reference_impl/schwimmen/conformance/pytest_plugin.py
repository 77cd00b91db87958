"""A pytest plugin: run the conformance suite inside a Python engine's own test run.

Installed with this package (entry point ``pytest11``), it does nothing until asked:

    pytest --schwimmen-adapter=my_engine.conformance:run_case

``run_case(case) -> answer`` is the same function an adapter process would call for a
``run`` request (PROTOCOL.md). Each case becomes one test item under the collector
``schwimmen``, with the node id ``schwimmen::<fixture>[<ruleset>]`` (for example
``schwimmen::round/thirty-one-by-a-swap[pagat]``): ``-k "thirty-one-by-a-swap and pagat"``
selects by words, ``pytest "schwimmen::round/thirty-one-by-a-swap"`` by node id (every
ruleset of that fixture; ``schwimmen::round`` a whole directory of fixtures), and
``--deselect`` takes the same ids. A failed case fails with the diff and the sources'
words, a skipped case is skipped, and a case the engine could not answer (it raised, or
answered errored or with something that cannot be judged) is a pytest *error*, with the
engine's traceback when it raised.

All rulesets and house rules run unless narrowed. ``--schwimmen-ruleset`` narrows one
run; a project claims the rulesets its engine implements once, either in its ini file::

    [tool.pytest.ini_options]
    schwimmen_rulesets = ["RULESET", "RULESET+HOUSE-RULE"]

or from its ``conftest.py`` with the hook ``pytest_schwimmen_rulesets(config)``, which
returns the list (or None to leave the choice to the ini option). The command line wins
over the hook, the hook over the ini option.
"""

from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from schwimmen.conformance.fixtures import Case, Fixture, load_fixtures, select
from schwimmen.conformance.harness import default_rulesets, resolve_all
from schwimmen.conformance.report import failure_text
from schwimmen.conformance.runner import CaseResult, Status, judge, planned
from schwimmen.resources import conformance_dir
from schwimmen.spec.errors import SpecErrors
from schwimmen.spec.loader import Catalog
from schwimmen.spec.model import Ruleset

Adapter = Callable[[Mapping[str, Any]], Mapping[str, Any]]

SUITE = "schwimmen"
"""The name of the collector holding every case, and so the first part of their node ids."""

_SELECTED = pytest.StashKey[list[str] | None]()
"""The ``schwimmen::...`` arguments of this run, without the prefix; None when none was given."""


class Hookspecs:
    """The hook a project's conftest implements to claim its rulesets."""

    @pytest.hookspec(firstresult=True)
    def pytest_schwimmen_rulesets(self, config: pytest.Config) -> Sequence[str] | None:
        """The rulesets (and ``ruleset+house-rule`` compositions) the engine implements,
        or None to leave the choice to the ``schwimmen_rulesets`` ini option."""
        raise NotImplementedError  # a specification: pluggy never calls it


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(Hookspecs)


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
        help="only these rulesets (repeatable; default: the project's claim, else all "
        "and every house rule)",
    )
    group.addoption("--schwimmen-k", metavar="PATTERN", help="only fixtures matching PATTERN")
    parser.addini(
        "schwimmen_rulesets",
        type="args",
        default=[],
        help="the rulesets the engine implements, run by the schwimmen conformance suite",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Takes the ``schwimmen::...`` arguments out of the paths pytest collects from: they
    name cases of the suite, not files, and pytest would refuse them as missing files."""
    if not config.getoption("--schwimmen-adapter"):
        return
    selected = [arg for arg in config.args if _names_the_suite(arg)]
    if selected:
        config.args[:] = [arg for arg in config.args if not _names_the_suite(arg)]
        config.stash[_SELECTED] = [arg.removeprefix(SUITE).removeprefix("::") for arg in selected]


def _names_the_suite(arg: str) -> bool:
    if arg.startswith(f"{SUITE}::"):
        return True
    return arg == SUITE and not Path(arg).exists()


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Adds the suite to what the session collects, so that its cases are collected,
    counted, selected (``-k``, ``--deselect``) and listed (``--collect-only``) like any
    test; they come from the package's fixtures, not from a file pytest would find."""
    report = yield
    spec = collector.config.getoption("--schwimmen-adapter")
    if spec and isinstance(collector, pytest.Session) and report.passed:
        report.result.append(
            ConformanceSuite.from_parent(
                collector,
                name=SUITE,
                nodeid=SUITE,
                adapter=load_adapter(spec),
                selected=collector.config.stash.get(_SELECTED, None),
            )
        )
    return report


def load_adapter(spec: str) -> Adapter:
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise pytest.UsageError("--schwimmen-adapter takes MODULE:FUNCTION")
    function = getattr(importlib.import_module(module_name), attr)
    if not callable(function):
        raise pytest.UsageError(f"{spec} is not callable")
    return function  # type: ignore[no-any-return]


def claimed_rulesets(config: pytest.Config) -> list[str] | None:
    """The rulesets to run: ``--schwimmen-ruleset``, else the conftest's hook, else the
    ini option; None when none of them names any (then every ruleset runs)."""
    names: list[str] = config.getoption("--schwimmen-ruleset")
    if names:
        return list(names)
    claimed = config.hook.pytest_schwimmen_rulesets(config=config)
    if claimed is not None:
        return list(claimed)
    return list(config.getini("schwimmen_rulesets")) or None


class CaseFailed(Exception):
    """Raised by a case item whose answer differs; its text is the report."""


class ConformanceSuite(pytest.Collector):
    """Every case of the suite to run, one item each."""

    def __init__(self, *, adapter: Adapter, selected: list[str] | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.adapter = adapter
        self.selected = selected

    def collect(self) -> Iterator[ConformanceCase]:
        catalog = Catalog.load()
        fixtures, errors = load_fixtures()
        if errors:
            raise self.CollectError("\n".join(str(e) for e in errors))
        names = claimed_rulesets(self.config)
        try:
            rulesets = resolve_all(catalog, default_rulesets(catalog) if names is None else names)
        except SpecErrors as exc:
            raise self.CollectError(str(exc)) from None
        fixtures = select(fixtures, pattern=self.config.getoption("--schwimmen-k"))
        found: set[str] = set()
        for fixture, case, ruleset in planned(fixtures, rulesets):
            name = f"{fixture.id}[{ruleset.id}]"
            wanted = self._wanted(name)
            if wanted is None:
                continue
            found.add(wanted)
            yield ConformanceCase.from_parent(
                self, name=name, fixture=fixture, case=case, ruleset=ruleset, adapter=self.adapter
            )
        missing = [s for s in self.selected or () if s not in found]
        if missing:
            shown = ", ".join(f"{SUITE}::{s}" for s in missing)
            raise self.CollectError(f"not found among the cases to run: {shown}")

    def _wanted(self, name: str) -> str | None:
        """The selection that takes the case ``name``: a whole id, a fixture (every
        ruleset), a fixture directory, or the bare suite (""); None when none does."""
        if self.selected is None:
            return ""
        for s in self.selected:
            if s in ("", name) or name.startswith((f"{s}[", f"{s}/")):
                return s
        return None


class ConformanceCase(pytest.Item):
    """One case of one fixture under one ruleset."""

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
        self.result: CaseResult | None = None

    def setup(self) -> None:
        """Asks the engine and judges its answer before the test proper: pytest reports
        what goes wrong in setup as an error, and an errored case is one the engine could
        not answer, so it is an error, not a failure, in pytest's terms too."""
        engine_traceback: list[str] = []
        try:
            answer = self.adapter(self.fixture.request(self.ruleset))
        except Exception as exc:  # the engine under test may raise anything
            answer = {"status": "errored", "message": f"{type(exc).__name__}: {exc}"}
            engine_traceback = _traceback(exc)
        self.result = judge(self.fixture, self.case, self.ruleset, answer)
        if self.result.status is Status.ERRORED:
            lines = failure_text(self.result)
            if engine_traceback:
                lines.append("  the adapter raised:")
                lines.extend(f"    {line}" for line in engine_traceback)
            pytest.fail("\n".join(lines), pytrace=False)

    def runtest(self) -> None:
        result = self.result
        assert result is not None, "setup judges the case"
        if result.status is Status.SKIPPED:
            pytest.skip(result.message or "skipped by the implementation")
        if result.status is not Status.PASSED:
            raise CaseFailed("\n".join(failure_text(result)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        """The fixture's file, and the node id as the heading of the case's report."""
        return conformance_dir().parent / self.fixture.file, 0, self.nodeid


def _traceback(exc: BaseException) -> list[str]:
    """The engine's traceback as Python prints it, without this plugin's own frame."""
    tb = exc.__traceback__.tb_next if exc.__traceback__ else None
    return "".join(traceback.format_exception(type(exc), exc, tb)).splitlines()
