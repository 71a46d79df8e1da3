"""What a ranking choice costs a warm search: two configurations interleaved in one process.

    python bench/bench_ranking_cost.py PROJECT [--set NAME --data DIR] [--rounds 5]

Issue 26's ranking (k1 2 / b 1 re-scored on the candidates, title weight 3, title boost 0.25)
against brv's defaults (issue 37: FTS5's own k1 and b, nothing re-scored, title 1, no boost),
on an indexed project (``bench/bench_retrieval.py``'s generated trees, or a set the harness
built: its questions with ``--set``; else 200 queries made from the tree's file names). Each
round runs every query under both, alternating which goes first; reported per configuration:
median and p99 of CPU time (``time.process_time``) and wall time per search, and the load
average. ``index.search`` alone, on an index in sync (no change check), as ``brv mcp`` runs it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench import tune_ranking  # noqa: E402

ISSUE_26 = {"lengths.K1+lengths.B": (2.0, 1.0), "search.FIELD_WEIGHTS[0]": 3.0,
            "search.TITLE": 0.25}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("project", type=Path)
    parser.add_argument("--set", dest="set_name", help="ask this harness set's questions")
    parser.add_argument("--data", default="/work/evaldata")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from brv_vc.index.db import open_index
    from brv_vc.index.search import search
    from brv_vc.index.terms import QueryError, query_terms
    from brv_vc.tree.project import Project
    from brv_vc.tree.statedb import open_state

    if args.set_name:
        from bench.eval_retrieval import load
        projects, _ = load(args.set_name, argparse.Namespace(
            data=args.data, conversations=10, tldr_pages=1500))
        texts = [q.text for p in projects for q in p.questions][:200]
    else:
        from bench.bench_retrieval import queries
        texts = queries(args.project, 200, random.Random(1))
    project = Project(args.project)
    conn, state = open_index(project).conn, open_state(project)
    configs = {"issue 26": ISSUE_26, "now": {k: tune_ranking.get(k) for k in ISSUE_26}}
    asked = []
    for text in texts:
        try:
            asked.append(query_terms(text, letters=True))
        except QueryError:
            continue

    def run(name: str) -> tuple[list[float], list[float]]:
        for key, value in configs[name].items():
            tune_ranking.put(key, value)
        cpu, wall = [], []
        for terms in asked:
            c, w = time.process_time(), time.perf_counter()
            search(conn, state, terms, 0.0, limit=10)
            cpu.append((time.process_time() - c) * 1000)
            wall.append((time.perf_counter() - w) * 1000)
        return cpu, wall

    for name in configs:  # warm both: caches and each title weight's toplists
        run(name)
    got: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in configs}
    for round_ in range(args.rounds):
        for name in (list(configs) if round_ % 2 == 0 else list(reversed(configs))):
            cpu, wall = run(name)
            got[name][0].extend(cpu)
            got[name][1].extend(wall)
    for name, (cpu, wall) in got.items():
        cpu.sort()
        wall.sort()
        p99 = round(0.99 * (len(cpu) - 1))
        print(f"{name:<9} {len(cpu)} searches  CPU p50 {statistics.median(cpu):.2f} ms "
              f"p99 {cpu[p99]:.2f}  wall p50 {statistics.median(wall):.2f} ms p99 {wall[p99]:.2f}"
              f"  load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
