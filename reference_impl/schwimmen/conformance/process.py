"""An implementation under test, run as a separate process that speaks the protocol.

The harness must survive whatever the other side does. Every request gets exactly one
answer from this class, never an exception:

* no answer within the timeout: the process is killed and restarted, the case errored;
* the process exits: its exit code and the tail of its stderr are reported, it is
  restarted for the next case;
* a reply that is not JSON, not one line, too long, not an object, or answers another
  request (out of sequence): errored, and the process is restarted to get back in step;
* with ``validate``: every reply is checked against ``schemas/protocol.schema.json``
  and a violation is errored (for adapter authors);
* anything the process writes to stderr is kept and attached to the case it belongs to.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from jsonschema import Draft202012Validator

from schwimmen.spec.validation import load_schema

PROTOCOL_VERSION = 1
MAX_LINE = 4 * 1024 * 1024
_EOF = object()


@dataclass
class Started:
    name: str
    version: str
    rulesets: tuple[str, ...]
    any_ruleset: bool
    raw: Mapping[str, Any] = field(default_factory=dict)


def _validator(name: str) -> Draft202012Validator:
    schema = dict(load_schema("protocol.schema.json"))
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})


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
        self.argv = shlex.split(command)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.validate = validate
        self.max_line = max_line
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[object] = queue.Queue()
        self.stderr: list[str] = []
        self.stderr_lock = threading.Lock()
        self.seq = 0
        self.started: Started | None = None
        self.restarts = 0
        self.start_error: str | None = None
        self._result_validator = _validator("result") if validate else None
        self._started_validator = _validator("started") if validate else None

    # ------------------------------------------------------------------ process
    def _spawn(self) -> None:
        self.lines = queue.Queue()
        env = dict(os.environ)
        env.setdefault("PYTHONUNBUFFERED", "1")
        self.proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.cwd,
            env=env,
        )
        assert self.proc.stdout is not None and self.proc.stderr is not None
        threading.Thread(
            target=self._read_out, args=(self.proc.stdout, self.lines), daemon=True
        ).start()
        threading.Thread(target=self._read_err, args=(self.proc.stderr,), daemon=True).start()

    def _read_out(self, stream: IO[bytes], lines: queue.Queue[object]) -> None:
        while True:
            try:
                line = stream.readline(self.max_line + 1)
            except (OSError, ValueError):
                break
            if not line:
                break
            lines.put(line)
            if len(line) > self.max_line and not line.endswith(b"\n"):
                # Oversized: skip the rest of this line so the next read is in step.
                while True:
                    more = stream.readline(self.max_line + 1)
                    if not more or more.endswith(b"\n"):
                        break
        lines.put(_EOF)

    def _read_err(self, stream: IO[bytes]) -> None:
        while True:
            try:
                raw = stream.readline(self.max_line)
            except (OSError, ValueError):
                return
            if not raw:
                return
            with self.stderr_lock:
                self.stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def _take_stderr(self) -> str:
        with self.stderr_lock:
            text = "\n".join(self.stderr)
            self.stderr.clear()
        return text

    def _kill(self) -> None:
        proc, self.proc = self.proc, None
        self.started = None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def _send(self, message: Mapping[str, Any]) -> str | None:
        """Write one line; returns a problem description or None."""
        assert self.proc is not None and self.proc.stdin is not None
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return self._exit_text("the implementation closed its input")
        return None

    def _exit_text(self, what: str) -> str:
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        time.sleep(0.05)
        tail = self._take_stderr().strip().splitlines()[-5:]
        text = f"{what} (exit code {code})" if code is not None else what
        if tail:
            text += "; stderr: " + " | ".join(tail)
        return text

    def _receive(self, timeout: float) -> tuple[Any, str | None]:
        """One reply: (parsed JSON, None) or (None, problem)."""
        try:
            item = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None, f"no reply within {timeout:g} s (timed out)"
        if item is _EOF:
            return None, self._exit_text("the implementation exited")
        assert isinstance(item, bytes)
        if len(item) > self.max_line and not item.endswith(b"\n"):
            return None, f"reply longer than {self.max_line} bytes (oversized)"
        if not item.endswith(b"\n"):
            return None, "partial reply: the line has no end (the implementation stopped mid-line)"
        text = item.decode("utf-8", "replace").strip()
        try:
            return json.loads(text), None
        except json.JSONDecodeError:
            shown = text if len(text) <= 120 else text[:117] + "..."
            return None, f"reply is not JSON (garbage): {shown!r}"

    # ------------------------------------------------------------------ protocol
    def start(self) -> Started | None:
        """Start the process and shake hands; None (with ``start_error``) if it fails."""
        if self.started is not None and self.proc is not None and self.proc.poll() is None:
            return self.started
        self._kill()
        try:
            self._spawn()
        except OSError as exc:
            self.start_error = f"cannot start {self.command!r}: {exc}"
            return None
        problem = self._send({"cmd": "start", "version": PROTOCOL_VERSION})
        reply, problem = (None, problem) if problem else self._receive(self.start_timeout)
        if problem is None:
            problem = self._check_started(reply)
        if problem is not None or not isinstance(reply, dict):
            self.start_error = f"start failed: {problem}"
            self._kill()
            return None
        self.start_error = None
        self.started = Started(
            name=str(reply["implementation"]["name"]),
            version=str(reply["implementation"].get("version", "")),
            rulesets=tuple(reply.get("rulesets", ())),
            any_ruleset=bool(reply.get("any_ruleset", False)),
            raw=reply,
        )
        return self.started

    def _check_started(self, reply: Any) -> str | None:
        if not isinstance(reply, dict) or reply.get("ok") is not True:
            message = reply.get("message") if isinstance(reply, dict) else None
            return f"the implementation refused to start: {message or reply!r}"
        assert isinstance(reply, dict)
        if reply.get("version") != PROTOCOL_VERSION:
            return (
                f"protocol version {reply.get('version')!r}, the harness speaks {PROTOCOL_VERSION}"
            )
        if (
            not isinstance(reply.get("implementation"), dict)
            or "name" not in reply["implementation"]
        ):
            return "the start reply does not name the implementation"
        if self._started_validator is not None:
            errors = list(self._started_validator.iter_errors(reply))
            if errors:
                return f"protocol violation in the start reply: {errors[0].message}"
        return None

    def run(self, case: Mapping[str, Any]) -> dict[str, Any]:
        """Send one case and return its answer; problems become ``errored`` answers."""
        if self.start() is None:
            return {"status": "errored", "message": self.start_error or "cannot start"}
        self.seq += 1
        seq = self.seq
        problem = self._send({"cmd": "run", "seq": seq, "case": case})
        reply: Any = None
        if problem is None:
            reply, problem = self._receive(self.timeout)
        if problem is None:
            problem = self._check_result(reply, seq)
        stderr = self._take_stderr()
        if problem is not None:
            self.restarts += 1
            self._kill()
            answer: dict[str, Any] = {"status": "errored", "message": problem}
        else:
            answer = dict(reply)
        if stderr:
            answer["stderr"] = stderr
        return answer

    def _check_result(self, reply: Any, seq: int) -> str | None:
        if not isinstance(reply, dict):
            return f"reply is not a JSON object: {json.dumps(reply)[:80]}"
        if reply.get("seq") != seq:
            return f"out of sequence: answer to request {reply.get('seq')!r}, expected {seq}"
        if reply.get("status") not in ("ok", "skipped", "errored"):
            return f"unknown status {reply.get('status')!r}"
        if self._result_validator is not None:
            errors = sorted(self._result_validator.iter_errors(reply), key=lambda e: list(e.path))
            if errors:
                where = "/".join(str(p) for p in errors[0].absolute_path)
                return f"protocol violation at /{where}: {errors[0].message}"
        return None

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self._send({"cmd": "stop"})
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=2)
        self._kill()
