"""An implementation under test, run as a separate process that speaks the protocol.

The harness must outlive whatever the other side does. Every request gets exactly one
answer from this class, never an exception, and no wait is longer than the timeout:

* the process runs in a session of its own, and ending it ends its whole process group,
  every descendant (found through ``/proc``, also one that called ``setsid``), and every
  process that inherited its marker (a grandchild that holds the pipes, a daemon it
  forked). On Linux the harness is a child subreaper (``PR_SET_CHILD_SUBREAPER``), so a
  descendant orphaned by its parent's exit is re-parented to the harness instead of
  init and is still found, even with its environment cleared; :func:`end_all` ends
  whatever is left, for a command to call once at its end;
* all reads and writes go through non-blocking pipes and one ``select`` with a deadline:
  an implementation that stops reading its input, or never answers, times out;
* no answer within the timeout, an exit, a reply that is not strict JSON, not one line,
  longer than ``max_line``, nested too deep, not an object, or answering another request:
  the case is errored with the reason and the process is restarted to get back in step;
* a second answer to a request that was already answered is reported against that
  earlier request (``Reply.earlier``), not against the innocent next one;
* whatever the process writes to stderr is kept as a bounded tail per case, with the
  number of bytes that were dropped.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import json
import math
import os
import re
import secrets
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from schwimmen.conformance.fields import PROTOCOL_VERSION, VERSIONS, unknown_fields
from schwimmen.protocol.nesting import nests_at_most
from schwimmen.spec.validation import load_schema

MAX_LINE = 4 * 1024 * 1024
STDERR_TAIL = 64 * 1024
MAX_DEPTH = 64
MAX_DIGITS = 100
CHUNK = 64 * 1024
# How long output may stay open after the process itself has exited.
EXIT_GRACE = 0.25
MARKER = "SCHWIMMEN_CONFORMANCE_RUN"


@dataclass(frozen=True)
class Started:
    """The implementation's start answer: who it is and what it claims."""

    name: str
    version: str
    rulesets: tuple[str, ...]
    any_ruleset: bool
    not_reported: frozenset[str] = frozenset()
    fixed_rules: bool = False
    """It plays rules of its own whatever a case names (PROTOCOL.md, start): its answer to a
    position is judged against every ruleset's expectations, and it claims no ruleset."""
    raw: Mapping[str, Any] = field(default_factory=dict)
    protocol: int = PROTOCOL_VERSION
    """The protocol version of its start answer: an adapter of an earlier version is not
    failed on checks added since (``fields.added_since``)."""


@dataclass(frozen=True)
class Reply:
    """What came back for one request.

    ``answer`` always has a ``status``; ``earlier`` is a problem that belongs to the
    request answered before this one (it answered twice), found only now; ``start_failed``
    says the process could not even be started for this request."""

    answer: Mapping[str, Any]
    stderr: str = ""
    stderr_dropped: int = 0
    earlier: str | None = None
    start_failed: bool = False


@dataclass(frozen=True)
class Pending:
    """A request sent and not yet answered (:meth:`ProcessImplementation.submit`):
    ``reply`` is set when there is nothing to wait for (the process could not start),
    ``problem`` when the request could not be written."""

    seq: int
    deadline: float
    earlier: str | None
    reply: Reply | None = None
    problem: str | None = None


@dataclass(frozen=True)
class Expected:
    """An answer the caller can foresee (the fuzzer knows the reference's), given as the
    line that carries it and what that line reads as: a reply equal to ``line`` byte for
    byte is ``answer`` without being parsed again. Only an exact copy is taken so; any
    other reply is read and checked as always."""

    line: bytes
    answer: Mapping[str, Any]


class BadLine(ValueError):
    """A line from the implementation that is not one strict, bounded JSON value."""


def command_argv(command: str) -> list[str]:
    """Split an ``--impl`` command like a POSIX shell would; a clear error if it cannot be."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"cannot split the command {command!r}: {exc}") from None
    if not argv:
        raise ValueError("the command is empty")
    return argv


def _reject_constant(name: str) -> Any:
    raise BadLine(f"{name} is not a JSON number (RFC 8259 has no NaN or Infinity)")


def _strict_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise BadLine(f"the number {text[:40]} does not fit a double")
    return number


def _strict_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadLine(f"a number with {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


_DECODER = json.JSONDecoder(
    parse_constant=_reject_constant, parse_float=_strict_float, parse_int=_strict_int
)
"""What ``json.loads`` with these hooks makes, made once: ``loads`` makes a decoder and
its scanner again on every call when given hooks (a fifth of reading an answer)."""


_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
"""``json.dumps`` with these options, made once (``dumps`` makes an encoder per call)."""


def parse_line(raw: bytes) -> Any:
    """One line of the implementation as strict JSON (RFC 8259), bounded in depth and
    number size, so that nothing it sends can crash the harness or poison a report."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadLine(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        if text.startswith("\ufeff"):  # refused as json.loads refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        value = _DECODER.decode(text)
    except BadLine:
        raise
    except RecursionError:
        raise BadLine(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        shown = text.strip()
        shown = shown if len(shown) <= 120 else shown[:117] + "..."
        raise BadLine(f"not JSON (garbage): {shown!r} ({exc})") from None
    if not nests_at_most(value, MAX_DEPTH, text):
        raise BadLine(f"nested deeper than {MAX_DEPTH} levels")
    if _SURROGATE_ESCAPE.search(raw) and _has_lone_surrogate(value):
        raise BadLine("a string holds a lone UTF-16 surrogate (\\uD800-\\uDFFF): not text")
    return value


# Strict UTF-8 cannot carry a surrogate; only a \u escape can, and a lone one is no text
# (it could not be written to a UTF-8 report).
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _validator(name: str) -> Draft202012Validator:
    schema = dict(load_schema("protocol.schema.json"))
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})


def _marked_pids(token: str) -> list[int]:
    """Processes whose environment carries this run's marker: the implementation and
    everything it started, even what left its process group (Linux; elsewhere none)."""
    needle = f"{MARKER}={token}".encode()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry))
    return found


_PR_SET_CHILD_SUBREAPER = 36
_REAPER: list[bool] = []  # [whether it worked], once per process
_REAPER_LOCK = threading.Lock()
_LIVE: weakref.WeakSet[_Pipes] = weakref.WeakSet()
_STARTING = threading.RLock()
"""Held while a process is started until it is known (in ``_LIVE``), and by a sweep for the
orphans an implementation left: a process another thread is starting is not known yet and,
before its exec, carries no marker, so a sweep would take it for an orphan and kill it (two
jobs, one of them restarting its crashed implementation while the other ends its own)."""
_IMPLEMENTATIONS: weakref.WeakSet[ProcessImplementation] = weakref.WeakSet()
_TOKENS: set[str] = set()  # every marker this process gave out


def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux): a descendant whose parent exits is
    re-parented to it rather than to init, so the harness can still find and end it.
    Done once per process; False where the system has no such thing."""
    with _REAPER_LOCK:
        if not _REAPER:
            ok = False
            if sys.platform.startswith("linux"):
                try:
                    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
                    ok = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
                except (OSError, AttributeError):
                    ok = False
            _REAPER.append(ok)
        return _REAPER[0]


def _processes() -> dict[int, tuple[int, int]]:
    """Every process as pid → (parent pid, session id), from /proc (Linux; elsewhere none)."""
    table = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            table[int(entry)] = (int(fields[1]), int(fields[3]))
        except (OSError, IndexError, ValueError):
            continue
    return table


def _descendants(roots: set[int], table: Mapping[int, tuple[int, int]]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    stack = list(roots)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def _marker(pid: int) -> str | None:
    """The run marker in a process's environment, or None (none, or not readable)."""
    prefix = f"{MARKER}=".encode()
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            environ = handle.read()
    except OSError:
        return None
    for item in environ.split(b"\0"):
        if item.startswith(prefix):
            return item[len(prefix) :].decode("ascii", "replace")
    return None


def _orphans(table: Mapping[int, tuple[int, int]], token: str | None) -> set[int]:
    """Processes re-parented to this (subreaper) process that an implementation left: our
    children that we did not start ourselves and that left our session. One that carries
    the marker of another implementation still running is that one's to end; with
    ``token`` None (the end of everything) none is spared."""
    me = os.getpid()
    mine = {p.proc.pid for p in list(_LIVE)}
    session = os.getsid(0)
    live = {p.token for p in list(_LIVE) if not p.closed}
    out = set()
    for pid, (parent, sid) in table.items():
        if parent != me or pid in mine or sid == session:
            continue
        marker = _marker(pid)
        if token is not None and marker is not None and marker != token and marker in live:
            continue
        out.add(pid)
    return out


def _end(pids: set[int], table: Mapping[int, tuple[int, int]]) -> None:
    """SIGKILL each, and reap those that are this process's children (orphans that came
    to it as subreaper), so that none is left as a zombie."""
    me = os.getpid()
    for pid in pids:
        if pid != me:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    for pid in pids:
        if table.get(pid, (0, 0))[0] == me:
            for _ in range(50):
                try:
                    done, _ = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    break
                if done:
                    break
                time.sleep(0.01)


def end_all() -> int:
    """End every process the implementations of this process started and left: stop every
    implementation still running, then kill every process carrying a marker this process
    gave out, every orphan re-parented to it, and their descendants. For a command to call
    once at its end (the harness ends each implementation itself when it is done with it).
    Returns how many processes were ended besides the implementations."""
    for implementation in list(_IMPLEMENTATIONS):
        implementation.stop()
    for pipes in list(_LIVE):
        pipes.close()
    ended: set[int] = set()
    for _ in range(3):
        table = _processes()
        targets = _orphans(table, None)
        targets |= {pid for pid in table if _TOKENS and _marker(pid) in _TOKENS}
        targets |= _descendants(targets, table)
        targets.discard(os.getpid())
        targets -= ended
        if not targets:
            break
        _end(targets, table)
        ended |= targets
    return len(ended)


@contextlib.contextmanager
def ending_all() -> Iterator[None]:
    """``with ending_all(): ...``: :func:`end_all` when the block is left, however."""
    try:
        yield
    finally:
        end_all()


class _Pipes:
    """One running process and its three non-blocking pipes."""

    def __init__(self, argv: Sequence[str], cwd: str | None, max_line: int) -> None:
        become_subreaper()
        self.closed = False
        self.token = secrets.token_hex(8)
        _TOKENS.add(self.token)
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        env[MARKER] = self.token
        with _STARTING:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
            assert self.proc.stdin and self.proc.stdout and self.proc.stderr
            self.fd_in = self.proc.stdin.fileno()
            self.fd_out = self.proc.stdout.fileno()
            self.fd_err = self.proc.stderr.fileno()
            for fd in (self.fd_in, self.fd_out, self.fd_err):
                os.set_blocking(fd, False)
            self.max_line = max_line
            self.out = bytearray()
            self.out_eof = False
            self.err = bytearray()
            self.err_dropped = 0
            self.err_eof = False
            # Reading waits on stdout and stderr; writing waits on stdin and stderr only, so
            # that an implementation writing while it does not read cannot grow our buffers.
            self.reading = selectors.DefaultSelector()
            self.reading.register(self.fd_out, selectors.EVENT_READ)
            self.reading.register(self.fd_err, selectors.EVENT_READ)
            self.writing = selectors.DefaultSelector()
            self.writing.register(self.fd_in, selectors.EVENT_WRITE)
            self.writing.register(self.fd_err, selectors.EVENT_READ)
            self.exited_at: float | None = None
            _LIVE.add(self)  # last: another thread's clean-up may use it from now on

    # ------------------------------------------------------------------ reading
    def _read(self, fd: int) -> None:
        try:
            data = os.read(fd, CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if fd == self.fd_out:
            if data:
                self.out += data
            else:
                self.out_eof = True
                self.reading.unregister(fd)
        elif data:
            self.err += data
            if len(self.err) > STDERR_TAIL:
                cut = len(self.err) - STDERR_TAIL
                del self.err[:cut]
                self.err_dropped += cut
        else:
            self.err_eof = True
            self.reading.unregister(fd)
            self.writing.unregister(fd)

    def _wait(self, deadline: float) -> bool:
        """Serve every ready pipe once; False when the deadline has passed."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        if not self.reading.get_map():
            time.sleep(min(remaining, EXIT_GRACE))
            return True
        for key, _ in self.reading.select(min(remaining, EXIT_GRACE)):
            self._read(key.fd)
        return True

    def orphaned_output(self) -> bool:
        """The process has exited, but its output is still open (a process it started
        holds the pipe): no answer can come, so waiting on would only run out the clock."""
        if self.proc.poll() is None:
            self.exited_at = None
            return False
        now = time.monotonic()
        if self.exited_at is None:
            self.exited_at = now
        return now - self.exited_at >= EXIT_GRACE

    def _take_line_ready(self) -> bool:
        return self.out.find(b"\n") >= 0 or self.out_eof

    def _take_line(self) -> bytes | None:
        end = self.out.find(b"\n")
        if end < 0:
            return None
        line = bytes(self.out[: end + 1])
        del self.out[: end + 1]
        return line

    def read_line(self, deadline: float) -> bytes:
        """The next whole line of stdout; raises BadLine, TimeoutError or EOFError."""
        while True:
            line = self._take_line()
            if line is not None:
                if len(line) > self.max_line:
                    raise BadLine(f"reply longer than {self.max_line} bytes (oversized)")
                return line
            if len(self.out) > self.max_line:
                raise BadLine(f"reply longer than {self.max_line} bytes (oversized)")
            if self.out_eof:
                if self.out:
                    raise BadLine(
                        "partial reply: the line has no end (the implementation stopped mid-line)"
                    )
                raise EOFError
            if not self._wait(deadline):
                raise TimeoutError
            if self.orphaned_output():
                self._wait(time.monotonic() + EXIT_GRACE)
                if self._take_line_ready():
                    continue
                raise EOFError

    def pending_line(self) -> bytes | None:
        """A whole line already written, without waiting (an answer nobody asked for)."""
        for key, _ in self.reading.select(0):
            self._read(key.fd)
        line = self._take_line()
        if line is not None and len(line) > self.max_line:
            return line[: self.max_line]
        return line

    # ------------------------------------------------------------------ writing
    def write(self, data: bytes, deadline: float) -> None:
        """Write all of ``data``; raises TimeoutError (it does not read) or BrokenPipeError."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd_in, view) :]
                continue
            except BlockingIOError:
                pass
            except OSError as exc:
                raise BrokenPipeError(str(exc)) from None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            for key, _ in self.writing.select(remaining):
                if key.fd == self.fd_err:
                    self._read(key.fd)

    # ------------------------------------------------------------------ ending
    def take_stderr(self) -> tuple[str, int]:
        """Everything written to stderr since the last call (a tail), and what was dropped."""
        for _ in range(STDERR_TAIL // CHUNK + 1):
            if self.err_eof or not self._stderr_ready():
                break
        text = self.err.decode("utf-8", "replace")
        dropped = self.err_dropped
        self.err = bytearray()
        self.err_dropped = 0
        return text, dropped

    def _stderr_ready(self) -> bool:
        before = len(self.err) + self.err_dropped
        self._read(self.fd_err)
        return len(self.err) + self.err_dropped > before

    def exit_code(self, wait: float) -> int | None:
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def signal_all(self) -> None:
        """Kill the process group, every descendant (also those that left the group and
        the session), every marked process and every orphan it left to this process (safe
        from any thread). Descendants are found before the kill: once the process is
        dead, its children are orphans, found as such."""
        ended: set[int] = set()
        with _STARTING:
            for _ in range(3):  # a process may fork while we look
                table = _processes()
                targets = _descendants({self.proc.pid}, table) | set(_marked_pids(self.token))
                targets |= _orphans(table, self.token)
                targets |= _descendants(targets, table)
                targets -= ended | {os.getpid(), self.proc.pid}
                with contextlib.suppress(OSError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                with contextlib.suppress(OSError):
                    self.proc.kill()
                if not targets:
                    break
                _end(targets, table)
                ended |= targets

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.signal_all()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.reading.close()
        self.writing.close()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()


class ProcessImplementation:
    """One long-running implementation process, restarted whenever it misbehaves."""

    def __init__(
        self,
        command: str,
        *,
        timeout: float = 10.0,
        start_timeout: float = 30.0,
        validate: bool = False,
        max_line: int = MAX_LINE,
        cwd: str | None = None,
    ) -> None:
        self.command = command
        self.argv = command_argv(command)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.validate = validate
        self.max_line = max_line
        self.cwd = cwd
        self.pipes: _Pipes | None = None
        self.seq = 0
        self.answered: int | None = None
        self.started: Started | None = None
        self.restarts = 0
        self.start_error: str | None = None
        self._result_validator = _validator("result") if validate else None
        self._started_validator = _validator("started")
        self.ask = PROTOCOL_VERSION  # the version a start asks for
        self._refused_version = False
        _IMPLEMENTATIONS.add(self)

    # ------------------------------------------------------------------ process
    def stop(self) -> None:
        """End the process and all it started, without asking; the next request starts
        it again."""
        self._kill()

    def _kill(self) -> None:
        pipes, self.pipes = self.pipes, None
        self.started = None
        self.answered = None
        if pipes is not None:
            pipes.close()

    def interrupt(self) -> None:
        """Kill the running process from another thread; the owner cleans up."""
        pipes = self.pipes
        if pipes is not None:
            pipes.signal_all()

    def _gone(self, what: str) -> str:
        """Why the process stopped talking: its exit code (if it exited) and stderr tail.

        An interruption on another thread may have ended the process meanwhile (its pipes
        are gone): then that is the reason, not an error of the harness."""
        pipes = self.pipes
        if pipes is None:
            return f"{what} (stopped by the harness)"
        code = pipes.exit_code(0.5)
        text = f"{what} (exit code {code})" if code is not None else what
        if not pipes.out_eof:
            text += ", but a process it started still holds its output open"
        stderr, _ = pipes.take_stderr()
        tail = [line for line in stderr.strip().splitlines() if line.strip()][-5:]
        if tail:
            text += "; stderr: " + " | ".join(tail)
        return text

    def _receive(self, deadline: float, waited: float, expected: Expected | None = None) -> Any:
        """One parsed line (``expected.answer`` for a copy of ``expected.line``); raises
        BadLine with the problem."""
        assert self.pipes is not None
        try:
            line = self.pipes.read_line(deadline)
        except TimeoutError:
            raise BadLine(f"no reply within {waited:g} s (timed out)") from None
        except EOFError:
            raise BadLine(self._gone("the implementation exited")) from None
        if expected is not None and line == expected.line:
            return expected.answer
        return parse_line(line)

    def _send(self, message: Mapping[str, Any], deadline: float) -> None:
        self._write((_ENCODER.encode(message) + "\n").encode(), deadline)

    def _write(self, data: bytes, deadline: float) -> None:
        assert self.pipes is not None
        try:
            self.pipes.write(data, deadline)
        except TimeoutError:
            raise BadLine(
                "the implementation does not read its input: the request could not be "
                "written (timed out)"
            ) from None
        except BrokenPipeError:
            raise BadLine(self._gone("the implementation closed its input")) from None

    # ------------------------------------------------------------------ protocol
    def start(self) -> Started | None:
        """Start the process and shake hands; None (with ``start_error``) if it fails.

        The harness asks for version 2; an implementation that refuses the start over the
        version (an adapter written for version 1 that accepts nothing else) is started
        again and asked for version 1, and every later start of it asks for that."""
        if self.started is not None and self.pipes is not None:
            return self.started
        started = self._start(self.ask)
        if started is None and self.ask != 1 and self._refused_version:
            started = self._start(1)
            if started is not None:
                self.ask = 1
        return started

    def _start(self, version: int) -> Started | None:
        self._kill()
        self._refused_version = False
        try:
            self.pipes = _Pipes(self.argv, self.cwd, self.max_line)
        except (OSError, ValueError) as exc:
            self.start_error = f"cannot start {self.command!r}: {exc}"
            return None
        deadline = time.monotonic() + self.start_timeout
        try:
            self._send({"cmd": "start", "version": version}, deadline)
            reply = self._receive(deadline, self.start_timeout)
            self._refused_version = (
                isinstance(reply, dict)
                and reply.get("ok") is False
                and "version" in str(reply.get("message", "")).lower()
            )
            self.started = self._check_started(reply)
        except BadLine as exc:
            self.start_error = str(exc)
            self._kill()
            return None
        self.start_error = None
        return self.started

    def _check_started(self, reply: Any) -> Started:
        if not isinstance(reply, dict) or reply.get("ok") is not True:
            message = reply.get("message") if isinstance(reply, dict) else None
            shown = message if isinstance(message, str) else json.dumps(reply)[:200]
            raise BadLine(f"the implementation refused to start: {shown}")
        version = reply.get("version")
        if type(version) is not int or version not in VERSIONS:
            raise BadLine(
                f"protocol version {json.dumps(version)[:40]}, the harness speaks "
                f"{PROTOCOL_VERSION} (and accepts {', '.join(map(str, VERSIONS))})"
            )
        declared = reply.get("not_reported", [])
        if not isinstance(declared, list):
            raise BadLine("not_reported in the start answer must be a list of field names")
        unknown = unknown_fields(declared)
        if unknown:
            raise BadLine(
                f"not_reported names fields the protocol does not have: {unknown} "
                "(PROTOCOL.md lists them)"
            )
        errors = sorted(self._started_validator.iter_errors(reply), key=lambda e: list(e.path))
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path)
            raise BadLine(
                f"protocol violation in the start answer at /{where}: {errors[0].message}"
            )
        implementation = reply["implementation"]
        return Started(
            name=str(implementation["name"]),
            version=str(implementation.get("version", "")),
            rulesets=tuple(reply.get("rulesets", ())),
            any_ruleset=bool(reply.get("any_ruleset", False)),
            not_reported=frozenset(reply.get("not_reported", ())),
            fixed_rules=reply.get("fixed_rules") is True,
            raw=reply,
            protocol=version,
        )

    def _stray(self) -> str | None:
        """A line written after the last answer and before the next request."""
        assert self.pipes is not None
        line = self.pipes.pending_line()
        if line is None:
            return None
        return self._blame(line)

    def _blame(self, line: bytes) -> str:
        try:
            value = parse_line(line)
        except BadLine as exc:
            return f"it wrote another line after its answer to request {self.answered}: {exc}"
        seq = value.get("seq") if isinstance(value, dict) else None
        if seq == self.answered:
            return f"answered request {self.answered} more than once"
        return f"it wrote another line after its answer to request {self.answered}"

    def run(self, case: Mapping[str, Any]) -> Reply:
        """Send one case and return its answer; problems become ``errored`` answers."""
        return self.receive(self.submit(case))

    def submit(self, case: Mapping[str, Any], *, text: str | None = None) -> Pending:
        """Send one case without waiting for its answer, which :meth:`receive` reads: the
        caller may work meanwhile (the fuzzer makes its next case while this one is
        played). Exactly one receive follows each submit, before the next request.

        ``text`` is ``case`` already written as compact JSON, for a caller that can
        write most of it once for many cases (the fuzzer: the ruleset's parameters);
        the request sent is the same, byte for byte."""
        if self.start() is None:
            message = self.start_error or "cannot start"
            failed = Reply({"status": "errored", "message": message}, start_failed=True)
            return Pending(0, 0.0, None, failed)
        assert self.pipes is not None
        self.seq += 1
        seq = self.seq
        earlier = self._stray() if self.answered is not None else None
        deadline = time.monotonic() + self.timeout
        try:
            if text is None:
                self._send({"cmd": "run", "seq": seq, "case": case}, deadline)
            else:
                self._write(f'{{"cmd":"run","seq":{seq},"case":{text}}}\n'.encode(), deadline)
        except BadLine as exc:
            return Pending(seq, deadline, earlier, problem=str(exc))
        return Pending(seq, deadline, earlier)

    def receive(self, pending: Pending, expected: Expected | None = None) -> Reply:
        """The answer to the request :meth:`submit` sent (``pending``); ``expected``: the
        answer the caller foresees for it (see :class:`Expected`)."""
        if pending.reply is not None:
            return pending.reply
        assert self.pipes is not None
        seq, deadline, earlier, problem = pending.seq, pending.deadline, pending.earlier, None
        reply: Any = None
        try:
            if pending.problem is not None:
                raise BadLine(pending.problem)
            while True:
                reply = self._receive(deadline, self.timeout, expected)
                duplicate = (
                    self.answered is not None
                    and isinstance(reply, dict)
                    and reply.get("seq") == self.answered
                )
                if not duplicate:
                    break
                earlier = earlier or f"answered request {self.answered} more than once"
            self._check_result(reply, seq)
        except BadLine as exc:
            problem = str(exc)
        stderr, dropped = self.pipes.take_stderr()
        if problem is not None:
            self.restarts += 1
            self._kill()
            return Reply({"status": "errored", "message": problem}, stderr, dropped, earlier)
        self.answered = seq
        return Reply(reply, stderr, dropped, earlier)

    def _check_result(self, reply: Any, seq: int) -> None:
        if not isinstance(reply, dict):
            raise BadLine(f"reply is not a JSON object: {json.dumps(reply)[:80]}")
        if reply.get("seq") != seq:
            raise BadLine(
                f"out of sequence: answer to request {json.dumps(reply.get('seq'))[:40]}, "
                f"expected {seq}"
            )
        if reply.get("status") not in ("ok", "skipped", "errored"):
            raise BadLine(f"unknown status {json.dumps(reply.get('status'))[:40]}")
        if self._result_validator is not None:
            errors = sorted(self._result_validator.iter_errors(reply), key=lambda e: list(e.path))
            if errors:
                where = "/".join(str(p) for p in errors[0].absolute_path)
                raise BadLine(f"protocol violation at /{where}: {errors[0].message}")

    def close(self) -> str | None:
        """Ask the process to stop, then end its group. Returns a problem of the last
        answered request found while stopping (it answered twice), if any."""
        pipes = self.pipes
        late = None
        if pipes is not None and self.started is not None:
            deadline = time.monotonic() + min(self.timeout, 2.0)
            try:
                self._send({"cmd": "stop"}, deadline)
                while True:  # until it exits: its stderr, or an answer it gave twice
                    line = pipes.read_line(deadline)
                    if self.answered is not None:
                        late = late or self._blame(line)
            except (BadLine, TimeoutError, EOFError):
                pass
        self._kill()
        return late
