"""A deliberately misbehaving implementation of the conformance protocol, for the
harness's own tests. It answers like the reference, except as MODE says:

crash:N        exit with code 3 on the Nth run request (counting from 1)
hang           never answer a run request
slow:S         sleep S seconds before every answer
garbage        answer every run request with a line that is not JSON
partial        write half a line, then exit
oversized      answer with one line of 5 MB
sequence       answer with the wrong sequence number
wrong          answer with a wrong outcome (nobody ever loses a life; steps all accepted)
stderr         write to stderr before each answer, then answer correctly
refuse         refuse to start
skip           answer every case with "skipped"
invalid        answer "ok" without an outcome
fork           fork a child that holds stdout open (and sleeps), then exit
daemon         like fork, but the child leaves the process group (setsid) first
daemon-slow    start such a child, and never answer
deaf           answer the first request, then stop reading stdin and write forever
deep           answer with a reply nested 100,000 levels deep
digits         answer with a 5,000-digit number as the outcome's pack and losses
type:F=JSON    answer with the outcome field F set to JSON (wrong types: steps=5, legal=[[1]])
nan            answer with NaN and Infinity in the outcome
flood          write 8 MB to stderr, then answer ok with an empty outcome
twice          answer every request twice
omit:F,G       answer ok without the outcome fields F, G (everywhere: states, rounds)
declare:F,G    like omit, and declare F, G as not reported in the start answer
cannot-start   exit at once with a message on stderr (a broken installation)
pagat-only     claim only the ruleset pagat
random:SEED    answer each run request at random: right, wrong, an empty outcome or errored
hang-every:N   never answer every Nth run request (counting from 1), answer the others
nothing        declare every field not reported and answer ok with an empty outcome
never-start    read the start request and never answer it
leak-setsid    on every run request start a grandchild that leaves the process group and
               session (setsid) and sleeps, then answer correctly
leak-clean-env like leak-setsid, but the grandchild becomes `sleep` with an empty
               environment (no marker to find it by)
v1-only        refuse a start of any version but 1 (an adapter written for version 1)
fixed          say fixed_rules in the start answer (also with FAKE_FIXED=1 and any mode);
               in every mode a case without a ruleset is played as pagat

With FAKE_PIDS set, every process of the fake appends its pid to that file, so a test can
check that nothing is left running; with FAKE_LOG set, every run request's case is
appended to that file as one JSON line. The start is answered with the version asked for,
or with FAKE_VERSION.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from typing import Any

from schwimmen.engine.adapter import run_case


def _record_pid() -> None:
    path = os.environ.get("FAKE_PIDS")
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _strip(value: Any, fields: set[str]) -> Any:
    """``value`` without the named fields (and without ``values.suit`` style parts)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in fields:
                continue
            out[key] = _strip(item, fields)
        return out
    if isinstance(value, list):
        return [_strip(v, fields) for v in value]
    return value


def _fork_and_exit(leave_group: bool) -> int:
    """A child that keeps our stdout open and lives on; we exit at once."""
    if os.fork() == 0:
        if leave_group:
            os.setsid()
            if os.fork() != 0:
                os._exit(0)
        _record_pid()
        time.sleep(600)
        os._exit(0)
    return 0


@functools.cache
def _pagat() -> dict[str, Any]:
    from schwimmen.spec.loader import Catalog

    return Catalog.load().resolve("pagat").values()


def _random_mode(seed: str, seq: int) -> str:
    """The behaviour of one request under ``random:SEED``: the same for a seed and seq."""
    import random

    return random.Random(f"{seed}:{seq}").choice(["", "wrong", "empty", "errored"])


def _answer(mode: str, seq: int, case: dict[str, Any]) -> str:
    if mode.startswith("random:"):
        mode = _random_mode(mode.split(":", 1)[1], seq)
        if mode == "empty":
            return json.dumps({"seq": seq, "status": "ok", "outcome": {}})
        if mode == "errored":
            return json.dumps({"seq": seq, "status": "errored", "message": "dice said no"})
    if mode == "nothing":
        return json.dumps({"seq": seq, "status": "ok", "outcome": {}})
    if "ruleset" not in case:
        case = {**case, "ruleset": {"id": "pagat", "parameters": _pagat()}}
    answer = dict(run_case(case))
    answer["seq"] = seq + 1 if mode == "sequence" else seq
    outcome = answer.get("outcome")
    if mode == "flood":
        answer = {"seq": seq, "status": "ok", "outcome": {}}
    if mode == "wrong" and isinstance(outcome, dict):
        outcome["losses"] = {}
        for r in outcome.get("rounds", []):
            r["losses"] = {}
        outcome["steps"] = [{"accepted": True} for _ in outcome.get("steps", [])]
        outcome["values"] = {}
        outcome["accepted"] = not outcome.get("accepted")
    if mode.startswith(("omit:", "declare:")) and isinstance(outcome, dict):
        fields = set(mode.split(":", 1)[1].split(","))
        answer["outcome"] = _strip(outcome, fields)
    if mode == "skip":
        answer = {"seq": seq, "status": "skipped", "reason": "not implemented here"}
    if mode == "invalid":
        answer = {"seq": seq, "status": "ok"}
    if mode.startswith("type:"):
        key, _, value = mode.split(":", 1)[1].partition("=")
        broken = {**(outcome or {}), key: json.loads(value)}
        answer = {"seq": seq, "status": "ok", "outcome": broken}
    text = json.dumps(answer)
    if mode == "nan":
        text = text[:-1] + ', "extra": [NaN, Infinity, -Infinity]}'
    if mode == "digits":
        number = "9" * 5000
        outcome_text = f'{{"pack": {number}, "losses": {{"P1": {number}}}}}'
        text = f'{{"seq": {seq}, "status": "ok", "outcome": {outcome_text}}}'
    return text


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    _record_pid()
    if mode == "cannot-start":
        sys.stderr.write("ModuleNotFoundError: No module named 'my_engine'\n")
        return 1
    runs = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            if mode == "refuse":
                _say(json.dumps({"ok": False, "message": "not today"}))
                continue
            if mode == "v1-only" and message.get("version") != 1:
                _say(json.dumps({"ok": False, "message": "protocol version 1 only"}))
                continue
            started: dict[str, Any] = {
                "ok": True,
                "version": int(os.environ.get("FAKE_VERSION", message.get("version", 1))),
                "implementation": {"name": f"fake-{mode or 'good'}", "version": "0"},
                "rulesets": ["pagat"],
                "any_ruleset": mode != "pagat-only",
            }
            if mode.startswith("declare:"):
                started["not_reported"] = mode.split(":", 1)[1].split(",")
            if mode == "nothing":
                from schwimmen.conformance.fields import FIELDS

                started["not_reported"] = sorted(FIELDS)
            if mode == "fixed" or os.environ.get("FAKE_FIXED"):
                started.update(rulesets=[], any_ruleset=False, fixed_rules=True)
            if mode == "never-start":
                time.sleep(3600)
            _say(json.dumps(started))
            continue
        if message["cmd"] == "stop":
            return 0
        runs += 1
        seq = message["seq"]
        if os.environ.get("FAKE_LOG"):
            with open(os.environ["FAKE_LOG"], "a", encoding="utf-8") as log:
                log.write(json.dumps(message["case"]) + "\n")
        if mode.startswith("crash:") and runs == int(mode.split(":")[1]):
            sys.stderr.write("fake: crashing now\n")
            sys.stderr.flush()
            return 3
        if mode in ("fork", "daemon"):
            return _fork_and_exit(leave_group=mode == "daemon")
        if mode == "daemon-slow":
            if os.fork() == 0:
                _fork_and_exit(leave_group=True)
                os._exit(0)
            time.sleep(3600)
        if mode == "hang" or (mode.startswith("hang-every:") and runs % int(mode[11:]) == 0):
            time.sleep(3600)
        if mode == "leak-clean-env" and os.fork() == 0:
            os.setsid()
            if os.fork() != 0:
                os._exit(0)
            _record_pid()
            os.execve("/bin/sleep", ["sleep", "600"], {})
        if mode == "leak-setsid" and os.fork() == 0:
            _fork_and_exit(leave_group=True)
            os._exit(0)
        if mode.startswith("slow:"):
            time.sleep(float(mode.split(":")[1]))
        if mode == "garbage":
            _say("this is not json")
            continue
        if mode == "partial":
            sys.stdout.write('{"seq": ')
            sys.stdout.flush()
            return 0
        if mode == "oversized":
            _say(json.dumps({"seq": seq, "status": "ok", "outcome": {"x": "y" * 5_000_000}}))
            continue
        if mode == "deep":
            _say(f'{{"seq": {seq}, "status": "ok", "outcome": {{"x": {"[" * 100_000}}}}}')
            continue
        if mode == "stderr":
            sys.stderr.write(f"fake: working on {seq}\n")
            sys.stderr.flush()
        if mode == "flood":
            block = "fake: flooding stderr " * 4096 + "\n"
            for _ in range(8 * 1024 * 1024 // len(block)):
                sys.stderr.write(block)
            sys.stderr.flush()
        text = _answer(mode, seq, message["case"])
        _say(text)
        if mode == "twice":
            _say(text)
        if mode == "deaf":
            while True:
                _say(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
