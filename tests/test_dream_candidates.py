"""The dream's candidates are found fast and exactly as the plain queries would find them.

Cross-tree candidates: one FTS5 query per title word serves every domain (``TermHits``) and
answers as :func:`ranked_paths` does for each (word, domain). Domain similarity: the BM25
model scores as rank-bm25's own ``get_scores`` does.
"""

from __future__ import annotations

from dream_support import add
from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.index import search
from brv_vc.services import derived
from brv_vc.services.dream.similarity import Corpus, _LuceneBM25, _query


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


def _plain_nearest(model, paths, queries, a, limit):
    """Consolidate's nearest entries as rank-bm25 alone computes them (a whole get_scores)."""
    base = float(model.get_batch_scores(queries[a], [a])[0])
    if base <= 0:
        return []
    scores = model.get_scores(queries[a])
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], paths[i]))
    return [(i, min(1.0, float(scores[i]) / base)) for i in order
            if i != a and scores[i] > 0][:limit]


_WORDS = st.sampled_from("auth token jwt refresh cache redis retry queue deploy lock".split())


@settings(max_examples=60, deadline=None)
@given(docs=st.lists(st.lists(_WORDS, max_size=12), min_size=1, max_size=14),
       order=st.randoms(use_true_random=False))
def test_the_kept_word_scores_are_rank_bm25s_own_floats(docs, order):
    paths = [f"d/t/e{i}.md" for i in range(len(docs))]
    order.shuffle(paths)  # paths out of index order: ties must still come in path order
    corpus = Corpus(paths, docs)
    model = _LuceneBM25([d or ["_"] for d in docs])
    queries = [_query(d) for d in docs]
    for a in order.sample(range(len(docs)), len(docs)):  # any order of asking
        assert corpus.nearest(a, 3) == _plain_nearest(model, paths, queries, a, 3)
        b = order.randrange(len(docs))
        for x, y in ((a, b), (b, a)):
            base = float(model.get_batch_scores(queries[x], [x])[0])
            plain = float(model.get_batch_scores(queries[x], [y])[0])
            assert corpus.sim(x, y) == (0.0 if base <= 0 else min(1.0, plain / base))
