"""The curate audit trail: one row per operation in ``.brv/state/brv.db`` (table ``curate_log``).

Every operation carries a ``reason`` (seed 002 Table 1); the log keeps it with the time, the
operation, the path, the outcome and the message, including failed and refused operations.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from brv_vc.lifecycle import sidecar
from brv_vc.record import NamedTuple

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


class LogRow(NamedTuple):  # not a dataclass: the post-merge hook reads the log (record.py)
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


def merge_message(source: str, into: str) -> str:
    """The audit message of a MERGE of entry ``source`` into ``into``."""
    return f"merged {source} into {into}"


def delete_message(rel: str) -> str:
    """The audit message of a DELETE of entry ``rel``."""
    return f"deleted {rel}"


def delete_folder_message(rel: str, entries: int) -> str:
    """The audit message of a DELETE of folder ``rel`` (every entry under it)."""
    return f"{_folder_head(rel)}{entries} entries)"


def _folder_head(rel: str) -> str:
    return f"deleted folder {rel} ("


def removal_of(message: str, rel: str) -> tuple[str, str] | None:
    """What a successful operation's audit message says it did to ``rel``, if it removed it.

    ("deleted", "") for a DELETE of entry ``rel`` (:func:`delete_message`) or of folder
    ``rel`` (:func:`delete_folder_message`), and ("merged", target) for a MERGE of ``rel``
    away (:func:`merge_message`); None otherwise. Words after the path (a note of what did
    it) are allowed: entry paths hold no space.
    """
    head = delete_message(rel)
    if message == head or message.startswith(f"{head} "):
        return "deleted", ""
    if message.startswith(_folder_head(rel)):
        return "deleted", ""
    head = merge_message(rel, "")
    return ("merged", message[len(head):].split(" ", 1)[0]) if message.startswith(head) else None
