"""Re-indexing an edited entry keeps its relation and code-path rows when they did not change
(no delete, no insert), rewrites them when they did, and ends as a rebuilt index does."""

from __future__ import annotations

import sqlite3

from retrieval_util import write_entry

from brv_vc.index.db import open_index
from brv_vc.index.sync import sync
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path

NARRATIVE = "Keys live in `src/auth/keys.py` and lib/jwt/sign.rs; see docs/auth.md."


def _rows(project: Project) -> dict[str, list[tuple[object, ...]]]:
    """Each table's rows by source, in rowid order, with their rowids."""
    conn = sqlite3.connect(index_db_path(project))
    try:
        return {
            table: list(conn.execute(f"SELECT rowid, source, {cols} FROM {table} "
                                     "ORDER BY source, rowid"))
            for table, cols in (("links", "target, raw"), ("codelinks", "path, how"))
        }
    finally:
        conn.close()


def _without_rowids(rows: dict[str, list[tuple[object, ...]]]) -> dict[str, list[tuple[object, ...]]]:
    return {table: [row[1:] for row in found] for table, found in rows.items()}


def _sync(project: Project, paths: list[str] | None = None) -> None:
    handle = open_index(project)
    try:
        sync(project, handle.conn, mode="full" if paths is None else None, paths=paths)
    finally:
        handle.conn.close()


def _rebuilt(project: Project) -> dict[str, list[tuple[object, ...]]]:
    index_db_path(project).unlink()
    _sync(project)
    return _without_rowids(_rows(project))


def test_an_edit_that_keeps_the_links_keeps_their_rows(project: Project) -> None:
    path = "auth/jwt/token_rotation.md"
    write_entry(project, path, "Token rotation", NARRATIVE, related=("auth/jwt/other.md",),
                relation_lines=("auth/session/cookies.md", "auth/jwt/other.md"))
    # indexed after it: its rows follow, so rewritten rows would get new rowids
    write_entry(project, "auth/zz/other.md", "Other", "See `src/other.py`.",
                relation_lines=("auth/jwt/token_rotation.md",))
    _sync(project)
    before = _rows(project)
    assert [row[2] for row in before["links"] if row[1] == path] == [
        "auth/jwt/other.md", "auth/session/cookies.md"]
    assert [row[2] for row in before["codelinks"] if row[1] == path] == [
        "src/auth/keys.py", "lib/jwt/sign.rs", "docs/auth.md"]

    write_entry(project, path, "Token rotation", NARRATIVE + " Rotated monthly.",
                related=("auth/jwt/other.md",),
                relation_lines=("auth/session/cookies.md", "auth/jwt/other.md"))
    _sync(project, [path])
    assert _rows(project) == before  # the same rows, rowids included: nothing rewritten
    assert _without_rowids(before) == _rebuilt(project)


def test_an_edit_that_changes_the_links_rewrites_them(project: Project) -> None:
    path = "auth/jwt/token_rotation.md"
    write_entry(project, path, "Token rotation", NARRATIVE, relation_lines=("auth/a/one.md",))
    write_entry(project, "auth/jwt/other.md", "Other", "See `src/other.py`.")
    _sync(project)
    other = [row for row in _rows(project)["codelinks"] if row[1] == "auth/jwt/other.md"]

    write_entry(project, path, "Token rotation", "Now `lib/new.rs` and src/auth/keys.py.",
                relation_lines=("auth/b/two.md", "auth/a/one.md"))
    _sync(project, [path])
    after = _rows(project)
    assert [row[1:] for row in after["links"]] == [
        (path, "auth/b/two.md", None), (path, "auth/a/one.md", None)]
    assert [row[2] for row in after["codelinks"] if row[1] == path] == [
        "lib/new.rs", "src/auth/keys.py"]
    # the other entry's rows were not touched
    assert [row for row in after["codelinks"] if row[1] == "auth/jwt/other.md"] == other
    assert _without_rowids(after) == _rebuilt(project)
