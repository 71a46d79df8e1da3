"""brv vc pull looks at what it writes: its refs' locks, its incoming files; abstracts queued.

A stale lock under a ref the pull does not write (another branch) does not stop it; one on its
own branch, or on the remote-tracking ref it fetches, does, and names ``brv vc recover``, which
removes them all. The local-changes check asks git about the incoming entries' folders: other
edits and untracked files there never block a pull, an edit of an incoming entry does. The
pulled entries are indexed and their folders summarized at once; their abstracts are queued,
as after ``brv vc commit``, and ``brv summarize`` writes them.
"""

from __future__ import annotations

import vc_helpers
from conftest import snapshot
from vc_helpers import Team

from bench import fault_pull

team = vc_helpers.team
ROT = "auth/jwt/token_rotation.md"


def _alice_pushes(team: Team) -> str:
    team.alice.write("auth/jwt/alice.md", "Alice's lease", summary="Leases last an hour",
                     facts=["leases expire after one hour"])
    team.alice.sync("alice")
    return team.alice.git("rev-parse", "HEAD").strip()


def test_a_lock_under_another_branch_does_not_stop_a_pull(team: Team) -> None:
    head = _alice_pushes(team)
    bob = team.bob
    lock = bob.tree / ".git/refs/heads/feature.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")
    bob.ok("vc", "pull")
    assert bob.git("rev-parse", "HEAD").strip() == head
    assert lock.exists()  # not the pull's to remove
    recovered = bob.ok("vc", "recover", "--json").json()
    assert recovered["locks_removed"] == [str(lock)]
    assert not lock.exists()


def test_a_lock_on_the_pulls_own_refs_stops_it_and_names_recover(team: Team) -> None:
    _alice_pushes(team)
    bob = team.bob
    git_dir = bob.tree / ".git"
    for ref in ("refs/heads/main", "refs/remotes/origin/main"):
        lock = git_dir / f"{ref}.lock"
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.write_text("")
        before = snapshot(bob.root)
        head = bob.git("rev-parse", "HEAD")
        pulled = bob.fails("vc", "pull")
        assert "was interrupted" in pulled.stderr
        assert str(lock) in pulled.stderr
        assert fault_pull.named_commands(pulled.stderr) == ["brv vc recover"]
        assert bob.git("rev-parse", "HEAD") == head
        assert snapshot(bob.root) == before
        assert bob.ok("vc", "recover", "--json").json()["locks_removed"] == [str(lock)]
    bob.ok("vc", "pull")
    assert (bob.tree / "auth/jwt/alice.md").is_file()


def test_local_changes_beside_the_incoming_entries_do_not_block_a_pull(team: Team) -> None:
    team.alice.edit(ROT, title="Rotation, by Alice")
    team.alice.sync("alice edits")
    bob = team.bob
    bob.write("auth/jwt/bob_draft.md", "Bob's draft")  # untracked, same folder
    bob.write("auth/oauth/flows.md", "Flows")  # untracked, another folder
    bob.ok("vc", "pull")
    assert bob.read(ROT).title == "Rotation, by Alice"
    assert (bob.tree / "auth/jwt/bob_draft.md").is_file()
    # an edit of the entry that arrives next still blocks, named
    team.alice.edit(ROT, title="Rotation, again")
    team.alice.sync("alice again")
    bob.edit(ROT, title="Bob's rotation")
    before = snapshot(bob.root)
    refused = bob.fails("vc", "pull")
    assert f"would overwrite uncommitted local changes in: {ROT}" in refused.stderr
    assert "bob_draft" not in refused.stderr
    assert snapshot(bob.root) == before


def test_pulled_entries_are_searchable_and_their_abstracts_queued(team: Team) -> None:
    _alice_pushes(team)
    bob = team.bob
    bob.ok("vc", "pull")
    assert "auth/jwt/alice.md" in bob.ok("search", "leases expire", "--json").stdout
    assert "alice.md" in (bob.tree / "auth/jwt/_index.md").read_text(encoding="utf-8")
    abstract = bob.tree / "auth/jwt/alice.abstract.md"
    assert not abstract.exists()
    bob.ok("summarize")
    assert abstract.is_file()
    assert (bob.tree / "auth/jwt/alice.overview.md").is_file()
