"""CPU cost of the hot reads (search, query, show, glance) in two checkouts, side by side.

    python bench/bench_hot_reads.py --entries 2000 [--workdir /tmp/brv-bench] [--runs 40]
                                    [--against /tmp/old-checkout]

Why: moving statements out of ``services/`` into ``index/`` (issue 39) must not make the hot
paths slower. Each checkout runs in its own interpreter (``PYTHONPATH`` names it) over the
same tree from ``bench/gen_tree.py`` (its index built first), and the two alternate run by
run so a change of the machine's load falls on both. Printed per checkout: the median CPU
time (user + system, ms) of a warm in-process ``search_tree``, ``query_tree``,
``show_entry`` and a ten-path ``glance``, and of a cold ``python -m brv_vc search WORD``
process (each checkout's bytecode compiled first); then the load average.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# the worker: what one checkout costs for each read (CPU ms of this process per call)
WORKER = """
import json, sys, time
from pathlib import Path
from datetime import UTC, datetime
from brv_vc.services.glance import glance
from brv_vc.services.query import query_tree, search_tree
from brv_vc.services.show import show_entry
from brv_vc.tree.project import Project

project, words, paths = Project(Path(sys.argv[1])), json.loads(sys.argv[2]), json.loads(sys.argv[3])
now = datetime(2026, 1, 1, tzinfo=UTC)
calls = {
    "search": lambda i: search_tree(project, words[i % len(words)], now=now, record=False),
    "query": lambda i: query_tree(project, words[i % len(words)], now=now),
    "show": lambda i: show_entry(project, paths[i % len(paths)], now=now),
    "glance": lambda i: glance(project, paths[i % len(paths):][:10] or paths[:10], now),
}
out = {}
for name, call in calls.items():
    call(0)  # warm: the index is open in the OS cache, the modules imported
    spent = []
    for i in range(int(sys.argv[4])):
        start = time.process_time()
        call(i)
        spent.append((time.process_time() - start) * 1000)
    out[name] = spent
print(json.dumps(out))
"""


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def run(code: Path, args: list[str], root: Path) -> tuple[str, float]:
    """Runs ``python args`` with ``code`` first on the path; its stdout and CPU ms."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    before = children_cpu()
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                         cwd=root, check=True).stdout
    return out, children_cpu() - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/brv-bench"))
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    opts = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from bench.bench_retrieval import tree_for
    from brv_vc.tree.project import Project
    from brv_vc.tree.store import entry_paths

    root = tree_for(opts.workdir, opts.entries)
    subprocess.run([sys.executable, "-m", "brv_vc", "search", "warm"], cwd=root,
                   capture_output=True, check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
    rng = random.Random(7)
    paths = sorted(rng.sample(entry_paths(Project(root)), 40))
    words = [p.rsplit("/", 1)[-1].removesuffix(".md").split("_")[0] for p in paths]
    codes = {"this": REPO, **({"against": opts.against} if opts.against else {})}
    for code in codes.values():  # each checkout's bytecode written once (PYTHONDONTWRITEBYTECODE)
        compileall.compile_dir(code / "brv_vc", quiet=1)
    warm: dict[str, dict[str, list[float]]] = {name: {} for name in codes}
    cold: dict[str, list[float]] = {name: [] for name in codes}
    for _ in range(opts.rounds):
        for name, code in codes.items():
            out, _cpu = run(code, ["-c", WORKER, str(root), json.dumps(words), json.dumps(paths),
                                   str(opts.runs)], root)
            for read, spent in json.loads(out).items():
                warm[name].setdefault(read, []).extend(spent)
    for i in range(opts.runs // 2):
        for name, code in codes.items():
            cold[name].append(run(code, ["-m", "brv_vc", "search", words[i % len(words)]],
                                  root)[1])
    print(f"{opts.entries} entries, median CPU ms (user + system) per call, "
          f"{opts.rounds} x {opts.runs} warm calls, {opts.runs // 2} cold searches")
    print(f"{'checkout':<10}" + "".join(f"{r:>10}" for r in [*warm["this"], "cold"]))
    for name, code in codes.items():
        cells = [statistics.median(warm[name][r]) for r in warm["this"]]
        cells.append(statistics.median(cold[name]))
        print(f"{name:<10}" + "".join(f"{c:>10.2f}" for c in cells) + f"   ({code})")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
          + f" on {os.cpu_count()} CPUs, {time.strftime('%H:%M:%S')}")


if __name__ == "__main__":
    main()
