"""What brv last wrote for each derived file (``derived_files`` in ``.brv/state/brv.db``).

Seed 000 fixes the frontmatter of ``_index.md`` and the manifest has no room for a
signature, so the hash of the bytes brv wrote is kept here. A file whose bytes differ from
the record was edited by hand: it is regenerated, with a warning (derived files are
overwritten). A missing record (a new machine, a deleted state folder) is not an edit.

Concurrent commands must not take each other's writes for hand edits: a writer holds the
database's write lock from its file write to its record (:meth:`Records.write`), and a
reader that sees a mismatch confirms it under that lock (:meth:`Records.edited`), so it
never compares a file and a record from two different writes.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from brv_vc.digest import sha256
from brv_vc.record import NamedTuple
from brv_vc.tree.store import write_atomic

_SCHEMA = """
CREATE TABLE IF NOT EXISTS derived_files (
    path TEXT PRIMARY KEY,
    input_hash TEXT NOT NULL,
    sha TEXT NOT NULL
)
"""


class Record(NamedTuple):
    """The input hash (children hash, freshness) and the sha256 of the bytes written."""

    input_hash: str
    sha: str


def sha(data: bytes) -> str:
    """The sha256 hex digest of ``data``."""
    return sha256(data).hexdigest()


class Records:
    """Read-through access to the ``derived_files`` table (loaded once, written per change)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        conn.execute(_SCHEMA)
        self._rows: dict[str, Record] | None = None

    def get(self, path: str) -> Record | None:
        """The record of ``path``, or None (a primary-key lookup until :meth:`load_all`)."""
        if self._rows is not None:
            return self._rows.get(path)
        row = self.conn.execute(
            "SELECT input_hash, sha FROM derived_files WHERE path = ?", (path,)
        ).fetchone()
        return Record(*row) if row else None

    def load_all(self) -> None:
        """Reads every record at once, for checks that visit the whole tree.

        Not done up front: the table holds a row per abstract and overview (50,000 at 25,000
        entries), too many to load for the handful of lookups a one-entry refresh makes.
        """
        self._rows = {
            p: Record(h, s) for p, h, s in self.conn.execute("SELECT * FROM derived_files")
        }

    def put(self, path: str, input_hash: str, data: bytes) -> None:
        """Records that ``data`` was written at ``path`` for ``input_hash``."""
        record = Record(input_hash, sha(data))
        self.conn.execute(
            "INSERT OR REPLACE INTO derived_files VALUES (?, ?, ?)", (path, *_fields(record))
        )
        if self._rows is not None:
            self._rows[path] = record

    def write(self, target: Path, path: str, input_hash: str, data: bytes) -> bool:
        """Writes ``data`` to ``target`` and records it, as one step under the write lock.

        Returns:
            Whether the file's bytes changed.
        """
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            changed = write_atomic(target, data, durable=False)
            self.put(path, input_hash, data)
        return changed

    def edited(self, path: str, target: Path, seen: bytes) -> bool:
        """Whether ``seen`` (bytes just read from ``target``) is a hand edit of ``path``.

        A mismatch is confirmed under the write lock against the file and record as they
        are now: another process may have written both between this one's two reads.
        """
        record = self.get(path)
        if record is None or record.sha == sha(seen):
            return False
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            row = self.conn.execute(
                "SELECT input_hash, sha FROM derived_files WHERE path = ?", (path,)
            ).fetchone()
            try:
                now = target.read_bytes()
            except FileNotFoundError:
                now = None
        fresh = Record(*row) if row else None
        if self._rows is not None:
            if fresh is None:
                self._rows.pop(path, None)
            else:
                self._rows[path] = fresh
        return fresh is not None and now is not None and fresh.sha != sha(now)

    def drop(self, path: str) -> None:
        """Forgets ``path`` (its file was removed)."""
        self.conn.execute("DELETE FROM derived_files WHERE path = ?", (path,))
        if self._rows is not None:
            self._rows.pop(path, None)


def _fields(record: Record) -> tuple[str, str]:
    return record.input_hash, record.sha
