"""``schwimmen serve``: the reference engine speaking the conformance protocol.

One JSON object per line on stdin, one answer per line on stdout (PROTOCOL.md). The
server is the same reference the harness runs in-process; it exists so that the suite
is proven to work over the protocol exactly as it will for a foreign implementation,
and as a worked example for adapter authors.

Whatever arrives, the server answers and goes on serving; only ``stop`` and the end of
its input end it. A request is read as bytes, at most :data:`MAX_LINE` of them: a longer
line is skipped to its end without being kept, so no line can fill the memory. Its JSON
is read strictly (no ``NaN`` or ``Infinity``, no number of more than :data:`MAX_DIGITS`
digits, no nesting deeper than :data:`MAX_DEPTH`), and every answer is strict JSON too.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any

from schwimmen import __version__, resident
from schwimmen.protocol.nesting import nests_at_most
from schwimmen.protocol.rulesettext import RulesetTexts

PROTOCOL_VERSION = 2
"""The newest version the server speaks; it answers a start with the version asked for
when it is one of :data:`VERSIONS`."""
VERSIONS = (1, 2)

MAX_LINE = 4 * 1024 * 1024
"""The longest request line read, in bytes: the harness reads answers up to the same
size, and the longest case of the suite is a few kilobytes."""
MAX_DEPTH = 64
"""The deepest nesting of arrays and objects in a request; a case nests six deep."""
MAX_DIGITS = 100
"""The most digits of a number in a request. Python reads at most 4,300 and slows down
well before; the largest number a case holds is a seed."""
MAX_SEQ = 2**53
"""``seq`` is below this: beyond it, a number is no longer exact in every JSON reader."""
_SKIP = 64 * 1024  # how much of an over-long line is read at a time while skipping it
SETTLED = 2
"""After this many answers (the start, and a first case, which reads its ruleset) what the
process keeps to its end is built: it is frozen out of the collector's way
(:mod:`schwimmen.resident`)."""

RunCase = Callable[[Mapping[str, Any]], Mapping[str, Any]]


class BadRequest(ValueError):
    """A line that is no request the server can read; the message says why."""


def started(
    name: str,
    version: str,
    rulesets: list[str],
    any_ruleset: bool,
    fixed_rules: bool = False,
    protocol: int = PROTOCOL_VERSION,
) -> dict[str, Any]:
    """The start answer; ``fixed_rules`` claims no ruleset at all (PROTOCOL.md, start)."""
    answer: dict[str, Any] = {
        "ok": True,
        "version": protocol,
        "implementation": {"name": name, "version": version, "language": "python"},
        "rulesets": [] if fixed_rules else rulesets,
        "any_ruleset": any_ruleset and not fixed_rules,
    }
    if fixed_rules:
        answer["fixed_rules"] = True
    return answer


def errored(seq: int | None, message: str) -> dict[str, Any]:
    """An errored answer; ``seq`` is None when the request's own could not be read."""
    if len(message) > 1000:
        message = message[:999] + "…"
    return {"seq": seq, "status": "errored", "message": message}


def _show(value: Any) -> str:
    shown = json.dumps(value) if isinstance(value, str | int | float | bool | None) else None
    if shown is None:
        shown = "an object" if isinstance(value, dict) else "a list"
    return shown if len(shown) <= 40 else shown[:39] + "…"


def _seq(message: Mapping[str, Any]) -> tuple[int | None, str | None]:
    """The request's ``seq``, or None and the reason it cannot be echoed."""
    seq = message.get("seq")
    if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq < MAX_SEQ:
        return seq, None
    if seq is None:
        return None, "the request has no seq"
    return None, f"seq must be a whole number from 0 to 2**53 - 1, not {_show(seq)}"


def handle(
    message: Any, run_case: RunCase, name: str = "schwimmen-reference", fixed_rules: bool = False
) -> dict[str, Any] | None:
    """The answer to one message (None for ``stop``)."""
    if not isinstance(message, dict):
        return errored(None, f"a request is a JSON object with a 'cmd', not {_show(message)}")
    cmd = message.get("cmd")
    if cmd == "stop":
        return None
    if cmd == "start":
        version = message.get("version")
        if type(version) is not int or version not in VERSIONS:
            known = " and ".join(map(str, VERSIONS))
            return {"ok": False, "message": f"protocol versions {known} only"}
        from schwimmen.spec.cache import cached_catalog  # checked once per content

        names = cached_catalog().standard_names()
        return started(name, __version__, names, True, fixed_rules, version)
    seq, problem = _seq(message)
    if cmd != "run":
        if cmd is None:
            return errored(seq, "the request has no 'cmd' (start, run or stop)")
        return errored(seq, f"unknown cmd {_show(cmd)}; the commands are start, run and stop")
    if problem is not None:
        return errored(None, problem)
    if "case" not in message:
        return errored(seq, "a run request needs a case")
    try:
        result = run_case(message["case"])
        return {"seq": seq, **{k: v for k, v in result.items() if k != "seq"}}
    except Exception as exc:  # the reference must answer, whatever the request
        return errored(seq, f"the reference failed on this case: {type(exc).__name__}: {exc}")


def _no_constant(name: str) -> Any:
    raise BadRequest(f"{name} is not a JSON number")


def _float(digits: str) -> float:
    if len(digits) > MAX_DIGITS:
        raise BadRequest(f"a number of {len(digits)} characters; at most {MAX_DIGITS} are read")
    value = float(digits)
    if not math.isfinite(value):
        raise BadRequest(f"the number {digits} is too large for a double")
    return value


def _int(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise BadRequest(f"a number of {len(digits)} digits; at most {MAX_DIGITS} are read")
    return int(digits)


def _too_deep(value: Any, text: str | None = None) -> bool:
    """True when arrays and objects nest deeper than :data:`MAX_DEPTH` (``text``: the
    JSON ``value`` was read from, which answers most requests without a walk)."""
    return not nests_at_most(value, MAX_DEPTH, text)


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_float, parse_int=_int)
"""``json.loads`` with these hooks, made once (``loads`` makes a decoder per call when
given hooks)."""
_RULESETS = RulesetTexts(_DECODER)
"""A run's requests mostly name one ruleset: its text is read once."""


def parse(line: str) -> Any:
    """A request line as JSON data, read strictly; :class:`BadRequest` says what is wrong."""
    try:
        if line.startswith("\ufeff"):  # refused as json.loads refuses it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", line, 0)
        message = _RULESETS.read(line)
    except RecursionError:
        raise BadRequest(f"the request nests deeper than {MAX_DEPTH} levels") from None
    except BadRequest:
        raise
    except ValueError as exc:
        raise BadRequest(f"not JSON: {exc}") from None
    if isinstance(message, dict | list) and _too_deep(message, line):
        raise BadRequest(f"the request nests deeper than {MAX_DEPTH} levels")
    return message


def lines(stream: IO[bytes] | IO[str]) -> Iterator[str | BadRequest]:
    """The request lines of ``stream``, each decoded, or a :class:`BadRequest` in place of
    a line that is too long or not UTF-8. An over-long line is read to its end in small
    pieces that are dropped at once, so it costs no memory."""
    while True:
        chunk = stream.readline(MAX_LINE + 1)
        if not chunk:
            return
        raw = chunk if isinstance(chunk, bytes) else chunk.encode("utf-8", "surrogatepass")
        ended = raw.endswith(b"\n")
        if not ended and len(chunk) > MAX_LINE:
            while chunk and not ended:
                chunk = stream.readline(_SKIP)
                ended = chunk[-1:] in (b"\n", "\n")
        if len(raw.rstrip(b"\r\n")) > MAX_LINE:
            yield BadRequest(f"request longer than {MAX_LINE // 2**20} MiB; it was skipped")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield BadRequest(f"the request is not UTF-8 (byte {exc.start})")


def answer(
    line: str | BadRequest,
    run_case: RunCase,
    name: str = "schwimmen-reference",
    fixed_rules: bool = False,
) -> dict[str, Any] | None:
    """The answer to one line: an errored one for any line that is no good request."""
    if isinstance(line, BadRequest):
        return errored(None, str(line))
    try:
        return handle(parse(line), run_case, name, fixed_rules)
    except BadRequest as exc:
        return errored(None, str(exc))
    except Exception as exc:  # never stop serving over a request
        return errored(None, f"the request could not be read: {type(exc).__name__}: {exc}")


_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False)
"""``json.dumps`` with these options, made once (``dumps`` makes an encoder per call). An
answer is a tree the reference made, so the encoder keeps no record of the containers it
is inside (a fifth of its work): one that held itself would fail as too deep, and
:func:`dump` answers that as any other answer it cannot write."""


def dump(message: Mapping[str, Any]) -> str:
    """One answer line, strict JSON; an answer that cannot be written is errored instead."""
    try:
        return _ENCODER.encode(message)
    except (TypeError, ValueError, RecursionError) as exc:
        seq = message.get("seq")
        seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
        reply = errored(seq, f"the answer could not be written as JSON: {exc}")
        return json.dumps(reply, separators=(",", ":"))


def playing(
    parameters: Mapping[str, Any], run_case: RunCase, ruleset_id: str = "played"
) -> RunCase:
    """``run_case``, playing by ``parameters`` whatever ruleset a case names.

    ``serve --play RULESET`` is a conforming engine with different rules that still
    claims the case's ruleset: the test double of an engine that plays something other
    than it says (the fingerprint and the fuzzer are tried against it), and a way to
    see in a report what one rule changes. A case sent to a fixed-rules engine names no
    ruleset; it is played as ``ruleset_id``."""

    def run(case: Any) -> Mapping[str, Any]:
        if isinstance(case, Mapping) and isinstance(case.get("ruleset"), Mapping):
            case = {**case, "ruleset": {**case["ruleset"], "parameters": parameters}}
        elif isinstance(case, Mapping) and "ruleset" not in case:
            case = {**case, "ruleset": {"id": ruleset_id, "parameters": parameters}}
        return run_case(case)

    return run


def serve(
    stdin: IO[bytes] | IO[str],
    stdout: IO[str],
    run_case: RunCase | None = None,
    name: str = "schwimmen-reference",
    fixed_rules: bool = False,
) -> int:
    """Answer the requests on ``stdin`` until ``stop`` or its end."""
    if run_case is None:
        from schwimmen.engine.adapter import run_case as reference

        run_case = reference
    answered = 0
    kept: resident.Kept | None = None
    try:
        for line in lines(stdin):
            if isinstance(line, str) and not line.strip():
                continue
            reply = answer(line, run_case, name, fixed_rules)
            if reply is None:
                return 0
            text = dump(reply)
            if len(text) > MAX_LINE:
                seq = reply.get("seq")
                big = f"the answer would be {len(text) // 2**20} MiB; a line holds at most 4 MiB"
                text = dump(errored(seq if isinstance(seq, int) else None, big))
            stdout.write(text + "\n")
            stdout.flush()
            answered += 1
            if answered == SETTLED:
                kept = resident.keep()
    finally:
        resident.release(kept)
    return 0


def main(
    play: Mapping[str, Any] | None = None,
    name: str = "schwimmen-reference",
    ruleset_id: str = "played",
    fixed_rules: bool = False,
) -> int:
    """Serve on stdin/stdout; with ``play``, by those parameters whatever the case says, and
    with ``fixed_rules`` saying so in the start answer instead of claiming every ruleset."""
    if play is None:
        return serve(sys.stdin.buffer, sys.stdout, name=name)
    from schwimmen.engine.adapter import run_case

    played = playing(play, run_case, ruleset_id)
    return serve(sys.stdin.buffer, sys.stdout, played, name, fixed_rules)
