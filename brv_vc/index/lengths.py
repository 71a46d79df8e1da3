"""BM25's saturation and length normalisation, re-done on the candidates with ``K1`` and ``B``.

FTS5's ``bm25()`` has ``k1 = 1.2`` and ``b = 0.75`` built in: a phrase's saturated frequency
is ``T = f (k1 + 1) / (f + K)``, ``K = k1 (1 - b + b D / avgD)``, ``f`` its field-weighted
frequency in the document and ``D`` the document's tokens over every column. From ``T`` and
``D`` the frequency ``f`` is exact again, and ``T`` is computed with this module's ``K1`` and
``B``, rescaled to stay below FTS5's ``k1 + 1`` (so ``postings.bound`` still holds). Only the
candidates are re-scored: their lengths are one indexed read of ``fts_docsize``.

Why (issue 26, third round; docs/retrieval.md "Ranking"): on the documentation sets a long
tutorial section that says the question's words a few times each beat the short answer that
says one of them twice. A stronger length normalisation (``b`` 1) and a later saturation
(``k1`` 2: a word said three times counts more than one said once) lifted the short
answers on every set of the harness but LoCoMo, whose turns are all short (R@5 -0.006).
"""

from __future__ import annotations

import sqlite3

from brv_vc.index import postings
from brv_vc.index.postings import Postings, varints
from brv_vc.index.term_scores import WORST

# k1 1.5, b 0.75 (the stemmed BM25's own) since issue 37's second round, with Snowball's stems
# (index.stems): on every question of every set, nDCG@10 over the stemmed BM25 against FTS5's
# own k1 1.2: manpages 0.998 -> 1.003 (the one set below 1), pyfaq 1.071 -> 1.084, five more
# up, debian 1.022 -> 1.014 and locomo 1.147 -> 1.145 down, none under 1 (docs/retrieval.md
# "Snowball's stems in the index"). Before it, FTS5's own k1 and b were chosen
# leave-one-set-out by bench/tune_ranking.py on ~60 questions a set: k1 2 / b 1, chosen on
# FAQ-shaped sets, put a short record holding a common word of the question above a longer one
# holding its rarest (debian 0.900 -> 0.955). Leave-one-set-out again with the Snowball stems
# (stop 22, ~60 questions a set) chose k1 1.2 with path 1, coverage 0 and title boost 0.25; on
# every question that put manpages at 0.993, so these values stay. At 120 questions a set
# (stop 23) both declared procedures' choices failed on every question (manpages 0.990, debian
# 0.975); on every question (stop 23), chosen without debian, the seven keep title weight 3
# (and k1 2 / b 1), most of debian's loss: k1 2 / b 1 with title weight 1 puts it at
# 1.002-1.022 on every question, k1/b's share is ~0.01. On every question the all-sets choice
# is b 0.9 with coverage 0: every set >= 1.0 (worst 1.019) but locomo -0.014, over the rule's
# 0.005 (docs/retrieval.md, "Leave-one-set-out at 120 questions"). The third pass (stop 23-24,
# the ascent repeated, every question): every set held out >= 1.0 (worst debian 1.019); its
# all-sets choice, k1 2 / b 1, title 1, path 1, coverage 1, title boost 0, costs locomo and
# project 0.013 each (locomo's from k1 2 / b 1), over the 0.005: these stay.
K1 = 1.5
B = 0.75
FTS_B = 0.75  # FTS5's own b (its k1 is postings.K1)


def sizes(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, int]:
    """Each document's length in tokens, over every column (FTS5's ``D``)."""
    marks = ",".join(str(int(r)) for r in rowids)
    found = conn.execute(f"SELECT id, sz FROM fts_docsize WHERE id IN ({marks})")
    return {int(r): sum(varints(sz)) for r, sz in found if isinstance(sz, bytes)}


def saturated(t: float, size: float, average: float) -> float:
    """A phrase's saturated frequency ``T`` from FTS5's ``bm25()``, as it is with K1 and B.

    Below ``postings.K1 + 1`` like FTS5's own, whatever K1.
    """
    top = postings.K1 + 1.0
    if t <= 0.0:
        return 0.0
    t = min(t, top * 0.9999)  # FTS5's T never reaches k1 + 1 (f would be infinite)
    fts = postings.K1 * (1.0 - FTS_B + FTS_B * size / average)
    ours = K1 * (1.0 - B + B * size / average)
    f = t * fts / (top - t)
    return f * (K1 + 1.0) / (f + ours) * top / (K1 + 1.0)


def rescored(conn: sqlite3.Connection, pool: list[int], terms: list[Postings],
             average: float) -> dict[int, float]:
    """The candidates' question scores with K1 and B (empty with FTS5's own k1 and b).

    ``terms``: each query term's scores, with its phrases (``Postings.parts``: how many
    times it counts, its idf, its scores); ``average``: FTS5's average document length
    (``postings.averages``, read once by the search). Keeps ``term_scores.WORST`` up to date.
    """
    if not pool or (K1 == postings.K1 and B == FTS_B):
        return {}
    length = sizes(conn, pool)
    out: dict[int, float] = {}
    for term in terms:
        limit = sum(times * weight for times, weight, _ in term.parts) * (postings.K1 + 1.0)
        for rowid in pool:
            size = length.get(rowid, average)
            part = sum(times * weight * saturated(scores[rowid] / weight, size, average)
                       for times, weight, scores in term.parts if rowid in scores)
            if part:
                out[rowid] = out.get(rowid, 0.0) + part
                WORST[0] = max(WORST[0], part / limit)
    return out
