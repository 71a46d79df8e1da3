"""Cold ``brv search`` right after an in-place edit: is the edit found, and how even is the cost?

    python bench/bench_freshness.py --sizes 25000,100000 [--workdir /tmp/brv-bench] [--runs 20]
                                    [--candidates]

Before each run one random entry gets a new word appended in place (``echo >> entry.md``:
no rename, so its folder's mtime stays), then a cold ``python -m brv_vc search WORD`` looks
for it. Printed per size: how many edits the very next search found, and the p50 / p90 wall
time (ms) of those searches with their ratio (the issue's goal: p90 <= 1.5 x p50), next to a
bare ``python -c pass`` measured in the same interleaved runs, and the median CPU time (user +
system, the ``find`` child included) of a search: the figure a loaded machine distorts least. Trees come from
``bench/gen_tree.py`` (shared with bench_retrieval.py); the index is brought up to date first.

``--candidates`` first prints the CPU cost (ms, median of 7, this process plus children) of
each way to notice changes, on the same tree: the folder-mtime check, an ``os.stat`` of every
indexed file, a full ``os.scandir`` walk, ``find -cnewer`` (what index/scan.py runs) and,
when the tree has its own git repository (``brv vc init``), ``git diff-files``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_retrieval import pct, tree_for  # noqa: E402

_CPU: list[float] = []  # CPU ms (user + system) of each timed process, find included


def _timed(command: list[str], root: Path, env: dict[str, str]) -> tuple[float, str]:
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(command, check=True, cwd=root, env=env, capture_output=True, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    after = os.times()
    _CPU.append((after.children_user + after.children_system
                 - before.children_user - before.children_system) * 1000)
    return elapsed, done.stdout


def _cpu_ms(work: Callable[[], object]) -> float:
    spent = []
    for _ in range(7):
        before = os.times()
        work()
        after = os.times()
        spent.append(sum(after[:4]) - sum(before[:4]))
    return statistics.median(spent) * 1000


def candidates(root: Path) -> None:
    """Prints the CPU cost of each change check on ``root``'s indexed tree."""
    import sqlite3

    from brv_vc.index.scan import stamp_path
    from brv_vc.index.sync import _walk

    tree = root / ".brv" / "context-tree"
    conn = sqlite3.connect(root / ".brv" / "state" / "index.db")
    paths = [str(tree / p) for (p,) in conn.execute("SELECT path FROM docs")]
    dirs = [str(tree / d) for (d,) in conn.execute("SELECT path FROM dirs")]
    conn.close()
    stamp = stamp_path(root / ".brv" / "state")
    find = ["find", "-H", str(tree), "-mindepth", "1", "-name", ".*", "-prune", "-o", "-type",
            "f", "-name", "*.md", "-cnewer", str(stamp), "-print0"]
    checks: dict[str, Callable[[], object]] = {
        "folder mtimes (misses in-place edits)": lambda: [os.stat(d) for d in dirs],
        "os.stat of every indexed file": lambda: [os.stat(p) for p in paths],
        "os.scandir walk (full)": lambda: _walk(tree, "", {}, {}, []),
        "find -cnewer stamp (own process)": lambda: subprocess.run(
            find, check=True, stdout=subprocess.DEVNULL),
    }
    if (tree / ".git").exists():  # a standalone vc tree: git's own stat check of its index
        checks["git diff-files (nested repo)"] = lambda: subprocess.run(
            ["git", "-C", str(tree), "diff-files", "--name-only"], check=True,
            stdout=subprocess.DEVNULL)
    for name, work in checks.items():
        print(f"  {len(paths):>7} files  {name:<40} {_cpu_ms(work):7.1f} ms CPU", flush=True)


def run(root: Path, runs: int, rng: random.Random) -> dict[str, float]:
    from brv_vc.tree.project import Project
    from brv_vc.tree.store import entry_paths

    env = dict(os.environ, PYTHONPATH=str(REPO))
    brv = [sys.executable, "-m", "brv_vc"]
    subprocess.run([*brv, "index"], check=True, cwd=root, env=env, capture_output=True)
    _timed([*brv, "search", "warmup"], root, env)  # the first check after the build
    paths = entry_paths(Project(root))
    tree = root / ".brv" / "context-tree"
    times: dict[str, list[float]] = {"bare": [], "brv": [], "cpu": []}
    found = 0
    for i in range(runs):
        rel = rng.choice(paths)
        word = f"qzfresh{i}x{time.time_ns() % 10**12}"  # never in the tree before
        with (tree / rel).open("a", encoding="utf-8") as handle:  # in place: echo >> entry.md
            handle.write(f"\n{word}\n")
        times["bare"].append(_timed([sys.executable, "-c", "pass"], root, env)[0])
        elapsed, out = _timed([*brv, "search", word], root, env)
        times["brv"].append(elapsed)
        times["cpu"].append(_CPU[-1])
        found += rel in out
    return {
        "found": found,
        "p50": statistics.median(times["brv"]),
        "p90": pct(times["brv"], 0.9),
        "bare": statistics.median(times["bare"]),
        "cpu": statistics.median(times["cpu"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25000,100000")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/brv-bench"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--candidates", action="store_true", help="CPU cost of each check")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    compileall.compile_dir(str(REPO / "brv_vc"), quiet=1)  # as an installed package has it
    header = (f"{'entries':>8} {'found':>7} {'p50 ms':>7} {'p90 ms':>7} {'p90/p50':>7} "
              f"{'bare':>6} {'cpu p50':>7}")
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        print(f"size {size}:", flush=True)
        root = tree_for(args.workdir, size)
        r = run(root, args.runs, random.Random(size))
        if args.candidates:
            candidates(root)
        rows.append(f"{size:>8} {int(r['found']):>3}/{args.runs:<3} {r['p50']:>7.1f} "
                    f"{r['p90']:>7.1f} {r['p90'] / r['p50']:>7.2f} {r['bare']:>6.1f} "
                    f"{r['cpu']:>7.1f}")
        print(header + "\n" + rows[-1], flush=True)
    print("\n" + header + "\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
