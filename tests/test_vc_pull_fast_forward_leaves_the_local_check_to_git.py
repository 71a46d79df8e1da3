"""A fast-forward pull lets git's merge check the incoming paths; a refusal is named as before.

A fast-forward rewrites every incoming path, and git refuses, before changing anything, when
one has local changes: brv runs no ``git status`` of its own then (it asks only after git
refused, to name the paths), and reads the fetched commit from FETCH_HEAD. An untracked copy
identical to the incoming file is still dropped so the pull goes through.
"""

from __future__ import annotations

from pathlib import Path

import vc_helpers
from conftest import brv_process, snapshot
from vc_helpers import Team, entry_bytes, git_commands

team = vc_helpers.team
NEW = "auth/jwt/alice.md"


def _alice_pushes(team: Team) -> bytes:
    team.alice.write(NEW, "Alice's lease", summary="Leases last an hour")
    team.alice.sync("alice")
    return (team.alice.tree / NEW).read_bytes()


def test_a_fast_forward_pull_asks_git_for_no_status(team: Team, tmp_path: Path) -> None:
    incoming = _alice_pushes(team)
    trace = tmp_path / "trace.json"
    pulled = brv_process("vc", "pull", cwd=team.bob.root, env={"GIT_TRACE2_EVENT": str(trace)})
    assert pulled.exit_code == 0, pulled.stderr
    assert (team.bob.tree / NEW).read_bytes() == incoming
    commands = git_commands(trace)
    assert [c[0] for c in commands if c[0] in ("merge", "status")] == ["merge"]
    assert not [c for c in commands if any("FETCH_HEAD" in arg for arg in c)]


def test_an_untracked_file_where_an_entry_arrives_stops_the_pull_named(team: Team) -> None:
    _alice_pushes(team)
    bob = team.bob
    (bob.tree / NEW).write_bytes(entry_bytes("Bob's own lease"))
    head = bob.git("rev-parse", "HEAD")
    before = snapshot(bob.root)
    refused = bob.fails("vc", "pull")
    assert f"would overwrite uncommitted local changes in: {NEW}" in refused.stderr
    assert "nothing was changed" in refused.stderr
    assert bob.git("rev-parse", "HEAD") == head
    assert snapshot(bob.root) == before
    assert not list((bob.root / ".brv/state/pending").glob("pull-*"))  # no intent left
    (bob.tree / NEW).unlink()
    bob.ok("vc", "pull")
    assert bob.read(NEW).title == "Alice's lease"


def test_an_identical_untracked_copy_is_dropped_and_the_pull_goes_through(team: Team) -> None:
    incoming = _alice_pushes(team)
    bob = team.bob
    (bob.tree / NEW).parent.mkdir(parents=True, exist_ok=True)
    (bob.tree / NEW).write_bytes(incoming)
    bob.ok("vc", "pull")
    assert bob.git("rev-parse", "HEAD") == team.alice.git("rev-parse", "HEAD")
    assert bob.git("status", "--porcelain") == ""
