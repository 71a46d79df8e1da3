"""Benchmark the git hooks on a 25,000-entry tree (DESIGN budgets: pre-commit <= 500 ms with
3 staged entries; post-merge after 10 changed entries: our target < 1 s).

    python bench/bench_hooks.py [--entries 25000] [--runs 7] [--work bench/out/hooks]

The tree is generated once (bench/gen_tree.py), committed into its nested repository
(standalone mode) and reused by later runs. Figures are medians of real processes:
- ``git commit`` with the hook minus ``git commit --no-verify`` (the hook's cost as users see it),
- ``python -m brv_vc hook-impl pre-commit`` alone (3 staged entries),
- ``git merge`` (fast-forward, 10 changed entries) with the hooks minus without them,
- ``python -m brv_vc hook-impl post-merge 0`` alone after that merge.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.gen_tree import generate  # noqa: E402
from brv_vc.services.hooks import install_hooks  # noqa: E402
from brv_vc.tree.project import Project  # noqa: E402


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env.setdefault("GIT_AUTHOR_NAME", "bench")
    env.setdefault("GIT_AUTHOR_EMAIL", "bench@example.com")
    env.setdefault("GIT_COMMITTER_NAME", "bench")
    env.setdefault("GIT_COMMITTER_EMAIL", "bench@example.com")
    return env


ENV = _env()


def git(*args: str, cwd: Path) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, env=ENV, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def prepare(work: Path, entries: int) -> tuple[Project, list[str]]:
    """Generates and commits the tree once; later runs reuse it."""
    project = Project(work / "proj")
    marker = work / f"ready-{entries}"
    if not marker.exists():
        if work.exists():
            subprocess.run(["rm", "-rf", str(work)], check=True)
        work.mkdir(parents=True)
        started = time.perf_counter()
        generate(project.root, entries, seed=0)
        git("init", "-q", "-b", "main", cwd=project.tree)
        git("add", "-A", cwd=project.tree)
        git("commit", "-q", "--no-verify", "-m", "generated tree", cwd=project.tree)
        print(f"generated and committed {entries} entries in {time.perf_counter() - started:.1f} s")
        marker.touch()
    paths = git("ls-files", "-z", cwd=project.tree).split("\0")
    return project, sorted(p for p in paths if p.endswith(".md") and p.count("/") >= 2)


def touch(tree: Path, paths: list[str], stamp: str) -> None:
    for rel in paths:
        with (tree / rel).open("a", encoding="utf-8") as handle:
            handle.write(f"\nEdited in bench run {stamp}.\n")


def median(values: list[float]) -> float:
    return statistics.median(values)


def bench_pre_commit(project: Project, paths: list[str], runs: int) -> dict[str, float]:
    tree = project.tree
    hook, bare, direct = [], [], []
    py = [sys.executable, "-m", "brv_vc", "hook-impl", "pre-commit"]
    for i in range(runs):
        chosen = paths[i * 3 : i * 3 + 3]
        touch(tree, chosen, f"hook-{i}")
        git("add", *chosen, cwd=tree)
        direct.append(timed(lambda: subprocess.run(py, cwd=tree, env=ENV, check=True)))
        hook.append(timed(lambda: git("commit", "-q", "-m", "three", cwd=tree)))
        chosen = paths[500 + i * 3 : 500 + i * 3 + 3]
        touch(tree, chosen, f"bare-{i}")
        git("add", *chosen, cwd=tree)
        bare.append(timed(lambda: git("commit", "-q", "--no-verify", "-m", "three", cwd=tree)))
    return {"commit with hook": median(hook), "commit --no-verify": median(bare),
            "hook cost (difference)": median(hook) - median(bare),
            "hook-impl pre-commit alone": median(direct)}


def bench_post_merge(project: Project, paths: list[str], runs: int) -> dict[str, float]:
    tree = project.tree
    base = git("rev-parse", "HEAD", cwd=tree).strip()
    git("checkout", "-q", "-B", "feature", cwd=tree)
    touch(tree, paths[1000:1010], "feature")
    # only the edited entries: the hooks have written derived files (untracked) meanwhile
    git("add", *paths[1000:1010], cwd=tree)
    git("commit", "-q", "--no-verify", "-m", "ten", cwd=tree)
    git("checkout", "-q", "main", cwd=tree)
    with_hooks, without, direct = [], [], []
    py = [sys.executable, "-m", "brv_vc", "hook-impl", "post-merge", "0"]
    for _ in range(runs):
        with_hooks.append(timed(lambda: git("merge", "-q", "--ff-only", "feature", cwd=tree)))
        direct.append(timed(lambda: subprocess.run(py, cwd=tree, env=ENV, check=True)))
        git("reset", "-q", "--hard", base, cwd=tree)
        without.append(timed(lambda: git("-c", "core.hooksPath=/dev/null", "merge", "-q",
                                         "--ff-only", "feature", cwd=tree)))
        git("reset", "-q", "--hard", base, cwd=tree)
    return {"merge with hooks": median(with_hooks), "merge without hooks": median(without),
            "hook cost (difference)": median(with_hooks) - median(without),
            "hook-impl post-merge alone": median(direct)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--work", type=Path, default=ROOT / "bench" / "out" / "hooks")
    args = parser.parse_args()
    project, paths = prepare(args.work.resolve(), args.entries)
    install_hooks(project, python=sys.executable)
    python_pass = median([timed(lambda: subprocess.run([sys.executable, "-c", "pass"],
                                                       check=True)) for _ in range(args.runs)])
    print(f"{len(paths)} entries, {args.runs} runs, medians in ms "
          f"(python -c pass: {python_pass:.0f} ms)")
    for title, bench in (("pre-commit, 3 staged entries", bench_pre_commit),
                         ("post-merge, 10 changed entries", bench_post_merge)):
        result = bench(project, paths, args.runs)
        print(title)
        for name, value in result.items():
            print(f"  {name:<28} {value:7.0f} ms", flush=True)


if __name__ == "__main__":
    main()
