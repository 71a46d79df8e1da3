"""Ranked search over the FTS5 index (seed 002 §4.2.1, byterover-cli.md §5.1).

BM25 with field weights title 5, content 1, path 1.5; every term also matches as a prefix;
unknown terms are replaced by fuzzy alternatives; AND first, then OR. Relevance s/(1+s) is
combined with the lifecycle signals (importance, recency, maturity) by
``scoring.compound_score``; results under 0.7 x the top score are dropped; out-of-domain
queries are flagged.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field

from brv_vc.index import fuzzy, relations
from brv_vc.index.db import get_meta
from brv_vc.index.excerpt import best_window
from brv_vc.index.terms import stem, term_expr
from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.sidecar import get_many

WEIGHTS = "5.0, 1.0, 1.5"  # title, content, path (seed 002 Table 7)
CANDIDATES = 50
LOCAL_BONUS = 0.1  # byterover §5.1 step 4: local results +0.1, capped at 1
GAP_RATIO = 0.7
OOD_MIN_DOCS = 50
OOD_LOW = 0.45
OOD_UNMATCHED = 0.85
OOD_TERM_LEN = 4
PLAN_MIN_DOCS = 2000
HEAVY = 1500


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

    @property
    def top(self) -> float:
        """The top score (0 without results)."""
        return self.hits[0].score if self.hits else 0.0


def _candidates(
    conn: sqlite3.Connection,
    expr: str,
    scope: str | None,
    *,
    ranked: bool = True,
    rowids: list[int] | None = None,
) -> list[tuple[int, str, str, float, str, float | None, int]]:
    where, args = "", [expr]  # type: tuple[str, list[object]]
    if rowids:
        # unary + keeps SQLite from handing the IN list to FTS5 (which would re-run the
        # full-text query once per rowid); FTS5 iterates the match once, bm25 runs for these
        where = f" AND +fts.rowid IN ({','.join(str(int(r)) for r in rowids)})"
    if scope:
        where += " AND (fts.path = ? OR substr(fts.path, 1, ?) = ?)"
        args += [scope, len(scope) + 1, scope + "/"]
    order = f"ORDER BY bm25(fts, {WEIGHTS}) " if ranked else ""
    sql = (
        f"SELECT fts.rowid, fts.path, fts.title, -bm25(fts, {WEIGHTS}), docs.kind, docs.updated, "
        f"docs.mtime_ns FROM fts JOIN docs ON docs.id = fts.rowid WHERE fts MATCH ?{where} "
        f"{order}LIMIT {CANDIDATES}"
    )
    rows: list[tuple[int, str, str, float, str, float | None, int]] = conn.execute(
        sql, args
    ).fetchall()
    return rows


def ranked_paths(conn: sqlite3.Connection, term: str, limit: int, *,
                 exclude: str = "") -> list[tuple[str, float]]:
    """Entries matching one term, best BM25 first, outside the folder prefix ``exclude``.

    A plain MATCH (exact word or its prefix, no fuzzy expansion, no lifecycle scoring): the
    dream's cross-domain candidates.
    """
    expr = term_expr(term, [])
    rows = conn.execute(
        f"SELECT fts.path, -bm25(fts, {WEIGHTS}) FROM fts JOIN docs ON docs.id = fts.rowid "
        "WHERE fts MATCH ? AND docs.kind = 'entry' AND substr(fts.path, 1, ?) != ? "
        f"ORDER BY bm25(fts, {WEIGHTS}) LIMIT ?",
        (expr, len(exclude), exclude, limit),
    ).fetchall()
    return [(str(path), float(score)) for path, score in rows]


def _doc_freq(conn: sqlite3.Connection, expr: str, files: int) -> int:
    """Documents matching one term, cached.

    The count only steers the plan, so a count taken when the tree had within 10% as many
    files is good enough.
    """
    row = conn.execute("SELECT df, files FROM dfcache WHERE expr = ?", (expr,)).fetchone()
    if row is not None and row[0] > 0 and abs(row[1] - files) <= 0.1 * files:
        return int(row[0])
    df = int(conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0])
    conn.execute(
        "INSERT OR REPLACE INTO dfcache (expr, df, files) VALUES (?, ?, ?)", (expr, df, files)
    )
    return df


def _ranked(
    conn: sqlite3.Connection, expr: str, scope: str | None, heavy: bool
) -> list[tuple[int, str, str, float, str, float | None, int]]:
    """BM25 ranking; of thousands of matches, only the best by title/path are scored in full.

    Why: scoring costs ~1 us a matched document. With title x5 and path x1.5, a document
    holding the terms in its title or path outranks one holding them only in its body
    (BM25 saturates term frequency), so when >= CANDIDATES documents match there, the
    best of them by title/path relevance are scored with the full formula and the body-
    only matches are skipped (documented in docs/retrieval.md). Fewer: full ranking.
    """
    if heavy:
        firsts = [
            r[0]
            for r in conn.execute(
                f"SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts, {WEIGHTS}) "
                f"LIMIT {CANDIDATES}",
                (f"{{title path}} : ({expr})",),
            )
        ]
        if len(firsts) >= CANDIDATES:
            rows = _candidates(conn, expr, scope, rowids=firsts)
            if rows:
                return rows
    return _candidates(conn, expr, scope)


def _match(
    conn: sqlite3.Connection, exprs: list[str], corpus: int, scope: str | None
) -> tuple[list[tuple[int, str, str, float, str, float | None, int]], str]:
    """AND first, then OR, with one shortcut for large trees.

    FTS5's BM25 clamps the idf of a term found in more than half of the documents to ~0, so
    such a term cannot change the ranking, while scoring every document it matches costs
    ~1 us each (25 ms at 25,000 entries). So it is left out of MATCH when rarer terms
    remain; when every term is that common, the first documents holding them in the title
    or path (else anywhere) are taken unranked and ordered by the lifecycle signals.
    """
    common: set[str] = set()
    if corpus >= PLAN_MIN_DOCS:
        common = {e for e in exprs if _doc_freq(conn, e, corpus) * 2 > corpus}
    rare = [e for e in exprs if e not in common]
    if rare:
        heavy = corpus >= PLAN_MIN_DOCS and min(_doc_freq(conn, e, corpus) for e in rare) > HEAVY
        rows = _ranked(conn, " AND ".join(rare), scope, heavy)
        if rows or len(rare) == 1:
            return rows, "and"
        return _ranked(conn, " OR ".join(rare), scope, True), "or"
    both = " AND ".join(exprs)
    rows = _candidates(conn, f"{{title path}} : ({both})", scope, ranked=False)
    return rows or _candidates(conn, both, scope, ranked=False), "and"


# FTS5's bm25 floors the idf of a term found in at least half of the documents at 1e-6.
FTS5_IDF_FLOOR = 1e-6


def _common_term_boost(
    conn: sqlite3.Connection, exprs: list[str], corpus: int, rowids: list[int]
) -> dict[int, float]:
    """Raw BM25 that FTS5 dropped for common terms, given back with a positive idf.

    Trigger: a small tree (below PLAN_MIN_DOCS), where most words sit in half the documents
    or more. Why: FTS5 floors such a term's idf at 1e-6, so every score collapses to ~0 and
    ties, although its per-document part (which carries the title x5 / path x1.5 weights) is
    intact. Outcome: for each such term, that part times ln(1 + (N - n + 0.5) / (n + 0.5)),
    the always-positive idf of MiniSearch and Lucene; terms FTS5 scores normally keep their
    score as it is. One extra bm25() query per common term, over the candidates only.
    """
    extra: dict[int, float] = dict.fromkeys(rowids, 0.0)
    marks = ",".join(str(int(r)) for r in rowids)
    for expr in exprs:
        n = int(conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (expr,)).fetchone()[0])
        if n == 0 or math.log((corpus - n + 0.5) / (n + 0.5)) > FTS5_IDF_FLOOR:
            continue
        idf = math.log(1.0 + (corpus - n + 0.5) / (n + 0.5))
        for rowid, raw in conn.execute(
            f"SELECT rowid, -bm25(fts, {WEIGHTS}) FROM fts WHERE fts MATCH ? "
            f"AND +rowid IN ({marks})",
            (expr,),
        ):
            extra[rowid] += idf * max(raw, 0.0) / FTS5_IDF_FLOOR
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
        limit: results to return.
        scope: only paths equal to or under this tree folder/prefix.

    Returns:
        The outcome (hits best first).
    """
    exprs, unmatched, alts = [], [], {}
    corpus = int(get_meta(conn, "files") or 0)
    for term in terms:
        expr = term_expr(term, [])
        if corpus >= PLAN_MIN_DOCS and _doc_freq(conn, expr, corpus) > 0:
            exprs.append(expr)  # a cached count > 0 is trusted; a cached 0 never is
            continue
        if fuzzy.is_known(conn, term):
            exprs.append(expr)
            continue
        found = fuzzy.alternatives(conn, term)
        if found:
            alts[term] = tuple(found)
            exprs.append(term_expr(term, found))
        else:
            unmatched.append(term)
    rows: list[tuple[int, str, str, float, str, float | None, int]] = []
    combine = "none"
    if exprs:
        rows, combine = _match(conn, exprs, corpus, scope)
    if not rows:
        return SearchOutcome(tuple(terms), (), combine, True, tuple(unmatched), alts, corpus)
    if unmatched:
        combine = "or"  # a word no entry holds: the AND of all query words found nothing
    signals = get_many(state, [r[1] for r in rows]) if state is not None else {}
    boost = (
        _common_term_boost(conn, exprs, corpus, [r[0] for r in rows])
        if 0 < corpus < PLAN_MIN_DOCS
        else {}
    )
    scored = []
    for rowid, path, title, raw, kind, updated, mtime_ns in rows:
        raw = max(raw, 0.0) + boost.get(rowid, 0.0)
        relevance = raw / (1.0 + raw)
        sig = signals.get(path) or default_signals(updated, mtime_ns)
        score = min(1.0, scoring.compound_score(relevance, sig, now) + LOCAL_BONUS)
        scored.append((score, relevance, rowid, path, title, kind))
    scored.sort(key=lambda s: (-s[0], s[3]))
    top = scored[0][0]
    kept = [s for s in scored if s[0] >= GAP_RATIO * top][:limit]
    needles = _needles(terms, alts)
    contents = _contents(conn, [s[2] for s in scored[:10]] + [s[2] for s in kept])
    ood = _out_of_domain(corpus, top, combine, terms, alts, [contents[s[2]] for s in scored[:10]])
    hits = tuple(
        Hit(
            path=path,
            title=title,
            kind=kind,
            score=round(score, 4),
            relevance=round(relevance, 4),
            excerpt=best_window(contents[rowid][1], needles),
            backlinks=tuple(relations.backlinks(conn, path)),
        )
        for score, relevance, rowid, path, title, kind in kept
    )
    return SearchOutcome(tuple(terms), hits, combine, ood, tuple(unmatched), alts, corpus)


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


def _contents(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, tuple[str, str]]:
    wanted = list(dict.fromkeys(rowids))
    marks = ",".join("?" * len(wanted))
    rows = conn.execute(
        f"SELECT rowid, title || ' ' || path, content FROM fts WHERE rowid IN ({marks})", wanted
    )
    return {rowid: (head, content) for rowid, head, content in rows}


def _out_of_domain(
    corpus: int,
    top: float,
    combine: str,
    terms: list[str],
    alts: dict[str, tuple[str, ...]],
    top_docs: list[tuple[str, str]],
) -> bool:
    """byterover-cli.md §5.1 step 5 (only for corpora of >= 50 documents)."""
    if corpus < OOD_MIN_DOCS:
        return False
    if top < OOD_LOW:
        return True
    if combine == "and" or top >= OOD_UNMATCHED:
        return False
    text = " ".join(f"{head} {body}" for head, body in top_docs).lower()
    for term in terms:
        if len(term) >= OOD_TERM_LEN and not any(
            n in text for n in (stem(term), *alts.get(term, ()))
        ):
            return True
    return False
