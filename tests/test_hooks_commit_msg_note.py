"""pre-commit tells commit-msg what to add, so a commit without archives starts no vc services."""

from __future__ import annotations

from pathlib import Path

from hooks_support import entry_bytes, git, write

from brv_vc.services.vc.hook_env import TRAILERS_SUFFIX, note_trailers, nothing_to_trail
from brv_vc.tree.project import Project

ROT = "auth/jwt/archive_me.md"



def _notes(tree: Path) -> list[Path]:
    return sorted((tree / ".git").glob(f"*{TRAILERS_SUFFIX}"))


def test_a_plain_commit_of_an_archived_deletion_still_carries_its_trailer(
        tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, ROT, entry_bytes("Archive me"))
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", "rotation", cwd=tree)
    archived = tree / "_archived/auth/jwt/archive_me.full.md"
    archived.parent.mkdir(parents=True)
    archived.write_bytes((tree / ROT).read_bytes())
    git("rm", "-q", ROT, cwd=tree)
    git("commit", "-q", "-m", "archive rotation", cwd=tree)
    assert f"Brv-Archived: {ROT}" in git("log", "-1", "--format=%B", cwd=tree).stdout
    assert _notes(tree) == []  # commit-msg used the note and removed it


def test_a_commit_without_archives_gets_no_trailer_and_leaves_no_note(
        tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, ROT, entry_bytes("Archive me"))
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", "plain", cwd=tree)
    assert "Brv-Archived" not in git("log", "-1", "--format=%B", cwd=tree).stdout
    assert _notes(tree) == []


def test_a_note_for_another_index_state_is_not_believed(tmp_path: Path) -> None:
    index = tmp_path / "index"
    index.write_bytes(b"one")
    note_trailers(str(index), [])
    index.write_bytes(b"staged more")  # the index changed after pre-commit wrote the note
    assert not nothing_to_trail(str(index))
    note_trailers(str(index), [ROT])  # archives to name: commit-msg does its work
    assert not nothing_to_trail(str(index))
    note_trailers(str(index), [])
    assert nothing_to_trail(str(index))
    assert not nothing_to_trail(str(index))  # used once
    assert not nothing_to_trail(None)
