"""Cross-domain candidates kept between dreams: each title word's best FTS5 matches.

A first dream at 100,000 entries spends most of its budget on these queries (~0.3 s for a
common word, one per distinct title word; issue 24), and the next dream, continuing the
pass, asked them all again. The pool of each word is stored in ``index.db`` under the
tree fingerprint: while the indexed tree is unchanged the stored pool is exactly what the
query returns (any change of the tree makes the whole table stale, and it is cleared).
"""

from __future__ import annotations

import sqlite3
import struct
import zlib

from brv_vc.index.db import get_meta
from brv_vc.index.search import TermHits, ranked_paths, weights
from brv_vc.index.terms import term_expr


class StoredHits(TermHits):
    """:class:`TermHits` whose pools outlive the process (same answers)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__(conn)
        self._asked: dict[tuple[str, int, str], tuple[str, list[tuple[str, float]]]] = {}
        self.stamp = get_meta(conn, "fingerprint") or ""
        self.writable = True
        try:
            conn.execute("DELETE FROM dreamhits WHERE stamp != ?", (self.stamp,))
        except sqlite3.Error:  # busy or read-only: the queries run as before
            self.writable = False

    # Why a bound: a first dream at 100,000 entries asks ~10,000 words, and their pools
    # (64 paths each) grew the process past 300 MB (issue 24). The least recently asked go
    # past this many; asked again, a pool is read back from ``dreamhits`` (~1 ms).
    KEPT = 2048

    def get(self, term: str, limit: int, *, exclude: str = "") -> list[tuple[str, float]]:
        """The same as ``ranked_paths(conn, term, limit, exclude=exclude)``."""
        best = self._best.pop(term, None)
        if best is None and self.writable:
            best = self._pool(term)
        if best is None:
            found = super().get(term, limit, exclude=exclude)
        else:
            self._best[term] = best  # the most recently asked go last
            found = self._filtered(best, term, limit, exclude)
        while len(self._best) > self.KEPT:
            del self._best[next(iter(self._best))]
        return found

    def _filtered(self, best: list[tuple[str, float]], term: str, limit: int,
                  exclude: str) -> list[tuple[str, float]]:
        """``TermHits.get`` on a pool; its exact query, when needed, asked once per index.

        Why: a domain named after a common word ("token_18") fills the word's pool, so each
        of its entries asked the exact query again (~0.6 s at 100,000 entries). The answer
        is kept with the index fingerprint it was read under and given again only while
        the fingerprint is the same (the index unchanged: the same answer).
        """
        kept = [hit for hit in best if not (exclude and hit[0].startswith(exclude))][:limit]
        if len(kept) == limit or len(best) < self.POOL:
            return kept
        stamp = get_meta(self.conn, "fingerprint") or ""
        key = (term, limit, exclude)
        asked = self._asked.pop(key, None)
        if asked is None or asked[0] != stamp:
            asked = (stamp, ranked_paths(self.conn, term, limit, exclude=exclude))
        self._asked[key] = asked
        while len(self._asked) > self.KEPT:
            del self._asked[next(iter(self._asked))]
        return asked[1]

    def _pool(self, term: str) -> list[tuple[str, float]]:
        row = self.conn.execute("SELECT rows FROM dreamhits WHERE term = ? AND stamp = ?",
                                (term, self.stamp)).fetchone()
        if row is not None:
            found = self._unpack(row[0])
            if found is not None:
                return found
        best = pool(self.conn, term, self.POOL)
        if self.writable:
            try:
                self.conn.execute(
                    "INSERT OR REPLACE INTO dreamhits (term, stamp, rows) VALUES (?, ?, ?)",
                    (term, self.stamp, self._pack(best)))
            except sqlite3.Error:
                self.writable = False
        return best

    # Why ids, not paths: a pool of paths took ~2 KB a word (12 MB at 100,000 entries, 6% of
    # the markdown, against index.db's 1.5x budget); ids and scores take half. The CRC of the
    # paths catches ids that now name other files (ids of deleted rows can be given again).
    def _pack(self, best: list[tuple[str, float]]) -> bytes:
        ids = dict(self.conn.execute(
            f"SELECT path, id FROM docs WHERE path IN ({','.join('?' * len(best))})",
            [p for p, _ in best])) if best else {}
        head = struct.pack("<I", zlib.crc32("\n".join(p for p, _ in best).encode()))
        return head + b"".join(struct.pack("<qd", ids.get(p, -1), s) for p, s in best)

    def _unpack(self, blob: bytes) -> list[tuple[str, float]] | None:
        pairs = [struct.unpack_from("<qd", blob, 4 + 16 * i) for i in range((len(blob) - 4) // 16)]
        paths = dict(self.conn.execute(
            f"SELECT id, path FROM docs WHERE id IN ({','.join(str(int(i)) for i, _ in pairs)})"
        )) if pairs else {}
        found = [(paths.get(i, ""), s) for i, s in pairs]
        crc = zlib.crc32("\n".join(p for p, _ in found).encode())
        return found if struct.pack("<I", crc) == blob[:4] else None


def pool(conn: sqlite3.Connection, term: str, limit: int) -> list[tuple[str, float]]:
    """``ranked_paths(conn, term, limit)``, ranked in FTS5 alone and the paths read after.

    Why: joining ``docs`` to each matching row before the sort doubled the time of a common
    word (~0.6 s for one in every entry at 100,000 entries). The best rows are ranked
    without it (twice as many as asked: some are not entries); when they cannot settle the
    answer (too few entries among them, or a tie at their last score) the exact query runs.
    """
    rows = conn.execute(
        f"SELECT rowid, -bm25(fts, {weights()}) AS score FROM fts WHERE fts MATCH ? "
        "ORDER BY score DESC LIMIT ?", (term_expr(term, []), 2 * limit)).fetchall()
    ids = ",".join(str(int(r[0])) for r in rows)
    paths = dict(conn.execute(
        f"SELECT id, path FROM docs WHERE id IN ({ids}) AND kind = 'entry'").fetchall()
    ) if rows else {}
    found = sorted(((str(paths[i]), float(s)) for i, s in rows if i in paths),
                   key=lambda hit: (-hit[1], hit[0]))
    if len(rows) == 2 * limit and (len(found) < limit or found[limit - 1][1] <= rows[-1][1]):
        return ranked_paths(conn, term, limit)  # what lies past the rows read may count
    return found[:limit]
