"""Cross-domain candidates kept between dreams: each title word's best FTS5 matches.

A first dream at 100,000 entries spends most of its budget on these queries (~0.3 s for a
common word, one per distinct title word; issue 24), and the next dream, continuing the
pass, asked them all again. The pool of each word is stored in ``index.db`` under the
tree fingerprint: while the indexed tree is unchanged the stored pool is exactly what the
query returns (any change of the tree makes the whole table stale, and it is cleared).
"""

from __future__ import annotations

import sqlite3
import zlib

from brv_vc.index.db import get_meta
from brv_vc.index.search import TermHits, ranked_paths


class StoredHits(TermHits):
    """:class:`TermHits` whose pools outlive the process (same answers)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__(conn)
        self.stamp = get_meta(conn, "fingerprint") or ""
        self.writable = True
        try:
            conn.execute("DELETE FROM dreamhits WHERE stamp != ?", (self.stamp,))
        except sqlite3.Error:  # busy or read-only: the queries run as before
            self.writable = False

    def get(self, term: str, limit: int, *, exclude: str = "") -> list[tuple[str, float]]:
        """The same as ``ranked_paths(conn, term, limit, exclude=exclude)``."""
        if term not in self._best and self.writable:
            self._best[term] = self._pool(term)
        return super().get(term, limit, exclude=exclude)

    def _pool(self, term: str) -> list[tuple[str, float]]:
        row = self.conn.execute("SELECT rows FROM dreamhits WHERE term = ? AND stamp = ?",
                                (term, self.stamp)).fetchone()
        if row is not None:
            lines = zlib.decompress(row[0]).decode().split("\n") if row[0] else []
            return [(path, float(score)) for path, score in
                    (line.rsplit("\t", 1) for line in lines if line)]
        best = ranked_paths(self.conn, term, self.POOL)
        if self.writable:
            packed = zlib.compress("\n".join(f"{p}\t{s!r}" for p, s in best).encode())
            try:
                self.conn.execute(
                    "INSERT OR REPLACE INTO dreamhits (term, stamp, rows) VALUES (?, ?, ?)",
                    (term, self.stamp, packed))
            except sqlite3.Error:
                self.writable = False
        return best
