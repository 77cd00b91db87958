"""How long the documentation site takes to build and to reload, and how big it is.

    python benchmarks/site.py [--skip-reload] [--keep DIR]

The checkout's files (as a clone has them) are copied to a temporary folder first, so
that the reload can edit a page and a house rule without touching the checkout, and so
that no cache of an earlier build is found (an empty cache folder; the package's own
bytecode is compiled afresh in the copy, as in a fresh clone, while the installed
packages keep the bytecode pip compiled when it installed them). Then:

1. ``mkdocs build --strict`` as a fresh process: wall-clock and CPU time (user + system
   of the process and its children), against the target of 30 s of CPU; then the same
   build again, as a second build on the same machine runs it: what the first build
   kept in the cache folder (the calculator's tables, the simulator's figures, the
   engine's answers, the whole generated site) is read instead of made;
2. the site it wrote: its size in MB and pages, and each language's search index
   (``search/search_index.json``, ``de/search/search_index.json``), against 30 MB and
   1.5 MB per language;
3. the reloads of ``mkdocs serve --dirty`` (the command the README recommends), in one
   process as the server makes them: a first build, then, after each edit, the
   configuration loaded again and the site built again with ``dirty=True`` (what the
   server does when a watched file changes), timed each: a hand-written page edited, a
   comment added to a house rule's file, one of its values changed, its title changed
   (which every page's navigation shows). Target: 5 s of CPU each.

The CPU figures are the honest ones on a shared machine (the wall clock waits for the
other users); the load average before and after says how busy it was.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_BUILD_CPU = 30.0
TARGET_RELOAD = 5.0
TARGET_SITE_MB = 30.0
TARGET_INDEX_MB = 1.5
EDITED_PAGE = "docs/guides/add-a-house-rule.md"
EDITED_HOUSE_RULE = "spec/house-rules/knocker-loses-two.yaml"
# (what the reload shows, file, text replaced or None to append a line, the new text)
EDITS = [
    ("page edited", EDITED_PAGE, None, "\n# edited\n"),
    ("house rule, a comment added", EDITED_HOUSE_RULE, None, "\n# edited\n"),
    ("house rule, a value changed", EDITED_HOUSE_RULE, "      value: 2\n", "      value: 3\n"),
    ("house rule, its title changed", EDITED_HOUSE_RULE, "title: The knocker", "title: A knocker"),
]

# Run in the copy by a fresh interpreter, as ``mkdocs serve --dirty`` runs its builds: the
# first build, then each edit and its reload. The languages plugin reads ``--dirty`` from
# the command line, so it is put there.
RELOAD_DRIVER = r"""
import json, sys, time
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.livereload import _serve_url

root, site, edits = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
sys.argv[1:] = ["--dirty"]
url = _serve_url("127.0.0.1", 8000, "/")

def config():
    loaded = load_config(str(root / "mkdocs.yml"), site_dir=site, strict=True)
    loaded.site_url = url
    return loaded

first = config()
first.plugins.on_startup(command="serve", dirty=True)

def timed(loaded):
    wall, cpu = time.perf_counter(), time.process_time()
    build(loaded, serve_url=url, dirty=True)
    return time.perf_counter() - wall, time.process_time() - cpu

out = {"first": timed(first)}
for name, path, old, new in edits:
    file = root / path
    text = file.read_text(encoding="utf-8")
    if old is None:
        text += new
    elif old not in text:
        sys.exit(f"{path} no longer holds {old!r}: the benchmark's edit needs updating")
    else:
        text = text.replace(old, new, 1)
    file.write_text(text, encoding="utf-8")
    out[name] = timed(config())
print(json.dumps(out))
"""


def checkout_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    names = [n for n in listed.stdout.decode("utf-8").split("\0") if n]
    return [n for n in names if (ROOT / n).is_file() and "__pycache__" not in n]


def copy_checkout(target: Path) -> None:
    for name in checkout_files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)


def environment(root: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHWIMMEN_")}
    env["PYTHONPATH"] = str(root / "reference_impl")
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["XDG_CACHE_HOME"] = str(cache)  # no cache of an earlier build
    return env


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build_once(root: Path, site: Path, env: dict[str, str]) -> tuple[float, float]:
    cpu, wall = children_cpu(), time.perf_counter()
    run_or_exit(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
        root,
        env,
        "mkdocs build",
    )
    return time.perf_counter() - wall, children_cpu() - cpu


def run_or_exit(command: list[str], root: Path, env: dict[str, str], what: str) -> str:
    """Run ``command`` in ``root``; its output, or the script ends saying ``what`` failed."""
    result = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"{what} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def megabytes(path: Path) -> float:
    if path.is_file():
        return path.stat().st_size / 1e6
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def mark(ok: bool) -> str:
    return "ok" if ok else "OVER"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-reload", action="store_true", help="only the full build")
    parser.add_argument("--keep", type=Path, help="copy the built site here")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="schwimmen-site-") as scratch:
        base = Path(scratch)
        root = base / "schwimmen"
        copy_checkout(root)
        env = environment(root, base / "cache")
        site = base / "site"
        wall, cpu = build_once(root, site, env)
        print(
            f"mkdocs build --strict: {wall:.1f} s wall, {cpu:.1f} s CPU "
            f"(target {TARGET_BUILD_CPU:.0f} s CPU: {mark(cpu <= TARGET_BUILD_CPU)})"
        )
        wall, cpu = build_once(root, base / "again", env)
        print(
            f"mkdocs build --strict again, its cache kept: {wall:.1f} s wall, {cpu:.1f} s CPU "
            f"(target {TARGET_BUILD_CPU:.0f} s CPU: {mark(cpu <= TARGET_BUILD_CPU)})"
        )
        pages = sum(1 for _ in site.rglob("index.html"))
        size = megabytes(site)
        print(
            f"site: {size:.1f} MB in {pages} pages (target {TARGET_SITE_MB:.0f} MB: "
            f"{mark(size <= TARGET_SITE_MB)})"
        )
        for index in sorted(site.rglob("search_index.json")):
            mb = megabytes(index)
            print(
                f"search index {index.relative_to(site)}: {mb:.2f} MB "
                f"(target {TARGET_INDEX_MB} MB: {mark(mb <= TARGET_INDEX_MB)})"
            )
        if args.keep:
            shutil.copytree(site, args.keep, dirs_exist_ok=True)
        if not args.skip_reload:
            out = run_or_exit(
                [
                    sys.executable,
                    "-c",
                    RELOAD_DRIVER,
                    str(root),
                    str(base / "served"),
                    json.dumps(EDITS),
                ],
                root,
                env,
                "the reload run",
            )
            times = json.loads(out.strip().splitlines()[-1])
            for name, (wall, cpu) in times.items():
                target = (
                    ""
                    if name == "first"
                    else (f" (target {TARGET_RELOAD:.0f} s CPU: {mark(cpu <= TARGET_RELOAD)})")
                )
                label = (
                    "serve --dirty, first build"
                    if name == "first"
                    else f"serve --dirty, reload, {name}"
                )
                print(f"{label}: {wall:.1f} s wall, {cpu:.1f} s CPU{target}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
