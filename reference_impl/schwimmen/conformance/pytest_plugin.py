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

The adapter function runs in a worker process of its own (forked once per session, where
the system can fork), so that it cannot take pytest down or hang it: a case whose adapter
call exits the process (``os._exit``, a crash) or does not answer within
``--schwimmen-timeout`` seconds (default 10, like the harness) is a pytest error with the
reason, and the worker is started again for the next case. A session in which cases ran
and none was judged (all skipped, all errored) fails with one line that says why: a
verdict claims only what was judged.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import selectors
import signal
import time
import traceback
from collections import Counter
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
_TALLY = pytest.StashKey["Tally"]()
"""What the session's cases came to, for the verdict at its end."""
TIMEOUT = 10.0
"""Seconds per case by default, as ``schwimmen conformance --timeout``."""


class Tally:
    """The statuses of the cases that ran, and their messages (for the one line why)."""

    def __init__(self) -> None:
        self.statuses: Counter[Status] = Counter()
        self.messages: list[str] = []

    def add(self, result: CaseResult) -> None:
        self.statuses[result.status] += 1
        if not result.judged:
            self.messages.append(result.message)

    def nothing_judged(self) -> str | None:
        """The line why, when cases ran and none was judged; None otherwise."""
        ran = sum(self.statuses.values())
        judged = self.statuses[Status.PASSED] + self.statuses[Status.FAILED]
        if not ran or judged:
            return None
        parts = [f"{n} {s.value}" for s, n in sorted(self.statuses.items()) if n]
        common = ""
        if self.messages:
            text, n = Counter(self.messages).most_common(1)[0]
            text = text if len(text) <= 160 else text[:157] + "..."
            common = f" (most often: {text!r}, {n}x)"
        return (
            f"schwimmen: nothing was judged: of {ran} cases, {', '.join(parts)}{common}; "
            "a run that judged nothing is not green"
        )


class Worker:
    """The adapter function in a forked process of its own, one request at a time.

    Requests and answers go as JSON lines over two pipes. The worker is started on the
    first case and again after a crash or a timeout; where the system cannot fork, the
    adapter is called in this process (without that protection)."""

    def __init__(self, adapter: Adapter, timeout: float) -> None:
        self.adapter = adapter
        self.timeout = timeout
        self.pid: int | None = None
        self.to_child = -1
        self.from_child = -1
        self.buffer = b""

    def _start(self) -> None:
        request_read, request_write = os.pipe()
        answer_read, answer_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: never returns into pytest
            os.close(request_write)
            os.close(answer_read)
            code = 0
            try:
                _serve(self.adapter, request_read, answer_write)
            except BaseException:  # the worker ends here, whatever happened
                code = 1
            os._exit(code)
        os.close(request_read)
        os.close(answer_write)
        self.pid, self.to_child, self.from_child, self.buffer = pid, request_write, answer_read, b""

    def stop(self) -> None:
        pid, self.pid = self.pid, None
        for fd in (self.to_child, self.from_child):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.to_child = self.from_child = -1
        if pid is not None:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)

    def _exit_text(self) -> str:
        pid, self.pid = self.pid, None
        code = None
        if pid is not None:
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(pid, 0)
                code = os.waitstatus_to_exitcode(status)
        self.stop()
        shown = f" (exit code {code})" if code is not None else ""
        return (
            f"the adapter's process exited{shown} during the case (it crashed or called os._exit)"
        )

    def call(self, request: Mapping[str, Any]) -> tuple[Mapping[str, Any], list[str]]:
        """The adapter's answer and, when it raised, its traceback; a crash or a timeout is
        an errored answer that says so, and the worker is restarted for the next case."""
        if not hasattr(os, "fork"):
            return _call(self.adapter, request)
        if self.pid is None:
            self._start()
        try:
            os.write(self.to_child, (json.dumps(request) + "\n").encode())
        except OSError:
            return _errored(self._exit_text()), []
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                message = (
                    f"the adapter did not answer within {self.timeout:g} s (timed out; "
                    "--schwimmen-timeout); its process was ended and is started again"
                )
                return _errored(message), []
            with selectors.DefaultSelector() as waiting:
                waiting.register(self.from_child, selectors.EVENT_READ)
                ready = waiting.select(left)
            if ready:
                chunk = os.read(self.from_child, 1 << 16)
                if not chunk:
                    return _errored(self._exit_text()), []
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        reply = json.loads(line)
        return reply["answer"], list(reply["traceback"])


def _errored(message: str) -> dict[str, Any]:
    return {"status": "errored", "message": message}


def _call(adapter: Adapter, request: Mapping[str, Any]) -> tuple[Mapping[str, Any], list[str]]:
    try:
        return adapter(request), []
    except Exception as exc:  # the engine under test may raise anything
        return _errored(f"{type(exc).__name__}: {exc}"), _traceback(exc)


def _serve(adapter: Adapter, requests: int, answers: int) -> None:
    """The worker's loop: a request per line in, ``{"answer", "traceback"}`` per line out."""
    with os.fdopen(requests, "rb") as source, os.fdopen(answers, "wb") as sink:
        for line in source:
            answer, lines = _call(adapter, json.loads(line))
            try:
                text = json.dumps({"answer": dict(answer), "traceback": lines})
            except (TypeError, ValueError) as exc:
                message = f"the adapter's answer is no JSON data: {exc}"
                text = json.dumps({"answer": _errored(message), "traceback": []})
            sink.write(text.encode() + b"\n")
            sink.flush()


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
    group.addoption(
        "--schwimmen-timeout",
        type=float,
        default=TIMEOUT,
        metavar="SECONDS",
        help=f"seconds the adapter may take per case (default {TIMEOUT:g}); beyond, the case "
        "is an error and the adapter's process is started again",
    )
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
    config.stash[_TALLY] = Tally()
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
                adapter=_worker(collector.config, load_adapter(spec)),
                selected=collector.config.stash.get(_SELECTED, None),
            )
        )
    return report


_WORKER = pytest.StashKey[Worker]()


def _worker(config: pytest.Config, adapter: Adapter) -> Worker:
    worker = config.stash.get(_WORKER, None)
    if worker is None:
        worker = config.stash[_WORKER] = Worker(adapter, config.getoption("--schwimmen-timeout"))
    return worker


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Ends the worker; a session whose cases judged nothing fails."""
    worker = session.config.stash.get(_WORKER, None)
    if worker is not None:
        worker.stop()
    tally = session.config.stash.get(_TALLY, None)
    if tally is not None and tally.nothing_judged() and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    tally = config.stash.get(_TALLY, None)
    line = tally.nothing_judged() if tally is not None else None
    if line:
        terminalreporter.write_line(line, red=True, bold=True)


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

    def __init__(self, *, adapter: Worker, selected: list[str] | None, **kwargs: Any) -> None:
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
        adapter: Worker,
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
        answer, engine_traceback = self.adapter.call(self.fixture.request(self.ruleset))
        self.result = judge(self.fixture, self.case, self.ruleset, answer)
        tally = self.config.stash.get(_TALLY, None)
        if tally is not None:
            tally.add(self.result)
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
