"""The scoring sidecar: one row of :class:`Signals` per entry in ``.brv/state/brv.db``.

It lives outside the tree so that searching never dirties ``vc status``; it is *not* derived
(nothing can rebuild importance from the files), so index rebuilds never touch it.
Search hits are recorded in one batched transaction per command, never a write per hit.

Every change reads and writes under SQLite's write lock (``BEGIN IMMEDIATE``) and counts in
SQL (``update_count = update_count + 1``): four writers updating the same entries side by
side once lost 19 of 400 increments to read-modify-write races; now they lose none.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable

from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.scoring import Signals

_SCHEMA = """
CREATE TABLE IF NOT EXISTS signals (
    path TEXT PRIMARY KEY,
    importance REAL NOT NULL,
    maturity TEXT NOT NULL,
    access_count INTEGER NOT NULL,
    update_count INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    scored_at REAL NOT NULL
)
"""
_COLUMNS = "importance, maturity, access_count, update_count, updated_at, scored_at"


class write_lock:  # a class, not @contextmanager: the hooks that write the manifest skip contextlib
    """One transaction holding the write lock from its first read (``BEGIN IMMEDIATE``).

    Inside a transaction the caller already opened, it simply joins it.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.joined = False

    def __enter__(self) -> None:
        self.joined = self.conn.in_transaction
        if not self.joined:
            self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if not self.joined:
            self.conn.execute("COMMIT" if kind is None else "ROLLBACK")


def ensure_schema(conn: sqlite3.Connection) -> None:
    """Creates the sidecar table when missing."""
    conn.execute(_SCHEMA)


def _row(signals: Signals) -> tuple[float, str, int, int, float, float]:
    return (
        signals.importance,
        signals.maturity,
        signals.access_count,
        signals.update_count,
        signals.updated_at,
        signals.scored_at,
    )


def get_many(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, Signals]:
    """Returns the stored signals of the given paths (paths without a row are absent)."""
    ensure_schema(conn)
    wanted = list(dict.fromkeys(paths))
    found: dict[str, Signals] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for path, *values in conn.execute(
            f"SELECT path, {_COLUMNS} FROM signals WHERE path IN ({marks})", chunk
        ):
            found[path] = Signals(*values)
    return found


def every_row(conn: sqlite3.Connection) -> dict[str, tuple[float, str, float, float]]:
    """Every stored path -> ``(importance, maturity, updated_at, scored_at)`` as plain values.

    Why not :class:`Signals`: 25,000 of them would cost the brain more than everything else
    it does (``scoring.at`` is the reference for the math done on these).
    """
    return {row[0]: row[1:] for row in conn.execute(
        "SELECT path, importance, maturity, updated_at, scored_at FROM signals")}


def above_draft(conn: sqlite3.Connection, promote: float
                ) -> list[tuple[str, float, str, float]]:
    """``(path, importance, maturity, scored_at)`` of the rows that may be above draft.

    They are the rows not stored as draft, or important enough (``promote``) to be promoted
    when next scored.
    """
    return conn.execute("SELECT path, importance, maturity, scored_at FROM signals "
                        "WHERE maturity != 'draft' OR importance >= ?",
                        (promote,)).fetchall()


def get(conn: sqlite3.Connection, path: str, now: float) -> Signals:
    """Returns the signals of one path, or fresh defaults when it has none."""
    return get_many(conn, [path]).get(path) or scoring.fresh(now)


def put_many(conn: sqlite3.Connection, rows: dict[str, Signals]) -> None:
    """Stores signals (insert or replace) in one transaction."""
    ensure_schema(conn)
    with write_lock(conn):
        conn.executemany(
            f"INSERT OR REPLACE INTO signals (path, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(path, *_row(s)) for path, s in rows.items()],
        )


def record_added(conn: sqlite3.Connection, paths: Iterable[str], now: float) -> None:
    """Gives new entries default signals (an existing row is kept)."""
    ensure_schema(conn)
    with write_lock(conn):
        conn.executemany(
            f"INSERT OR IGNORE INTO signals (path, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(path, *_row(scoring.fresh(now))) for path in paths],
        )


def seed(conn: sqlite3.Connection, rows: dict[str, Signals]) -> None:
    """Stores first-sight signals (an adopted entry's legacy frontmatter); a row is kept."""
    if not rows:
        return
    ensure_schema(conn)
    with write_lock(conn):
        conn.executemany(
            f"INSERT OR IGNORE INTO signals (path, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(path, *_row(s)) for path, s in rows.items()],
        )


def _bump(
    conn: sqlite3.Connection, rows: dict[str, Signals], stored: dict[str, Signals],
    counter: str, counts: dict[str, int],
) -> None:
    """Writes new signals, adding to ``counter`` in SQL (never overwriting the count)."""
    conn.executemany(
        f"UPDATE signals SET importance = ?, maturity = ?, {counter} = {counter} + ?, "
        "updated_at = ?, scored_at = ? WHERE path = ?",
        [(s.importance, s.maturity, counts[p], s.updated_at, s.scored_at, p)
         for p, s in rows.items() if p in stored],
    )
    conn.executemany(
        f"INSERT INTO signals (path, {_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(p, *_row(s)) for p, s in rows.items() if p not in stored],
    )


def record_updates(conn: sqlite3.Connection, paths: Iterable[str], now: float) -> None:
    """Applies one curation update (+5, recency reset) to each path, under the write lock."""
    _apply(conn, paths, now, scoring.on_update, counted=1)


def record_kept(conn: sqlite3.Connection, paths: Iterable[str], now: float) -> None:
    """Applies a prune's KEEP (``scoring.on_kept``) to each path, under the write lock."""
    _apply(conn, paths, now, scoring.on_kept, counted=0)


def _apply(conn: sqlite3.Connection, paths: Iterable[str], now: float,
           change: Callable[[Signals, float], Signals], *, counted: int) -> None:
    """``change`` of each path's signals (a fresh row where none is stored), one write."""
    paths = list(dict.fromkeys(paths))
    ensure_schema(conn)
    with write_lock(conn):
        stored = get_many(conn, paths)
        rows = {p: change(stored.get(p) or scoring.fresh(now), now) for p in paths}
        _bump(conn, rows, stored, "update_count", dict.fromkeys(paths, counted))


def record_hits(
    conn: sqlite3.Connection,
    paths: Iterable[str],
    now: float,
    defaults: dict[str, Signals] | None = None,
) -> None:
    """Applies search hits (+3 each), batched: one transaction for the whole result list.

    Args:
        conn: the state database (``brv.db``).
        paths: one item per hit; a path listed twice gets two hits.
        now: epoch seconds.
        defaults: signals to start from for paths without a row (e.g. recency measured from
            the entry's own ``updatedAt``); otherwise a path starts fresh at ``now``.
    """
    counts = Counter(paths)
    if not counts:
        return
    start = defaults or {}
    ensure_schema(conn)
    with write_lock(conn):
        stored = get_many(conn, counts)
        rows = {
            p: scoring.on_hits(stored.get(p) or start.get(p) or scoring.fresh(now), n, now)
            for p, n in counts.items()
        }
        _bump(conn, rows, stored, "access_count", dict(counts))


def move(conn: sqlite3.Connection, source: str, target: str, now: float) -> None:
    """Moves ``source``'s signals onto ``target``, merging when the target has its own."""
    ensure_schema(conn)
    with write_lock(conn):
        stored = get_many(conn, [source, target])
        if source not in stored:
            return
        combined = (
            scoring.merged(stored[source], stored[target], now)
            if target in stored else stored[source]
        )
        conn.execute("DELETE FROM signals WHERE path = ?", (source,))
        put_many(conn, {target: combined})


def delete(conn: sqlite3.Connection, paths: Iterable[str], *, prefix: bool = False) -> None:
    """Deletes the signals of paths (``prefix=True``: of every path under these folders)."""
    ensure_schema(conn)
    with write_lock(conn):
        for path in paths:
            if prefix:
                conn.execute(
                    "DELETE FROM signals WHERE path = ? OR substr(path, 1, ?) = ?",
                    (path, len(path) + 1, path + "/"),
                )
            else:
                conn.execute("DELETE FROM signals WHERE path = ?", (path,))
