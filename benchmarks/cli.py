"""How long the read-only commands take, as a user waits for them.

    python benchmarks/cli.py [--runs 7] [--no-bytecode]

Each command runs as a fresh process (``python -m schwimmen ...``), several times, with
the catalog cache in a temporary folder of its own: the first run of all loads and
checks the catalog and writes the cache (shown as "first run"), every later run reads
it, as every command after the first does for a user until a spec file changes. Python
may write its bytecode (into a temporary folder too, so the checkout stays clean), as it
does for an installed package; ``--no-bytecode`` measures without it.

Printed per command: the median and the fastest wall-clock time, the median CPU time
(user + system, which a busy machine inflates less than the wall clock) and the target
of the issue "a CLI that answers at once". ``validate`` runs with ``--no-quotes`` so that it
runs where the source texts are not found (with ``SCHWIMMEN_SOURCES`` set, it checks the
quotes all the same). The load average before and after says how
busy the machine was; on a shared machine, run it more than once.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HANDS = (
    "AC KC 10C",
    "7H 8H 9D",
    "7S 8S 9S",
    "JH QH KH",
    "7C 8C 9C",
    "JS QS KS",
    "10S AS 10H",
    "AH 10D JD",
    "8D 9H QC",
    "JC QD KD",
)
TEN_HANDS = " / ".join(HANDS).split(" ")
PACK = [f"{r}{s}" for s in "CSHD" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]

# (label, arguments, target seconds of wall-clock time or None)
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ("python -c pass (interpreter start)", [], None),
    ("--help", ["--help"], None),
    ("list", ["list"], 0.3),
    ("show pagat", ["show", "pagat"], 0.3),
    ("show pagat+knocker-loses-two --lang de", ["show", "rules-page+knocker-loses-two"], 0.3),
    ("diff altenburg pagat", ["diff", "altenburg", "pagat"], 0.3),
    ("score AC KC 10C", ["score", "AC", "KC", "10C"], 0.3),
    ("score, ten hands", ["score", *TEN_HANDS], 0.5),
    ("score, all 32 cards (no ruleset's hand)", ["score", *PACK], 0.3),
    (
        "validate spec/rulesets/pagat.yaml",
        ["validate", "--no-quotes", "spec/rulesets/pagat.yaml"],
        0.3,
    ),
    ("validate spec/house-rules/", ["validate", "--no-quotes", "spec/house-rules"], 0.3),
    ("score AC KC 10C --lang de", ["score", "AC", "KC", "10C"], 0.3),
    ("diff altenburg pagat --lang de", ["diff", "altenburg", "pagat"], 0.3),
]


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run; fails loudly on an error."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, check=False, env=env, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{result.stdout[-2000:]}{result.stderr}")
    return wall, cpu


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per command (default 7)")
    parser.add_argument(
        "--no-bytecode", action="store_true", help="do not let Python write its bytecode"
    )
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="schwimmen-cli-bench-"))
    env = dict(os.environ)
    env["SCHWIMMEN_CACHE_DIR"] = str(scratch / "cache")
    env.pop("SCHWIMMEN_NO_CACHE", None)
    env["COLUMNS"] = "100"
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "reference_impl"), env.get("PYTHONPATH")) if p
    )
    if args.no_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    cli = [sys.executable, "-m", "schwimmen"]
    print(f"load average before: {_load()}; {args.runs} runs each; {sys.version.split()[0]}")
    try:
        first, first_cpu = run([*cli, "list"], env)
        print(
            f"first run (loads, checks and caches the catalog): {first:.2f} s wall, "
            f"{first_cpu:.2f} s CPU"
        )
        print(f"{'command':<44} {'median':>7} {'fastest':>8} {'CPU':>6} {'target':>7}")
        failed = []
        for label, words, target in COMMANDS:
            if label.startswith("python -c"):
                argv_ = [sys.executable, "-c", "pass"]
            else:
                argv_ = [*cli, *words, *(["--lang", "de"] if "--lang de" in label else [])]
            times = [run(argv_, env) for _ in range(args.runs)]
            wall = statistics.median(t for t, _ in times)
            fastest = min(t for t, _ in times)
            cpu = statistics.median(c for _, c in times)
            goal = f"{target:.1f}" if target is not None else "-"
            mark = ""
            if target is not None and wall > target:
                mark = "  over"
                failed.append(label)
            print(f"{label:<44} {wall:7.3f} {fastest:8.3f} {cpu:6.3f} {goal:>7}{mark}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"load average after: {_load()}")
    if failed:
        print(f"over target (median wall): {', '.join(failed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
