"""The work of one fuzzing case on each side of the protocol, for an instruction counter.

    python benchmarks/fuzz_cost.py RULESET SIDE [--first 200] [--last 350]

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=starmap_next \\
        python benchmarks/fuzz_cost.py online fuzz      # "Collected" / 150 cases

``fuzz --throughput-seconds`` (``benchmarks/fuzz.py``) times a run against ``serve`` on a
machine others share, where the same code runs up to 1.7 times slower from one hour to
the next. The instructions a case takes do not move with the load, so each side's work
is measured here, in this process, case by case, as a run does it:

- ``fuzz``: make case ``n`` of seed 1 (the reference plays it while it is drawn), write
  its request as a run sends it, foresee the reference's answer line and take serve's
  answer as a run receives it (its line written beforehand, outside the measure);
- ``make``: making the case alone;
- ``serve``: read each request line and write the answer, as ``serve`` does (the lines
  made beforehand).

Cases 0-99 run first, outside the measure (the tables a ruleset builds once); the
measured cases run inside one call of ``itertools.starmap``'s ``next``, which callgrind
collects alone with the options above. Without valgrind the processor time per case is
printed (a rough figure on a shared machine).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from itertools import starmap

from schwimmen.conformance import process
from schwimmen.conformance.fuzz import driver
from schwimmen.conformance.fuzz.cases import case_rng, generate
from schwimmen.conformance.fuzz.supply import Supply
from schwimmen.conformance.fuzz.wire import Wire
from schwimmen.engine.adapter import run_case
from schwimmen.protocol import server
from schwimmen.spec.loader import Catalog

WARM = 100
SEED = 1


def _answer(line: str) -> str:
    """Serve's answer line to a request line (a run request is never ``stop``)."""
    reply = server.answer(line, run_case)
    assert reply is not None
    return server.dump(reply)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("side", choices=("fuzz", "make", "serve"))
    parser.add_argument("--first", type=int, default=200)
    parser.add_argument("--last", type=int, default=350)
    args = parser.parse_args(argv)
    ruleset = Catalog.load().resolve(args.ruleset)
    wire = Wire(ruleset)
    measured = range(args.first, args.last)
    numbers = [*range(WARM), *measured]

    def request(number: int) -> str:
        case = generate(ruleset, case_rng(SEED, number)).case
        return f'{{"cmd":"run","seq":{number + 1},"case":{wire.request(case)}}}\n'

    lines = {n: request(n) for n in numbers}
    sent = {n: lines[n].encode() for n in numbers}
    answers = {n: (_answer(lines[n]) + "\n").encode() for n in numbers}
    checker = process.ProcessImplementation("true")
    supply = Supply(ruleset, SEED)

    def fuzz(first: int, last: int) -> None:
        for number in range(first, last):
            made, ref = supply.get(number)
            assert ref is not None
            seq = number + 1
            data = f'{{"cmd":"run","seq":{seq},"case":{wire.request(made.case)}}}\n'.encode()
            expected = wire.expected(seq, ref)
            line = answers[number]
            if expected is not None and line == expected.line:
                reply = expected.answer
            else:
                reply = process.parse_line(line)
            checker._check_result(reply, seq)
            got = reply["outcome"]
            if not (got is ref or driver._same_text(ref, got)) or data != sent[number]:
                raise SystemExit(f"case {number}: serve and the reference differ")

    def make(first: int, last: int) -> None:
        for number in range(first, last):
            generate(ruleset, case_rng(SEED, number))

    def serve(first: int, last: int) -> None:
        for number in range(first, last):
            _answer(lines[number])

    work: Callable[[int, int], None] = {"fuzz": fuzz, "make": make, "serve": serve}[args.side]
    work(0, WARM)
    began = time.process_time()
    list(starmap(work, [(args.first, args.last)]))
    spent = time.process_time() - began
    print(f"{args.ruleset} {args.side}: {spent * 1e3 / len(measured):.3f} ms per case (processor)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
