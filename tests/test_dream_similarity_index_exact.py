"""The dream's similarity index finds what rank-bm25 alone finds: same neighbours, same floats.

A generated tree with planted near-duplicates (bench/dream_compare.py's: copies with a word
added to the title, revisits with part of the body cut). Every entry's nearest entries and
every pair score the consolidate pass reads come out of the postings exactly as rank-bm25's
``get_scores`` / ``get_batch_scores`` give them, also for corpora sharing counted words (a
domain's groups of changed entries), so the dream's decisions cannot differ.
"""

from __future__ import annotations

import functools
import random

from bench.dream_compare import near_duplicates
from bench.gen_tree import generate
from brv_vc.format.entry import parse_entry
from brv_vc.index.dream_hits import pool
from brv_vc.services.dream.similarity import (
    LINK_AT,
    MERGE_AT,
    Corpus,
    Vocab,
    _LuceneBM25,
    _query,
    words,
)
from brv_vc.tree.project import Project


def _plain(docs, paths):
    """rank-bm25 alone: (nearest(a, limit), sim(a, b)) as consolidate asked them before."""
    model = _LuceneBM25([d or ["_"] for d in docs])
    queries = [_query(d) for d in docs]

    @functools.cache
    def base(a):
        return float(model.get_batch_scores(queries[a], [a])[0])

    def nearest(a, limit):
        if base(a) <= 0:
            return []
        scores = model.get_scores(queries[a])
        order = sorted(range(len(docs)), key=lambda i: (-scores[i], paths[i]))
        return [(i, min(1.0, float(scores[i]) / base(a))) for i in order
                if i != a and scores[i] > 0][:limit]

    def sim(a, b):
        own = base(a)
        return 0.0 if own <= 0 else min(1.0, float(model.get_batch_scores(queries[a], [b])[0]) / own)

    return nearest, sim


def _domains(tmp_path):
    root = tmp_path / "proj"
    paths = generate(root, 360, seed=5)
    tree = Project(root).tree
    planted = near_duplicates(tree, paths, 40)
    by_domain: dict[str, dict[str, list[str]]] = {}
    for rel in sorted(paths + planted):
        entry = parse_entry((tree / rel).read_bytes(), file=rel)
        by_domain.setdefault(rel.split("/", 1)[0], {})[rel] = words(entry)
    return by_domain, planted


def test_the_index_gives_rank_bm25s_neighbours_and_scores(tmp_path):
    by_domain, _ = _domains(tmp_path)
    rng = random.Random(3)
    domains = sorted(by_domain)
    for domain in domains:
        vocab = Vocab()
        own = by_domain[domain]
        # two groups of one domain, the second with entries of another domain (cross hits)
        other = by_domain[domains[(domains.index(domain) + 1) % len(domains)]]
        guests = dict(rng.sample(sorted(other.items()), 12))
        for group in (own, {**own, **guests}):
            paths = sorted(group)
            docs = [group[p] for p in paths]
            corpus = Corpus(paths, docs, vocab)
            nearest, sim = _plain(docs, paths)
            asked = [i for i, p in enumerate(paths) if p.endswith(("_copy.md", "_revisited.md"))]
            for a in asked + rng.sample(range(len(paths)), 15):
                found = corpus.nearest(a, 5)
                assert found == nearest(a, 5), paths[a]
                for b, _ in found:
                    assert corpus.sim(b, a) == sim(b, a)
                    assert corpus.pair(a, b) == min(sim(a, b), sim(b, a))


def test_the_planted_near_duplicates_are_found(tmp_path):
    by_domain, planted = _domains(tmp_path)
    merged = linked = 0
    for copy in planted:
        group = by_domain[copy.split("/", 1)[0]]
        paths = sorted(group)
        corpus = Corpus(paths, [group[p] for p in paths], Vocab())
        original = copy.rsplit("_", 1)[0] + ".md"
        a, b = paths.index(copy), paths.index(original)
        assert b in [j for j, _ in corpus.nearest(a, 5)]
        if copy.endswith("_copy.md"):
            assert corpus.pair(a, b) >= MERGE_AT
            merged += 1
        else:
            assert max(corpus.sim(a, b), corpus.sim(b, a)) >= LINK_AT
            linked += 1
    assert merged >= 15
    assert linked >= 15


def test_a_pool_read_without_the_join_is_the_ranked_query(project):
    from dream_support import add

    from brv_vc.index.search import ranked_paths
    from brv_vc.services import derived

    for i in range(30):  # equal scores past the rows read, and non-entries among them
        add(project, f"d{i % 3}/t", f"Token note {i}", "token rotation. " * (1 + i % 2))
    opened = derived.open_synced(project)
    try:
        for term in ("token", "rotation", "note", "absent"):
            for limit in (1, 3, 8, 40):
                assert pool(opened.conn, term, limit) == ranked_paths(opened.conn, term, limit)
    finally:
        opened.close()


def test_pools_kept_in_memory_are_bounded_and_answer_the_same(project, monkeypatch):
    from dream_support import add

    from brv_vc.index.dream_hits import StoredHits
    from brv_vc.index.search import ranked_paths
    from brv_vc.services import derived

    for i in range(12):
        add(project, f"d{i % 3}/t", f"Word{i} note", f"word{i} alpha beta. note {i}.")
    monkeypatch.setattr(StoredHits, "KEPT", 3)
    opened = derived.open_synced(project)
    try:
        hits = StoredHits(opened.conn)
        asked = [f"word{i}" for i in range(12)] + ["note", "alpha", "word0", "word5"]
        for term in asked:
            assert hits.get(term, 4, exclude="d1/") == ranked_paths(
                opened.conn, term, 4, exclude="d1/")
            assert len(hits._best) <= 3
    finally:
        opened.close()


def test_the_exact_query_behind_a_full_pool_is_asked_once_per_index(project, monkeypatch):
    from dream_support import add

    from brv_vc.index import search
    from brv_vc.index.dream_hits import StoredHits
    from brv_vc.services import derived

    for i in range(6):  # the word's pool is all "token" entries: the exact query is needed
        add(project, "token/t", f"Token token {i}", "token token token.")
    add(project, "ops/t", "Token rotation", "token once.")
    monkeypatch.setattr(StoredHits, "POOL", 3)
    calls = []
    real = search.ranked_paths
    monkeypatch.setattr("brv_vc.index.dream_hits.ranked_paths",
                        lambda *a, **k: calls.append(k) or real(*a, **k))
    opened = derived.open_synced(project)
    try:
        hits = StoredHits(opened.conn)
        want = real(opened.conn, "token", 2, exclude="token/")
        assert [hits.get("token", 2, exclude="token/") for _ in range(3)] == [want] * 3
        assert len([k for k in calls if k.get("exclude")]) == 1  # once, then kept
    finally:
        opened.close()
    add(project, "web/t", "Token notes", "token token.")  # the index changes: asked again
    opened = derived.open_synced(project)
    try:
        hits._best.clear()
        hits.conn = opened.conn
        assert hits.get("token", 2, exclude="token/") == real(opened.conn, "token", 2,
                                                              exclude="token/")
        assert len([k for k in calls if k.get("exclude")]) == 2
    finally:
        opened.close()
