"""Benchmark: one dream over a generated tree, and ``brv review pending`` over 1,000 entries.

A 25,000-entry tree (bench/gen_tree.py) gets its index and ``_index.md`` summaries (setup,
not timed); the dream state says the last dream ended before 500 random entries were
touched. Then ``python -m brv_vc dream --force --json`` runs as a real process with the
default (deterministic) engine: wall time, peak memory (max RSS of the child), its status
(``partial`` means the 5-minute budget ran out) and its summary line. Issue 12's budget:
inside 5 minutes. Then 1,000 pending review entries are inserted and ``brv review pending
--json`` is timed as a process (budget: under 1 s).

Issue 24 added: ``--dupes`` near-duplicates written beside random entries (changed too);
``--compare [REF]`` dreams with the old code (``git archive REF``, default the merge-base
with main, or a folder of code already unpacked) and this one on copies of the tree and
prints the decision agreement, time and peak memory of each; ``--first RUNS`` then dreams RUNS times as on a never-dreamed tree
(every entry changed), each continuing from the last one's cursor; ``--tree PATH --first
RUNS`` does that on an existing generated tree (100,000 entries: bench/gen_tree.py, then
``brv index``). ``--tree PATH --last N``: the dream that ends a first pass (the last N
entries still owed, then synthesize and prune over the whole tree), with its peak memory.

Usage: python bench/bench_dream.py [--entries 25000] [--changed 500] [--dupes 300]
       [--compare [REF]] [--first RUNS] [--budget 300] [--tree PATH] [--last N]
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import dream_compare
from bench.dream_compare import agreement, decisions, measured, near_duplicates, old_source
from bench.gen_tree import generate
from brv_vc.services import review
from brv_vc.services.derived import index_project
from brv_vc.services.dream import dreamlog
from brv_vc.services.review.entries import insert
from brv_vc.summary import folders
from brv_vc.summary.engine import EXTRACTIVE
from brv_vc.summary.records import Records
from brv_vc.tree import dreamstate
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.tree.store import entry_paths

REPO = Path(__file__).resolve().parent.parent
NOW = "2026-10-01T10:00:00Z"


def _process(args: list[str], root: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "BRV_NOW": NOW}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "brv_vc", "-C", str(root), *args], env=env,
                          capture_output=True, text=True, check=False)
    return time.perf_counter() - start, proc


def _prepare(root: Path, entries: int, changed: int, dupes: int) -> list[str]:
    start = time.perf_counter()
    paths = generate(root, entries, seed=3)
    project = Project(root)
    copies = near_duplicates(project.tree, paths, dupes) if dupes else []
    # Why: a large tree takes seconds to write, so its last entries would look "changed
    # since the last dream" too; every entry is dated an hour back (their order kept, which
    # prune's "stalest first" reads) before the index sees it.
    for rel in paths + copies:
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
    for rel in random.Random(7).sample(paths, changed) + copies:
        os.utime(project.tree / rel)
    print(f"tree: {root} ({len(paths)} entries + {len(copies)} near-duplicates, "
          f"{changed + len(copies)} changed since the last dream)")
    return paths


def _line(label: str, seconds: float, peak: float, result: dict[str, object]) -> str:
    summary = result["summary"]
    assert isinstance(summary, dict)
    ops = result["operations"]
    assert isinstance(ops, list)
    return (f"{label}: {seconds:.1f} s wall, peak memory {peak:.0f} MB, status "
            f"{result['status']} ({summary['consolidated']} consolidated | "
            f"{summary['synthesized']} synthesized | {summary['pruned']} pruned; "
            f"{len(ops)} operations and {result.get('skipped', 0)} SKIPs)")


def _compare(root: Path, ref: str, budget: float) -> None:
    """The old code and this one dream on copies of the tree: decisions, time, memory.

    With a budget neither reaches (the default, 10 hours): the decisions of whole dreams.
    """
    old_code = old_source(ref)
    answers, logged = {}, {}
    for label, code in (("old", old_code), ("new", REPO)):
        copy = root.parent / f"proj-{label}"
        if copy.exists():
            shutil.rmtree(copy)
        shutil.copytree(root, copy, symlinks=True)
        measured(code, copy, "index", "--json")  # each version's own index schema
        seconds, peak, answers[label] = measured(code, copy, "dream", "--force", "--json",
                                                 "--budget", str(budget))
        print(_line(f"dream ({label}, {ref if label == 'old' else 'this tree'})", seconds,
                    peak, answers[label]), flush=True)
        # the log has every decision: an answer counts the SKIPs (older code's lists them)
        logged[label] = dreamlog.read(Project(copy), answers[label]["id"])
    print(f"decision agreement old vs new: "
          f"{agreement(decisions(logged['old']), decisions(logged['new']))}")


def _first(root: Path, runs: int, budget: float, resume: bool = False) -> None:
    """Dreams on a tree never dreamed (every entry changed): each continues the last."""
    if not resume:
        dreamstate.update_state(Project(root), lambda s: s.update(
            lastDreamWall=None, consolidateCursor=None, pendingMerges=[]))
    paths = entry_paths(Project(root))
    for n in range(1, runs + 1):
        load = os.getloadavg()[0]
        seconds, peak, result = measured(REPO, root, "dream", "--force", "--json",
                                         "--budget", str(budget))
        cursor = dreamstate.read_state(Project(root))["consolidateCursor"]
        done = bisect.bisect_right(paths, cursor["after"]) if cursor else len(paths)
        print(_line(f"first dream, run {n}", seconds, peak, result)
              + f"; cursor after {cursor['after'] if cursor else '(pass finished)'}: "
              f"{done} of {len(paths)} entries decided; CPU {dream_compare.LAST_CPU:.1f} s, "
              f"load {load:.1f}", flush=True)
        if cursor is None:
            break


def _last(root: Path, owed: int, budget: float) -> None:
    """The dream that ends a first pass: its cursor before the last ``owed`` entries."""
    paths = entry_paths(Project(root))
    dreamstate.update_state(Project(root), lambda s: s.update(
        lastDreamWall=time.time(), pendingMerges=[],
        consolidateCursor={"after": paths[-owed - 1], "since": None}))
    load = os.getloadavg()[0]
    seconds, peak, result = measured(REPO, root, "dream", "--force", "--json",
                                     "--budget", str(budget))
    print(_line(f"the dream ending the pass ({owed} entries owed)", seconds, peak, result)
          + f"; CPU {dream_compare.LAST_CPU:.1f} s, load {load:.1f}", flush=True)


def _base() -> str:
    return subprocess.run(["git", "-C", str(REPO), "merge-base", "HEAD", "main"], check=True,
                          capture_output=True, text=True).stdout.strip()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--changed", type=int, default=500)
    parser.add_argument("--dupes", type=int, default=300, help="near-duplicates written")
    parser.add_argument("--compare", metavar="REF", nargs="?", const="",
                        help="also dream with the code of REF (default: the merge-base "
                             "with main) on a copy and report decision agreement")
    parser.add_argument("--first", type=int, metavar="RUNS", default=0,
                        help="then RUNS dreams of a never-dreamed tree, each continuing")
    parser.add_argument("--tree", type=Path, help="an existing generated project (--first)")
    parser.add_argument("--budget", type=float, default=300.0)
    parser.add_argument("--last", type=int, metavar="N", default=0,
                        help="with --tree: the dream that ends a first pass, N entries owed")
    parser.add_argument("--resume", action="store_true",
                        help="with --tree: go on from the tree's dream state, not from scratch")
    args = parser.parse_args()
    if args.tree is not None:
        if args.compare is not None:  # a tree _prepare left (never dreamed on itself)
            _compare(args.tree, args.compare or _base(), 36000.0)
        if args.first:
            _first(args.tree, args.first, args.budget, args.resume)
        if args.last:
            _last(args.tree, args.last, args.budget)
        return
    root = Path(tempfile.mkdtemp(prefix="brv-bench-dream-")) / "proj"
    paths = _prepare(root, args.entries, args.changed, args.dupes)
    project = Project(root)
    if args.compare is not None:
        _compare(root, args.compare or _base(), 36000.0)
    seconds, peak, result = measured(REPO, root, "dream", "--force", "--json")
    print(_line("dream", seconds, peak, result), flush=True)
    if args.first:
        _first(root, args.first, args.budget)

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
