"""The review table's rows in ``.brv/state/brv.db``: store, select, decide.

``services/review/entries.py`` turns a row into a :class:`ReviewEntry` (its files, its
kind); this module only holds the statements, with each row as the table stores it:
``(id, created, source, summary, reason, task, status, decided, changes JSON, kind)``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS review (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    source TEXT NOT NULL,
    summary TEXT NOT NULL,
    reason TEXT NOT NULL,
    task TEXT NOT NULL,
    status TEXT NOT NULL,
    decided TEXT,
    changes TEXT NOT NULL,
    kind TEXT
);
CREATE INDEX IF NOT EXISTS review_status ON review (status, id);
"""
_COLUMNS = "id, created, source, summary, reason, task, status, decided, changes, kind"


def ensure_schema(conn: sqlite3.Connection) -> None:
    """Creates the table when missing (and its ``kind`` column, added in issue 37)."""
    conn.executescript(_SCHEMA)
    if not any(row[1] == "kind" for row in conn.execute("PRAGMA table_info(review)")):
        with conn:
            conn.execute("ALTER TABLE review ADD COLUMN kind TEXT")


def insert(conn: sqlite3.Connection, created: str, source: str, summary: str, reason: str,
           task: str, status: str, decided: str | None, changes: str, kind: str) -> int:
    """Adds a row (``changes``: its files as JSON) and returns its id."""
    ensure_schema(conn)
    with conn:
        cursor = conn.execute(
            "INSERT INTO review (created, source, summary, reason, task, status, decided, "
            "changes, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (created, source, summary, reason, task, status, decided, changes, kind),
        )
    return int(cursor.lastrowid or 0)


def select(conn: sqlite3.Connection, *, status: str | None = None,
           ids: Sequence[int] | None = None, task: str | None = None,
           since: int | None = None) -> list[tuple[Any, ...]]:
    """Rows by status, ids, task or from an id on (``since``), oldest first."""
    ensure_schema(conn)
    where, args = [], []
    if since is not None:
        where.append("id >= ?")
        args.append(str(since))
    if status is not None:
        where.append("status = ?")
        args.append(status)
    if task is not None:
        where.append("task = ?")
        args.append(task)
    if ids is not None:
        where.append(f"id IN ({','.join('?' * len(ids))})")
        args.extend(str(i) for i in ids)
    sql = f"SELECT {_COLUMNS} FROM review"
    if where:
        sql += " WHERE " + " AND ".join(where)
    return conn.execute(sql + " ORDER BY id", args).fetchall()


def decide(conn: sqlite3.Connection, ids: Sequence[int], status: str, when: str) -> None:
    """Marks rows approved or rejected."""
    with conn:
        conn.executemany("UPDATE review SET status = ?, decided = ? WHERE id = ?",
                         [(status, when, i) for i in ids])
