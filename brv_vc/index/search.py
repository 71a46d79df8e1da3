"""Ranked search over the FTS5 index (seed 002 §4.2.1, byterover-cli.md §5.1).

BM25 with field weights title 5, content 1, path 1.5; every term also matches as a prefix;
unknown terms are replaced by fuzzy alternatives; AND first, then OR. Relevance s/(1+s) is
combined with the lifecycle signals (importance, recency, maturity) by
``scoring.compound_score``; results under 0.7 x the top score are dropped; out-of-domain
queries are flagged.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from brv_vc.index import fuzzy, relations
from brv_vc.index.db import get_meta
from brv_vc.index.excerpt import best_window
from brv_vc.index.terms import stem, term_expr
from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.sidecar import get_many

WEIGHTS = "5.0, 1.0, 1.5"  # title, content, path (seed 002 Table 7)
CANDIDATES = 100
LOCAL_BONUS = 0.1  # byterover §5.1 step 4: local results +0.1, capped at 1
GAP_RATIO = 0.7
OOD_MIN_DOCS = 50
OOD_LOW = 0.45
OOD_UNMATCHED = 0.85
OOD_TERM_LEN = 4


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
    conn: sqlite3.Connection, expr: str, scope: str | None
) -> list[tuple[int, str, str, float, str, float | None, int]]:
    where, args = "", [expr]  # type: tuple[str, list[object]]
    if scope:
        where = " AND (fts.path = ? OR substr(fts.path, 1, ?) = ?)"
        args += [scope, len(scope) + 1, scope + "/"]
    sql = (
        f"SELECT fts.rowid, fts.path, fts.title, -bm25(fts, {WEIGHTS}), docs.kind, docs.updated, "
        f"docs.mtime_ns FROM fts JOIN docs ON docs.id = fts.rowid WHERE fts MATCH ?{where} "
        f"ORDER BY bm25(fts, {WEIGHTS}) LIMIT {CANDIDATES}"
    )
    rows: list[tuple[int, str, str, float, str, float | None, int]] = conn.execute(
        sql, args
    ).fetchall()
    return rows


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
    for term in terms:
        if fuzzy.is_known(conn, term):
            exprs.append(term_expr(term, []))
            continue
        found = fuzzy.alternatives(conn, term)
        if found:
            alts[term] = tuple(found)
            exprs.append(term_expr(term, found))
        else:
            unmatched.append(term)
    corpus = int(get_meta(conn, "files") or 0)
    rows, combine = [], "none"
    if exprs:
        rows, combine = _candidates(conn, " AND ".join(exprs), scope), "and"
        if not rows and len(exprs) > 1:
            rows, combine = _candidates(conn, " OR ".join(exprs), scope), "or"
    if not rows:
        return SearchOutcome(tuple(terms), (), combine, True, tuple(unmatched), alts, corpus)
    if unmatched:
        combine = "or"  # a word no entry holds: the AND of all query words found nothing
    signals = get_many(state, [r[1] for r in rows]) if state is not None else {}
    scored = []
    for rowid, path, title, raw, kind, updated, mtime_ns in rows:
        relevance = max(raw, 0.0) / (1.0 + max(raw, 0.0))
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
    """Signals of an entry with no sidecar row: importance 50, draft, and recency measured
    from its frontmatter ``updatedAt`` (else the file's mtime, as ByteRover does)."""
    since = updated if updated is not None else mtime_ns / 1e9
    return scoring.Signals(updated_at=since, scored_at=since)


def defaults_for(conn: sqlite3.Connection, paths: list[str]) -> dict[str, scoring.Signals]:
    """``default_signals`` of indexed paths (for recording hits on never-scored entries)."""
    if not paths:
        return {}
    marks = ",".join("?" * len(paths))
    rows = conn.execute(
        f"SELECT path, updated, mtime_ns FROM docs WHERE path IN ({marks})", paths
    )
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
