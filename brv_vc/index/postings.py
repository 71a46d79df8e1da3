"""One query term's scored documents: every one, or the best ``TOP`` (kept per fingerprint).

FTS5's ``bm25()`` of an OR query is the sum, over the query's phrases, of each phrase's
idf x its saturated, length-normalised frequency; so the score of a question is the sum of
the scores of its terms asked one at a time. Search asks each term alone:

- a term in at most ``TOP`` documents gives every one of them with its score (exact);
- a broader term gives its ``TOP`` best, ranked once per tree state and stored in
  ``toplists`` under the tree fingerprint and the field weights (any change to the tree or to
  the weights asks again). A document outside that list counts 0 for the term: at 25,000
  entries ranking the 20,000 documents that hold a common word costs ~10 ms, its best 500
  cost an 8 KB read.

Each list is one *phrase* (``terms.phrases``: the exact word, its prefix, a fuzzy
alternative), so every score is on that phrase's own statistics. FTS5's ``bm25()`` of one
phrase is ``idf_fts x T``, with ``idf_fts = ln((N - n + 0.5) / (n + 0.5))`` floored at 1e-6 (a
phrase in half the documents or more counts nothing) and ``T`` the saturated, length-
normalised, field-weighted frequency, ``0 <= T < k1 + 1 = 2.2``. Every score is rewritten as
``idf(n) x T`` with the always-positive idf of Lucene (:func:`idf`), ``T`` recovered as
``score / idf_fts`` and capped at ``K1 + 1``: small trees, where many words are in half the
documents, do not rank by ties, and no phrase can count more than ``(K1 + 1) x idf(n)``
(:func:`bound`), even when ``n`` is a cached, approximate count. (Until issue 26 a term's lift
was decided on the document count of ``("word" OR "stem"*)`` as a whole and multiplied the
exact word's ordinary score by ~10^5 when only the prefix was that common.)
"""

from __future__ import annotations

import math
import sqlite3
from array import array
from typing import NamedTuple

TOP = 500
FLOOR = 1e-6  # FTS5's floor for the idf of a phrase in half the documents or more
K1 = 1.2  # FTS5's bm25() constant: a phrase's saturated frequency T is below K1 + 1


class Postings(NamedTuple):
    """Scores of the documents holding one term (rowid -> raw BM25); ``whole`` when complete.

    ``parts``: a term's phrases (``term_scores``), each as (times it counts, its idf, its
    scores), for re-scoring the candidates (``lengths``).
    """

    scores: dict[int, float]
    whole: bool
    parts: tuple[tuple[float, float, dict[int, float]], ...] = ()


def idf(df: int, corpus: int) -> float:
    """The always-positive idf of Lucene and MiniSearch: ln(1 + (N - n + 0.5) / (n + 0.5))."""
    return math.log(1.0 + (max(corpus, df) - df + 0.5) / (df + 0.5))


def bound(df: int, corpus: int) -> float:
    """The most one phrase found in ``df`` of ``corpus`` documents can add to a score."""
    return (K1 + 1.0) * idf(df, corpus)


def varints(blob: bytes) -> list[int]:
    """SQLite's big-endian varints, as FTS5's records hold them."""
    out, value = [], 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            out.append(value)
            value = 0
    return out


def averages(conn: sqlite3.Connection) -> tuple[int, float]:
    """FTS5's own document count ``N`` and average length in tokens (every column).

    Read from its averages record (``fts_data`` id 1: N, then each column's total tokens).
    ``N`` is not the tree's file count: a generated ``context.md`` or a file that failed to
    parse has an index row but no FTS5 row, and the idf ``bm25()`` used (on its own ``N``)
    must be the one divided out (:func:`_scaled`). Until issue 26's third round it was not:
    on the FAQ sets (39-49 such files in 213-712) a word in more than half the entries but
    less than half the files scored ~0, and every common word was under-weighted.
    """
    head = conn.execute("SELECT block FROM fts_data WHERE id = 1").fetchone()
    numbers = varints(head[0]) if head and isinstance(head[0], bytes) else []
    if not numbers or not numbers[0]:
        return 0, 1.0
    return numbers[0], max(1.0, sum(numbers[1:]) / numbers[0])


def scope_clause(scope: str | None) -> tuple[str, list[object]]:
    """SQL (``AND ...`` on the rowid) and its arguments keeping paths at or under ``scope``."""
    if not scope:
        return "", []
    # the FTS5 table is contentless (index.texts): the path is read from docs, by a range
    # on its unique index ('0' sorts right after '/'); substr() made it a scan of every row
    return (" AND fts.rowid IN (SELECT id FROM docs WHERE path = ? OR "
            "(path >= ? AND path < ?))", [scope, scope + "/", scope + "0"])


def postings(
    conn: sqlite3.Connection,
    expr: str,
    df: int,
    corpus: int,
    weights: str,
    *,
    scope: str | None = None,
    stamp: str = "",
) -> Postings:
    """The documents matching ``expr`` (one term's MATCH expression) with their scores.

    Args:
        conn: the index.
        expr: the term's MATCH expression (``terms.term_expr``).
        df: documents matching it in the whole tree.
        corpus: documents in the tree.
        weights: the field weights as ``bm25()`` arguments.
        scope: only paths at or under this folder (never stored: scoped lists are small).
        stamp: the tree fingerprint; '' never stores.
    """
    where, args = scope_clause(scope)
    whole = df <= TOP
    key = f"{stamp}|{weights}"
    if not whole and stamp and not scope:
        row = conn.execute("SELECT stamp, rows FROM toplists WHERE expr = ?", (expr,)).fetchone()
        if row is not None and row[0] == key and isinstance(row[1], bytes):
            return Postings(_scaled(_unpack(row[1]), df, corpus), False)
    limit = "" if whole else f" ORDER BY bm25(fts, {weights}) LIMIT {TOP}"
    found = conn.execute(
        f"SELECT rowid, -bm25(fts, {weights}) FROM fts WHERE fts MATCH ?{where}{limit}",
        [expr, *args],
    ).fetchall()
    if not whole and stamp and not scope:
        conn.execute(
            "INSERT OR REPLACE INTO toplists (expr, stamp, rows) VALUES (?, ?, ?)",
            (expr, key, _pack(found)),
        )
    return Postings(_scaled(dict(found), df, corpus), whole)


def _pack(found: list[tuple[int, float]]) -> bytes:
    """A list as bytes: its rowids (int64), then its scores (float64), machine order."""
    return (array("q", (r for r, _ in found)).tobytes()
            + array("d", (s for _, s in found)).tobytes())


def _unpack(blob: bytes) -> dict[int, float]:
    half = len(blob) // 2
    rowids, scores = array("q"), array("d")
    rowids.frombytes(blob[:half])
    scores.frombytes(blob[half:])
    return dict(zip(rowids, scores, strict=True))


def _scaled(scores: dict[int, float], df: int, corpus: int) -> dict[int, float]:
    """FTS5's scores of one phrase on the Lucene idf, each below :func:`bound` (see the module)."""
    if df == 0 or not scores:
        return scores
    fts_idf = max(FLOOR, math.log((max(corpus, df) - df + 0.5) / (df + 0.5)))
    top = K1 + 1.0
    lucene = idf(df, corpus)
    return {r: min(top, s / fts_idf) * lucene for r, s in scores.items()}
