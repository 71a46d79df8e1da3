"""Benchmark: the derived refresh ``brv vc commit`` pays after committing N changed entries.

    python bench/bench_refresh.py --project /tmp/x/25000-standalone/a [--count 100] [--runs 7]
                                  [--baseline /tmp/old-checkout] [--spread]

``--project`` is a COPY of a ``bench_vc.py`` project (it is edited: never point it at one
another bench uses). Each run is a fresh process that imports what ``brv vc commit`` has
loaded before its refresh, appends a line to the next ``count`` entries (in path order, as
``bench_vc.py`` edits them; ``--spread``: scattered over the tree), and times
``refresh(paths, defer=True, manifest=False)``, lazy imports included: user and system CPU
ms (getrusage) and wall ms.
With ``--baseline`` (a folder holding another ``brv_vc`` package, e.g. ``git archive`` of
main) the two refresh the same entries in each run (each appends its own line), alternating
which goes first, and the ratio is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import resource, sys, time
from pathlib import Path
project_dir, listing, start, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
import brv_vc.services.vc.committing, brv_vc.services.vc.checks  # loaded before commit's refresh
from brv_vc.clock import utcnow
from brv_vc.tree.project import find_project
project = find_project(Path(project_dir))
chosen = Path(listing).read_text().split()[start:start + count]
for rel in chosen:
    with open(project.tree / rel, "a", encoding="utf-8") as handle:
        handle.write(f"\nEdited by bench_refresh {start}.\n")
now = utcnow()
used, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
from brv_vc.services.derived import refresh
report = refresh(project, chosen, now, defer=True, manifest=False)
done, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - wall
assert not report.problems, report.problems
print(f"{(done.ru_utime - used.ru_utime) * 1000:.1f} {(done.ru_stime - used.ru_stime) * 1000:.1f} "
      f"{wall * 1000:.1f}")
"""


def _entries(project: Path) -> list[str]:
    tree = project / ".brv" / "context-tree"
    found = []
    for folder, _dirs, files in os.walk(tree):
        rel = os.path.relpath(folder, tree)
        if rel == "." or rel.startswith(("_", ".")) or "/." in rel:
            continue
        for name in files:
            if name.endswith(".md") and not name.startswith("_") and name != "context.md" \
                    and not name.endswith((".abstract.md", ".overview.md")):
                found.append(f"{rel}/{name}")
    return sorted(found)


def _run(code_root: Path, project: Path, listing: Path, start: int, count: int
         ) -> tuple[float, float, float]:
    env = dict(os.environ, PYTHONPATH=str(code_root))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # run from the code's own folder: ``-c`` puts the working folder first on sys.path
    out = subprocess.run([sys.executable, "-c", _CHILD, str(project), str(listing), str(start),
                          str(count)], env=env, cwd=code_root, capture_output=True, text=True,
                         check=True)
    user, system, wall = out.stdout.split()
    return float(user), float(system), float(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", type=Path, required=True)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--spread", action="store_true")
    parser.add_argument("--start", type=int, default=0, help="first entry edited")
    args = parser.parse_args()
    paths = _entries(args.project)
    if args.spread:
        random.Random(0).shuffle(paths)
    listing = args.project.parent / f"bench-refresh-{'spread' if args.spread else 'sorted'}.txt"
    listing.write_text("\n".join(paths))
    variants = [("new", ROOT)] + ([("base", args.baseline)] if args.baseline else [])
    _run(ROOT, args.project, listing, args.start, 1)  # settles what an earlier run left
    results: dict[str, list[tuple[float, float, float]]] = {name: [] for name, _ in variants}
    cursor = args.start + 1
    for run in range(args.runs):  # both refresh the same entries, alternating who goes first
        order = variants if run % 2 == 0 else variants[::-1]
        for name, root in order:
            results[name].append(_run(root, args.project, listing, cursor, args.count))
        cursor = (cursor + args.count) % max(1, len(paths) - args.count)
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else []
    print(f"refresh of {args.count} entries ({'spread' if args.spread else 'sorted'}), "
          f"{args.runs} runs, load {' '.join(load)}")
    medians = {}
    for name, samples in results.items():
        user, system, wall = (statistics.median(s[k] for s in samples) for k in range(3))
        medians[name] = user
        print(f"  {name:5s} user {user:6.1f} ms  system {system:5.1f} ms  wall {wall:6.1f} ms  "
              f"(user runs: {' '.join(f'{s[0]:.0f}' for s in samples)})")
    if "base" in medians:
        # system time (file and database I/O) swings 5-30 ms from run to run on a loaded
        # machine; the user time is what the code changes
        print(f"  new/base user-time ratio {medians['new'] / medians['base']:.2f}")


if __name__ == "__main__":
    main()
