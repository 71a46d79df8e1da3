"""Benchmark: one dream over a generated tree, and ``brv review pending`` over 1,000 entries.

A 25,000-entry tree (bench/gen_tree.py) gets its index and ``_index.md`` summaries (setup,
not timed); the dream state says the last dream ended before 500 random entries were
touched. Then ``python -m brv_vc dream --force --json`` runs as a real process with the
default (deterministic) engine: wall time, peak memory (max RSS of the child), its status
(``partial`` means the 5-minute budget ran out) and its summary line. Issue 12's budget:
inside 5 minutes. Then 1,000 pending review entries are inserted and ``brv review pending
--json`` is timed as a process (budget: under 1 s).

Usage: python bench/bench_dream.py [--entries 25000] [--changed 500]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.gen_tree import generate
from brv_vc.services import review
from brv_vc.services.derived import index_project
from brv_vc.services.review.entries import insert
from brv_vc.summary import folders
from brv_vc.summary.engine import EXTRACTIVE
from brv_vc.summary.records import Records
from brv_vc.tree import dreamstate
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

REPO = Path(__file__).resolve().parent.parent
NOW = "2026-10-01T10:00:00Z"


def _process(args: list[str], root: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "BRV_NOW": NOW}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "brv_vc", "-C", str(root), *args], env=env,
                          capture_output=True, text=True, check=False)
    return time.perf_counter() - start, proc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--changed", type=int, default=500)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="brv-bench-dream-")) / "proj"
    start = time.perf_counter()
    paths = generate(root, args.entries, seed=3)
    project = Project(root)
    # Why: a large tree takes seconds to write, so its last entries would look "changed
    # since the last dream" too; every entry is dated an hour back (their order kept, which
    # prune's "stalest first" reads) before the index sees it.
    for rel in paths:
        mtime = (project.tree / rel).stat().st_mtime - 3600
        os.utime(project.tree / rel, (mtime, mtime))
    print(f"setup: generated in {time.perf_counter() - start:.0f} s", flush=True)
    index_project(project, rebuild=False, now=datetime.now(UTC))
    conn = open_state(project)
    folders.regenerate(project, None, EXTRACTIVE, Records(conn))
    conn.close()
    print(f"setup: indexed and summarised in {time.perf_counter() - start:.0f} s", flush=True)
    wall = time.time() - 5
    dreamstate.update_state(project, lambda s: s.update(
        lastDreamAt="2026-09-30T10:00:00Z", lastDreamWall=wall, curationsSinceDream=50))
    for rel in random.Random(7).sample(paths, args.changed):
        os.utime(project.tree / rel)
    print(f"tree: {root} ({len(paths)} entries, {args.changed} changed since the last dream)")

    seconds, proc = _process(["dream", "--force", "--json"], root)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if proc.returncode != 0:
        print(proc.stdout, proc.stderr)
        raise SystemExit(1)
    result = json.loads(proc.stdout)
    line = (f"{result['summary']['consolidated']} consolidated | "
            f"{result['summary']['synthesized']} synthesized | {result['summary']['pruned']} pruned")
    print(f"dream: {seconds:.1f} s wall, peak memory {peak_mb:.0f} MB, status {result['status']}"
          f" ({line}; {len(result['operations'])} operations, "
          f"{result['summary']['flaggedForReview']} flagged for review)")

    review.set_enabled(project, True)
    conn = open_state(project)
    try:
        for i in range(1000):
            change = review.FileChange(paths[i], None, "0" * 64)
            insert(conn, NOW, "curate/ADD", f"added {paths[i]}", "bench", "cur-1", "pending",
                   [change])
    finally:
        conn.close()
    times = []
    for _ in range(5):
        seconds, proc = _process(["review", "pending", "--json"], root)
        assert proc.returncode == 0, proc.stderr
        times.append(seconds)
    count = len(json.loads(proc.stdout)["entries"])
    print(f"review pending: {count} entries, median {sorted(times)[2] * 1000:.0f} ms "
          f"(process, 5 runs)")


if __name__ == "__main__":
    main()
