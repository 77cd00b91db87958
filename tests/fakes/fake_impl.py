"""A deliberately misbehaving implementation of the conformance protocol, for the
harness's own tests. It answers like the reference, except as MODE says:

crash:N      exit with code 3 on the Nth run request (counting from 1)
hang         never answer a run request
slow:S       sleep S seconds before every answer
garbage      answer every run request with a line that is not JSON
partial      write half a line, then exit
oversized    answer with one line of 5 MB
sequence     answer with the wrong sequence number
wrong        answer with a wrong outcome (nobody ever loses a life; steps all accepted)
stderr       write to stderr before each answer, then answer correctly
refuse       refuse to start
skip         answer every case with "skipped"
invalid      answer "ok" without an outcome
"""

from __future__ import annotations

import json
import sys
import time

from schwimmen.engine.adapter import run_case


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    runs = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            if mode == "refuse":
                print(json.dumps({"ok": False, "message": "not today"}), flush=True)
                continue
            print(
                json.dumps(
                    {
                        "ok": True,
                        "version": 1,
                        "implementation": {"name": f"fake-{mode or 'good'}", "version": "0"},
                        "rulesets": ["pagat"],
                        "any_ruleset": mode != "pagat-only",
                    }
                ),
                flush=True,
            )
            continue
        if message["cmd"] == "stop":
            return 0
        runs += 1
        seq = message["seq"]
        if mode.startswith("crash:") and runs == int(mode.split(":")[1]):
            sys.stderr.write("fake: crashing now\n")
            sys.stderr.flush()
            return 3
        if mode == "hang":
            time.sleep(3600)
        if mode.startswith("slow:"):
            time.sleep(float(mode.split(":")[1]))
        if mode == "garbage":
            print("this is not json", flush=True)
            continue
        if mode == "partial":
            sys.stdout.write('{"seq": ')
            sys.stdout.flush()
            return 0
        if mode == "oversized":
            print(
                json.dumps({"seq": seq, "status": "ok", "outcome": {"x": "y" * 5_000_000}}),
                flush=True,
            )
            continue
        answer = dict(run_case(message["case"]))
        answer["seq"] = seq + 1 if mode == "sequence" else seq
        if mode == "wrong" and answer.get("status") == "ok":
            outcome = answer["outcome"]
            outcome["losses"] = {}
            for r in outcome.get("rounds", []):
                r["losses"] = {}
            outcome["steps"] = [{"accepted": True} for _ in outcome.get("steps", [])]
        if mode == "stderr":
            sys.stderr.write(f"fake: working on {seq}\n")
            sys.stderr.flush()
        if mode == "skip":
            answer = {"seq": seq, "status": "skipped", "reason": "not implemented here"}
        if mode == "invalid":
            answer = {"seq": seq, "status": "ok"}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
