"""The command that finishes a killed post-merge hook's fold holds git's ``index.lock`` while it
writes, as the hook did and as every brv writer does: no git rewrites the tree meanwhile.

Left by the kill-safe fold: the hook's own fold took the lock, but the roll-forward of its
record (services/recovery.py at any command's start, and the next post-merge hook) wrote the
target and removed the source without it, so a ``git checkout`` or ``git stash`` could
rewrite the same files between its read and its write. Shown here by killing that command
mid-write (``BRV_FAULT_AT``): it leaves git's lock, as a killed git does, and git refuses.
"""

from __future__ import annotations

from pathlib import Path

from conftest import brv_process
from hooks_support import git, git_env
from written_back_support import P, T, brv_ok, change, origin_and_clone


def test_a_killed_roll_forward_leaves_git_locked_out(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    change(origin, P)
    git("pull", "-q", "--no-rebase", cwd=clone.root,
        env=git_env(BRV_FAULT_AT="reapply-recorded"))
    lock = clone.root / ".git/index.lock"
    lock.unlink()  # the killed hook's, as git's advice says

    killed = brv_process("search", "zebrafish", cwd=clone.root,
                         env={"BRV_FAULT_AT": "reapply-written"})

    assert killed.exit_code == -9, killed
    assert "zebrafish cutover" in (clone.tree / T).read_text()  # it was writing
    assert lock.exists(), "the roll-forward wrote without git's index.lock"
    added = git("add", "-A", cwd=clone.root, check=False)
    assert added.returncode != 0, added  # git refuses, as after a killed git
    assert "index.lock" in added.stderr, added
