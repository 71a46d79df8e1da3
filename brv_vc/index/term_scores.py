"""One query term's scores: the sum of its phrases', each on its own statistics.

A term is up to three phrases (``terms.phrases``: the exact word, its prefix, fuzzy
alternatives); each is ranked alone by ``postings`` and the term's score for a document is
their sum, so no phrase's statistics reach another's (issue 26). Document counts are cached
in large trees (``dfcache``), where a count within 10% is enough for an idf.
"""

from __future__ import annotations

import sqlite3

from brv_vc.index.postings import Postings, bound, idf, postings
from brv_vc.index.stems import stem_of

EXACT_TWICE = 1.0  # tuning: a word without a prefix phrase counts its exact phrase twice
# A term stemmed like an earlier one is dropped (:func:`distinct`): rustfaq R@5 0.825 ->
# 0.833 ("differences ... different string types"), tldr R@10 0.683 -> 0.681, the others the same
SAME_STEM = 1
WORST = [0.0]  # the highest term score / term bound seen in this process (bench/eval_*)


def doc_freq(conn: sqlite3.Connection, expr: str, files: int, *, cached: bool = False) -> int:
    """Documents matching one expression; ``cached``: through ``dfcache`` (large trees)."""
    if not cached:
        return int(conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0])
    row = conn.execute("SELECT df, files FROM dfcache WHERE expr = ?", (expr,)).fetchone()
    if row is not None and row[0] > 0 and abs(row[1] - files) <= 0.1 * files:
        return int(row[0])
    df = int(conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0])
    conn.execute(
        "INSERT OR REPLACE INTO dfcache (expr, df, files) VALUES (?, ?, ?)", (expr, df, files)
    )
    return df


def term_scores(conn: sqlite3.Connection, parts: list[str], corpus: int, field_weights: str,
                scope: str | None, stamp: str, *,
                cached: bool = False) -> tuple[Postings, int] | None:
    """One term's scores: the sum of its phrases', each on its own statistics (``postings``).

    Returns the scores and the term's document count (its commonest phrase's, for the idf
    weights), or None when no phrase matches. A word searched without a prefix (too short,
    ``terms.prefix_of``) counts its exact phrase twice, as a word with one counts it beside
    its prefix: else the words with a prefix weighed double. A term's score for a document
    stays below the sum of its phrases' ``postings.bound``; ``WORST`` keeps the highest
    ratio seen. ``cached``: document counts through ``dfcache`` (see :func:`doc_freq`).
    """
    total: dict[int, float] = {}
    whole, most, limit = True, 0, 0.0
    each: list[tuple[float, float, dict[int, float]]] = []  # (times, idf, scores) a phrase
    twice = EXACT_TWICE and len(parts) > 0 and "*" not in "".join(parts[1:2])
    for n, phrase in enumerate(parts):
        df = doc_freq(conn, phrase, corpus, cached=cached)
        if df == 0:
            continue
        found = postings(conn, phrase, df, corpus, field_weights, scope=scope, stamp=stamp)
        times = 2.0 if twice and n == 0 else 1.0
        whole, most = whole and found.whole, max(most, df)
        limit += times * bound(df, corpus)
        each.append((times, idf(df, corpus), found.scores))
        for rowid, part in found.scores.items():
            total[rowid] = total.get(rowid, 0.0) + times * part
    if not most:
        return None
    if total:
        WORST[0] = max(WORST[0], max(total.values()) / limit)
    return Postings(total, whole, tuple(each)), most


def distinct(terms: list[str]) -> list[str]:
    """``terms`` without those stemmed like an earlier one ("prints" after "print").

    Each would count the same matches again ("differences" and "different" are both
    "differ"). The stem is the index's own (``stems.stem_of``).
    """
    if not SAME_STEM or len(terms) < 2:
        return terms
    seen: set[str] = set()
    kept = []
    for term in terms:
        stemmed = stem_of(term)
        if stemmed not in seen:
            seen.add(stemmed)
            kept.append(term)
    return kept
