"""Search budgets with and without the semantic lane (issue 40), on a generated tree.

    python bench/bench_semantic.py [--sizes 25000] [--workdir /tmp/brv-bench-semantic] [--runs 15]

Per size: the tree (``bench/gen_tree.py``, as ``bench/bench_retrieval.py`` makes it), the
index built, then every entry embedded once with the offline model (``brv index --embed``,
timed; ``vectors.db``'s size). Then, with the lane off and on (``BRV_EMBED_MODEL=wordllama``):
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
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.bench_retrieval import pct, queries, tree_for  # noqa: E402

LANE = {"BRV_EMBED_MODEL": "wordllama"}


def brv(root: Path, env: dict[str, str], *args: str) -> float:
    """Runs ``python -m brv_vc ARGS``; returns the seconds it took."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "brv_vc", *args], cwd=root, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def warm(root: Path, texts: list[str], lane: bool) -> tuple[float, float]:
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
        times = []
        for text in texts:
            start = time.perf_counter()
            found = session.search(text, now=now, record=False)
            times.append((time.perf_counter() - start) * 1000)
            assert ("semantic" in found.lanes) == lane, found.notes
    finally:
        session.close()
        os.environ.pop("BRV_EMBED_MODEL", None)
    return statistics.median(times), pct(times, 0.99)


def cold(root: Path, texts: list[str], runs: int) -> dict[str, tuple[float, float]]:
    """Median (wall ms, CPU ms) of cold ``brv search`` processes, lane off and on, interleaved."""
    import compileall

    compileall.compile_dir(str(REPO / "brv_vc"), quiet=1)
    base = {k: v for k, v in os.environ.items() if not k.startswith("BRV_EMBED")}
    base["PYTHONPATH"] = str(REPO)
    envs = {"off": base, "on": {**base, **LANE}}
    wall: dict[str, list[float]] = {"off": [], "on": []}
    cpu: dict[str, list[float]] = {"off": [], "on": []}
    for i in range(runs):
        for name, env in envs.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall[name].append(brv(root, env, "search", texts[i % len(texts)], "--no-record") * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                             * 1000)
    return {n: (statistics.median(wall[n]), statistics.median(cpu[n])) for n in envs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25000")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/brv-bench-semantic"))
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRV_EMBED")}
    env["PYTHONPATH"] = str(REPO)
    for size in (int(s) for s in args.sizes.split(",")):
        root = tree_for(args.workdir, size)
        built = brv(root, env, "index")
        embedded = brv(root, {**env, **LANE}, "index", "--embed")
        vectors = root / ".brv" / "state" / "vectors.db"
        mb = sum(p.stat().st_size for p in vectors.parent.glob("vectors.db*")) / 1e6
        print(f"{size:,} entries: index {built:.1f} s; embed all (wordllama) {embedded:.1f} s; "
              f"vectors.db {mb:.1f} MB", flush=True)
        texts = queries(root, 50, random.Random(3))
        for lane in (False, True):
            p50, p99 = warm(root, texts, lane)
            print(f"  warm search, lane {'on ' if lane else 'off'}: p50 {p50:.1f} ms, "
                  f"p99 {p99:.1f} ms", flush=True)
        for name, (w, c) in cold(root, texts, args.runs).items():
            print(f"  cold brv search, lane {name:<3}: median wall {w:.0f} ms, CPU {c:.0f} ms",
                  flush=True)
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
