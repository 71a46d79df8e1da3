"""A fast-forward pull never writes back an entry deleted here that the incoming commits change.

Issue 35's in-project loss of the 8 x 50 run (``note_4_29.md``): the agent MERGEd an entry
away (deleted in the work tree, not staged), then a fast-forward brought a teammate's change
of it, and git wrote the file back, exit 0: git reads a tracked file missing from the work
tree as unchanged. ``brv vc pull`` now refuses, naming the entry; once the deletion is
committed, the pull is a merge that shows the change against the deletion.
"""

from __future__ import annotations

from vc_helpers import Team, team  # noqa: F401

SHARED = "auth/jwt/token_rotation.md"


def test_a_fast_forward_pull_keeps_an_entry_deleted_here(team: Team) -> None:  # noqa: F811
    alice, bob = team.alice, team.bob
    alice.edit(SHARED, summary="alice changed it")
    alice.sync("alice's change")
    (bob.tree / SHARED).unlink()  # an agent's MERGE or DELETE, not staged yet
    head = bob.git("rev-parse", "HEAD")

    pulled = bob.fails("vc", "pull")
    assert not (bob.tree / SHARED).exists(), "the pull wrote a deleted entry back"
    assert "would bring back entries deleted here" in pulled.stderr, pulled.stderr
    assert SHARED in pulled.stderr
    assert bob.git("rev-parse", "HEAD") == head

    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob deletes it")
    merged = bob.brv("vc", "pull")  # a modify/delete: a true conflict, shown
    assert merged.exit_code == 1, merged
    assert SHARED in bob.git("diff", "--name-only", "--diff-filter=U")
