"""The query cache (tiers 0 and 1 of seed 002), kept in index.db because it is derived.

Every answer is stored with the tree fingerprint it was computed on; a lookup only accepts
answers of the current fingerprint, so any change to the tree (by curate, by hand, by git)
invalidates them all at once. Tier 1 accepts a cached query only when it asks the same thing:
the same set of content words (``terms.content_words``: stemmed, stop words left out, question
words kept), at least 2 of them. Seed 002's Jaccard >= 0.6 served "who spoke at Dana's son's
graduation?" the answer cached for "when is Dana's son's graduation?".
"""

from __future__ import annotations

import json
import sqlite3

# typing costs ~5 ms to import and this module is on the cold query path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MIN_TOKENS = 2
KEEP = 200


def exact(conn: sqlite3.Connection, key: str, fingerprint: str) -> dict[str, Any] | None:
    """The answer cached for this normalised query on this fingerprint, if any."""
    row = conn.execute(
        "SELECT answer FROM cache WHERE key = ? AND fingerprint = ?", (key, fingerprint)
    ).fetchone()
    return None if row is None else dict(json.loads(row[0]))


def similar(
    conn: sqlite3.Connection, tokens: set[str], fingerprint: str
) -> tuple[dict[str, Any], float] | None:
    """The newest cached answer of a query with the same content words (tier 1).

    Returned with its similarity: always 1, the same set of words.
    """
    if len(tokens) < MIN_TOKENS:
        return None
    row = conn.execute(
        "SELECT answer FROM cache WHERE fingerprint = ? AND tokens = ? ORDER BY created DESC "
        "LIMIT 1", (fingerprint, _words(tokens))
    ).fetchone()
    return None if row is None else (dict(json.loads(row[0])), 1.0)


def put(
    conn: sqlite3.Connection,
    key: str,
    tokens: set[str],
    fingerprint: str,
    answer: dict[str, Any],
    created: float,
) -> None:
    """Stores an answer and drops the oldest beyond KEEP rows.

    Answers of other fingerprints are kept: undoing an edit restores the old fingerprint,
    and its answers are right again.
    """
    with conn:
        conn.execute(
            "INSERT OR REPLACE INTO cache (key, fingerprint, tokens, answer, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (key, fingerprint, _words(tokens), json.dumps(answer), created),
        )
        conn.execute(
            "DELETE FROM cache WHERE rowid NOT IN "
            "(SELECT rowid FROM cache ORDER BY created DESC LIMIT ?)",
            (KEEP,),
        )


def _words(tokens: set[str]) -> str:
    """How a query's content words are stored and looked up (sorted, as JSON)."""
    return json.dumps(sorted(tokens))
