"""A brv writer beside a person's plain ``git pull``: the merge commit holds the merged tree.

``git merge`` (a ``git pull`` runs one) refreshes and writes the index, drops git's
``index.lock``, then its strategy takes it again. A brv writer that took the lock in between
(vc/git_index_lock.py) made git 2.39's merge print "error: Unable to write index." yet write
MERGE_HEAD and exit 1 ("fix conflicts") with the index still HEAD's: the person's ``git commit
--no-edit`` then recorded HEAD's tree as the merge, the teammate's change and deletion undone
(issue 35: clone 7's merge commit 984f686 in the 8 x 50 team run). Here the gap is held open
for certain: with two strategies git runs ``git stash create`` there, and a wrapper in git's
exec path holds that step until the writer has started. (Before the fix the writer took the
lock there: with two strategies git then gave up, exit 128, nothing merged, and the person's
commit failed; with one, as in the team run, a loop taking the lock at random made 36 of 40
merges end as above.)
"""

from __future__ import annotations

from pathlib import Path

from vc_helpers import Team, git, held_exec_path, start_held, team, writer_waited  # noqa: F401

SHARED = "auth/jwt/token_rotation.md"
DELETED = "auth/jwt/old_keys.md"
CHANGED = "auth/jwt/signing.md"



def _teammates_diverge(team: Team) -> None:  # noqa: F811
    """alice deletes one entry, changes another and the shared one; bob the shared one."""
    alice, bob = team.alice, team.bob
    alice.write(DELETED, "Old keys", facts=["retired"])
    alice.write(CHANGED, "Signing", summary="before")
    alice.sync("two more entries")
    bob.ok("vc", "pull")
    (alice.tree / DELETED).unlink()
    alice.edit(CHANGED, summary="alice signs with ES256")
    alice.edit(SHARED, summary="alice: rotate hourly")
    alice.sync("alice's changes")
    bob.edit(SHARED, summary="bob: rotate daily")
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob's change")


def test_a_writer_in_the_gap_of_git_merge_waits_and_the_merge_commit_keeps_theirs(
        team: Team, tmp_path: Path) -> None:  # noqa: F811
    _teammates_diverge(team)
    bob = team.bob
    exec_path, entered, release = held_exec_path(tmp_path, "stash")
    pulling = start_held(["git", "pull", "-q", "--no-rebase", "--no-edit", "-s", "ort", "-s", "resolve"],
                         bob.tree, exec_path, entered)
    waited = writer_waited(bob.root, pulling, release)
    out, err = pulling.communicate(timeout=300)
    unmerged = bob.git("diff", "--name-only", "--diff-filter=U").split()
    for path in unmerged:  # the person settles each conflict (bob's side), as the team run's
        bob.git("checkout", "--ours", "--", path)
        bob.git("add", "--", path)
    bob.git("commit", "-q", "--no-edit")  # what the person in issue 35's trace ran
    files = bob.git("ls-tree", "-r", "--name-only", "HEAD").split()
    assert DELETED not in files  # alice's deletion stays deleted (it came back before)
    assert "alice signs with ES256" in bob.git("show", f"HEAD:{CHANGED}")
    assert unmerged == [SHARED]  # the true conflict on the shared entry's summary
    assert pulling.returncode == 1, err
    assert "Unable to write index" not in out + err
    assert waited, "the writer took git's index.lock while git merge was between steps"
    assert bob.git("rev-parse", "HEAD^2") == git(team.remote, "rev-parse", "main")
