"""Pseudo-relevance feedback: words the best first-pass results share, asked as a second pass.

The documents ranked first for a question usually say it in the tree's own words; a word that
most of them hold and the question does not ("restore" for "bring back an archived entry")
is added with a small weight. No model, only the tree.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable

from brv_vc.index import texts
from brv_vc.index.terms import STOPWORDS, stem, tokens

DOCS = 5  # first-pass results read
WORDS = 5  # words added
SHARED = 3  # a word must be in at least this many of them
CANDIDATES = 12  # words whose document frequency is looked up


def expansion(conn: sqlite3.Connection, rowids: list[int], terms: list[str],
              doc_freq: Callable[[str], int], corpus: int) -> list[tuple[str, int]]:
    """Up to WORDS (word, df) pairs that at least SHARED of ``rowids`` hold, rarest first.

    Args:
        conn: the index.
        rowids: the first pass's best documents (at most DOCS are read).
        terms: the question's terms (never added again, nor their stems).
        doc_freq: the document frequency of a word in the tree.
        corpus: documents in the tree.
    """
    top = rowids[:DOCS]
    if len(top) < SHARED:
        return []
    marks = ",".join(str(int(r)) for r in top)
    asked = {stem(t) for t in terms}
    shared: Counter[str] = Counter()
    stored = texts.load(conn, top)
    for rowid, title in conn.execute(f"SELECT id, title FROM docs WHERE id IN ({marks})"):
        if rowid not in stored:
            continue
        content, keys = stored[rowid]
        words = {w for w in set(tokens(f"{title} {keys} {content}"))
                 if len(w) > 2 and not w.isdigit() and w not in STOPWORDS}
        shared.update(w for w in words if stem(w) not in asked)
    # most shared first, then by name: never by set order (which the hash seed changes)
    common = sorted((w for w, n in shared.items() if n >= SHARED),
                    key=lambda w: (-shared[w], w))[:CANDIDATES]
    ranked = sorted(((doc_freq(w), w) for w in common), key=lambda p: (p[0], p[1]))
    # a word in 3/4 of the tree or more says nothing (section headings, the project's name)
    return [(w, df) for df, w in ranked if df > 0 and df * 4 < corpus * 3][:WORDS]
