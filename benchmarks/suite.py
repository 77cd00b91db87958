"""How long the whole conformance suite takes against the reference engine.

    python benchmarks/suite.py [--runs 3]

Runs every fixture under every ruleset and house rule (as ``schwimmen conformance``
does), in-process and over the protocol through ``schwimmen serve`` with one and with two
implementation processes, and prints the median wall-clock time of each. Each run is a
fresh process, so table building and fixture loading are included, as a user sees them.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def timed(argv: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    last = [line for line in result.stdout.splitlines() if line.strip()][-1:]
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{result.stdout[-2000:]}{result.stderr}")
    return elapsed, last[0] if last else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    cli = [sys.executable, "-m", "schwimmen", "conformance"]
    serve = f"{sys.executable} -m schwimmen serve"
    variants = {
        "in-process": cli,
        "protocol, 1 process": [*cli, "--impl", serve],
        "protocol, 2 processes": [*cli, "--impl", serve, "-j", "2"],
    }
    base = None
    for label, command in variants.items():
        times = []
        summary = ""
        for _ in range(args.runs):
            seconds, summary = timed(command)
            times.append(seconds)
        median = statistics.median(times)
        base = base or median
        print(
            f"{label:24s} median {median:5.2f} s (min {min(times):5.2f}, max {max(times):5.2f})"
            f"  {median / base:4.2f}x in-process   [{summary}]",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
