"""The full index build (``brv index --rebuild``) of this checkout against older commits' code.

    python bench/bench_build.py --tree /tmp/t25k --old 30e8522 [--rounds 3] [--edits 0]
        [--work /tmp/bb]

The tree is any brv project (``bench/gen_tree.py``, then ``git init``). Each round rebuilds
its index once with every code, in rotating order (this checkout and each ``--old`` commit,
its code from a ``git archive`` snapshot, as ``bench_vc.py --old`` makes it), each as its own
``python -m brv_vc index --rebuild`` process; the child's CPU time (user + sys), wall time
and peak RSS are read from ``wait4``. ``--edits N`` then times the incremental path: N
rounds of one entry edited (a line appended) and ``brv index`` run by each code. Prints the medians per code and the load average,
since a loaded machine moves every figure (compare codes measured in the same run only).
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_vc import ENV, Code, old_code  # noqa: E402

THIS = Code("this checkout", [sys.executable, "-m", "brv_vc"], ENV)


def build(code: Code, tree: Path, *, rebuild: bool = True) -> dict[str, float]:
    """One ``brv index [--rebuild]`` of ``tree`` by ``code``: CPU s, wall s, peak MB."""
    start = time.perf_counter()
    flags = ["--rebuild"] if rebuild else []
    # stderr to a file, read after the wait: a pipe read only then would block a child that
    # writes more than the pipe holds (a warning an entry from an older code)
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen([*code.brv, "index", *flags, "--json"], cwd=tree,
                                 env=code.env, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            errors.seek(0)
            raise SystemExit(f"{code.label}: exit {child.returncode}: {errors.read()!r}")
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "peak": usage.ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--old", default="", help="older commits built in the same rounds")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path("/tmp/brv-bench-build"))
    parser.add_argument("--edits", type=int, default=0,
                        help="then this many rounds of one entry edited and `brv index` run "
                             "by each code (codes of one index schema only)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    codes = [THIS, *(old_code(args.work, c) for c in args.old.split(",") if c)]
    runs: dict[str, list[dict[str, float]]] = {}
    for code in codes:
        runs[code.label], runs[f"{code.label}, 1 edit"] = [], []
    loads = []
    for round_ in range(args.rounds):
        for code in codes[round_ % len(codes):] + codes[: round_ % len(codes)]:
            runs[code.label].append(build(code, args.tree))
            loads.append(os.getloadavg()[0])
            print(f"round {round_ + 1} {code.label}: {runs[code.label][-1]}", file=sys.stderr)
    if args.edits:  # without edits the tree is never written (a rewrite moves its stat)
        _edit_rounds(args.tree, args.edits, codes, runs, loads)
    out = {label: {key: statistics.median(r[key] for r in done) for key in ("cpu", "wall", "peak")}
           for label, done in runs.items() if done}
    if args.json:
        print(json.dumps({"medians": out, "load": [min(loads), max(loads)]}))
        return
    print(f"brv index --rebuild, medians of {args.rounds}; one edit then brv index, medians of "
          f"{args.edits} (load {min(loads):.1f}-{max(loads):.1f})")
    for label, figures in out.items():
        print(f"  {label:23s} CPU {figures['cpu']:7.2f} s  wall {figures['wall']:7.2f} s  "
              f"peak {figures['peak']:5.0f} MB")


def _edit_rounds(tree: Path, rounds: int, codes: list[Code],
                 runs: dict[str, list[dict[str, float]]], loads: list[float]) -> None:
    """``rounds`` rounds of one entry edited and ``brv index`` run by each code."""
    edited = next(p for p in sorted((tree / ".brv/context-tree").rglob("*.md"))
                  if not p.name.startswith("_") and p.name != "context.md")
    original = edited.read_bytes()
    try:
        for round_ in range(rounds):
            for code in codes[round_ % len(codes):] + codes[: round_ % len(codes)]:
                with edited.open("a", encoding="utf-8") as handle:
                    handle.write(f"\nEdited in round {round_} by {code.label}.\n")
                runs[f"{code.label}, 1 edit"].append(build(code, tree, rebuild=False))
                loads.append(os.getloadavg()[0])
    finally:  # the tree is the user's: left as it was found
        edited.write_bytes(original)


if __name__ == "__main__":
    main()
