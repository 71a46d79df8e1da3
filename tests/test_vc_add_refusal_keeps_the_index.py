"""A `brv vc add` refused for a symlink leaves the index exactly as it was (no tree walk)."""

from __future__ import annotations

import os
from pathlib import Path

import vc_helpers
from vc_helpers import Team

team = vc_helpers.team


def test_a_refused_add_keeps_what_was_staged_before_and_stages_nothing_new(
        team: Team, tmp_path: Path) -> None:
    alice = team.alice
    alice.write("auth/jwt/staged_before.md", "Staged before")
    alice.ok("vc", "add", "auth/jwt/staged_before.md")
    index = alice.tree / ".git/index"
    before = index.read_bytes()
    alice.write("auth/jwt/edited_after.md", "Edited after")
    (tmp_path / "outside.md").write_text("---\ntitle: Outside\n---\nx\n")
    os.symlink(tmp_path / "outside.md", alice.tree / "auth/jwt/leak.md")
    refused = alice.fails("vc", "add")
    assert "refusing to stage auth/jwt/leak.md: a symlink" in refused.stderr
    assert "nothing was staged" in refused.stderr
    assert index.read_bytes() == before  # the very index of before the add
    assert alice.git("diff", "--cached", "--name-only").split() == ["auth/jwt/staged_before.md"]
    assert [p.name for p in index.parent.glob("index.brv-add-*")] == []
    (alice.tree / "auth/jwt/leak.md").unlink()
    assert "Staged 2 file(s)" in alice.ok("vc", "add").stdout
