"""``brv search``: ranked results with excerpts and backlinks; hits feed the lifecycle."""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime
from typing import NamedTuple

from brv_vc.errors import OptionError
from brv_vc.index.entries import stats_of
from brv_vc.index.search import Hit, SearchOutcome, search
from brv_vc.index.sync import sync
from brv_vc.index.terms import query_terms
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.services.query.bounds import MAX_LIMIT
from brv_vc.services.query.marks import linked, stale_of
from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project


class SearchResult(NamedTuple):
    """Ranked results of one query."""

    query: str
    terms: tuple[str, ...]
    results: tuple[Hit, ...]
    combine: str
    out_of_domain: bool
    fuzzy: dict[str, tuple[str, ...]]
    notes: tuple[str, ...] = ()
    coverage: float = 0.0
    lanes: tuple[str, ...] = ("lexical",)  # and "semantic" when the lane answered too


def check_limit(limit: int) -> int:
    """Validates ``--limit``.

    Raises:
        UsageError: outside 1-50.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise OptionError("limit", f"must be between 1 and {MAX_LIMIT}, got {limit}",
                          hint="try {name} 10")
    return limit


def stale_paths(project: Project, opened: OpenIndex, hits: tuple[Hit, ...]) -> list[str]:
    """Result files whose (mtime, size) differ from the index (edited in place since)."""
    paths = [h.path for h in hits]
    if not paths:
        return []
    stored = stats_of(opened.conn, paths)
    stale = []
    for path in paths:
        try:
            st = os.stat(project.tree / path)
            current: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
        except OSError:
            current = None
        if stored.get(path) != current:
            stale.append(path)
    return stale


def run_search(
    project: Project,
    opened: OpenIndex,
    terms: list[str],
    now: datetime,
    *,
    limit: int,
    scope: str | None,
    state: sqlite3.Connection | None = None,
    recheck: bool = True,
) -> SearchOutcome:
    """Searches, re-checking the result files first (see ``index.sync`` on in-place edits).

    ``state`` is an open ``brv.db`` to use (a resident session's); else one is opened.
    ``recheck=False`` skips the re-check: a resident session's folder watch reports every
    in-place edit before the search.
    """
    from brv_vc.tree.statedb import open_state

    own = state is None
    state = open_state(project) if state is None else state
    try:
        outcome = search(opened.conn, state, terms, now.timestamp(), limit=limit, scope=scope)
        stale = stale_paths(project, opened, outcome.hits) if recheck else []
        if stale:
            sync(project, opened.conn, paths=stale)
            outcome = search(opened.conn, state, terms, now.timestamp(), limit=limit, scope=scope)
        return outcome
    finally:
        if own:
            state.close()


def lane_search(
    project: Project,
    opened: OpenIndex,
    query: str,
    terms: list[str],
    now: datetime,
    *,
    limit: int,
    scope: str | None,
    state: sqlite3.Connection | None = None,
    recheck: bool = True,
) -> tuple[SearchOutcome, tuple[str, ...], list[str]]:
    """:func:`run_search`, fused with the semantic lane when it is on (``services.semantic``).

    Trigger: every search, query, MCP and web search. Why: a tree without the lane keeps
    its cold budget. Outcome: a text check of the settings (``embed_config.named``); numpy
    and the model are imported only when a setting names the lane.

    Returns:
        The outcome, the lanes that answered and notes for the user.
    """
    from brv_vc.tree.embed_config import named

    if not named(project):
        outcome = run_search(project, opened, terms, now, limit=limit, scope=scope,
                             state=state, recheck=recheck)
        return outcome, ("lexical",), []
    from brv_vc.services import semantic

    settings, refused = semantic.lane_settings(project)
    notes = [refused] if refused else []
    depth = limit if settings is None else max(limit, semantic.POOL)
    outcome = run_search(project, opened, terms, now, limit=depth, scope=scope, state=state,
                         recheck=recheck)
    if settings is None:
        return outcome, ("lexical",), notes
    fused = semantic.hybrid(project, opened.conn, query, outcome, settings, limit=limit,
                            scope=scope)
    return fused.outcome, fused.lanes, [*notes, *fused.notes]


def record_hits(project: Project, opened: OpenIndex, paths: list[str], now: datetime,
                state: sqlite3.Connection | None = None) -> None:
    """+3 importance per returned entry: one batched sidecar write per command.

    Call it while ``opened`` is still open (entries never scored start from their own
    ``updatedAt``, read from the index). ``state``: an open ``brv.db`` to write through.
    """
    from brv_vc.index.search import defaults_for
    from brv_vc.lifecycle.sidecar import record_hits as record
    from brv_vc.tree.layout import Kind, kind_of
    from brv_vc.tree.statedb import open_state

    entries = [p for p in paths if kind_of(p) is Kind.ENTRY]  # a path listed twice: two hits
    if entries:
        conn = open_state(project) if state is None else state
        try:
            record(conn, entries, now.timestamp(), defaults_for(opened.conn, entries))
        finally:
            if state is None:
                conn.close()


def search_tree(
    project: Project,
    query: str,
    *,
    now: datetime,
    limit: int = 10,
    scope: str | None = None,
    record: bool = True,
) -> SearchResult:
    """Searches the context tree.

    Args:
        project: the project.
        query: the user's text (never reaches FTS5 syntax unescaped).
        now: the clock (lifecycle decay and hits).
        limit: 1-50 results.
        scope: a tree path prefix such as ``auth`` or ``auth/jwt``.
        record: count the results as hits (+3 importance each); False only looks.

    Returns:
        The ranked results.

    Raises:
        QueryError: empty query, only stop words, words under 2 characters or punctuation.
        UsageError: a limit outside 1-50.
        InvalidPathError: a scope that escapes the tree.
    """
    check_limit(limit)
    terms = query_terms(query, letters=True)
    clean_scope = clean_relpath(scope, what="scope") if scope else None
    found: list[frozenset[str]] = []  # results that link code (marks.linked)
    answered: list[tuple[tuple[str, ...], list[str]]] = []  # lanes and their notes

    def work(opened: OpenIndex) -> SearchOutcome:
        from brv_vc.tree.statedb import open_state

        state = open_state(project)  # one brv.db connection for the search and its hits
        try:
            outcome, lanes, lane_notes = lane_search(project, opened, query, terms, now,
                                                     limit=limit, scope=clean_scope, state=state)
            answered.append((lanes, lane_notes))
            if record:
                record_hits(project, opened, [h.path for h in outcome.hits], now, state)
            found.append(linked(opened.conn, [h.path for h in outcome.hits]))
            return outcome
        finally:
            state.close()

    outcome, notes = with_index(project, work)
    lanes, lane_notes = answered[-1] if answered else (("lexical",), [])
    return result_of(query, outcome, [*notes, *lane_notes],
                     stale_of(project, found[-1] if found else frozenset()), lanes)


def result_of(query: str, outcome: SearchOutcome, notes: list[str],
              stale: frozenset[str] = frozenset(),
              lanes: tuple[str, ...] = ("lexical",)) -> SearchResult:
    """The service's result of one search (``search_tree`` and the resident session).

    Results in ``stale`` (their linked code changed since: ``marks.stale_of``) are marked.
    """
    hits = outcome.hits
    if stale:
        hits = tuple(h._replace(stale=True) if h.path in stale else h for h in hits)
    return SearchResult(
        query=query,
        terms=outcome.terms,
        results=hits,
        combine=outcome.combine,
        out_of_domain=outcome.out_of_domain,
        fuzzy=outcome.fuzzy,
        notes=tuple(notes),
        coverage=outcome.coverage,
        lanes=lanes,
    )
