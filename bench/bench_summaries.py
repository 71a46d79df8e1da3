"""Benchmark: summaries on a generated tree (DESIGN.md: one changed entry touches only its
ancestors, <= 200 ms with the deterministic engine).

    python bench/bench_summaries.py --entries 25000 --runs 5

Reports the initial full build (all ``_index.md``), the full ``summarize`` (abstracts,
overviews, manifest), and the median of ``runs`` regenerations after one changed entry
(``_index.md`` along its path only; then the whole refresh step with its queue and manifest).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.gen_tree import generate
from brv_vc.services.derived.summaries import refresh_summaries, summarize
from brv_vc.summary import folders
from brv_vc.summary.engine import EXTRACTIVE
from brv_vc.summary.records import Records
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def _touch(project: Project, rel: str, run: int) -> None:
    path = project.tree / rel
    text = path.read_text()
    path.write_text(text.replace('summary: "', f'summary: "Edit {run}. ', 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="brv-bench-sum-")) / "proj"
    paths = generate(root, args.entries, seed=1)
    project = Project(root)
    print(f"tree: {root} ({args.entries} entries)")

    conn = open_state(project)
    start = time.perf_counter()
    report = folders.regenerate(project, None, EXTRACTIVE, Records(conn))
    conn.close()
    print(f"initial _index.md build: {len(report.written)} files in "
          f"{time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    full = summarize(project, NOW)
    print(f"initial summarize (abstracts + overviews + manifest): {full.done} entries in "
          f"{time.perf_counter() - start:.2f} s")

    targets = paths[len(paths) // 2 :: max(1, len(paths) // (2 * args.runs))][: args.runs]
    index_times, refresh_times, written = [], [], []
    for run, rel in enumerate(targets):
        _touch(project, rel, run)
        conn = open_state(project)
        start = time.perf_counter()
        report = folders.regenerate(project, folders.folders_for([rel]), EXTRACTIVE, Records(conn))
        index_times.append(time.perf_counter() - start)
        conn.close()
        written.append(len(report.written))
        _touch(project, rel, run + 100)
        start = time.perf_counter()
        refreshed = refresh_summaries(project, [rel], NOW)
        refresh_times.append(time.perf_counter() - start)
        assert not refreshed.problems, refreshed.problems
    median_ms = statistics.median(index_times) * 1000
    print(f"_index.md after one changed entry: median {median_ms:.1f} ms"
          f" over {len(index_times)} runs (files rewritten per run: {written})")
    print(f"whole summary refresh step (indexes + abstract queue + manifest) after one change: "
          f"median {statistics.median(refresh_times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
