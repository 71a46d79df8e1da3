"""A brv writer beside a person's plain ``git pull`` waits for the whole pull, fetch to merge.

``git pull`` fetches, then starts ``git merge``, whose strategy takes git's ``index.lock``
with no retry: a brv writer holding the lock at that moment (vc/git_index_lock.py) made git
2.39 print "error: Unable to write index." yet write MERGE_HEAD and exit 1 with the index
still HEAD's, so the person's ``git commit --no-edit`` recorded HEAD's tree as the merge and
the teammate's change was undone (CI of f4c6378 met it in
test_vc_curates_beside_pulls_lose_nothing.py). A writer that looked for a running ``git
merge`` only could start between the fetch and the merge. Here that moment is held open for
certain: a wrapper in git's exec path holds pull's ``git merge`` until the writer has tried.
Before the fix the writer took the lock there and the merge then failed as above.
"""

from __future__ import annotations

from pathlib import Path

from vc_helpers import Team, git, held_exec_path, start_held, team, writer_waited  # noqa: F401

SHARED = "auth/jwt/token_rotation.md"
CHANGED = "auth/jwt/signing.md"



def test_a_writer_between_pulls_fetch_and_merge_waits_and_the_merge_keeps_theirs(
        team: Team, tmp_path: Path) -> None:  # noqa: F811
    alice, bob = team.alice, team.bob
    alice.write(CHANGED, "Signing", summary="before")
    alice.sync("one more entry")
    bob.ok("vc", "pull")
    alice.edit(CHANGED, summary="alice signs with ES256")
    alice.sync("alice's change")
    bob.edit(SHARED, summary="bob: rotate daily")  # a true merge (not a fast-forward)
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob's change")
    exec_path, entered, release = held_exec_path(tmp_path, "merge")
    pulling = start_held(["git", "pull", "-q", "--no-rebase", "--no-edit"],
                         bob.tree, exec_path, entered)
    waited = writer_waited(bob.root, pulling, release)
    out, err = pulling.communicate(timeout=300)
    assert waited, "the writer took git's index.lock between git pull's fetch and its merge"
    assert pulling.returncode == 0, out + err
    assert "Unable to write index" not in out + err
    assert "alice signs with ES256" in bob.git("show", f"HEAD:{CHANGED}")
    assert bob.git("rev-parse", "HEAD^2") == git(team.remote, "rev-parse", "main")
