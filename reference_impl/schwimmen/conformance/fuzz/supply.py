"""Where a fuzzing run's cases are made: in the run's own process, or, with several jobs,
in as many worker processes besides it.

Making a case (the reference plays it while the case is drawn) is most of fuzz's own
work. Threads of one interpreter take turns at it, so with several jobs the threads that
talk to the implementations would wait on one core; made in worker processes, the cases
come as fast as the cores allow. Case ``n`` is made from the seed and ``n`` alone
(``cases.case_rng``), wherever it is made, so a run finds the same cases either way.

A worker process sends back only what is sent and judged: the case and the reference's
outcome. The playthrough behind a case (the plan that shrinking works on) is made again
in the run's process from the seed and the number, for the few cases that differ. The
ruleset a case names is the run's own: a worker leaves it out, and the run's process puts
back its own object in its place, so that the request is written as for a case made here
(``wire.Wire`` knows the run's ruleset by that object and writes its JSON once per run).
"""

from __future__ import annotations

import multiprocessing
import pickle
import signal
import threading
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from schwimmen.conformance.fixtures import parameter_values
from schwimmen.conformance.fuzz.cases import Playthrough, case_rng, generate
from schwimmen.engine.adapter import run_case
from schwimmen.spec.cache import dumps
from schwimmen.spec.model import Ruleset

CHUNK = 8
"""Cases a worker process makes per request: fewer messages, little made in vain at the end."""
AHEAD = 3
"""Requests kept in flight per worker process, so that none waits for the next."""

Outcome = Mapping[str, Any] | None


@dataclass(frozen=True)
class Sent:
    """A case made in a worker process: the request and nothing behind it."""

    case: dict[str, Any]

    @property
    def steps(self) -> int:
        return len(self.case["steps"])


Made = tuple[Playthrough | Sent, Outcome]
"""A case and the reference's outcome of it (None: the reference could not play it)."""


def _outcome(answer: Mapping[str, Any]) -> Outcome:
    outcome = answer.get("outcome")
    if answer.get("status") == "ok" and isinstance(outcome, Mapping):
        return outcome
    return None


def make(ruleset: Ruleset, seed: int, number: int) -> tuple[Playthrough, Outcome]:
    """Case ``number`` of a run seeded ``seed`` and the reference's outcome of it (as the
    reference played it while making it, or else by running it)."""
    done = generate(ruleset, case_rng(seed, number))
    if done.outcome is not None:
        return done, done.outcome
    return done, _outcome(run_case(done.case))


class Supply:
    """Case ``n`` of the run, made here when asked (one job)."""

    def __init__(self, ruleset: Ruleset, seed: int) -> None:
        self.ruleset = ruleset
        self.seed = seed

    def get(self, number: int) -> Made:
        return make(self.ruleset, self.seed, number)

    def playthrough(self, number: int, made: Playthrough | Sent) -> Playthrough:
        """The playthrough behind case ``number`` (made again if it was made elsewhere)."""
        if isinstance(made, Playthrough):
            return made
        return make(self.ruleset, self.seed, number)[0]

    def close(self) -> None:
        """Nothing runs besides the run's own process."""


_WORKER: tuple[Ruleset, int] | None = None


def _start_worker(ruleset: Ruleset | bytes, seed: int) -> None:
    """A worker ignores Ctrl-C: the run that started it stops it. A forked worker has the
    ruleset from its parent; any other gets it as the catalog cache pickles it (its
    settings are a read-only mapping)."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = (pickle.loads(ruleset) if isinstance(ruleset, bytes) else ruleset, seed)


def _make_chunk(first: int) -> list[tuple[dict[str, Any], Outcome]]:
    assert _WORKER is not None, "a worker process is started by _start_worker"
    ruleset, seed = _WORKER
    out = []
    own = parameter_values(ruleset)
    for number in range(first, first + CHUNK):
        done, ref = make(ruleset, seed, number)
        case = done.case
        entry = case.get("ruleset")
        if type(entry) is dict and entry.get("parameters") is own:
            case["ruleset"] = _OWN  # in its place: the keys keep their order
        out.append((case, ref))
    return out


_OWN = "\0own ruleset"
"""Stands in a case a worker made for the ruleset it names, the run's own (no case names
a ruleset by a string)."""


def _context() -> multiprocessing.context.BaseContext:
    """How the worker processes start: a fork of this process, at once, while it runs no
    other thread (a run makes its pool before its own threads start); else, since a fork
    of a process whose other threads may hold locks is not safe, from a fork server that
    has imported this module once (a second or two, once per process)."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


class PooledSupply(Supply):
    """Cases made ahead by ``workers`` processes, ``CHUNK`` numbers per request, kept
    ``AHEAD`` requests ahead of the highest number asked for."""

    def __init__(self, ruleset: Ruleset, seed: int, workers: int) -> None:
        super().__init__(ruleset, seed)
        self.parameters = parameter_values(ruleset)  # as a case made here names them
        context = _context()
        given = ruleset if context.get_start_method() == "fork" else dumps(ruleset)
        self.pool = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker, initargs=(given, seed)
        )
        self.lock = threading.Lock()
        self.chunks: dict[int, Future[list[tuple[dict[str, Any], Outcome]]]] = {}
        self.left: dict[int, int] = {}  # numbers of a chunk not yet taken
        self.next_chunk = 0
        self.ahead = workers * AHEAD
        self._request(0)

    def _request(self, chunk: int) -> None:
        """Chunk ``chunk`` and the ``ahead`` after it, those not asked for yet; a number
        far ahead of the last one asked (runs never jump, but a caller may) skips the
        chunks between rather than make them all."""
        if chunk not in self.chunks:
            self._submit(chunk)
        self.next_chunk = max(self.next_chunk, chunk + 1)
        while self.next_chunk <= chunk + self.ahead:
            self._submit(self.next_chunk)
            self.next_chunk += 1

    def _submit(self, chunk: int) -> None:
        self.chunks[chunk] = self.pool.submit(_make_chunk, chunk * CHUNK)
        self.left[chunk] = CHUNK

    def get(self, number: int) -> Made:
        chunk = number // CHUNK
        with self.lock:
            self._request(chunk)
            future = self.chunks[chunk]
        case, ref = future.result()[number % CHUNK]
        with self.lock:
            self.left[chunk] -= 1
            if not self.left[chunk]:
                del self.chunks[chunk], self.left[chunk]
        if case.get("ruleset") == _OWN:
            case["ruleset"] = {"id": self.ruleset.id, "parameters": self.parameters}
        return Sent(case), ref

    def close(self) -> None:
        """Cases made ahead and never asked for are dropped; the workers end now."""
        self.pool.shutdown(wait=True, cancel_futures=True)


def supply(ruleset: Ruleset, seed: int, jobs: int) -> Supply:
    """Where the cases of a run with ``jobs`` implementation processes are made."""
    return Supply(ruleset, seed) if jobs <= 1 else PooledSupply(ruleset, seed, jobs)
