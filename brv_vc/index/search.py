"""Ranked search over the FTS5 index (seed 002 §4.2.1, byterover-cli.md §5.1).

OR-semantics BM25 (porter-stemmed, every term also a prefix, unknown words replaced by fuzzy
alternatives) over title, content, path and tags/keywords, each term ranked alone and summed
(``postings``); documents holding more of the query's weight get a bounded coverage boost,
never a filter, and those whose title names it a bounded title boost. The boosted BM25 over
the best one's decides the order; the lifecycle signals (importance, recency, maturity) can
move it by at most ``TIE``, so they only reorder results within 3% of the top score of each
other, never clearly more relevant ones. Each hit's ``relevance`` is s/(1+s) and its
``score`` seed 002's compound score (Eq. 5: 0.6 relevance + 0.2 importance + 0.2 recency,
x maturity, +0.1 local), used only by ``brv query``'s tier gates. Weights and boosts were
chosen on bench/eval_retrieval.py.
"""

from __future__ import annotations

import heapq
import sqlite3
from typing import NamedTuple

from brv_vc.index import feedback, fuzzy, relations
from brv_vc.index.db import get_meta
from brv_vc.index.excerpt import best_window
from brv_vc.index.ood import coverage_of, judged, out_of_domain
from brv_vc.index.postings import Postings, bound, idf, postings
from brv_vc.index.terms import phrases, stem, term_expr, tokens
from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.sidecar import get_many

# title, content, path, tags+keywords (bench/eval_retrieval.py; seed 002 used 5, 1, 1.5).
# Path 1.5 (seed 002's): a folder named after the question's word counts more than a passing
# mention (against 1: project R@5 0.905 -> 0.914, locomo 0.603 -> 0.605, tldr the same)
FIELD_WEIGHTS = (3.0, 1.0, 1.5, 3.0)
POOL = 50  # BM25's best candidates that the boosts re-rank (100 measured the same, ~15% slower)
COVER = 0.5  # question's BM25 x (1 + COVER x idf-weighted share of its terms a document holds)
TITLE = 0.5  # x (1 + TITLE x idf-weighted share of the query terms the title holds)
TIE = 0.03  # the most the lifecycle signals can add to the ranking key
PRF = 0.5  # weight of the pseudo-relevance-feedback words (index/feedback.py)
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


def _doc_freq(conn: sqlite3.Connection, expr: str, files: int) -> int:
    """Documents matching one term; cached in large trees (a count within 10% is enough)."""
    if files < PLAN_MIN_DOCS:
        return int(conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0])
    row = conn.execute("SELECT df, files FROM dfcache WHERE expr = ?", (expr,)).fetchone()
    if row is not None and row[0] > 0 and abs(row[1] - files) <= 0.1 * files:
        return int(row[0])
    df = int(conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0])
    conn.execute(
        "INSERT OR REPLACE INTO dfcache (expr, df, files) VALUES (?, ?, ?)", (expr, df, files)
    )
    return df


EXACT_TWICE = 1.0  # tuning: a word without a prefix phrase counts its exact phrase twice
WORST = [0.0]  # the highest term score / term bound seen in this process (bench/eval_*)


def _term(conn: sqlite3.Connection, parts: list[str], corpus: int, field_weights: str,
          scope: str | None, stamp: str) -> tuple[Postings, int] | None:
    """One term's scores: the sum of its phrases', each on its own statistics (``postings``).

    Returns the scores and the term's document count (its commonest phrase's, for the idf
    weights), or None when no phrase matches. A word searched without a prefix (too short,
    ``terms.prefix_of``) counts its exact phrase twice, as a word with one counts it beside
    its prefix: else the words with a prefix weighed double. A term's score for a document
    stays below the sum of its phrases' ``postings.bound``; ``WORST`` keeps the highest
    ratio seen.
    """
    total: dict[int, float] = {}
    whole, most, limit = True, 0, 0.0
    twice = EXACT_TWICE and len(parts) > 0 and "*" not in "".join(parts[1:2])
    for n, phrase in enumerate(parts):
        df = _doc_freq(conn, phrase, corpus)
        if df == 0:
            continue
        found = postings(conn, phrase, df, corpus, field_weights, scope=scope, stamp=stamp)
        times = 2.0 if twice and n == 0 else 1.0
        whole, most = whole and found.whole, max(most, df)
        limit += times * bound(df, corpus)
        for rowid, part in found.scores.items():
            total[rowid] = total.get(rowid, 0.0) + times * part
    if not most:
        return None
    if total:
        WORST[0] = max(WORST[0], max(total.values()) / limit)
    return Postings(total, whole), most


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
    stamp, field_weights = get_meta(conn, "fingerprint") or "", weights()
    lists, dfs = [], []
    for term in terms:
        found = _term(conn, phrases(term, []), corpus, field_weights, scope, stamp)
        if found is None:
            others = fuzzy.alternatives(conn, term)
            if others:
                alts[term] = tuple(others)
                found = _term(conn, phrases(term, others), corpus, field_weights, scope, stamp)
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
                conn, first, terms, lambda w: _doc_freq(conn, term_expr(w, []), corpus),
                corpus):
            more = _term(conn, phrases(word, []), corpus, field_weights, scope, stamp)
            for rowid, part in (more[0].scores if more else {}).items():
                extra[rowid] = extra.get(rowid, 0.0) + PRF * part
    both = raw
    if extra:
        both = dict(raw)
        for rowid, part in extra.items():
            both[rowid] = both.get(rowid, 0.0) + part
    weight = [idf(df, corpus) for df in dfs]
    total = sum(weight) + sum(idf(0, corpus) for _ in unmatched)
    pool = heapq.nlargest(max(POOL, limit), both, key=both.__getitem__)
    cover = {r: coverage_of(r, lists, weight, total) for r in pool}
    rows = _rows(conn, pool)
    signals = get_many(state, [path for path, *_ in rows.values()]) if state else {}
    scored: list[Scored] = []
    named = _title_terms(terms, alts, unmatched, weight) if TITLE else []
    boosted = {r: boost(raw.get(r, 0.0), extra.get(r, 0.0), cover[r],
                        _title_share(rows[r][1], named) if named else 0.0) for r in rows}
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
    best_cover = max(cover[s[3]] for s in scored[:10])
    judged_weight, judged_total = judged(weight, len(unmatched), idf(0, corpus))
    if judged_weight is not weight:  # a long question: judged on its heaviest terms
        best_cover = max(coverage_of(s[3], lists, judged_weight, judged_total)
                         for s in scored[:10])
    ood = out_of_domain(corpus, kept[0][2], best_cover)
    needles = _needles(terms, alts)
    contents = _contents(conn, [s[3] for s in kept])
    linked = relations.backlinks_of(conn, [s[4] for s in kept])
    hits = tuple(
        Hit(
            path=path,
            title=title,
            kind=kind,
            score=round(score, 4),
            relevance=round(relevance, 4),
            excerpt=best_window(contents[rowid], needles),
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


def _title_terms(terms: list[str], alts: dict[str, tuple[str, ...]], unmatched: list[str],
                 weight: list[float]) -> list[tuple[str, tuple[str, ...], float]]:
    """(stem, fuzzy alternatives, share of the matched terms' idf) of each matched term."""
    matched = [t for t in terms if t not in unmatched]
    total = sum(weight) or 1.0
    return [(stem(t), alts.get(t, ()), w / total) for t, w in zip(matched, weight, strict=True)]


def _title_share(title: str, named: list[tuple[str, tuple[str, ...], float]]) -> float:
    """The idf-weighted share of the matched query terms a title holds.

    A term is held as the index matches it: the word, its prefix, or a fuzzy alternative.
    Why: FTS5's bm25() normalises a title match by the length of the whole document, so a
    heading that names the question counts for less the longer its section is. (A term not
    even in the title's text is skipped before the title is split into words: 50 titles a
    search.)
    """
    lowered = title.lower()
    words: set[str] | None = None
    held = 0.0
    for prefix, alternatives, share in named:
        if prefix not in lowered and not (alternatives and any(map(lowered.__contains__,
                                                                     alternatives))):
            continue
        words = set(tokens(lowered)) if words is None else words
        if any(w.startswith(prefix) or w in alternatives for w in words):
            held += share
    return held


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


def default_signals(updated: float | None, mtime_ns: int) -> scoring.Signals:
    """Signals of an entry with no sidecar row: importance 50, draft, recency from its date.

    Args:
        updated: the frontmatter ``updatedAt`` in epoch seconds, or None when it has none.
        mtime_ns: the file's mtime, the date used without ``updatedAt`` (as ByteRover does).
    """
    since = updated if updated is not None else mtime_ns / 1e9
    return scoring.Signals(updated_at=since, scored_at=since)


def defaults_for(conn: sqlite3.Connection, paths: list[str]) -> dict[str, scoring.Signals]:
    """``default_signals`` of indexed paths (for recording hits on never-scored entries)."""
    if not paths:
        return {}
    marks = ",".join("?" * len(paths))
    rows = conn.execute(f"SELECT path, updated, mtime_ns FROM docs WHERE path IN ({marks})", paths)
    return {path: default_signals(updated, mtime) for path, updated, mtime in rows}


def _needles(terms: list[str], alts: dict[str, tuple[str, ...]]) -> list[str]:
    out = []
    for term in terms:
        out += [stem(term), *alts.get(term, ())]
    return list(dict.fromkeys(out))


def _rows(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, tuple[str, str, str, float | None, int]]:
    """What ranking needs of each document: path, title, kind, updatedAt, mtime."""
    marks = ",".join(str(int(r)) for r in rowids)
    found = conn.execute(
        f"SELECT id, path, title, kind, updated, mtime_ns FROM docs WHERE id IN ({marks})"
    )
    return {r[0]: r[1:] for r in found}


def _contents(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, str]:
    from brv_vc.index.texts import contents  # the FTS5 table is contentless

    return contents(conn, rowids)
