"""The curate journal's rows in ``.brv/state/brv.db``: a batch's intent, kept until recorded.

``services/curate/journal.py`` decides what a row holds and how a batch cut short by a kill
is finished; this module only stores and reads the rows (tables ``curate_journal`` and
``curate_journal_quarantine``), inside the caller's transaction when one is open.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

# ``pid`` is the batch's key: a random number since journals outlive the process that
# wrote them (a reused pid once overwrote an abandoned row); the name is the old schema's
_SCHEMA = """
CREATE TABLE IF NOT EXISTS curate_journal (
    pid INTEGER PRIMARY KEY,
    time REAL NOT NULL,
    ops TEXT NOT NULL
)
"""
_QUARANTINE = """
CREATE TABLE IF NOT EXISTS curate_journal_quarantine (
    pid, time, ops, error TEXT, quarantined REAL
)
"""


def write(conn: sqlite3.Connection, key: int, when: float, ops: str) -> None:
    """Stores a batch's row: its key, when it began (epoch seconds) and its JSON."""
    conn.execute(_SCHEMA)
    conn.execute("INSERT INTO curate_journal VALUES (?, ?, ?)", (key, when, ops))


def drop(conn: sqlite3.Connection, key: int) -> None:
    """Deletes a batch's row (its batch is recorded)."""
    conn.execute(_SCHEMA)
    conn.execute("DELETE FROM curate_journal WHERE pid = ?", (key,))


def every(conn: sqlite3.Connection) -> list[tuple[Any, Any, Any]]:
    """``(key, time, ops)`` of every row, as stored (a damaged row may hold anything)."""
    conn.execute(_SCHEMA)
    return conn.execute("SELECT pid, time, ops FROM curate_journal").fetchall()


def quarantine(conn: sqlite3.Connection, key: Any, stamp: Any, ops: Any, error: str) -> None:
    """Moves a row that cannot be read to ``curate_journal_quarantine``, with why."""
    conn.execute(_QUARANTINE)
    conn.execute("INSERT INTO curate_journal_quarantine VALUES (?, ?, ?, ?, ?)",
                 (key, stamp, ops, error, time.time()))
    conn.execute("DELETE FROM curate_journal WHERE pid IS ?", (key,))
