"""Benchmark: ``python -m brv_vc curate --ops FILE`` as a real process, 1,000 ADD operations.

Each run uses a fresh project (so every ADD creates a file); prints the median of 5 runs.
Budget (issue #2): median < 5 s.

Usage: python bench/bench_curate.py [--ops 1000] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def make_ops(count: int) -> list[dict[str, object]]:
    """1,000 ADDs spread over 10 domains x 10 topics (so context.md files are written too)."""
    ops = []
    for i in range(count):
        ops.append(
            {
                "type": "ADD",
                "path": f"domain_{i % 10}/topic_{(i // 10) % 10}",
                "title": f"Entry number {i}",
                "summary": f"Summary of entry {i}",
                "tags": ["bench", f"t{i % 7}"],
                "keywords": [f"k{i}"],
                "content": f"Knowledge paragraph {i}. " * 20,
                "facts": [{"statement": f"Fact {i} holds", "category": "project"}],
                "reason": "benchmark",
            }
        )
    return ops


def run_once(ops_file: Path, env: dict[str, str]) -> float:
    with tempfile.TemporaryDirectory(prefix="brv-bench-") as folder:
        subprocess.run(
            [sys.executable, "-m", "brv_vc", "init"],
            cwd=folder,
            env=env,
            check=True,
            capture_output=True,
        )
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "brv_vc", "curate", "--ops", str(ops_file), "--json"],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
        )
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"curate failed: {proc.stderr}{proc.stdout[:2000]}")
        summary = json.loads(proc.stdout)["summary"]
        assert summary["added"] == len(json.loads(ops_file.read_text())), summary
        return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory() as folder:
        ops_file = Path(folder) / "ops.json"
        ops_file.write_text(json.dumps(make_ops(args.ops)))
        times = [run_once(ops_file, env) for _ in range(args.runs)]
    median = statistics.median(times)
    print(f"curate --ops: {args.ops} ADD operations, {args.runs} runs")
    print("runs (s): " + ", ".join(f"{t:.3f}" for t in times))
    print(f"median: {median:.3f} s (budget < 5 s) {'OK' if median < 5 else 'OVER BUDGET'}")


if __name__ == "__main__":
    main()
