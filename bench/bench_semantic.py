"""Search budgets with and without the semantic lane (issue 40), on a generated tree.

    python bench/bench_semantic.py [--sizes 25000] [--workdir /tmp/brv-bench-semantic] [--runs 15]
    python bench/bench_semantic.py --tree /tmp/lane/t100k [--runs 15]

Per size: the tree (``bench/gen_tree.py``, as ``bench/bench_retrieval.py`` makes it), the
index built, then every entry embedded once with the offline model (``brv index --embed``:
wall, CPU and peak memory of that process; ``vectors.db``'s and the matrix file's sizes).
``--tree`` uses a tree made before instead (a copy: the lane writes into its ``.brv/state``),
e.g. ``bench/gen_tree.py --entries 100000``'s. Then, with the lane off and on (``BRV_EMBED_MODEL=wordllama``):
the warm search in one process (``SearchSession``, the resident path of ``brv mcp`` and the
web view: p50 and p99) and cold ``brv search`` processes, interleaved off/on, reported as
medians of wall time and of CPU time (user + system of the child). The load average is
printed before and after: on a shared machine wall times follow it, CPU times much less.
Needs the ``[semantic]`` extra.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_retrieval import pct, queries, tree_for  # noqa: E402

LANE = {"BRV_EMBED_MODEL": "wordllama"}


class Run(NamedTuple):
    wall: float  # seconds
    cpu: float  # seconds, user + system of that process
    peak_mb: float  # its maximum resident set


def brv(root: Path, env: dict[str, str], *args: str) -> Run:
    """Runs ``python -m brv_vc ARGS``; what that one process took (``os.wait4``'s usage)."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "brv_vc", *args], cwd=root, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"brv {' '.join(args)} failed ({child.returncode}) in {root}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def warm(root: Path, texts: list[str], lane: bool) -> tuple[float, float, float]:
    """p50 and p99 of wall ms, p50 of CPU ms, of searches in one process (after one round)."""
    from datetime import UTC, datetime

    from brv_vc.services.query import SearchSession
    from brv_vc.tree.project import Project

    if lane:
        os.environ.update(LANE)
    else:
        os.environ.pop("BRV_EMBED_MODEL", None)
    session = SearchSession(Project(root))
    now = datetime.now(UTC)
    try:
        for text in texts:
            session.search(text, now=now, record=False)
        times, cpu = [], []
        for text in texts:
            start, began = time.perf_counter(), time.process_time()
            found = session.search(text, now=now, record=False)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - began) * 1000)
            assert ("semantic" in found.lanes) == lane, found.notes
    finally:
        session.close()
        os.environ.pop("BRV_EMBED_MODEL", None)
    return statistics.median(times), pct(times, 0.99), statistics.median(cpu)


def cold(root: Path, texts: list[str], runs: int, before: Path | None = None
         ) -> dict[str, tuple[float, float]]:
    """Median (wall ms, CPU ms) of cold ``brv search`` processes, lane off and on, interleaved.

    ``before``: a checkout of older code, run with the lane on in the same rounds.
    """
    import compileall

    compileall.compile_dir(str(REPO / "brv_vc"), quiet=1)
    base = {k: v for k, v in os.environ.items() if not k.startswith("BRV_EMBED")}
    base["PYTHONPATH"] = str(REPO)
    envs = {"off": base, "on": {**base, **LANE}}
    if before:
        compileall.compile_dir(str(before / "brv_vc"), quiet=1)
        envs["on, before"] = {**base, **LANE, "PYTHONPATH": str(before)}
    wall: dict[str, list[float]] = {name: [] for name in envs}
    cpu: dict[str, list[float]] = {name: [] for name in envs}
    for i in range(runs):
        for name, env in envs.items():
            took = brv(root, env, "search", texts[i % len(texts)], "--no-record")
            wall[name].append(took.wall * 1000)
            cpu[name].append(took.cpu * 1000)
    return {n: (statistics.median(wall[n]), statistics.median(cpu[n])) for n in envs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25000")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/brv-bench-semantic"))
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--tree", type=Path, help="a generated tree to use (a copy: written to)")
    parser.add_argument("--before", type=Path, help="a checkout of older code: cold searches "
                        "with the lane on, interleaved with the others")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRV_EMBED")}
    env["PYTHONPATH"] = str(REPO)
    trees = [args.tree] if args.tree else [tree_for(args.workdir, int(s))
                                           for s in args.sizes.split(",")]
    for root in trees:
        built = brv(root, env, "index")
        with sqlite3.connect(root / ".brv" / "state" / "index.db") as db:
            size = db.execute("SELECT count(*) FROM docs WHERE kind = 'entry'").fetchone()[0]
        e = brv(root, {**env, **LANE}, "index", "--embed")
        state = root / ".brv" / "state"
        mb = sum(p.stat().st_size for p in state.glob("vectors.db*")) / 1e6
        npz = sum(p.stat().st_size for p in state.glob("vectors-*.npz")) / 1e6
        print(f"{size:,} entries: index {built.wall:.1f} s; embed all (wordllama): wall "
              f"{e.wall:.1f} s, CPU {e.cpu:.1f} s, peak {e.peak_mb:.0f} MB; vectors.db "
              f"{mb:.1f} MB ({mb * 1e3 / max(size, 1):.2f} KB an entry), matrix file "
              f"{npz:.1f} MB; load {os.getloadavg()[0]:.1f}", flush=True)
        texts = queries(root, 50, random.Random(3))
        for lane in (False, True):
            p50, p99, c50 = warm(root, texts, lane)
            print(f"  warm search, lane {'on ' if lane else 'off'}: p50 {p50:.1f} ms, "
                  f"p99 {p99:.1f} ms, CPU p50 {c50:.1f} ms", flush=True)
        for name, (w, c) in cold(root, texts, args.runs, args.before).items():
            print(f"  cold brv search, lane {name:<10}: median wall {w:.0f} ms, CPU {c:.0f} ms",
                  flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
