"""Ranked search over the FTS5 index (seed 002 §4.2.1, byterover-cli.md §5.1).

OR-semantics BM25 (Snowball-stemmed, every term also a prefix, unknown words replaced by fuzzy
alternatives, words of one stem counted once) over title, content, path and
tags/keywords, each term ranked alone and summed (``term_scores``, ``postings``), the
candidates re-scored with ``lengths``' k1 and b (FTS5's own since issue 37: none is); documents
holding more of the query's weight get a bounded coverage boost, never a filter, and those
whose title names it a title boost (off since issue 37). The boosted BM25 over
the best one's decides the order; the lifecycle signals (importance, recency, maturity) can
move it by at most ``TIE``, so they only reorder results within 3% of the top score of each
other, never clearly more relevant ones. Each hit's ``relevance`` is s/(1+s) and its
``score`` seed 002's compound score (Eq. 5: 0.6 relevance + 0.2 importance + 0.2 recency,
x maturity, +0.1 local), used only by ``brv query``'s tier gates. Weights, boosts, k1 and b
are chosen by bench/tune_ranking.py, leave-one-set-out over bench/eval_retrieval.py's sets of
every shape (conversations, command pages, docs, FAQs, short records, long documents, code).
"""

from __future__ import annotations

import heapq
import sqlite3
from typing import NamedTuple

from brv_vc.index import feedback, fuzzy, lengths, relations
from brv_vc.index.db import get_meta
from brv_vc.index.excerpt import best_window
from brv_vc.index.ood import coverage_of, judged, out_of_domain
from brv_vc.index.postings import averages, idf
from brv_vc.index.result_rows import default_signals, defaults_for, needles, rows_of
from brv_vc.index.term_scores import WORST, distinct, doc_freq, term_scores
from brv_vc.index.terms import phrases, term_expr
from brv_vc.index.texts import contents
from brv_vc.index.titles import title_share, title_terms
from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.sidecar import get_many

__all__ = ["WORST", "Hit", "SearchOutcome", "TermHits", "default_signals", "defaults_for",
           "ranked_paths", "search"]

# title, content, path, tags+keywords (seed 002 used 5, 1, 1.5). Title 1, not 3, since issue
# 37 (bench/tune_ranking.py, leave-one-set-out over sets of every shape): a record titled with
# its own name (a package, a function) matched the question's words in other records' names
# (debian nDCG@10 over the stemmed BM25 0.955 -> 0.980, project 1.097 -> 1.073). Path 1.5
# (seed 002's): a folder named after the question's word counts more than a passing mention.
FIELD_WEIGHTS = (1.0, 1.0, 1.5, 3.0)
POOL = 50  # BM25's best candidates that the boosts re-rank (100 measured the same, ~15% slower)
COVER = 0.5  # question's BM25 x (1 + COVER x idf-weighted share of its terms a document holds)
# x (1 + TITLE x idf-weighted share of the query terms the title holds). Off since issue 37
# (bench/tune_ranking.py, with the title weight 1): 0.25 lifted project 1.057 -> 1.073 but
# cost pyfaq 1.077 -> 1.038 (nDCG@10 over the stemmed BM25; 0.5: pyfaq 1.018). Issue 26 had it at 0.25 on the FAQ sets with the title weight 3.
TITLE = 0.0
TIE = 0.03  # the most the lifecycle signals can add to the ranking key
# Weight of the pseudo-relevance-feedback words (index/feedback.py). Off since issue 26: on the
# documentation sets the words the first results share pull in their neighbours ("great" and
# "community" put the site's community pages above the FAQ's rustfmt answer): project R@5
# 0.897 -> 0.914, pyfaq R@10 0.703 -> 0.733, rustfaq R@5 0.810 -> 0.825; LoCoMo, whose turns
# are short, lost 0.011 of R@5 and 0.017 of R@10, tldr within 0.005 (docs/retrieval.md)
PRF = 0.0
TOPIC = 0.0  # same-topic boost: x the key of a top-3 hit in that folder (measured: no help)
RELATED = 0.05  # linked to a top-3 hit, either way: x that hit's key
LOCAL_BONUS = 0.1  # byterover §5.1 step 4: local results +0.1 (compound score, capped at 1)
PLAN_MIN_DOCS = 2000

# (ranking key, compound score, relevance, rowid, path, title, kind)
Scored = tuple[float, float, float, int, str, str, str]


def weights() -> str:
    """FIELD_WEIGHTS as bm25() arguments (read at each call, so tuning can change them)."""
    return ", ".join(str(w) for w in FIELD_WEIGHTS)


class Hit(NamedTuple):
    """One ranked result."""

    path: str
    title: str
    kind: str
    score: float
    relevance: float
    excerpt: str
    backlinks: tuple[str, ...] = ()
    stale: bool = False  # its linked code changed since (services/query/marks.py)


class SearchOutcome(NamedTuple):
    """Ranked hits plus how the query was understood."""

    terms: tuple[str, ...]
    hits: tuple[Hit, ...]
    combine: str
    out_of_domain: bool
    unmatched: tuple[str, ...]
    fuzzy: dict[str, tuple[str, ...]]
    corpus: int = 0
    coverage: float = 0.0  # idf-weighted share of the query the best-covering result holds

    @property
    def top(self) -> float:
        """The top score (0 without results)."""
        return self.hits[0].score if self.hits else 0.0


def ranked_paths(conn: sqlite3.Connection, term: str, limit: int, *,
                 exclude: str = "") -> list[tuple[str, float]]:
    """Entries matching one term, best BM25 first (ties by path), outside the prefix ``exclude``.

    A plain MATCH (exact word or its prefix, no fuzzy expansion, no lifecycle scoring): the
    dream's cross-domain candidates. The path comes from ``docs``: reading it from ``fts``
    loads each matching row's whole content, which doubled the time of a common word.
    """
    where, args = "", [term_expr(term, [])]  # type: tuple[str, list[object]]
    if exclude:
        where = " AND substr(docs.path, 1, ?) != ?"
        args += [len(exclude), exclude]
    rows = conn.execute(
        f"SELECT docs.path, -bm25(fts, {weights()}) AS score FROM fts "
        f"JOIN docs ON docs.id = fts.rowid WHERE fts MATCH ? AND docs.kind = 'entry'{where} "
        "ORDER BY score DESC, docs.path LIMIT ?",
        [*args, limit],
    ).fetchall()
    return [(str(path), float(score)) for path, score in rows]


class TermHits:
    """:func:`ranked_paths` for many (term, prefix) pairs: one query per term.

    Why: a dream asks for the best matches of the title words of hundreds of changed entries,
    each outside its own domain; common words repeat, and one query costs ~20 ms in a
    25,000-entry tree. The best :attr:`POOL` matches of a term are fetched once and filtered
    per prefix; when the filter leaves fewer than asked while more may exist, the exact query
    runs, so the answer is always :func:`ranked_paths`'s.
    """

    POOL = 64

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._best: dict[str, list[tuple[str, float]]] = {}

    def get(self, term: str, limit: int, *, exclude: str = "") -> list[tuple[str, float]]:
        """The same as ``ranked_paths(conn, term, limit, exclude=exclude)``."""
        best = self._best.get(term)
        if best is None:
            best = self._best[term] = ranked_paths(self.conn, term, self.POOL)
        kept = [hit for hit in best if not (exclude and hit[0].startswith(exclude))][:limit]
        if len(kept) < limit and len(best) == self.POOL:  # more may exist past the pool
            return ranked_paths(self.conn, term, limit, exclude=exclude)
        return kept


def search(
    conn: sqlite3.Connection,
    state: sqlite3.Connection | None,
    terms: list[str],
    now: float,
    *,
    limit: int = 10,
    scope: str | None = None,
) -> SearchOutcome:
    """Runs one search.

    Args:
        conn: the index.
        state: brv.db for the scoring sidecar (None: default signals for all).
        terms: query terms from ``terms.query_terms``.
        now: epoch seconds (lifecycle decay is computed to this instant).
        limit: results to return (always that many when that many documents match).
        scope: only paths equal to or under this tree folder/prefix.

    Returns:
        The outcome (hits best first).
    """
    unmatched, alts = [], {}
    corpus = int(get_meta(conn, "files") or 0)
    n, average = averages(conn)  # FTS5's own N (the idf it divides by) and average length
    n = n or corpus
    stamp, field_weights = get_meta(conn, "fingerprint") or "", weights()
    cached = corpus >= PLAN_MIN_DOCS  # document counts through dfcache
    terms = distinct(terms)
    lists, dfs = [], []
    for term in terms:
        found = term_scores(conn, phrases(term, []), n, field_weights, scope, stamp,
                            cached=cached)
        if found is None:
            others = fuzzy.alternatives(conn, term)
            if others:
                alts[term] = tuple(others)
                found = term_scores(conn, phrases(term, others), n, field_weights, scope,
                                    stamp, cached=cached)
        if found is None:
            unmatched.append(term)
            continue
        lists.append(found[0])
        dfs.append(found[1])
    raw: dict[int, float] = {}
    for found_in in lists:
        for rowid, part in found_in.scores.items():
            raw[rowid] = raw.get(rowid, 0.0) + part
    if not raw:
        return SearchOutcome(tuple(terms), (), "or", True, tuple(unmatched), alts, corpus)
    extra: dict[int, float] = {}  # the feedback words' scores (the coverage boost leaves them)
    if PRF and corpus < PLAN_MIN_DOCS:  # 25,000 entries: +10 ms a query, not paid
        first = heapq.nlargest(feedback.DOCS, raw, key=raw.__getitem__)
        for word, _df in feedback.expansion(
                conn, first, terms,
                lambda w: doc_freq(conn, term_expr(w, []), n, cached=cached), n):
            more = term_scores(conn, phrases(word, []), n, field_weights, scope, stamp,
                               cached=cached)
            for rowid, part in (more[0].scores if more else {}).items():
                extra[rowid] = extra.get(rowid, 0.0) + PRF * part
    both = raw
    if extra:
        both = dict(raw)
        for rowid, part in extra.items():
            both[rowid] = both.get(rowid, 0.0) + part
    weight = [idf(df, n) for df in dfs]
    total = sum(weight) + sum(idf(0, n) for _ in unmatched)
    pool = heapq.nlargest(max(POOL, limit), both, key=both.__getitem__)
    cover = {r: coverage_of(r, lists, weight, total) for r in pool}
    raw.update(lengths.rescored(conn, pool, lists, average))  # lengths.K1 and B (index/lengths.py)
    rows = rows_of(conn, pool)
    signals = get_many(state, [path for path, *_ in rows.values()]) if state else {}
    scored: list[Scored] = []
    named = title_terms(terms, alts, unmatched, weight) if TITLE else []
    boosted = {r: boost(raw.get(r, 0.0), extra.get(r, 0.0), cover[r],
                        title_share(rows[r][1], named) if named else 0.0) for r in rows}
    best = max(boosted.values()) or 1.0
    for rowid, (path, title, kind, updated, mtime_ns) in rows.items():
        relevance = boosted[rowid] / (1.0 + boosted[rowid])
        sig = signals.get(path) or default_signals(updated, mtime_ns)
        share, compound = scoring.ranking(relevance, sig, now)
        key = (1.0 - TIE) * boosted[rowid] / best + TIE * share
        score = min(1.0, compound + LOCAL_BONUS)
        scored.append((key, score, relevance, rowid, path, title, kind))
    scored.sort(key=lambda s: (-s[0], s[4]))
    if TOPIC or RELATED:
        scored = _near_strong_hits(conn, scored)
    kept = scored[:limit]
    best_cover = judged(max(cover[s[3]] for s in scored[:10]), weight, len(unmatched),
                        idf(0, n))  # a long question: its held words count JUDGED/n
    ood = out_of_domain(corpus, kept[0][2], best_cover)
    words = needles(terms, alts)
    texts = contents(conn, [s[3] for s in kept])
    linked = relations.backlinks_of(conn, [s[4] for s in kept])
    hits = tuple(
        Hit(
            path=path,
            title=title,
            kind=kind,
            score=round(score, 4),
            relevance=round(relevance, 4),
            excerpt=best_window(texts[rowid], words),
            backlinks=tuple(linked[path]),
        )
        for _, score, relevance, rowid, path, title, kind in kept
    )
    return SearchOutcome(
        tuple(terms), hits, "or", ood, tuple(unmatched), alts, corpus, round(best_cover, 4)
    )


def boost(asked: float, extra: float, cover: float, titled: float = 0.0) -> float:
    """A candidate's boosted BM25: (question words x coverage boost + feedback words) x title boost.

    The feedback words' score is not multiplied by the coverage of the question (measured
    against multiplying both: project R@5 0.897 -> 0.905, locomo and tldr within 0.002); a
    title naming the question lifts the whole score (measured: project MRR 0.832 -> 0.885 and
    nDCG@10 0.851 -> 0.890, R@5/R@10 the same; locomo and tldr within 0.002).
    """
    return (asked * (1.0 + COVER * cover) + extra) * (1.0 + TITLE * titled)


def _near_strong_hits(conn: sqlite3.Connection, scored: list[Scored]) -> list[Scored]:
    """Candidates near one of the top 3 get a share of that hit's ranking key, then re-sort.

    Near: linked to it either way (``related`` or ``@`` relations: RELATED x its key), or in
    its folder (TOPIC x its key). Only candidates, which hold a query word, are lifted.
    """
    bonus: dict[str, float] = {}
    linked = relations.backlinks_of(conn, [s[4] for s in scored[:3]])
    for key, *_, path, _title, _kind in scored[:3]:
        near = {link.target for link in relations.forward(conn, path)} | set(linked[path])
        folder = path.rpartition("/")[0]
        for s in scored:
            lift = RELATED * key if (s[4] in near or s[4].removesuffix(".md") in near) else 0.0
            if TOPIC and s[4].rpartition("/")[0] == folder:
                lift += TOPIC * key
            if lift and s[4] != path:
                bonus[s[4]] = max(bonus.get(s[4], 0.0), lift)
    out = [(s[0] + bonus.get(s[4], 0.0), *s[1:]) for s in scored]
    out.sort(key=lambda s: (-s[0], s[4]))
    return out
