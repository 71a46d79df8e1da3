"""Benchmark (issue 37 item 4): a dream's peak memory, stage by stage, and a second dream.

One ``brv dream --force --json`` runs in this process on an existing project (a generated
tree: bench/gen_tree.py, then ``brv index``; or bench/bench_dream.py's set-up) while a
thread reads the process's resident memory (``VmRSS``) every 50 ms. The stages are the
dream's own functions (consolidate pass, synthesize, prune candidates and decisions, the
log and state written at the end, the CLI's JSON answer); each is wrapped to name the stage
the samples fall in. Printed: seconds, CPU seconds and peak MiB per stage, the load
average, and the dream's summary. ``--again`` then dreams once more on the tree as left
(nothing changed since): the operations it proposes (goal: none).

``--first``: as on a tree never dreamed (every entry owed, the cursor cleared);
``--last N``: the dream that ends a first pass (its cursor before the last N entries).

Usage: python bench/dream_stages.py TREE [--first | --last N] [--again] [--budget 36000]
       [--every SECONDS]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import resource
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from brv_vc.cli.dream_cmd import _stream
from brv_vc.cli.plain import jsonable, versioned
from brv_vc.services.dream import dreamlog, run
from brv_vc.tree import dreamstate
from brv_vc.tree.project import Project
from brv_vc.tree.store import entry_paths

NOW = datetime(2026, 10, 1, 10, tzinfo=UTC)


def _rss() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


class Sampler:
    """The highest resident memory seen in each named stage."""

    def __init__(self, every: float = 0.0) -> None:
        self.stage = "start"
        self.peaks: dict[str, float] = {}
        self.seconds: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        start = last = time.perf_counter()
        while not self._stop.wait(0.05):
            self.peaks[self.stage] = max(self.peaks.get(self.stage, 0.0), _rss())
            if self.every and time.perf_counter() - last >= self.every:
                last = time.perf_counter()
                peaks = ", ".join(f"{k} {v:.0f}" for k, v in list(self.peaks.items()))
                print(f"  [{last - start:.0f} s, CPU {time.process_time():.0f} s, load "
                      f"{os.getloadavg()[0]:.1f}] in {self.stage}; {self.calls.get('apply', 0)} "
                      f"operations applied; peak MiB so far: {peaks}", flush=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @staticmethod
    def wrap(owner: Any, name: str, stage: str) -> None:
        """Names ``stage`` while ``owner.name`` runs (the stage before comes back after), in
        the sampler of the dream running then (``--again``: the second dream's own)."""
        inner: Callable[..., Any] = getattr(owner, name)

        @functools.wraps(inner)
        def staged(*args: Any, **kwargs: Any) -> Any:
            self = CURRENT[0]
            before = self.stage
            self.stage = stage
            self.calls[stage] = self.calls.get(stage, 0) + 1
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return inner(*args, **kwargs)
            finally:
                self.peaks[stage] = max(self.peaks.get(stage, 0.0), _rss())
                self.seconds[stage] = self.seconds.get(stage, 0.0) + time.perf_counter() - wall
                self.cpu[stage] = self.cpu.get(stage, 0.0) + time.process_time() - cpu
                self.stage = before

        setattr(owner, name, staged)


CURRENT: list[Sampler] = []


class _Counted(io.TextIOBase):
    """A stdout that only counts what ``brv dream --json`` would print."""

    size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


def _dream(root: Path, budget: float, label: str, every: float) -> dict[str, Any]:
    load = os.getloadavg()[0]
    with Sampler(every) as sampler:
        CURRENT[:] = [sampler]
        for owner, name, stage in ((run.derived, "open_synced", "index sync"),
                                   (run.Context, "flush", "refresh derived"),
                                   (run, "apply_op", "apply"),
                                   (run.passes, "consolidate_pass", "consolidate"),
                                   (run.synthesize, "detect", "synthesize"),
                                   (run.prune, "candidates", "prune candidates"),
                                   (run.prune, "decide", "prune decisions"),
                                   (run, "_finish_state", "log and state"),
                                   (dreamlog, "write", "log and state"),
                                   (dreamlog, "close", "log and state")):
            if not hasattr(getattr(owner, name), "__wrapped__"):
                sampler.wrap(owner, name, stage)
        wall, cpu = time.perf_counter(), time.process_time()
        result = run.dream(Project(root), NOW, force=True, budget=budget)
        sampler.stage = "json answer"
        answer = _Counted()
        with contextlib.redirect_stdout(answer):  # as the CLI writes it: streamed
            _stream(versioned({"ok": True, **jsonable(replace(result, operations=())),
                               "operations": result.operations}))
        sampler.peaks["json answer"] = max(sampler.peaks.get("json answer", 0.0), _rss())
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    ops = [op for op in result.operations if op["action"] != "SKIP"]  # older code held SKIPs
    print(f"{label}: {wall:.1f} s wall, CPU {cpu:.1f} s, load {load:.1f}, status "
          f"{result.status}, {result.line}; {len(ops) + result.skipped} operations, "
          f"{len(ops)} not SKIP; answer {answer.size / 1e6:.1f} MB", flush=True)
    for stage, peak in sorted(sampler.peaks.items(), key=lambda s: -s[1]):
        took = (f", {sampler.seconds[stage]:.1f} s (CPU {sampler.cpu[stage]:.1f} s)"
                if stage in sampler.seconds else "")
        print(f"  {stage:18} peak {peak:6.0f} MiB{took}")
    high = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(f"  process high-water mark so far: {high:.0f} MiB", flush=True)
    return {"operations": ops}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path, help="the project folder")
    parser.add_argument("--first", action="store_true", help="as on a never-dreamed tree")
    parser.add_argument("--last", type=int, default=0, metavar="N",
                        help="the dream that ends a first pass, N entries owed")
    parser.add_argument("--again", action="store_true", help="then dream once more")
    parser.add_argument("--budget", type=float, default=36000.0)
    parser.add_argument("--every", type=float, default=0.0, metavar="SECONDS",
                        help="also print the peaks so far every SECONDS (a long run cut short)")
    args = parser.parse_args()
    project = Project(args.tree)
    if args.first:
        dreamstate.update_state(project, lambda s: s.update(
            lastDreamWall=None, consolidateCursor=None, pendingMerges=[]))
    elif args.last:
        paths = entry_paths(project)
        dreamstate.update_state(project, lambda s: s.update(
            lastDreamWall=time.time(), pendingMerges=[],
            consolidateCursor={"after": paths[-args.last - 1], "since": None}))
    _dream(args.tree, args.budget, "dream", args.every)
    if args.again:
        again = _dream(args.tree, args.budget, "dream again (nothing changed)", args.every)
        for op in again["operations"][:10]:
            print(f"  proposed: {op['operation']} {op['action']}: {op.get('reason', '')[:120]}")


if __name__ == "__main__":
    main()
