"""The semantic lane's vectors: a sidecar SQLite file beside the index (``.brv/state/vectors.db``).

Derived and per machine like ``index.db`` (never in the tree, never synced), but kept in
its own file: embedding a large tree is slow, so ``brv index --rebuild`` must not lose the
vectors, and a tree without the lane never opens it. Rows are keyed by the entry's content
hash and the model, so an edit needs one new vector, an unchanged entry moved elsewhere
needs none, and a model change re-embeds lazily (the old model's rows are only read by it).
Vectors are float32 blobs, unit length (cosine is a dot product).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

FILE = "vectors.db"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    hash TEXT NOT NULL,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    v BLOB NOT NULL,
    PRIMARY KEY (hash, model)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""
# A rowid table, not WITHOUT ROWID: a vector (1 KB at 256 dimensions) is past the ~1,000
# bytes an index b-tree keeps in its page, so every row spilled into an overflow page of
# its own (117 MB at 25,000 entries, 4.7 KB a row); a table b-tree keeps it in the page.


def open_vectors(state: Path) -> sqlite3.Connection:
    """Opens (creating) ``vectors.db`` in the state folder ``state``."""
    from brv_vc.tree.statedb import connect

    conn = connect(state / FILE)
    conn.executescript(_SCHEMA)
    return conn


def entries(index: sqlite3.Connection, scope: str | None = None) -> list[tuple[int, str, str, str]]:
    """(rowid, path, content hash, title) of every searchable entry, under ``scope`` if given."""
    sql = "SELECT id, path, hash, title FROM docs WHERE kind = 'entry' AND problem IS NULL"
    args: list[object] = []
    if scope:
        sql += " AND (path = ? OR substr(path, 1, ?) = ?)"
        args = [scope, len(scope) + 1, scope.rstrip("/") + "/"]
    return [(int(i), str(p), str(h), str(t)) for i, p, h, t in index.execute(sql + " ORDER BY id", args)]


def stored(conn: sqlite3.Connection, model: str) -> dict[str, bytes]:
    """Hash -> vector blob of every vector kept for ``model``."""
    return {str(h): bytes(v) for h, v in
            conn.execute("SELECT hash, v FROM vectors WHERE model = ?", (model,))}


def version(conn: sqlite3.Connection) -> int:
    """A counter every write raises: a process that kept what it read knows when to read again."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    return int(row[0]) if row else 0


def _bump(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO meta (key, value) VALUES ('version', 1) "
                 "ON CONFLICT(key) DO UPDATE SET value = value + 1")


def put(conn: sqlite3.Connection, model: str, rows: list[tuple[str, int, bytes]]) -> None:
    """Keeps (hash, dim, blob) rows for ``model`` (one transaction)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("INSERT OR REPLACE INTO vectors (hash, model, dim, v) VALUES (?, ?, ?, ?)",
                         [(h, model, d, v) for h, d, v in rows])
        _bump(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def prune(conn: sqlite3.Connection, model: str, keep: set[str]) -> int:
    """Drops ``model``'s vectors of contents no entry holds any more; returns how many."""
    gone = [h for (h,) in conn.execute("SELECT hash FROM vectors WHERE model = ?", (model,))
            if h not in keep]
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany("DELETE FROM vectors WHERE hash = ? AND model = ?", [(h, model) for h in gone])
    _bump(conn)
    conn.execute("COMMIT")
    return len(gone)
