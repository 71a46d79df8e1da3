"""The curate audit trail: one row per operation in ``.brv/state/brv.db`` (table ``curate_log``).

Every operation carries a ``reason`` (seed 002 Table 1); the log keeps it with the time, the
operation, the path, the outcome and the message, including failed and refused operations.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from brv_vc.lifecycle import sidecar

_SCHEMA = """
CREATE TABLE IF NOT EXISTS curate_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time TEXT NOT NULL,
    type TEXT NOT NULL,
    path TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT NOT NULL,
    message TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class LogRow:
    """One logged operation."""

    time: str
    type: str
    path: str
    status: str
    reason: str
    message: str


def append(conn: sqlite3.Connection, rows: Iterable[LogRow]) -> None:
    """Appends rows in one transaction (or in the caller's, when one is open).

    The reason and the message are scrubbed of credentials (``brv_vc.scrub``): an error's
    text can quote a URL with a password, and the log outlives the run.
    """
    from brv_vc.scrub import scrub

    conn.execute(_SCHEMA)
    with sidecar.write_lock(conn):
        conn.executemany(
            "INSERT INTO curate_log (time, type, path, status, reason, message)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(r.time, r.type, r.path, r.status, scrub(r.reason), scrub(r.message))
             for r in rows],
        )


def recent(conn: sqlite3.Connection, limit: int = 50) -> list[LogRow]:
    """Returns the latest rows, newest first."""
    conn.execute(_SCHEMA)
    cursor = conn.execute(
        "SELECT time, type, path, status, reason, message FROM curate_log ORDER BY id DESC LIMIT ?",
        (limit,),
    )
    return [LogRow(*row) for row in cursor]



def outcomes_since(conn: sqlite3.Connection, stamp: str) -> list[LogRow]:
    """The rows logged at or after ``stamp`` (as rows hold times) that say what the tree holds.

    ``success``, and ``undone`` (an interrupted dream's operation rolled back after its
    success row). Newest first.
    """
    conn.execute(_SCHEMA)
    cursor = conn.execute(
        "SELECT time, type, path, status, reason, message FROM curate_log"
        " WHERE status IN ('success', 'undone') AND time >= ? ORDER BY id DESC",
        (stamp,),
    )
    return [LogRow(*row) for row in cursor]
