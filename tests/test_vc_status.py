"""brv vc status: files committed with conflict markers (by plain git) are listed until a
commit removes the markers."""

from __future__ import annotations

from pathlib import Path

from vc_helpers import make_member

ROT = "auth/jwt/token_rotation.md"


def test_status_lists_committed_conflict_markers(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init", "--no-hooks")
    alice.write(ROT, "Token rotation")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    markers = "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n"
    (alice.tree / ROT).write_text(alice.text(ROT) + markers)
    alice.git("commit", "-q", "--no-verify", "-am", "markers committed with plain git")
    status = alice.ok("vc", "status")
    assert "knowledge tree clean" not in status.stdout
    assert "Committed files with conflict markers:" in status.stdout
    assert ROT in status.stdout
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]  # cached


def test_committed_markers_follow_new_commits(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init", "--no-hooks")
    alice.write(ROT, "Token rotation")
    alice.write("api/errors/retry.md", "Retry")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == []
    clean = alice.text(ROT)
    (alice.tree / ROT).write_text(clean + "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n")
    alice.git("commit", "-q", "--no-verify", "-am", "markers")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]
    alice.edit("api/errors/retry.md", title="Retry policy")
    alice.git("commit", "-q", "--no-verify", "-am", "unrelated change")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]
    (alice.tree / ROT).write_text(clean)
    alice.git("commit", "-q", "--no-verify", "-am", "fixed")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == []
