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

from brv_vc.index.terms import jaccard

# typing costs ~5 ms to import and this module is on the cold query path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FUZZY_THRESHOLD = 1.0  # the same content words (Jaccard 1); 0.6 answered other questions
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
    """The best cached answer whose token set is similar enough (tier 1), with its similarity."""
    if len(tokens) < MIN_TOKENS:
        return None
    best: tuple[dict[str, Any], float] | None = None
    for raw_tokens, answer in conn.execute(
        "SELECT tokens, answer FROM cache WHERE fingerprint = ? ORDER BY created DESC LIMIT ?",
        (fingerprint, KEEP),
    ):
        other = set(json.loads(raw_tokens))
        if len(other) < MIN_TOKENS:
            continue
        score = jaccard(tokens, other)
        if score >= FUZZY_THRESHOLD and (best is None or score > best[1]):
            best = (dict(json.loads(answer)), score)
    return best


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
            (key, fingerprint, json.dumps(sorted(tokens)), json.dumps(answer), created),
        )
        conn.execute(
            "DELETE FROM cache WHERE rowid NOT IN "
            "(SELECT rowid FROM cache ORDER BY created DESC LIMIT ?)",
            (KEEP,),
        )
