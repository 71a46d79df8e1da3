"""Review entries: one row per reviewable change in ``.brv/state/brv.db`` (table ``review``).

A row keeps where the change came from (``dream/consolidate``, ``curate/MERGE``...), a
one-line summary and its reason, the task that made it (a dream or curate id), the files it
touched (:class:`FileChange`, whose backups are in the review store) and its status:
``pending`` until approved or rejected.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from brv_vc.lifecycle import review_rows
from brv_vc.services.review.backups import FileChange

PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"

@dataclass(frozen=True)
class ReviewEntry:
    """One reviewable change."""

    id: int
    created: str
    source: str  # dream/consolidate | dream/synthesize | dream/prune | curate/<TYPE>
    summary: str
    reason: str
    task: str
    status: str
    decided: str | None
    changes: tuple[FileChange, ...]
    kind: str = ""  # MERGE | TEMPORAL_UPDATE | CROSS_REFERENCE | CREATE | ARCHIVE | DELETE...

    @property
    def paths(self) -> tuple[str, ...]:
        """The tree paths it touched."""
        return tuple(c.path for c in self.changes)

    @property
    def domain(self) -> str:
        """The domain of the file it is about (its first file: a merge's target)."""
        return self.paths[0].split("/", 1)[0] if self.changes else ""

    def line(self) -> str:
        """Seed 001's listing: ``[dream/consolidate] Merged a and b — reason``."""
        reason = f" — {self.reason}" if self.reason else ""
        return f"[{self.source}] {self.summary}{reason}"


def default_kind(source: str) -> str:
    """The kind a source names itself (``curate/DELETE``: DELETE) when none was given."""
    return source.rsplit("/", 1)[-1].upper()


def _entry(row: Sequence[object]) -> ReviewEntry:
    changes = tuple(FileChange.from_dict(c) for c in json.loads(str(row[8])))
    source = str(row[2])
    kind = str(row[9]) if row[9] else default_kind(source)  # a row from before the column
    return ReviewEntry(int(str(row[0])), str(row[1]), source, str(row[3]), str(row[4]),
                       str(row[5]), str(row[6]), None if row[7] is None else str(row[7]), changes,
                       kind)


def insert(conn: sqlite3.Connection, created: str, source: str, summary: str, reason: str,
           task: str, status: str, changes: Sequence[FileChange], kind: str = "") -> int:
    """Adds a row and returns its id."""
    return review_rows.insert(
        conn, created, source, summary, reason, task, status,
        created if status != PENDING else None,
        json.dumps([c.to_dict() for c in changes]), kind or default_kind(source))


def select(conn: sqlite3.Connection, *, status: str | None = None,
           ids: Sequence[int] | None = None, task: str | None = None,
           since: int | None = None) -> list[ReviewEntry]:
    """Rows by status, ids, task or from an id on (``since``), oldest first."""
    return [_entry(row) for row in review_rows.select(
        conn, status=status, ids=ids, task=task, since=since)]


def decide(conn: sqlite3.Connection, ids: Sequence[int], status: str, when: str) -> None:
    """Marks rows approved or rejected."""
    review_rows.decide(conn, ids, status, when)
