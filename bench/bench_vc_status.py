"""Benchmark: ``brv vc status`` (a real process) against ``git status`` on the same repository.

Budget (DESIGN.md): within 2x of ``git status`` on a 25,000-file tree. The tree is generated
(bench/gen_tree.py), committed into the nested repository, then 3 files are modified.
Each command runs once to warm the caches, then the commands run interleaved 5 times (so
both see the same machine load; the machine may be shared); medians are reported.

    python bench/bench_vc_status.py --entries 25000 [--workdir /tmp/bench-vc]

``--workdir`` keeps the generated project; a later run with the same folder reuses it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.gen_tree import generate  # noqa: E402


def _run(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr}")
    return elapsed


def _medians(cmds: list[tuple[list[str], Path]], env: dict[str, str], runs: int) -> list[float]:
    for cmd, cwd in cmds:
        _run(cmd, cwd, env)  # warm the page cache and git's index stat data
    times: list[list[float]] = [[] for _ in cmds]
    for _ in range(runs):
        for slot, (cmd, cwd) in enumerate(cmds):
            times[slot].append(_run(cmd, cwd, env))
    return [statistics.median(t) for t in times]


def setup(root: Path, entries: int, env: dict[str, str]) -> Path:
    """Generates the tree, commits it into the nested repository, modifies 3 files."""
    paths = generate(root, entries, seed=0)
    brv = [sys.executable, "-m", "brv_vc"]
    subprocess.run([*brv, "vc", "init"], cwd=root, env=env, check=True, capture_output=True)
    tree = root / ".brv" / "context-tree"
    # setup, not measured: no background 'git gc --auto' racing the temp folder's removal,
    # and the 25,000-file commit skips the pre-commit hook 'vc init' installed
    for args in (["config", "gc.auto", "0"], ["add", "-A"],
                 ["commit", "-q", "--no-verify", "-m", "bench tree"]):
        subprocess.run(["git", *args], cwd=tree, env=env, check=True)
    for rel in paths[:3]:
        with (tree / rel).open("a", encoding="utf-8") as handle:
            handle.write("\nA local edit.\n")
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    env = dict(os.environ)
    # An installed brv has its bytecode compiled; a development shell may forbid writing it
    # (PYTHONDONTWRITEBYTECODE), which would add ~25 ms of compiling to every brv run.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "bench-vc-pycache")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.setdefault("GIT_AUTHOR_NAME", "bench")
    env.setdefault("GIT_AUTHOR_EMAIL", "bench@example.com")
    env.setdefault("GIT_COMMITTER_NAME", "bench")
    env.setdefault("GIT_COMMITTER_EMAIL", "bench@example.com")
    with tempfile.TemporaryDirectory(prefix="bench-vc-") as tmp:
        root = args.workdir or Path(tmp) / "project"
        root.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        tree = root / ".brv" / "context-tree"
        if (tree / ".git").is_dir():  # --workdir of an earlier run: reuse its tree
            print(f"reusing {root}")
        else:
            tree = setup(root, args.entries, env)
        files = sum(1 for _ in tree.rglob("*.md"))
        print(f"setup: {files} files committed, 3 modified ({time.perf_counter() - start:.1f} s)")
        git_s, brv_s, bare_s = _medians([
            (["git", "status"], tree),
            ([sys.executable, "-m", "brv_vc", "vc", "status"], root),
            ([sys.executable, "-c", "pass"], root),
        ], env, args.runs)
        print(f"git status           median {git_s * 1000:7.1f} ms")
        print(f"brv vc status        median {brv_s * 1000:7.1f} ms")
        print(f"python -c pass       median {bare_s * 1000:7.1f} ms (interpreter start-up)")
        print(f"ratio brv/git        {brv_s / git_s:.2f} (budget <= 2.00)")


if __name__ == "__main__":
    main()
