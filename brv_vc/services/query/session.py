"""A resident search session: ``brv mcp`` keeps ``index.db`` and ``brv.db`` open.

A command opens both databases, syncs, searches, writes its hits and closes: about 10 ms
of opening, WAL checkpoints on close and one write transaction around a search that itself
costs ~4 ms at 25,000 entries. A server answering an agent in a loop keeps the connections
and runs only the change check (``derived.resync``) before each search, so an edit made by
hand, by git or by another process between two calls is still seen. On Linux the kernel
tells it what changed (``index.watch``): no event, nothing to check; file events, just those
files. Hits are written in
batches at most once a second (and when the session closes): they are lifecycle signals,
and a second's delay changes no ranking an agent can notice.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import datetime

from brv_vc.index import scan
from brv_vc.index.db import open_index
from brv_vc.index.terms import query_terms
from brv_vc.index.watch import Watch
from brv_vc.services.derived import OpenIndex, resync
from brv_vc.services.query.marks import known_stale, linked
from brv_vc.services.query.search import (
    SearchResult,
    check_limit,
    lane_search,
    record_hits,
    result_of,
)
from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

FLUSH_SECONDS = 1.0
SCAN_SECONDS = 1.0  # at most one in-place scan a second: a tight loop would keep find busy
STALE_SECONDS = 5.0  # the stale marks are asked of git at most this often


class SearchSession:
    """Searches of one project through connections kept open between calls.

    Args:
        project: the project.
        clock: a monotonic timer (tests pass their own).
    """

    def __init__(self, project: Project, clock: Callable[[], float] = time.monotonic) -> None:
        self.project = project
        self._clock = clock
        self._index: sqlite3.Connection | None = None
        self._state: sqlite3.Connection | None = None
        self._created = False
        self._notes: tuple[str, ...] = ()
        self._pending: list[str] = []
        self._pending_at: datetime | None = None
        self._last: OpenIndex | None = None
        self._flushed = self._clock()
        self._scanned = self._flushed - SCAN_SECONDS
        self._watch: Watch | None = None
        self._complete = False  # the next check must be the complete one
        self._stale_at: tuple[float, frozenset[str]] | None = None
        # moves each time a check adds or removes a document (brv ui rebuilds its tree then)
        self.generation = 0

    def _open(self, *, rebuild: bool = False) -> OpenIndex:
        if self._index is None or rebuild:
            self.close(flush=False)
            # watches first: a change made while the first check runs is reported to the next
            self._watch, self._complete = Watch.start(self.project.tree), True
            handle = open_index(self.project, rebuild=rebuild)
            self._index, self._created, self._notes = handle.conn, handle.created, tuple(
                handle.notes)
            self._state = open_state(self.project)
        began = time.time_ns()
        mode, paths, edited = self._check()
        opened = resync(self.project, self._index, created=self._created, notes=self._notes,
                        mode=mode, paths=paths, edited=edited)
        if self._watch is not None and self._clock() - self._scanned >= SCAN_SECONDS:
            scan.mark(self.project.state, began)  # watched since a complete check: all seen
            self._scanned = self._clock()
        self._created, self._notes, self._complete, self._last = False, (), False, opened
        if rebuild or opened.report.added or opened.report.removed:
            self.generation += 1
        return opened

    def _check(self) -> tuple[str | None, list[str] | None, tuple[str, ...]]:
        """This call's change check, as ``resync``'s (mode, paths, edited).

        The watch's answer: its files alone, or the folder check plus its files; without a
        watch, the ordinary check (folders, plus the in-place scan's result once it is in).
        Right after opening, or after lost events, the complete check.
        """
        seen = None
        if self._watch is not None:
            try:
                seen = self._watch.take()
            except OSError:  # the watches could not be set again: the ordinary check from now
                self._watch.close()
                self._watch = None
                self._complete = True
        if self._complete or (seen is not None and seen.lost):
            return None, None, ()
        if seen is None:
            return "resident", None, ()
        if seen.folders:
            return "resident", None, seen.files
        return "paths", list(seen.files), ()

    def opened(self) -> OpenIndex:
        """The open index, brought up to date as before a search (``derived.Resident``)."""
        try:
            return self._open()
        except sqlite3.DatabaseError:
            return self._open(rebuild=True)

    def search(self, query: str, *, now: datetime, limit: int = 10,
               scope: str | None = None, record: bool = True) -> SearchResult:
        """Searches as ``search_tree`` does, through the open connections.

        Raises:
            QueryError, UsageError, InvalidPathError: as :func:`search_tree`.
        """
        check_limit(limit)
        terms = query_terms(query, letters=True)
        clean_scope = clean_relpath(scope, what="scope") if scope else None
        for attempt in (0, 1):
            try:
                opened = self._open(rebuild=attempt == 1)
                outcome, lanes, lane_notes = lane_search(
                    self.project, opened, query, terms, now, limit=limit, scope=clean_scope,
                    state=self._state, recheck=self._watch is None)
                break
            except sqlite3.DatabaseError:
                if attempt:
                    raise
        # the in-place check (find -cnewer, large trees only) runs while the agent reads
        # this answer; a later call takes its result once it has finished, never waiting
        if self._watch is None and self._clock() - self._scanned >= SCAN_SECONDS:
            scan.start(self.project.tree, self.project.state)
            self._scanned = self._clock()
        if record:
            self._pending.extend(dict.fromkeys(h.path for h in outcome.hits))
            self._pending_at = now
            if self._clock() - self._flushed >= FLUSH_SECONDS:
                self.flush()
        links = linked(opened.conn, [h.path for h in outcome.hits])
        return result_of(query, outcome, [*opened.notes, *lane_notes], self._stale(links), lanes)

    def _stale(self, links: frozenset[str]) -> frozenset[str]:
        """``marks.stale_of``, its answer kept for STALE_SECONDS (file reads while HEAD stays)."""
        if not links:
            return frozenset()
        if self._stale_at is None or self._clock() - self._stale_at[0] >= STALE_SECONDS:
            self._stale_at = (self._clock(), known_stale(self.project))
        return self._stale_at[1] & links

    def flush(self) -> None:
        """Writes the hits of the searches so far (one transaction)."""
        if self._pending and self._last is not None and self._pending_at is not None:
            record_hits(self.project, self._last, self._pending, self._pending_at, self._state)
        self._pending = []
        self._flushed = self._clock()

    def close(self, *, flush: bool = True) -> None:
        """Writes pending hits and closes the connections."""
        if flush:
            self.flush()
        for conn in (self._index, self._state):
            if conn is not None:
                conn.close()
        if self._watch is not None:
            self._watch.close()
        self._index = self._state = self._last = self._watch = None
