"""Fuzzy matching for query words the index has never seen (seed 002: fuzzy ratio 0.2).

A word matches a vocabulary term within edit distance ``int(0.2 * len(word))`` (so words of
5+ characters tolerate one typo, 10+ two). Candidates come from a plain copy of the FTS5
vocabulary (table ``terms``, refreshed only after the index changed) narrowed by a length band
and by sharing the first or the second letter; a banded Levenshtein with early exit does the
rest, so a lookup costs a few ms at 25,000 entries.
"""

from __future__ import annotations

import sqlite3

from brv_vc.index.db import get_meta, set_meta

FUZZY_RATIO = 0.2
MAX_ALTERNATIVES = 5


def max_distance(word: str) -> int:
    """The largest edit distance allowed for ``word`` (20% of its length, rounded down)."""
    return int(FUZZY_RATIO * len(word))


def within(a: str, b: str, limit: int) -> bool:
    """True when the Levenshtein distance of ``a`` and ``b`` is at most ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        low = max(1, i - limit)
        high = min(len(b), i + limit)
        if low > 1:
            current[low - 1] = limit + 1
        for j in range(low, high + 1):
            cost = 0 if ca == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if high < len(b):
            current[high + 1 :] = [limit + 1] * (len(b) - high)
        if min(current[low - 1 : high + 1]) > limit:
            return False
        previous = current
    return previous[len(b)] <= limit


def _refresh_terms(conn: sqlite3.Connection) -> None:
    if get_meta(conn, "terms_dirty") == "0":
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DELETE FROM terms")
        conn.execute("INSERT OR IGNORE INTO terms (term, len) SELECT term, length(term) FROM vocab")
        set_meta(conn, "terms_dirty", "0")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def alternatives(conn: sqlite3.Connection, word: str) -> list[str]:
    """Vocabulary terms within the fuzzy distance of an unknown word, closest first."""
    limit = max_distance(word)
    if limit < 1:
        return []
    _refresh_terms(conn)
    rows = conn.execute(
        "SELECT term FROM terms WHERE len BETWEEN ? AND ?", (len(word) - limit, len(word) + limit)
    )
    first, second = word[0], word[1] if len(word) > 1 else ""
    found = []
    for (term,) in rows:
        if term[:1] != first and term[1:2] != second:
            continue
        for distance in range(1, limit + 1):
            if within(word, term, distance):
                found.append((distance, term))
                break
    return [term for _, term in sorted(found)[:MAX_ALTERNATIVES]]
