"""The command that finishes a killed post-merge hook's fold holds git's ``index.lock`` while it
writes, as the hook did and as every brv writer does: no git rewrites the tree meanwhile.

Left by the kill-safe fold: the hook's own fold took the lock, but the roll-forward of its
record (services/recovery.py at any command's start, and the next post-merge hook) wrote the
target and removed the source without it, so a ``git checkout`` or ``git stash`` could
rewrite the same files between its read and its write. Shown here by killing that command
mid-write (``BRV_FAULT_AT``): it leaves git's lock, as a killed git does, and git refuses;
and by a live ``git commit -a`` holding the lock: the command waits, then leaves the record
for the next one (an error while finishing keeps it), changing nothing meanwhile.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import brv_process
from hooks_support import git, git_env
from vc_helpers import appear, held_pre_commit
from written_back_support import P, T, brv_ok, change, origin_and_clone

from brv_vc.tree.project import Project

INCOMING = "Refunds zebrafish cutover closes on Fridays."  # the teammate's change of P


def _pulled_with_a_killed_hook(tmp_path: Path) -> Project:
    """A clone whose plain pull's post-merge hook was killed once its record was written."""
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    change(origin, P)
    git("pull", "-q", "--no-rebase", cwd=clone.root,
        env=git_env(BRV_FAULT_AT="reapply-recorded"))
    (clone.root / ".git/index.lock").unlink()  # the killed hook's, as git's advice says
    return clone


def test_a_killed_roll_forward_leaves_git_locked_out(tmp_path: Path) -> None:
    clone = _pulled_with_a_killed_hook(tmp_path)
    lock = clone.root / ".git/index.lock"

    killed = brv_process("search", "zebrafish", cwd=clone.root,
                         env={"BRV_FAULT_AT": "reapply-written"})

    assert killed.exit_code == -9, killed
    assert "zebrafish cutover" in (clone.tree / T).read_text()  # it was writing
    assert lock.exists(), "the roll-forward wrote without git's index.lock"
    added = git("add", "-A", cwd=clone.root, check=False)
    assert added.returncode != 0, added  # git refuses, as after a killed git
    assert "index.lock" in added.stderr, added


def test_a_roll_forward_waits_for_a_live_git_and_keeps_the_record(tmp_path: Path) -> None:
    clone = _pulled_with_a_killed_hook(tmp_path)
    [record] = (clone.root / ".brv/state/pending").glob("reapply-*.json")
    hooks, release = held_pre_commit(tmp_path)
    # 'commit -a' holds index.lock while its pre-commit hook runs (here not brv's)
    committing = subprocess.Popen(["git", "-c", f"core.hooksPath={hooks}", "commit", "-a",
                                   "-q", "-m", "held"], cwd=clone.root, env=git_env(),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        appear(clone.root / ".git/index.lock", committing)
        waited = brv_process("search", "zebrafish", cwd=clone.root, env={"BRV_GIT_WAIT": "1"})
    finally:
        release.write_text("go")
        assert committing.wait(timeout=300) == 0, committing.communicate()

    assert waited.exit_code == 0, waited
    assert "could not be finished, kept to retry" in waited.stderr, waited.stderr
    assert record.exists()
    assert INCOMING in (clone.tree / P).read_text()  # nothing done while git held the lock
    assert INCOMING not in (clone.tree / T).read_text()

    brv_ok(clone.root, "search", "zebrafish")

    assert not record.exists()
    assert not (clone.tree / P).exists()
    assert (clone.tree / T).read_text().count(INCOMING) == 1
