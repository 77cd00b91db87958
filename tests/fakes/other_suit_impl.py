"""An implementation that answers like the reference, except that wherever a hand's best
sum is reached in two suits and the ruleset orders no suits, it names another of those
suits than the reference does: an answer no rule decides, so a fuzzer must find no
difference in it.

With ``count=PATH`` it appends a line to PATH for every answer in which it named another
suit, so that a test can tell that the latitude was exercised at all.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from schwimmen.conformance.latitude import suits_that_may_count
from schwimmen.engine.adapter import run_case


def _other_suits(outcome: dict[str, Any], parameters: dict[str, Any]) -> int:
    changed = 0
    for record in outcome.get("rounds", []):
        hands = record.get("hands", {})
        for seat, value in record.get("values", {}).items():
            open_ = suits_that_may_count(hands.get(seat, []), parameters)
            others = sorted(open_ - {value.get("suit")})
            if value.get("suit") in open_ and others:
                value["suit"] = others[0]
                changed += 1
    return changed


def main() -> int:
    count = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("count=")), None)
    for line in sys.stdin:
        message = json.loads(line)
        if message["cmd"] == "start":
            started = {
                "ok": True,
                "version": 1,
                "implementation": {"name": "other-suit", "version": "0"},
                "rulesets": [],
                "any_ruleset": True,
            }
            sys.stdout.write(json.dumps(started) + "\n")
        elif message["cmd"] == "stop":
            return 0
        else:
            case = message["case"]
            answer = dict(run_case(case))
            outcome = answer.get("outcome")
            if isinstance(outcome, dict):
                changed = _other_suits(outcome, case.get("ruleset", {}).get("parameters", {}))
                if changed and count:
                    with open(count, "a", encoding="utf-8") as out:
                        out.write(f"{changed}\n")
            answer["seq"] = message["seq"]
            sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
