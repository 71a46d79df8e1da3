"""Damaged per-machine state never produces a traceback: the index (derived) is rebuilt or
named, the state database (not derived) is named with a way out, and nothing else changes."""

from __future__ import annotations

from conftest import brv_process, snapshot

from brv_vc.tree.project import Project


def _seed(project: Project, brv) -> None:
    result = brv("curate", "add", "auth/jwt", "--title", "Token expiry", "--content",
                 "Access tokens expire after 24 hours.", "--reason", "r", cwd=project.root)
    assert result.exit_code == 0, result.stderr


def test_garbage_state_db_is_a_clear_error_on_the_fast_path(project: Project, brv) -> None:
    _seed(project, brv)
    (project.state / "brv.db").write_bytes(b"garbage, not sqlite" * 100)
    before = snapshot(project.root)
    for args in (("search", "token"), ("query", "token expiry"), ("show", "auth/jwt/token_expiry.md")):
        result = brv_process(*args, cwd=project.root)
        assert result.exit_code == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr
        assert "brv: error: the state database is unreadable" in result.stderr
        assert "  file: .brv/state/brv.db" in result.stderr
        assert "mv .brv/state/brv.db .brv/state/brv.db.broken" in result.stderr
    assert snapshot(project.root) == before
    assert (project.state / "brv.db").read_bytes().startswith(b"garbage")


def test_a_folder_in_place_of_the_index_is_named_not_a_crash(project: Project, brv) -> None:
    _seed(project, brv)
    index = project.state / "index.db"
    for suffix in ("", "-wal", "-shm"):
        (project.state / f"index.db{suffix}").unlink(missing_ok=True)
    index.mkdir()
    result = brv_process("search", "token", "--json", cwd=project.root)
    assert result.exit_code == 1
    assert result.json()["error"]["message"] == (
        "the search index path index.db is a folder, not a database")
    assert "remove that folder" in result.json()["error"]["hint"]
