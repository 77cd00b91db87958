"""``schwimmen serve``: the reference engine speaking the conformance protocol.

One JSON object per line on stdin, one answer per line on stdout (PROTOCOL.md). The
server is the same reference the harness runs in-process; it exists so that the suite
is proven to work over the protocol exactly as it will for a foreign implementation,
and as a worked example for adapter authors.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import IO, Any

from schwimmen import __version__

PROTOCOL_VERSION = 1

RunCase = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def started(name: str, version: str, rulesets: list[str], any_ruleset: bool) -> dict[str, Any]:
    return {
        "ok": True,
        "version": PROTOCOL_VERSION,
        "implementation": {"name": name, "version": version, "language": "python"},
        "rulesets": rulesets,
        "any_ruleset": any_ruleset,
    }


def handle(message: Any, run_case: RunCase) -> dict[str, Any] | None:
    """The answer to one message (None for ``stop``)."""
    if not isinstance(message, dict) or "cmd" not in message:
        return {"seq": -1, "status": "errored", "message": "a request is an object with 'cmd'"}
    cmd = message["cmd"]
    if cmd == "start":
        if message.get("version") != PROTOCOL_VERSION:
            return {"ok": False, "message": f"protocol version {PROTOCOL_VERSION} only"}
        from schwimmen.spec.loader import Catalog

        catalog = Catalog.load()
        return started("schwimmen-reference", __version__, catalog.names(), True)
    if cmd == "run":
        seq = message.get("seq", -1)
        try:
            answer = dict(run_case(message["case"]))
        except Exception as exc:  # the reference must answer, whatever the request
            answer = {"status": "errored", "message": f"{type(exc).__name__}: {exc}"}
        answer["seq"] = seq
        return answer
    if cmd == "stop":
        return None
    return {"seq": message.get("seq", -1), "status": "errored", "message": f"unknown cmd {cmd!r}"}


def serve(stdin: IO[str], stdout: IO[str], run_case: RunCase | None = None) -> int:
    if run_case is None:
        from schwimmen.engine.adapter import run_case as reference

        run_case = reference
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as exc:
            answer: dict[str, Any] | None = {
                "seq": -1,
                "status": "errored",
                "message": f"not JSON: {exc}",
            }
        else:
            answer = handle(message, run_case)
        if answer is None:
            return 0
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


def main() -> int:
    return serve(sys.stdin, sys.stdout)
