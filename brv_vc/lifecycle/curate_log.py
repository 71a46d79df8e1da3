"""The curate audit trail: one row per operation in ``.brv/state/brv.db`` (table ``curate_log``).

Every operation carries a ``reason`` (seed 002 Table 1); the log keeps it with the time, the
operation, the path, the outcome and the message, including failed and refused operations.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

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
SUCCESS = "success"  # the status of a row whose operation was carried out (a removal counts)
# the successful rows by message: :func:`may_remove`'s lookups (made by the first append after
# it came: on an old log the first append builds it once, under the write lock); partial, so
# failed and undone rows are neither walked nor copied (the lookups name the status literally,
# which SQLite needs to use a partial index)
_INDEX = "curate_log_removals"
_MESSAGE_INDEX = (f"CREATE INDEX IF NOT EXISTS {_INDEX} ON curate_log (message) "
                  f"WHERE status = '{SUCCESS}'")


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
    from brv_vc.lifecycle import sidecar  # its write lock only: the readers import neither
    from brv_vc.scrub import scrub

    conn.execute(_SCHEMA)
    with sidecar.write_lock(conn):
        conn.execute(_MESSAGE_INDEX)
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
    it) are allowed: entry paths hold no space. The message is one of :func:`_removals`.
    """
    alone, deleted, folder, merged = _removals(rel)
    if message == alone or message.startswith((deleted, folder)):
        return "deleted", ""
    return ("merged", message[len(merged):].split(" ", 1)[0]) if message.startswith(merged) else None


def _removals(rel: str) -> tuple[str, str, str, str]:
    """The messages of a removal of ``rel``, the one place that lists them.

    Its DELETE's (alone), then the beginnings of its DELETE's with a note, of its folder's
    DELETE's and of its MERGE's away.
    """
    alone = delete_message(rel)
    return alone, f"{alone} ", _folder_head(rel), merge_message(rel, "")


def may_remove(conn: sqlite3.Connection, paths: Iterable[str], most: int = 256) -> bool:
    """Whether a successful row is a removal of one of ``paths`` (:func:`removal_of`).

    Asked first by a reader that would otherwise read every row since some time (the
    post-merge hook: ``services/vc/written_back.deleted_here``): only the rows whose message
    is or begins as :func:`_removals` says are looked up, by the message index. Without the
    index (no row appended since it came), or with more than ``most`` paths: True unless the
    log is empty, so the caller's full rule decides (a scan a path would grow with the log).
    """
    conn.execute(_SCHEMA)
    wanted = set(paths)
    indexed = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?",
                           (_INDEX,)).fetchone() is not None
    if not indexed or len(wanted) > most:
        return conn.execute("SELECT 1 FROM curate_log LIMIT 1").fetchone() is not None
    for rel in wanted:
        alone, *heads = _removals(rel)
        if conn.execute("SELECT 1 FROM curate_log WHERE message = ?"
                        f" AND status = '{SUCCESS}' LIMIT 1", (alone,)).fetchone() is not None:
            return True
        for head in heads:
            if _begins(conn, head):
                return True
    return False


def _begins(conn: sqlite3.Connection, head: str) -> bool:
    """Whether a successful row's message begins with ``head``: one range of the index.

    From ``head`` up to it with its last character one higher: every head of
    :func:`_removals` ends in ASCII (" " or "("), whose next character is ASCII too, and
    SQLite's BINARY order of UTF-8 text is code point order.
    """
    above = head[:-1] + chr(ord(head[-1]) + 1)
    return conn.execute("SELECT 1 FROM curate_log WHERE message >= ? AND message < ?"
                        f" AND status = '{SUCCESS}' LIMIT 1", (head, above)).fetchone() is not None
