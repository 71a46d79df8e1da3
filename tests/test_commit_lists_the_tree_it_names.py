"""vc commit lists the tree the index names against HEAD: the rows of diff --cached; unmerged: git."""

from __future__ import annotations

import os
from pathlib import Path

from hooks_support import entry_bytes, git, in_project, write
from vc_helpers import Team, team  # noqa: F401

from brv_vc.vc import git as vcgit

ROT = "auth/jwt/token_rotation.md"


def test_the_tree_against_head_lists_what_the_index_stages(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    root = project.root
    write(root, "src/app.py", "print('v1')\n")
    write(root, "src/gone.py", "bye\n")
    write(project.tree, "auth/jwt/old.md", entry_bytes("Old"))
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "more", cwd=root)
    git("mv", ".brv/context-tree/auth/jwt/old.md", ".brv/context-tree/auth/jwt/new.md", cwd=root)
    git("rm", "-q", "src/gone.py", cwd=root)
    write(root, "src/app.py", "print('v2')\n")
    os.symlink("app.py", root / "src/link.py")
    write(project.tree, "auth/jwt/added.md", entry_bytes("Added"))
    write(root, "src/later.py", "x = 1\n")
    git("add", "-A", cwd=root)
    git("add", "-N", "src/later.py", cwd=root)
    git("update-index", "--chmod=+x", "src/app.py", cwd=root)
    head = git("rev-parse", "HEAD", cwd=root).stdout.strip()
    tree = git("write-tree", cwd=root).stdout.strip()
    listed = vcgit.changed_entries(root, head, tree)
    assert listed == vcgit.staged_entries(root)
    assert {row[0] for row in listed} >= {"A", "D", "M"}


def test_a_commit_with_a_path_unmerged_by_stash_pop_is_refused_by_name(
        team: Team) -> None:  # noqa: F811
    """No tree can be written: the index itself is listed and its unmerged path named."""
    bob = team.bob
    bob.edit(ROT, title="Token rotation (stashed)")
    bob.git("stash", "-q")
    bob.edit(ROT, title="Token rotation (committed)")
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob")
    bob.git("stash", "pop", check=False)
    assert bob.git("ls-files", "-u", "--", ROT).strip()
    head = bob.git("rev-parse", "HEAD")
    refused = bob.fails("vc", "commit", "-m", "while unmerged")
    assert f"cannot commit: unmerged paths {ROT}" in refused.stderr
    assert bob.git("rev-parse", "HEAD") == head
