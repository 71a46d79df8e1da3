"""Opening the search index up to date (every reader calls this), and ``brv index``."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime

from brv_vc.index import listings
from brv_vc.index.db import open_index
from brv_vc.index.sync import SyncReport, sync
from brv_vc.record import NamedTuple, Protocol
from brv_vc.services.problems import FileProblem, file_problems
from brv_vc.tree.layout import misplaced
from brv_vc.tree.links import not_regular, odd_files
from brv_vc.tree.project import Project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")


class MisplacedFile(NamedTuple):
    """A markdown file outside the layout: brv never indexes it."""

    path: str
    reason: str


class IndexResult(NamedTuple):
    """What ``brv index`` did."""

    mode: str
    files: int
    added: tuple[str, ...]
    updated: tuple[str, ...]
    removed: tuple[str, ...]
    problems: tuple[FileProblem, ...]
    notes: tuple[str, ...]
    misplaced: tuple[MisplacedFile, ...] = ()


class OpenIndex(NamedTuple):
    """An index brought up to date, with what that took."""

    conn: sqlite3.Connection
    report: SyncReport
    notes: list[str]
    derived: tuple[str, ...] = ()  # problems following removals (also in notes)

    def close(self) -> None:
        """Closes the connection."""
        self.conn.close()


def open_synced(
    project: Project,
    *,
    mode: str | None = None,
    rebuild: bool = False,
    progress: Callable[[int, int], None] | None = None,
    follow: bool = True,
    paths: list[str] | None = None,
    asked: bool = False,
) -> OpenIndex:
    """Opens ``index.db`` (repairing or creating it) and syncs it with the tree.

    Args:
        project: the project.
        mode: "full", "fast" or None (automatic; see ``index.sync``).
        rebuild: drop and rebuild the whole index.
        progress: called as (files done, files to read) during long builds.
        follow: when the sync notices removed files (an entry deleted or moved by hand or by
            plain git), bring the derived files along them up to date (see
            :func:`follow_removals`). The refresh passes False: it follows them itself.
        paths: only these tree paths changed (the refresh after a write knows them): they
            are re-read alone, with no walk or stat pass over the tree.
        asked: the caller asked for the build (``brv index``), so a long one is not named
            in a note: the command's own answer says what it indexed.

    Returns:
        The open index; ``notes`` are messages for stderr (a rebuilt index, unparsable files).
    """
    handle = open_index(project, rebuild=rebuild)
    if not handle.created:
        return resync(project, handle.conn, notes=handle.notes, mode=mode, progress=progress,
                      follow=follow, paths=paths)
    # a missing or unreadable index is built from the whole tree: the reader is told
    import time

    began = time.monotonic()
    from brv_vc.services.derived import build_watch

    factory = build_watch.FACTORY
    watch = factory() if progress is None and factory is not None else None
    try:
        opened = resync(project, handle.conn, created=True, notes=handle.notes, mode=mode,
                        progress=progress or watch, follow=follow, paths=paths)
    finally:
        if watch is not None:
            watch.close()
    took = time.monotonic() - began
    if not (rebuild or asked) and took >= BUILD_NOTE_AFTER and opened.report.added:
        opened.notes.append(f"the search index was missing or unreadable: built it from "
                            f"{len(opened.report.added):,} files in {took:.1f} s")
    return opened


BUILD_NOTE_AFTER = 1.0  # seconds: a build this long is named on stderr afterwards


def resync(
    project: Project,
    conn: sqlite3.Connection,
    *,
    created: bool = False,
    notes: Sequence[str] = (),
    mode: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    follow: bool = True,
    paths: list[str] | None = None,
    edited: Sequence[str] = (),
) -> OpenIndex:
    """Syncs an open ``index.db`` with the tree: the change check every reader runs.

    :func:`open_synced` calls it once per command; a resident process (``brv mcp``) keeps
    its connection and calls it before every answer, so edits made between two calls are
    seen. Arguments as in :func:`open_synced`; ``created`` says the file was just made;
    ``paths`` checks just those files, ``edited`` those besides the folder check (a resident
    process's folder watch named them; see ``index.sync``).
    """
    report = sync(project, conn, mode="full" if created else mode, progress=progress,
                  paths=None if created else paths, edited=edited)
    notes = [*notes, *seed_sidecar(project, report)]
    found = [*notes, *(f"skipped {path}: {message}" for path, message in report.problems)]
    found += [_ignored(path) for path in report.misplaced_new]
    derived: list[str] = []
    if follow and report.removed and not created:
        derived = follow_removals(project, removals(report))
    return OpenIndex(conn, report, found + derived, tuple(derived))


def seed_sidecar(project: Project, report: SyncReport) -> list[str]:
    """Seeds the scoring sidecar of entries first seen with legacy lifecycle frontmatter.

    Trigger: a sync read entries carrying older ByteRover's ``importance``, ``maturity``,
    ``accessCount``, ``updateCount``. Why: without a row they would start from the defaults
    decayed from their date, so an adopted tree would show importance 15, draft, 0 updates,
    and every entry would be an archive candidate. Outcome: a sidecar row seeded from those
    keys (a row the entry already has is kept); the file is not touched. Fails open.

    Returns:
        Problems to show as warnings.
    """
    if not report.seeds:
        return []
    try:
        import time

        from brv_vc.lifecycle import scoring, sidecar
        from brv_vc.tree.statedb import open_state

        now = time.time()
        rows = {path: scoring.seeded(dict(keys), updated, now)
                for path, keys, updated in report.seeds}
        state = open_state(project)
        try:
            sidecar.seed(state, rows)
        finally:
            state.close()
        return []
    except Exception as exc:  # a reader must never fail over scoring
        return [f"scoring signals not seeded: {type(exc).__name__}: {exc}"]


def removals(report: SyncReport) -> list[str]:
    """The paths whose derived files a sync's removals make stale (none when none removed).

    The removed paths, plus the added ones when something was removed (a move: the new
    folder's summary must list the entry as the old one stops listing it).
    """
    return [*report.removed, *report.added] if report.removed else []


def follow_removals(project: Project, paths: list[str]) -> list[str]:
    """Runs the refresh's summary step along ``paths`` in its deferred (pre-commit) form.

    Trigger: a reader's sync noticed removed entries. Why: their folders' ``_index.md`` would
    keep listing them and their abstract/overview would stay behind until ``brv summarize``.
    Outcome: the summaries along the paths rewritten, the siblings of gone entries deleted,
    emptied folders pruned; abstracts of moved entries queued; the manifest, stale by its
    freshness hash, is rebuilt by the next ``brv manifest`` or refresh. Fails open.

    Returns:
        Problems to show as warnings.
    """
    try:
        from brv_vc.clock import utcnow
        from brv_vc.services.derived.summaries import refresh_summaries

        return list(refresh_summaries(project, paths, utcnow(), defer=True).problems)
    except Exception as exc:  # a reader must never fail for a derived file
        return [f"derived files after a removal: {type(exc).__name__}: {exc}"]


def _ignored(path: str) -> str:
    return f"ignored {path}: {misplaced(path)}"


class Resident(Protocol):
    """A resident process's open index, kept up to date by its folder watch (``SearchSession``)."""

    project: Project

    def opened(self) -> OpenIndex:
        """The open index, checked for changes since the last call (never closed by a reader)."""


# A resident process (brv ui) lends its open index to every service it calls: ``with_index``
# then skips opening the file and the whole-tree change check (the watch already knows what
# changed), as ``brv mcp``'s searches do. A context variable, so only the lender's own calls
# see it. Made when first named (module ``__getattr__``): a vc process, which lends nothing,
# imports no contextvars (~0.4 ms of CPU in every commit and pull).
if TYPE_CHECKING:
    from contextvars import ContextVar

    RESIDENT: ContextVar[Resident | None]


def __getattr__(name: str) -> object:
    """``RESIDENT``, made at its first use (a lender's); any other name is missing."""
    if name != "RESIDENT":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from contextvars import ContextVar

    # setdefault: threads asking at once all get the one variable the first stored
    return globals().setdefault("RESIDENT", ContextVar("brv_resident_index", default=None))


def with_index(
    project: Project, work: Callable[[OpenIndex], T], *, mode: str | None = None
) -> tuple[T, list[str]]:
    """Runs ``work`` on an up-to-date index, rebuilding it once if ``work`` finds it damaged.

    A corrupt page that opening did not touch shows only midway; the index is then rebuilt
    from the tree and ``work`` runs once more. Inside a resident process that lends its
    index (``RESIDENT``), ``work`` runs on that one.

    Returns:
        (what ``work`` returned, notes for stderr).
    """
    resident = globals().get("RESIDENT")  # None: nothing was ever lent in this process
    lent = None if resident is None else resident.get()
    if lent is not None and mode is None and lent.project == project:
        try:
            opened = lent.opened()
            return work(opened), list(opened.notes)
        except sqlite3.DatabaseError:
            pass  # damaged: the ordinary path below rebuilds it
    notes: list[str] = []
    for attempt in (0, 1):
        try:
            opened = open_synced(project, mode=mode, rebuild=attempt == 1)
        except sqlite3.DatabaseError as exc:
            if attempt:
                raise
            notes.append(f"the search index index.db was damaged ({exc}); rebuilt it")
            continue
        try:
            return work(opened), notes + opened.notes
        except sqlite3.DatabaseError as exc:
            if attempt:
                raise
            notes.append(f"the search index index.db was damaged ({exc}); rebuilt it")
        finally:
            opened.close()
    raise AssertionError("unreachable")


def index_project(
    project: Project,
    *,
    rebuild: bool,
    now: datetime,
    progress: Callable[[int, int], None] | None = None,
) -> IndexResult:
    """Brings the index up to date with a full walk (``brv index [--rebuild]``).

    Args:
        project: the project.
        rebuild: drop the index first (the scoring sidecar in brv.db is never touched).
        now: the clock (unused by the index itself; kept for the service signature).
        progress: called as (files done, files to read) during long builds.

    Returns:
        The result; ``problems`` lists every file that currently fails to parse, and
        ``misplaced`` every markdown file outside the layout (also warned about in notes).
    """
    opened = open_synced(project, mode="full", rebuild=rebuild, progress=progress, asked=True)
    try:
        conn = opened.conn
        problems = file_problems(sorted([
            *listings.problems(conn),
            # symlinks, FIFOs, devices: never read, so never in the index (tree/links.py)
            *((rel, not_regular(rel, kind).message) for rel, kind in odd_files(project.tree)),
        ]))
        files = listings.parsed_count(conn)
        report = opened.report
        notes = [
            n for n in opened.notes
            if not n.startswith(("skipped ", "ignored "))
        ]
        broken = {problem.path for problem in problems}  # listed once, under problems
        return IndexResult(
            report.mode,
            files,
            tuple(p for p in report.added if p not in broken),
            tuple(p for p in report.updated if p not in broken),
            report.removed,
            problems,
            (*notes, *(_ignored(p) for p in report.misplaced)),
            tuple(MisplacedFile(p, misplaced(p) or "") for p in report.misplaced),
        )
    finally:
        opened.close()
