"""What the pre-commit note on code and its knowledge adds to a commit (issue 27: <= 50 ms at
25,000 entries).

    python bench/bench_code_links_hook.py [--entries 25000] [--runs 9] [--work /tmp/brv-cl-hook]

An in-project repository: the generated tree (bench/gen_tree.py) beside ``--code`` code files,
one entry in ten naming one of them in its ``Files:`` list; generated, committed and indexed
once, reused by later runs. One code file (linked to entries) is staged; then, interleaved:
- ``python -m brv_vc hook-impl pre-commit`` with ``code_links.on_commit: off`` (no note) and
  with ``warn`` (the note): their difference is what the note adds to every commit;
- the note's step alone, in process (``code_notes.commit_note``): ``git diff --cached`` and
  the links table for the staged paths.
Medians, with the load average (absolute times vary 2-5x on a shared machine).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_code_links import ENV, git  # noqa: E402 (one git environment for both)
from bench.gen_tree import generate  # noqa: E402
from brv_vc.tree.project import Project  # noqa: E402

PREFIX = ".brv/context-tree"


def prepare(work: Path, entries: int, code: int) -> Project:
    """Generates, links, commits and indexes the project once."""
    project = Project(work / "proj")
    marker = work / f"ready-{entries}-{code}"
    if marker.exists():
        return project
    if work.exists():
        subprocess.run(["rm", "-rf", str(work)], check=True)
    work.mkdir(parents=True)
    started = time.perf_counter()
    paths = generate(project.root, entries, seed=0)
    for n in range(code):
        target = project.root / f"src/mod{n % 20}/file{n}.ts"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"export const value{n} = {n};\n")
    for i, rel in enumerate(paths[::10]):
        entry = project.tree / rel
        text = entry.read_text(encoding="utf-8")
        n = i % code
        entry.write_text(text + f"\n## Raw Concept\n\n**Files:**\n- src/mod{n % 20}/file{n}.ts\n",
                         encoding="utf-8")
    git("init", "-q", "-b", "main", cwd=project.root)
    in_project(project.root)
    git("add", "-A", cwd=project.root)
    git("commit", "-q", "--no-verify", "-m", "generated", cwd=project.root)
    subprocess.run([sys.executable, "-m", "brv_vc", "index"], cwd=project.root, env=ENV,
                   check=True, capture_output=True)
    print(f"generated, linked, committed and indexed {entries} entries in "
          f"{time.perf_counter() - started:.1f} s", flush=True)
    marker.touch()
    return project


def in_project(root: Path) -> None:
    """``brv vc init --in-project --no-hooks``: the hook is run directly, as git would."""
    subprocess.run([sys.executable, "-m", "brv_vc", "vc", "init", "--in-project", "--no-hooks"],
                   cwd=root, env=ENV, check=True, capture_output=True)


def setting(project: Project, mode: str) -> None:
    text = project.config_path.read_text(encoding="utf-8").split("code_links:")[0]
    project.config_path.write_text(f"{text}code_links:\n  on_commit: {mode}\n",
                                   encoding="utf-8")


def hook_ms(project: Project) -> float:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "brv_vc", "hook-impl", "pre-commit"],
                          cwd=project.root, env=ENV, capture_output=True, text=True, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"hook failed: {proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=25000)
    parser.add_argument("--code", type=int, default=500)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--work", type=Path, default=Path("/tmp/brv-code-links-hook"))
    args = parser.parse_args()
    project = prepare(args.work, args.entries, args.code)
    staged = "src/mod0/file0.ts"
    (project.root / staged).write_text("export const value0 = -1;\n")
    git("add", staged, cwd=project.root)
    setting(project, "warn")
    probe = subprocess.run([sys.executable, "-m", "brv_vc", "hook-impl", "pre-commit"],
                           cwd=project.root, env=ENV, capture_output=True, text=True, check=False)
    print("the note:", probe.stderr.strip() or "(none: links missing?)")
    from brv_vc.services.vc.code_notes import commit_note

    off, warn, step = [], [], []
    for _ in range(args.runs):
        setting(project, "off")
        off.append(hook_ms(project))
        setting(project, "warn")
        warn.append(hook_ms(project))
        started = time.perf_counter()
        _, links, _ = commit_note(project, project.root, None, PREFIX)
        step.append((time.perf_counter() - started) * 1000)
        assert links, "the staged file should have linked entries"
    git("reset", "-q", "HEAD", staged, cwd=project.root)
    git("checkout", "-q", "--", staged, cwd=project.root)
    setting(project, "warn")
    med = statistics.median
    print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(f"{args.entries} entries, {args.code} code files, 1 staged code file, "
          f"{args.runs} interleaved runs (medians):")
    print(f"  hook-impl pre-commit, on_commit: off   {med(off):7.1f} ms")
    print(f"  hook-impl pre-commit, on_commit: warn  {med(warn):7.1f} ms")
    print(f"  added by the note (warn - off)         {med(warn) - med(off):7.1f} ms")
    print(f"  the note's step alone, in process      {med(step):7.1f} ms")


if __name__ == "__main__":
    main()
