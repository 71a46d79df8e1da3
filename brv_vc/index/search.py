"""Ranked search over the FTS5 index (seed 002 §4.2.1, byterover-cli.md §5.1).

OR-semantics BM25 (porter-stemmed, every term also a prefix, unknown words replaced by fuzzy
alternatives) over title, content, path and tags/keywords; documents holding more of the
query's weight get a bounded coverage boost, never a filter. Relevance s/(1+s) decides the
order; the lifecycle signals (importance, recency, maturity) can move it by at most ``TIE``,
so they break ties among comparably relevant results and never reorder clearly more relevant
ones. Each hit's ``score`` is seed 002's compound score (Eq. 5: 0.6 relevance + 0.2
importance + 0.2 recency, x maturity, +0.1 local), used only by ``brv query``'s tier gates.
Weights and boosts were chosen on bench/eval_retrieval.py.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field

from brv_vc.index import fuzzy, relations
from brv_vc.index.db import get_meta
from brv_vc.index.excerpt import best_window
from brv_vc.index.ood import coverage_of, out_of_domain
from brv_vc.index.terms import stem, term_expr
from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.sidecar import get_many

# title, content, path, tags+keywords (bench/eval_retrieval.py; seed 002 used 5, 1, 1.5)
FIELD_WEIGHTS = (3.0, 1.0, 1.0, 3.0)
POOL = 100  # BM25's best candidates that the boosts re-rank
COVER = 0.5  # raw x (1 + COVER x idf-weighted share of the query terms a document holds)
TIE = 0.03  # the most the lifecycle signals can add to the ranking key
TOPIC = 0.0  # same-topic boost: x the relevance of the best of the top 3 in that folder
LOCAL_BONUS = 0.1  # byterover §5.1 step 4: local results +0.1 (compound score, capped at 1)
PLAN_MIN_DOCS = 2000

Row = tuple[int, str, str, float, str, float | None, int]


def weights() -> str:
    """FIELD_WEIGHTS as bm25() arguments (read at each call, so tuning can change them)."""
    return ", ".join(str(w) for w in FIELD_WEIGHTS)


@dataclass(frozen=True)
class Hit:
    """One ranked result."""

    path: str
    title: str
    kind: str
    score: float
    relevance: float
    excerpt: str
    backlinks: tuple[str, ...] = ()


@dataclass(frozen=True)
class SearchOutcome:
    """Ranked hits plus how the query was understood."""

    terms: tuple[str, ...]
    hits: tuple[Hit, ...]
    combine: str
    out_of_domain: bool
    unmatched: tuple[str, ...] = ()
    fuzzy: dict[str, tuple[str, ...]] = field(default_factory=dict)
    corpus: int = 0
    coverage: float = 0.0  # idf-weighted share of the query the best-covering result holds

    @property
    def top(self) -> float:
        """The top score (0 without results)."""
        return self.hits[0].score if self.hits else 0.0


def _pool(
    conn: sqlite3.Connection, expr: str, scope: str | None, size: int, *, ranked: bool = True
) -> list[Row]:
    where, args = "", [expr]  # type: tuple[str, list[object]]
    if scope:
        where += " AND (fts.path = ? OR substr(fts.path, 1, ?) = ?)"
        args += [scope, len(scope) + 1, scope + "/"]
    order = f"ORDER BY bm25(fts, {weights()}) " if ranked else ""
    sql = (
        f"SELECT fts.rowid, fts.path, fts.title, -bm25(fts, {weights()}), docs.kind, "
        f"docs.updated, docs.mtime_ns FROM fts JOIN docs ON docs.id = fts.rowid "
        f"WHERE fts MATCH ?{where} {order}LIMIT {int(size)}"
    )
    rows: list[Row] = conn.execute(sql, args).fetchall()
    return rows


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


def idf(df: int, corpus: int) -> float:
    """The always-positive idf of Lucene and MiniSearch: ln(1 + (N - n + 0.5) / (n + 0.5))."""
    return math.log(1.0 + (max(corpus, df) - df + 0.5) / (df + 0.5))


def _match(
    conn: sqlite3.Connection,
    exprs: list[str],
    dfs: list[int],
    corpus: int,
    scope: str | None,
    size: int,
) -> list[Row]:
    """The ``size`` best documents by BM25 for any of the terms (OR).

    In large trees a term found in more than half of the documents is left out of MATCH
    while rarer terms remain: FTS5 clamps its idf to ~0, so it cannot change the BM25 order,
    and scoring every document it matches costs ~1 us each. It still counts in the coverage
    boost. When every term is that common, the title/path matches are taken (else any).
    """
    rare = [e for e, df in zip(exprs, dfs, strict=True) if corpus < PLAN_MIN_DOCS or df * 2 <= corpus]
    if rare:
        return _pool(conn, " OR ".join(rare), scope, size)
    either = " OR ".join(exprs)
    return _pool(conn, f"{{title path keys}} : ({either})", scope, size, ranked=False) or _pool(
        conn, either, scope, size, ranked=False
    )


def _holding(conn: sqlite3.Connection, exprs: list[str], rowids: list[int]) -> list[set[int]]:
    """For each term, which of ``rowids`` hold it."""
    marks = ",".join(str(int(r)) for r in rowids)
    return [
        {r for (r,) in conn.execute(
            f"SELECT rowid FROM fts WHERE fts MATCH ? AND +rowid IN ({marks})", (expr,)
        )}
        for expr in exprs
    ]


def _common_boost(
    conn: sqlite3.Connection, exprs: list[str], dfs: list[int], corpus: int, rowids: list[int]
) -> dict[int, float]:
    """Raw BM25 that FTS5 dropped for terms in half the documents or more, given back.

    FTS5 floors such a term's idf at 1e-6, so in a small tree, where many words are that
    common, scores collapse to ties although the per-document part (with the field weights)
    is intact: it is multiplied back by ``idf``. Only below PLAN_MIN_DOCS (cost: one bm25()
    query per common term over the candidates).
    """
    extra = dict.fromkeys(rowids, 0.0)
    marks = ",".join(str(int(r)) for r in rowids)
    for expr, df in zip(exprs, dfs, strict=True):
        if df == 0 or math.log((corpus - df + 0.5) / (df + 0.5)) > 1e-6:
            continue
        for rowid, raw in conn.execute(
            f"SELECT rowid, -bm25(fts, {weights()}) FROM fts WHERE fts MATCH ? "
            f"AND +rowid IN ({marks})",
            (expr,),
        ):
            extra[rowid] += idf(df, corpus) * max(raw, 0.0) / 1e-6
    return extra


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
    exprs, unmatched, alts = [], [], {}
    corpus = int(get_meta(conn, "files") or 0)
    dfs = []
    for term in terms:
        expr = term_expr(term, [])
        df = _doc_freq(conn, expr, corpus)
        if df > 0:
            exprs.append(expr)
            dfs.append(df)
            continue
        found = fuzzy.alternatives(conn, term)
        if found:
            alts[term] = tuple(found)
            exprs.append(term_expr(term, found))
            dfs.append(_doc_freq(conn, exprs[-1], corpus))
        else:
            unmatched.append(term)
    rows = _match(conn, exprs, dfs, corpus, scope, max(POOL, limit)) if exprs else []
    if not rows:
        return SearchOutcome(tuple(terms), (), "or", True, tuple(unmatched), alts, corpus)
    rowids = [r[0] for r in rows]
    weight = [idf(df, corpus) for df in dfs]
    total = sum(weight) + sum(idf(0, corpus) for _ in unmatched)
    holding = _holding(conn, exprs, rowids)
    cover = {r: coverage_of(r, holding, weight, total) for r in rowids}
    boost = _common_boost(conn, exprs, dfs, corpus, rowids) if corpus < PLAN_MIN_DOCS else {}
    signals = get_many(state, [r[1] for r in rows]) if state is not None else {}
    scored = []
    for rowid, path, title, raw, kind, updated, mtime_ns in rows:
        raw = (max(raw, 0.0) + boost.get(rowid, 0.0)) * (1.0 + COVER * cover[rowid])
        relevance = raw / (1.0 + raw)
        sig = signals.get(path) or default_signals(updated, mtime_ns)
        key = (1.0 - TIE) * relevance + TIE * scoring.lifecycle_share(sig, now)
        score = min(1.0, scoring.compound_score(relevance, sig, now) + LOCAL_BONUS)
        scored.append((key, score, relevance, rowid, path, title, kind))
    scored.sort(key=lambda s: (-s[0], s[4]))
    if TOPIC:
        scored = _same_topic(scored)
    kept = scored[:limit]
    best_cover = max(cover[s[3]] for s in scored[:10])
    ood = out_of_domain(corpus, kept[0][2], best_cover)
    needles = _needles(terms, alts)
    contents = _contents(conn, [s[3] for s in kept])
    hits = tuple(
        Hit(
            path=path,
            title=title,
            kind=kind,
            score=round(score, 4),
            relevance=round(relevance, 4),
            excerpt=best_window(contents[rowid], needles),
            backlinks=tuple(relations.backlinks(conn, path)),
        )
        for _, score, relevance, rowid, path, title, kind in kept
    )
    return SearchOutcome(
        tuple(terms), hits, "or", ood, tuple(unmatched), alts, corpus, round(best_cover, 4)
    )


def _same_topic(scored: list[tuple[float, float, float, int, str, str, str]]) -> list[
    tuple[float, float, float, int, str, str, str]
]:
    """Candidates in the folder of one of the top 3 get TOPIC x that hit's relevance."""
    strong: dict[str, float] = {}
    for s in scored[:3]:
        folder = s[4].rpartition("/")[0]
        strong[folder] = max(strong.get(folder, 0.0), s[2])
    out = [
        (s[0] + TOPIC * strong.get(s[4].rpartition("/")[0], 0.0), *s[1:])
        for s in scored
    ]
    out.sort(key=lambda s: (-s[0], s[4]))
    return out  # type: ignore[return-value]


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


def _contents(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, str]:
    wanted = list(dict.fromkeys(rowids))
    marks = ",".join("?" * len(wanted))
    rows = conn.execute(f"SELECT rowid, content FROM fts WHERE rowid IN ({marks})", wanted)
    return dict(rows.fetchall())
