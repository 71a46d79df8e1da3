"""Run every DESIGN.md performance budget's bench and print one table (never part of the tests).

    python bench/run_all.py [--entries 25000] [--big] [--workdir /tmp/brv-bench]

Each bench script runs as its own process (so each measures a fresh interpreter) and its
output is parsed; the table shows the measured median, the budget and pass/fail, with the
machine (CPUs, Python). ``--big`` adds the retrieval bench at 100,000 entries (build time,
peak memory). Trees are generated once under ``--workdir`` and reused by later runs, except
the summaries bench, which makes its own (it commits and edits it).
Expect ~6-8 minutes at 25,000 entries on 2 CPUs, most of it generating trees.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def run(script: str, *args: str) -> str:
    """Runs one bench script, echoing its output to stderr, and returns that output."""
    start = time.perf_counter()
    print(f"== {script} {' '.join(args)}", file=sys.stderr, flush=True)
    proc = subprocess.run([sys.executable, str(BENCH / script), *args],
                          capture_output=True, text=True, check=False)
    sys.stderr.write(proc.stdout + proc.stderr)
    print(f"   ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    if proc.returncode != 0:
        raise SystemExit(f"{script} failed (exit {proc.returncode})")
    return proc.stdout


def number(pattern: str, text: str) -> float:
    """The first number captured by ``pattern`` in a bench's output."""
    found = re.search(pattern, text)
    if found is None:
        raise SystemExit(f"could not find {pattern!r} in:\n{text}")
    return float(found.group(1))


Row = tuple[str, str, str, bool]  # what, measured, budget, pass


def retrieval(entries: int, workdir: Path) -> list[Row]:
    out = run("bench_retrieval.py", "--sizes", str(entries), "--workdir", str(workdir))
    last = out.strip().splitlines()[-1].split()
    build, rss, _auto, paths, w50, w99, c50, b50, ratio, s50, f50, sx, _fx, _cf, *_ = map(
        float, last[1:])
    n = f"{entries:,}"
    return [
        (f"full index build ({n})", f"{build:.1f} s", "<= 20 s", build <= 20),
        (f"peak RSS of the build ({n})", f"{rss:.0f} MB", "<= 1024 MB", rss <= 1024),
        ("incremental reindex, 3 files", f"{paths:.1f} ms", "<= 150 ms", paths <= 150),
        ("warm query p50", f"{w50:.2f} ms", "<= 5 ms", w50 <= 5),
        ("warm query p99", f"{w99:.2f} ms", "<= 25 ms", w99 <= 25),
        ("cold `brv search` process p50", f"{c50:.0f} ms", "<= 100 ms", c50 <= 100),
        ("cold search / floor (python + sqlite3 + one FTS5 query)",
         f"{c50 / f50:.2f}x ({c50:.0f}/{f50:.0f} ms)", "<= 3x", c50 <= 3 * f50),
        ("  cold search / bare `python -c pass`", f"{ratio:.2f}x ({c50:.0f}/{b50:.0f} ms)",
         "(info)", True),
        ("  floor: python + `import sqlite3` + open index.db", f"{sx:.2f}x ({s50:.0f} ms)",
         "(info)", True),
    ]


def agents(entries: int, workdir: Path) -> list[Row]:
    out = run("bench_agents.py", "--entries", str(entries), "--queries", "300", "--notes",
              "2000", "--workdir", str(workdir))
    p50 = number(r"mcp search at \d+: p50 ([\d.]+) ms", out)
    p99 = number(r"mcp search at \d+: p50 [\d.]+ ms, p99 ([\d.]+) ms", out)
    return [("search through `brv mcp` (SDK client) p50", f"{p50:.2f} ms", "<= 5 ms", p50 <= 5),
            ("search through `brv mcp` (SDK client) p99", f"{p99:.2f} ms", "<= 25 ms",
             p99 <= 25)]


def big(workdir: Path) -> list[Row]:
    out = run("bench_retrieval.py", "--sizes", "100000", "--workdir", str(workdir),
              "--runs", "5")
    last = out.strip().splitlines()[-1].split()
    build, rss = float(last[1]), float(last[2])
    return [("full index build (100,000)", f"{build:.1f} s", "works", True),
            ("peak RSS of the build (100,000)", f"{rss:.0f} MB", "<= 1024 MB", rss <= 1024)]


def vc(entries: int, workdir: Path) -> list[Row]:
    """``brv vc status`` and the hooks of a 1-entry commit and merge (bench_vc.py, CPU time)."""
    out = run("bench_vc.py", "--sizes", str(entries), "--modes", "standalone", "--rows",
              "status,commit,merge", "--runs", "5", "--work", str(workdir / "vc"))
    rows: list[Row] = []
    for label, pattern, budget in (
            ("`brv vc status` / `git status` (CPU)", r"`brv vc status`", "<= 1.5x"),
            ("hooks of a 1-entry `git commit` (CPU)", r"1-entry `git commit`", "<= +150 ms"),
            ("hooks of a 1-entry `git merge` (CPU)", r"1-entry `git merge", "<= +150 ms")):
        line = next(x for x in out.splitlines() if re.search(pattern, x))
        cells = [c.strip() for c in line.strip("|").split("|")]
        measured = cells[6]  # the CPU ratio or difference column
        value = float(measured.rstrip("x").split()[0].lstrip("+"))
        limit = float(budget.split()[1].rstrip("x").lstrip("+"))
        rows.append((label, measured, budget, value <= limit))
    return rows


def summaries(entries: int) -> list[Row]:
    out = run("bench_summaries.py", "--entries", str(entries), "--runs", "5")
    index = number(r"_index.md after one changed entry: median ([\d.]+)", out)
    whole = number(r"after one change: median ([\d.]+)", out)
    return [("summaries (ancestors' _index.md), 1 change", f"{index:.0f} ms", "<= 200 ms",
             index <= 200),
            ("whole summary refresh step, 1 change", f"{whole:.0f} ms", "(info)", True)]


def curate() -> list[Row]:
    out = run("bench_curate.py", "--ops", "1000", "--runs", "3")
    seconds = number(r"median: ([\d.]+) s", out)
    return [("1,000 ops in one `brv curate --ops`", f"{seconds:.2f} s", "< 5 s", seconds < 5)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--big", action="store_true", help="also 100,000 entries (slow)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/brv-bench"))
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    rows = [*retrieval(args.entries, args.workdir), *vc(args.entries, args.workdir),
            *agents(args.entries, args.workdir),
            *summaries(args.entries), *curate()]
    if args.big:
        rows += big(args.workdir)
    print(f"\nmachine: {os.cpu_count()} CPUs, Python {platform.python_version()} "
          f"({platform.system()} {platform.machine()}); {args.entries:,} entries; "
          f"total {time.perf_counter() - start:.0f} s")
    width = max(len(r[0]) for r in rows)
    print(f"| {'what':<{width}} | {'measured (median)':<26} | {'budget':<10} | ok |")
    print(f"| {'-' * width} | {'-' * 26} | {'-' * 10} | -- |")
    for what, measured, budget, ok in rows:
        print(f"| {what:<{width}} | {measured:<26} | {budget:<10} | {'✓' if ok else '✗'}  |")
    sys.exit(0 if all(r[3] for r in rows) else 1)


if __name__ == "__main__":
    main()
