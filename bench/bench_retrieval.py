"""Retrieval benchmarks against DESIGN.md's budgets (run on a generated tree; never in tests).

    python bench/bench_retrieval.py --sizes 1000,25000 [--workdir /tmp/brv-bench] [--runs 20]
        [--python PATH]

For each size it prints: full build (s), incremental sync after 3 changed files (ms; the
automatic check every command runs, and the explicit-paths sync curate/refresh use), warm
query p50/p99 (ms; in process through the resident ``SearchSession``: change check +
ranked search), cold ``python -m brv_vc search`` p50 next to a bare ``python -c pass``
measured in the same run, and the peak RSS of the full build (a child process, so each size is measured alone).

The cold processes run the interpreter of a plain virtualenv made once under ``--workdir``
(``cold-venv``; ``--python`` names another), with brv imported from this checkout through
``PYTHONPATH``: what a regular ``pip install brv-vc`` runs. Not this checkout's development
environment: its editable install puts setuptools' import finder in ``site``, which imports
pathlib, urllib and ipaddress before any program starts (~25 ms here) and so hides how much
of a cold search is brv's own.

Two floors are measured in the same interleaved runs, to show what any SQLite-backed answer
costs before brv adds anything: ``sqlite`` (the interpreter, ``import sqlite3`` and opening
``index.db``) and ``fts`` (that plus one ranked FTS5 query, top 10, for the query's rarest
word: the cheapest ranking any answer needs). They use no brv code at all; their ratios to
the bare interpreter are printed beside brv's.

Two more columns show where a cold search's time goes: ``scan`` is the exact in-place check
alone (one ``find -cnewer`` over the tree, as brv runs it split over the cores; no Python),
and ``no-scan`` is brv with that check answered by a ``find`` that lists nothing (so brv
believes no file changed in place; for this measure only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.gen_tree import generate  # noqa: E402

BUILD = """
import json, resource, sys, time
sys.path.insert(0, {repo!r})
from brv_vc.clock import utcnow
from brv_vc.services.derived.index import index_project
from brv_vc.tree.project import Project
t = time.perf_counter()
from pathlib import Path
r = index_project(Project(Path({root!r})), rebuild=True, now=utcnow())
print(json.dumps({{"seconds": time.perf_counter() - t, "files": r.files,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


# The floors: no brv code, only what every SQLite-backed answer has to do.
FLOOR = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
if len(sys.argv) > 2:
    rows = conn.execute(
        "SELECT docs.path FROM fts JOIN docs ON docs.id = fts.rowid WHERE fts MATCH ? "
        "ORDER BY bm25(fts, 5.0, 1.0, 1.5) LIMIT 10",  # the path from docs: fts is contentless
        (sys.argv[2],),
    ).fetchall()
else:
    rows = conn.execute("SELECT value FROM meta WHERE key = 'files'").fetchall()
sys.stdout.write("\\n".join(str(r[0]) for r in rows) + "\\n")
"""


def tree_for(workdir: Path, size: int) -> Path:
    root = workdir / f"tree{size}"
    if not (root / ".brv" / "context-tree").is_dir():
        start = time.perf_counter()
        generate(root, size, seed=7)
        print(f"  generated {size} entries in {time.perf_counter() - start:.1f} s", flush=True)
    return root


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def full_build(root: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", BUILD.format(repo=str(REPO), root=str(root))],
        capture_output=True, text=True, check=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def queries(root: Path, count: int, rng: random.Random) -> list[str]:
    from brv_vc.tree.project import Project
    from brv_vc.tree.store import entry_paths

    paths = entry_paths(Project(root))
    out = []
    for path in rng.sample(paths, min(count, len(paths))):
        words = path.rsplit("/", 1)[-1].removesuffix(".md").split("_")[:-1]
        out.append(" ".join(rng.sample(words, min(len(words), rng.randint(1, 3)))))
    return out


def incremental(root: Path, rng: random.Random) -> tuple[float, float]:
    from brv_vc.index.db import open_index
    from brv_vc.index.sync import sync
    from brv_vc.tree.project import Project
    from brv_vc.tree.store import entry_paths, write_atomic

    project = Project(root)
    handle = open_index(project)
    sync(project, handle.conn, mode="full")
    paths = entry_paths(project)
    auto, explicit = [], []
    for round_ in range(5):
        for mode in ("auto", "paths"):
            changed = rng.sample(paths, 3)
            for rel in changed:
                target = project.tree / rel
                write_atomic(target, target.read_bytes() + f"\nedit {round_} {mode}\n".encode())
            start = time.perf_counter()
            report = sync(project, handle.conn, paths=changed if mode == "paths" else None)
            elapsed = (time.perf_counter() - start) * 1000
            assert len(report.updated) == 3, report
            (auto if mode == "auto" else explicit).append(elapsed)
    handle.conn.close()
    return statistics.median(auto), statistics.median(explicit)


def warm(root: Path, texts: list[str]) -> tuple[float, float]:
    """p50 and p99 (ms) of searches in one process that keeps its connections open.

    ``SearchSession`` is the warm path (``brv mcp`` and any resident caller): each search
    runs the change check (folder mtimes, plus the in-place scan's result once it is in)
    and the ranked search, recording hits as a user's searches do.
    """
    from datetime import UTC, datetime

    from brv_vc.services.query import SearchSession
    from brv_vc.tree.project import Project

    session = SearchSession(Project(root))
    now = datetime.now(UTC)
    try:
        for text in texts:  # warm: the process has run these queries once (caches filled)
            session.search(text, now=now)
        times = []
        for text in texts:
            start = time.perf_counter()
            session.search(text, now=now)
            times.append((time.perf_counter() - start) * 1000)
    finally:
        session.close()
    return statistics.median(times), pct(times, 0.99)


def cold_python(workdir: Path) -> str:
    """The interpreter of a plain virtualenv under ``workdir`` (made on first use), holding
    the distributions a search imports (PyStemmer, the index's stemmer since issue 37)."""
    venv = workdir / "cold-venv"
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if subprocess.run([str(python), "-c", "import Stemmer"], capture_output=True).returncode:
        subprocess.run([str(python), "-m", "pip", "install", "-q", "PyStemmer>=2.2,<4"],
                       check=True)
    return str(python)


def cold(root: Path, texts: list[str], runs: int, python: str) -> dict[str, float]:
    """Medians (ms) of interleaved cold processes: bare, the two floors, and brv search."""
    # an installed package has its bytecode compiled (pip does it); this environment sets
    # PYTHONDONTWRITEBYTECODE, so compile once here instead of on every cold start
    import compileall

    from brv_vc.index.terms import query_terms, term_expr

    compileall.compile_dir(str(REPO / "brv_vc"), quiet=1)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    db = str(root / ".brv" / "state" / "index.db")
    tree = root / ".brv" / "context-tree"
    # the scan column's own stamp: brv keeps .brv/state/scan.stamp only above
    # sync.FULL_WALK_MAX entries (a smaller tree is walked in Python every time, and ``find
    # -cnewer`` of a missing file exits 1: the crash of 7cc6393's bench), so the stat pass is
    # timed against a stamp of the bench's, made now (newer than every file, as brv's is
    # after its last check): the same walk, whatever brv keeps
    stamp = root.parent / f"scan-{root.name}.stamp"
    stamp.touch()
    idle = root.parent / "idle-find"  # a find that lists nothing: the no-scan column
    idle.mkdir(exist_ok=True)
    (idle / "find").write_text("#!/bin/sh\nexit 0\n")
    (idle / "find").chmod(0o755)
    no_scan = dict(env, PATH=f"{idle}{os.pathsep}{env.get('PATH', '')}")
    times: dict[str, list[float]] = {
        "bare": [], "sqlite": [], "fts": [], "brv": [], "scan": [], "no-scan": []
    }
    index = sqlite3.connect(db)
    for i in range(runs):
        text = texts[i % len(texts)]
        expr = min(
            (term_expr(t, []) for t in query_terms(text)),
            key=lambda e: index.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (e,))
            .fetchone()[0],
        )
        commands = {
            "bare": [python, "-c", "pass"],
            "sqlite": [python, "-c", FLOOR, db],
            "fts": [python, "-c", FLOOR, db, expr],
            "brv": [python, "-m", "brv_vc", "search", text],
            "scan": ["find", "-P", str(tree), "-mindepth", "1", "-name", ".*", "-prune", "-o",
                     "-type", "f", "-name", "*.md", "-cnewer", str(stamp), "-print0"],
            "no-scan": [python, "-m", "brv_vc", "search", text],
        }
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, cwd=root, env=no_scan if name == "no-scan" else env,
                           stdout=subprocess.DEVNULL)
            times[name].append((time.perf_counter() - start) * 1000)
    index.close()
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,25000,100000")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/brv-bench"))
    parser.add_argument("--runs", type=int, default=20, help="cold-process runs per size")
    parser.add_argument("--python", help="interpreter of the cold processes (default: a plain "
                        "virtualenv made under --workdir)")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    python = args.python or cold_python(args.workdir)
    header = (f"{'entries':>8} {'build s':>8} {'rss MB':>7} {'incr auto ms':>12} "
              f"{'incr paths ms':>13} {'warm p50':>8} {'warm p99':>8} {'cold p50':>8} "
              f"{'bare p50':>8} {'ratio':>5} {'sqlite p50':>10} {'fts p50':>7} "
              f"{'sqlite x':>8} {'fts x':>5} {'cold/fts':>8} {'scan p50':>8} "
              f"{'no-scan p50':>11} {'no-scan/fts':>11}")
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        print(f"size {size}:", flush=True)
        rng = random.Random(size)
        root = tree_for(args.workdir, size)
        build = full_build(root)
        texts = queries(root, 200, rng)
        inc_auto, inc_paths = incremental(root, rng)
        w50, w99 = warm(root, texts)
        c = cold(root, texts, args.runs, python)
        b50 = c["bare"]
        rows.append(f"{size:>8} {build['seconds']:>8.2f} {build['rss_mb']:>7.0f} {inc_auto:>12.1f} "
                    f"{inc_paths:>13.1f} {w50:>8.2f} {w99:>8.2f} {c['brv']:>8.1f} {b50:>8.1f} "
                    f"{c['brv'] / b50:>5.2f} {c['sqlite']:>10.1f} {c['fts']:>7.1f} "
                    f"{c['sqlite'] / b50:>8.2f} {c['fts'] / b50:>5.2f} "
                    f"{c['brv'] / c['fts']:>8.2f} {c['scan']:>8.1f} {c['no-scan']:>11.1f} "
                    f"{c['no-scan'] / c['fts']:>11.2f}")
        print(header + "\n" + rows[-1], flush=True)
    print("\n" + header + "\n" + "\n".join(rows))


if __name__ == "__main__":
    main()
