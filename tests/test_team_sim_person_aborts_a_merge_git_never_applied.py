"""The team simulation's person reads git's "Unable to write index." as a person would.

``git merge`` that met another process's ``index.lock`` as its strategy started leaves
MERGE_HEAD, nothing unmerged and the index still HEAD's (exit 1). The bench's person used to
settle that with ``git commit --no-edit``, recording HEAD's tree as the merge; now it counts
the event, runs ``git merge --abort`` and pulls again later (bench/team_sim_world.settle).
Real git, the lock held from a ``post-index-change`` hook (git runs it in that very gap).
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from bench.team_sim_world import Clone, World, base_env, settle


def _git(cwd: Path, env: dict[str, str], *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_person_aborts_a_merge_git_never_applied_and_counts_it(tmp_path: Path) -> None:
    env = base_env(tmp_path / "base")
    clone = Clone(0, tmp_path / "c0", False, random.Random(1))
    work = clone.work
    work.mkdir(parents=True)
    _git(work, env, "init", "-q", "-b", "main")
    (work / "kept.md").write_text("kept\n")
    (work / "gone.md").write_text("deleted by the teammate\n")
    _git(work, env, "add", ".")
    _git(work, env, "commit", "-q", "-m", "base")
    _git(work, env, "checkout", "-q", "-b", "teammate")
    _git(work, env, "rm", "-q", "gone.md")
    _git(work, env, "commit", "-q", "-m", "the teammate deletes")
    _git(work, env, "checkout", "-q", "main")
    (work / "mine.md").write_text("mine\n")
    _git(work, env, "add", ".")
    _git(work, env, "commit", "-q", "-m", "mine")
    head = _git(work, env, "rev-parse", "HEAD")
    hook = work / ".git" / "hooks" / "post-index-change"
    hook.write_text("#!/bin/sh\n[ -e .git/once ] || { : > .git/once; : > .git/index.lock; }\n")
    hook.chmod(0o755)
    (work / "kept.md").touch()  # stat info changed: git's refresh writes the index
    merged = subprocess.run(["git", "merge", "--no-edit", "teammate"], cwd=work, env=env,
                            capture_output=True, text=True, check=False)
    assert "Unable to write index" in merged.stderr, merged
    (work / ".git" / "index.lock").unlink()  # the other process is done
    world = World("standalone", tmp_path / "base", "", env, 0.0)

    assert settle(world, clone, "git pull") is False

    assert world.stats["merge git never applied (aborted, pulled again later)"] == 1
    assert not (work / ".git" / "MERGE_HEAD").exists()
    assert _git(work, env, "rev-parse", "HEAD") == head  # no merge commit of HEAD's tree
    assert (work / "gone.md").exists()  # still here until the merge is made again
    _git(work, env, "merge", "-q", "--no-edit", "teammate")  # the person's next pull
    assert not (work / "gone.md").exists()
