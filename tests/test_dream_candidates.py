"""The dream's candidates are found fast and exactly as the plain queries would find them.

Cross-tree candidates: one FTS5 query per title word serves every domain (``TermHits``) and
answers as :func:`ranked_paths` does for each (word, domain). Domain similarity: the BM25
model scores as rank-bm25's own ``get_scores`` does.
"""

from __future__ import annotations

from dream_support import add

from brv_vc.index import search
from brv_vc.services import derived


def _tree(project):
    for d, domain in enumerate(("api", "ops", "web", "db")):
        for i in range(6):
            words = " ".join(["token"] * (1 + (i + d) % 4))
            add(project, f"{domain}/t{i % 2}", f"Token note {domain} {i}",
                f"{words} rotation {domain} {i}. Refresh flows and retries.")


def test_one_query_per_word_answers_as_a_query_per_word_and_domain(project, monkeypatch):
    _tree(project)
    opened = derived.open_synced(project)
    try:
        conn = opened.conn
        for pool in (64, 3):  # 3: the filter leaves too few, the exact query runs
            monkeypatch.setattr(search.TermHits, "POOL", pool)
            hits = search.TermHits(conn)
            for word in ("token", "rotation", "refresh", "absent"):
                for exclude in ("api/", "ops/", "web/", "db/", ""):
                    for limit in (1, 4, 8):
                        assert hits.get(word, limit, exclude=exclude) == search.ranked_paths(
                            conn, word, limit, exclude=exclude), (pool, word, exclude, limit)
        everything = search.ranked_paths(conn, "token", 100)
        assert len(everything) == 24  # no prefix excluded: every entry, none left out
        scores = [s for _, s in everything]
        assert scores == sorted(scores, reverse=True)
        ties = [p for p, s in everything if s == everything[0][1]]
        assert ties == sorted(ties)  # equal scores come in path order
    finally:
        opened.close()
