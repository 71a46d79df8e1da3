"""Prune, deterministic detectors (seed 001): stale or low-value entries, at most 20.

Candidates: decayed importance below 35, or mtime staleness of 60 days (draft) or 120 days
(validated); a core entry is never a candidate by staleness. Stalest first, at most 20.
Before them, whatever its signals: an entry whose every linked code file was deleted at
least ``DEAD_CODE_DAYS`` ago (``services.code_links``): knowledge about code that no longer
exists. Its decision is the same (an ARCHIVE always waits for review when review is on).
Decisions: KEEP an entry other entries still link to (its mtime is bumped: the staleness
clock starts again); MERGE_INTO a sibling at least 0.5 alike (a hint for the next
consolidate, kept in ``pendingMerges``); else ARCHIVE (through the archive, reviewed).
"""

from __future__ import annotations

import contextlib
import heapq
import sqlite3
from collections.abc import Callable, Collection, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from brv_vc.errors import BrvError
from brv_vc.index import code_links, listings
from brv_vc.index.entries import any_modified_after
from brv_vc.index.relations import backlinks
from brv_vc.lifecycle import scoring, sidecar
from brv_vc.services.dream.similarity import LINK_AT, Corpus, words
from brv_vc.summary.archive import current_signals
from brv_vc.tree.layout import Kind, kind_of
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.tree.store import read_entry

Op = dict[str, Any]
MAX_CANDIDATES = 20
STALE_DAYS = {scoring.DRAFT: 60.0, scoring.VALIDATED: 120.0}
# days after the last whole prune pass when the clock alone (staleness) makes it weigh again
DUE_DAYS = 1.0
# days since the last of an entry's linked files was deleted: a file deleted and re-added
# within a few weeks (a revert, a move git did not see as one) must not cost its knowledge
DEAD_CODE_DAYS = 30.0


def due(index: sqlite3.Connection, last: dict[str, float] | None, now: datetime) -> bool:
    """Whether a dream's prune weighs the tree (``last``: dream state's ``prunedAt``).

    Why (issue 37): prune decides the stalest 20 a dream; on a tree where more are stale
    (100,000 generated entries, all decayed) every dream right after took the next 20, on a
    tree nothing changed in. Now a whole prune pass weighs again once an entry was modified
    after it ended, or :data:`DUE_DAYS` later by the dream's clock (staleness grows with it).
    """
    if last is None or (now.timestamp() - last["now"]) / 86400.0 >= DUE_DAYS:
        return True
    return any_modified_after(index, int(last["wall"] * 1e9))


def maturities(project: Project, paths: Sequence[str], now: datetime) -> dict[str, str]:
    """Each path's maturity at ``now`` (sidecar, or defaults: draft)."""
    conn = open_state(project)
    try:
        rows = sidecar.get_many(conn, paths)
    finally:
        conn.close()
    return {p: scoring.at(rows[p], now.timestamp()).maturity if p in rows else scoring.DRAFT
            for p in paths}


def candidates(project: Project, entries: Sequence[str], now: datetime,
               skip: Collection[str], index: sqlite3.Connection | None = None,
               should_stop: Callable[[], bool] = lambda: False,
               ) -> list[tuple[str, float, str, str]]:
    """(path, days stale, maturity, why) of the prune candidates, stalest first, at most 20.

    An entry without a sidecar row starts from defaults dated by its ``updatedAt``; the
    index knows that date (``docs.updated``), so only unindexed entries are read.
    ``should_stop`` (the budget) is polled every 1,000 entries: none then, and the code
    history is not walked (:func:`code_gone` runs once the stale entries are weighed).
    """
    conn = open_state(project)
    try:
        rows = sidecar.get_many(conn, entries)
    finally:
        conn.close()
    dated: dict[str, float | None] = {}
    if index is not None:
        dated = listings.entry_updates(index)
    stopped = False

    def stale() -> Iterator[tuple[str, float, str, str]]:
        nonlocal stopped
        for number, rel in enumerate(entries):
            if number % 1000 == 0 and should_stop():
                stopped = True
                return
            if rel not in skip:
                found = _stale(project, rel, rows, dated, now)
                if found is not None:
                    yield found

    # the stalest few as they come (issue 37: at 100,000 generated entries every one is
    # stale, and the whole list took ~25 MB to keep 20)
    found = heapq.nsmallest(MAX_CANDIDATES, stale(), key=lambda c: (-c[1], c[0]))
    if stopped or should_stop():  # asked once more: the budget may end in the last thousand
        return []
    # the code history's walk only for a pass that will be decided (a dream out of budget
    # paid for it and threw it away); the stalest 20 before it hold the stalest 20 - dead
    # of the entries it does not name, so the list is the one judged without them
    dead = [c for c in code_gone(project, now, index) if c[0] not in skip]
    gone = {c[0] for c in dead}
    return [*dead, *(c for c in found if c[0] not in gone)][:MAX_CANDIDATES]


def _stale(project: Project, rel: str, rows: dict[str, scoring.Signals],
           dated: dict[str, float | None], now: datetime,
           ) -> tuple[str, float, str, str] | None:
    """(path, days stale, maturity, why) when the entry is a candidate, else None."""
    path = project.tree / rel
    try:
        mtime = path.stat().st_mtime
        if rel in rows:
            signals = scoring.at(rows[rel], now.timestamp())
        elif rel in dated:
            start = dated[rel] or mtime
            signals = scoring.at(scoring.Signals(updated_at=start, scored_at=start),
                                 now.timestamp())
        else:
            signals, _ = current_signals(None, path.read_bytes(), mtime, now)
    except OSError:
        return None
    days = (now.timestamp() - mtime) / 86400.0
    limit = STALE_DAYS.get(signals.maturity)
    if signals.importance < scoring.ARCHIVE_THRESHOLD:
        why = f"importance decayed to {signals.importance:.1f} (< {scoring.ARCHIVE_THRESHOLD:g})"
    elif limit is not None and days >= limit:
        why = f"{signals.maturity} and untouched for {days:.0f} days (>= {limit:g})"
    else:
        return None
    return rel, days, signals.maturity, why


def code_gone(project: Project, now: datetime, index: sqlite3.Connection | None = None,
              ) -> list[tuple[str, float, str, str]]:
    """(path, days since, maturity, why) of entries whose every linked file was deleted.

    From ``code_links.stale`` (one walk of the code history): entries it reports as
    deleted, all of whose changed files were deleted (not renamed) at least
    :data:`DEAD_CODE_DAYS` ago, and none of whose named paths exists in the work tree.
    No repository, or any failure: none (prune's other rules still run).
    """
    try:
        from brv_vc.services.code_links import stale

        report = stale(project, gone_only=True)  # the others cannot be deleted
    except Exception:
        return []
    from brv_vc.clock import parse_iso

    found = []
    for item in report.entries:
        if item.reason != "deleted" or item.renamed_to or item.last_commit is None:
            continue
        try:
            days = (now - parse_iso(item.last_commit.date)).total_seconds() / 86400.0
        except ValueError:
            continue
        if days < DEAD_CODE_DAYS or any(_exists(project, p) for p in _named(index, item)):
            continue
        files = ", ".join(item.files[:3]) + (", ..." if len(item.files) > 3 else "")
        found.append((item.entry, days, scoring.DRAFT,
                      f"every code file it describes was deleted ({files}; last "
                      f"{days:.0f} days ago, >= {DEAD_CODE_DAYS:g})"))
    found.sort(key=lambda c: (-c[1], c[0]))
    return found


def _named(index: sqlite3.Connection | None, item: Any) -> list[str]:
    """The paths the entry names (its links' candidates, as written) and its changed files."""
    named = list(item.files)
    if index is not None:
        with contextlib.suppress(sqlite3.Error):  # an index before the links table
            named += code_links.files_listed(index, item.entry)
    return named


def _exists(project: Project, named: str) -> bool:
    """True when the named path is a file or folder now (relative: from the project root)."""
    path = Path(named) if named.startswith("/") else project.root / named
    try:
        return path.exists()
    except OSError:
        return False


def decide(project: Project, index: sqlite3.Connection,
           found: Sequence[tuple[str, float, str, str]]) -> list[Op]:
    """KEEP, MERGE_INTO or ARCHIVE for each candidate (see the module rules)."""
    ops: list[Op] = []
    for rel, _days, _maturity, why in found:
        linked = [p for p in backlinks(index, rel) if p != rel]
        if linked:
            ops.append({"operation": "prune", "action": "KEEP", "file": rel,
                        "reason": f"{why}, but {linked[0]} still links to it"})
            continue
        sibling = _closest_sibling(project, rel)
        if sibling is not None:
            other, score = sibling
            ops.append({"operation": "prune", "action": "MERGE_INTO", "file": rel,
                        "target": other,
                        "reason": f"{why}; {score:.2f} similar to {other}"})
            continue
        ops.append({"operation": "prune", "action": "ARCHIVE", "file": rel, "reason": why})
    return ops


def _closest_sibling(project: Project, rel: str) -> tuple[str, float] | None:
    prefix = rel.rsplit("/", 1)[0]
    siblings = sorted(f"{prefix}/{p.name}" for p in (project.tree / prefix).glob("*.md"))
    loaded = {}
    for sibling in siblings:
        if kind_of(sibling) is not Kind.ENTRY:
            continue
        try:
            loaded[sibling] = read_entry(project, sibling)
        except BrvError:
            continue
    if rel not in loaded or len(loaded) < 2:
        return None
    paths = sorted(loaded)
    corpus = Corpus(paths, [words(loaded[p]) for p in paths])
    best = max(((paths[j], s) for j, s in corpus.nearest(paths.index(rel), 3)),
               key=lambda c: c[1], default=None)
    return best if best is not None and best[1] >= LINK_AT else None
