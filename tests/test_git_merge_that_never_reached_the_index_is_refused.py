"""A merge git never applied is refused at commit, by the pre-commit hook and ``brv vc commit``.

``git merge`` writes the index, drops ``index.lock``, then its strategy takes the lock again.
When another process holds it at that moment, git 2.39 prints "error: Unable to write index."
yet writes MERGE_HEAD (and a MERGE_MSG whose ``# Conflicts:`` list is empty) and exits 1 with
the index still HEAD's; a ``git commit --no-edit`` then recorded HEAD's tree as the merge, the
teammate's deletion and change undone (issue 35, the team run's merge commits 984f686 and
665afb3). brv's own writers wait for a running merge; here another process holds the lock:
a ``post-index-change`` hook, which git runs right after it wrote the index, in that gap.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from vc_helpers import Member, Team, git, team  # noqa: F401

SHARED = "auth/jwt/token_rotation.md"
DELETED = "auth/jwt/old_keys.md"
CHANGED = "auth/jwt/signing.md"
MINE = "auth/jwt/bob_notes.md"


def _teammates_diverge(team: Team) -> str:  # noqa: F811
    """alice deletes one entry and changes another; bob adds his own. Returns alice's head."""
    alice, bob = team.alice, team.bob
    alice.write(DELETED, "Old keys", facts=["retired"])
    alice.write(CHANGED, "Signing", summary="before")
    alice.sync("two more entries")
    bob.ok("vc", "pull")
    (alice.tree / DELETED).unlink()
    alice.edit(CHANGED, summary="alice signs with ES256")
    alice.sync("alice's changes")
    bob.write(MINE, "Bob's notes", summary="bob's own entry")
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob's entry")
    bob.git("fetch", "-q", "origin")
    return bob.git("rev-parse", "origin/main").strip()


def _lock_held_once_after_the_index_is_written(bob: Member) -> Path:
    """Another process takes index.lock right after git writes the index (once); its path."""
    hooks = Path(bob.git("rev-parse", "--path-format=absolute", "--git-path", "hooks").strip())
    lock = Path(bob.git("rev-parse", "--path-format=absolute", "--git-path", "index.lock").strip())
    hook = hooks / "post-index-change"
    hook.write_text(f"#!/bin/sh\nif [ ! -e '{lock}.once' ]; then : > '{lock}.once'; "
                    f": > '{lock}'; fi\n")
    hook.chmod(0o755)
    os.utime(bob.tree / SHARED, (1, 1))  # stat info changed: git's refresh writes the index
    return lock


def _state(bob: Member) -> tuple[str, str, str, list[str]]:
    git_dir = Path(bob.git("rev-parse", "--absolute-git-dir").strip())
    return (bob.git("rev-parse", "HEAD"), bob.git("write-tree"),
            (git_dir / "MERGE_HEAD").read_text(), sorted(os.listdir(bob.tree / "auth/jwt")))


def test_a_merge_git_never_applied_is_refused_until_aborted_and_pulled_again(
        team: Team) -> None:  # noqa: F811
    theirs = _teammates_diverge(team)
    bob = team.bob
    lock = _lock_held_once_after_the_index_is_written(bob)
    merged = subprocess.run(["git", "merge", "--no-edit", "origin/main"], cwd=bob.tree,
                            capture_output=True, text=True, check=False)
    assert merged.returncode == 1, merged
    assert "Unable to write index" in merged.stderr
    lock.unlink()  # the other process is done
    before = _state(bob)
    assert before[1] == bob.git("rev-parse", "HEAD^{tree}")  # the index is still HEAD's

    committed = subprocess.run(["git", "commit", "-q", "--no-edit"], cwd=bob.tree,
                               capture_output=True, text=True, check=False)
    assert committed.returncode == 1, committed
    assert (f"git's merge of {theirs[:7]} never reached the index (git could not write it: "
            "'Unable to write index')") in committed.stderr
    assert "run 'git merge --abort' then pull again" in committed.stderr
    assert _state(bob) == before  # nothing changed

    refused = bob.fails("vc", "commit", "-m", "settle the merge")
    assert f"git's merge of {theirs[:7]} never reached the index" in refused.stderr
    assert _state(bob) == before

    bob.git("merge", "--abort")  # what the message says, then pull again
    bob.ok("vc", "pull")
    files = bob.git("ls-tree", "-r", "--name-only", "HEAD").split()
    assert DELETED not in files  # alice's deletion kept
    assert MINE in files  # and bob's entry
    assert "alice signs with ES256" in bob.git("show", f"HEAD:{CHANGED}")
    assert bob.git("rev-parse", "HEAD^2").strip() == theirs


def test_merges_that_leave_head_s_tree_on_purpose_still_commit(team: Team) -> None:  # noqa: F811
    """A merge of changes HEAD already holds, and conflicts settled all with one's own side."""
    alice, bob = team.alice, team.bob
    alice.edit(SHARED, summary="the same words")
    alice.sync("alice's summary")
    bob.edit(SHARED, summary="the same words")
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob's identical summary")
    bob.git("fetch", "-q", "origin")
    bob.git("merge", "-q", "--no-commit", "--no-ff", "origin/main")
    assert bob.git("write-tree") == bob.git("rev-parse", "HEAD^{tree}")
    bob.git("commit", "-q", "--no-edit")  # an empty merge, committed as git made it
    assert bob.git("rev-parse", "HEAD^2").strip() == alice.git("rev-parse", "HEAD").strip()

    alice.edit(SHARED, summary="alice: rotate hourly")
    alice.sync("alice's side")
    bob.edit(SHARED, summary="bob: rotate daily")
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob's side")
    bob.git("fetch", "-q", "origin")
    subprocess.run(["git", "-c", "merge.brv.driver=false", "merge", "-q", "--no-edit",
                    "origin/main"], cwd=bob.tree, capture_output=True, check=False)
    assert bob.git("diff", "--name-only", "--diff-filter=U").split() == [SHARED]
    bob.git("checkout", "--ours", "--", SHARED)
    bob.git("add", "--", SHARED)
    bob.git("commit", "-q", "--no-edit")  # settled with bob's side: HEAD's tree, listed
    assert "bob: rotate daily" in bob.git("show", f"HEAD:{SHARED}")
    assert bob.git("rev-parse", "HEAD^2").strip() == alice.git("rev-parse", "HEAD").strip()
