"""Keeping ``index.db`` in step with the tree, exactly, on every command that reads it.

Three ways to find what changed, cheapest first (docs/retrieval.md has the measurements):
``paths`` (the caller knows: stat just those files); ``fast`` (stat every *folder* the index
knows, under 1 ms at 25,000 entries, list again those whose mtime moved, and take files
changed *in place* from ``index.scan``'s ``find -cnewer``); ``full`` (stat every file: small
trees, ``brv index``, no scan stamp yet, no ``find``). ``resident`` is ``fast`` for a process
that stays up (``brv mcp``): it never waits for a scan still running. Files are compared by
(mtime_ns, size, ctime_ns); a row stored while its file was fresher than ``scan.MARGIN_NS``
gets the ctime RACY, which matches no file, so a second write in the same clock tick is found.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from brv_vc.errors import InvalidPathError
from brv_vc.format.limits import MAX_ENTRY_BYTES
from brv_vc.index import scan
from brv_vc.index.db import get_meta, set_meta
from brv_vc.index.docs import is_indexed
from brv_vc.index.tree_walk import Stat, _list_dir, _parent, _stat, _synthesis
from brv_vc.index.tree_walk import _indexable as _indexable  # tests ask it here
from brv_vc.index.tree_walk import _walk as _walk  # a name tests and benches replace here
from brv_vc.record import NamedTuple
from brv_vc.tree.layout import may_be_synthesis
from brv_vc.tree.links import read_regular
from brv_vc.tree.project import Project

# Up to here every command walks the tree (~20 ms); beyond, the folder check plus index.scan.
FULL_WALK_MAX = 5000
RACY = -1  # the stored ctime of a file changed too recently to trust its stat


class SyncReport(NamedTuple):
    """What one sync changed; ``problems`` are (path, message) of files that failed to parse.

    ``misplaced`` are the markdown files outside the layout seen in the folders listed (all
    of them on a full walk); ``misplaced_new`` those in folders that changed since the last
    sync, so the automatic sync warns about a file once, when it appears.
    """

    mode: str
    added: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()
    misplaced: tuple[str, ...] = ()
    misplaced_new: tuple[str, ...] = ()
    # entries first seen with legacy lifecycle keys: (path, keys, updatedAt); the caller
    # seeds the scoring sidecar from them (services.derived.index.seed_sidecar)
    seeds: tuple[tuple[str, tuple[tuple[str, object], ...], float | None], ...] = ()

    @property
    def changed(self) -> bool:
        """True when the index content moved (the tree fingerprint changed)."""
        return bool(self.added or self.updated or self.removed)


class _Stored(NamedTuple):
    id: int
    mtime_ns: int
    size: int
    ctime_ns: int
    hash: str
    fp: int
    problem: str | None
    title: str  # what its FTS5 row was indexed with (a delete must give it again)


def _stored(conn: sqlite3.Connection, where: str, args: list[str]) -> dict[str, _Stored]:
    rows = conn.execute(
        f"SELECT path, id, mtime_ns, size, ctime_ns, hash, fp, problem, title FROM docs {where}",
        args
    )
    return {path: _Stored(*rest) for path, *rest in rows}


def _stats(conn: sqlite3.Connection, where: str, args: list[str]) -> dict[str, Stat]:
    """(mtime_ns, size, ctime_ns) by path: all a change check needs.

    Plain tuples, not rows: this runs over every row on a full walk.
    """
    rows = conn.execute(f"SELECT path, mtime_ns, size, ctime_ns FROM docs {where}", args)
    return {path: (mtime, size, ctime) for path, mtime, size, ctime in rows}


def _stats_where(conn: sqlite3.Connection, column: str, values: list[str]) -> dict[str, Stat]:
    found: dict[str, Stat] = {}
    for start in range(0, len(values), 500):
        chunk = values[start : start + 500]
        found.update(_stats(conn, f"WHERE {column} IN ({','.join('?' * len(chunk))})", chunk))
    return found


def choose_mode(conn: sqlite3.Connection, project: Project) -> str:
    """Picks ``full`` for small trees and before the first scan stamp, else ``fast``."""
    files = int(get_meta(conn, "files") or 0)
    if files <= FULL_WALK_MAX or not scan.stamp_path(project.state).is_file():
        return "full"
    return "fast"


def sync(
    project: Project,
    conn: sqlite3.Connection,
    *,
    mode: str | None = None,
    paths: list[str] | None = None,
    edited: Sequence[str] = (),
    wall: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SyncReport:
    """Brings the index up to date with the tree.

    Args:
        project: the project.
        conn: the open index.
        mode: "full", "fast", "resident" or None (by tree size and the scan stamp).
        paths: only check these tree-relative files (mode "paths").
        edited: files known to have changed (a resident process's folder watch named them),
            checked besides the folder check of "fast" and "resident" (a full walk sees
            them anyway).
        wall: the wall clock (epoch seconds) recorded for a full walk; defaults to time.time().
        progress: called as (files done, files to read) while changed files are indexed.

    Returns:
        The report.
    """
    wall = time.time() if wall is None else wall
    tree = project.tree
    if paths is not None:
        wanted = sorted({p for p in paths if is_indexed(p) or may_be_synthesis(p)})
        base = scan.tree_prefix(tree)
        listing: dict[str, Stat] = {
            p: st for p in wanted
            if (is_indexed(p) or _synthesis(base + p, p))
            and (st := _stat(base + p)) is not None
        }
        stored = _stats_where(conn, "path", wanted)
        return _reconcile(conn, tree, "paths", listing, stored, {}, [], wall, progress)
    in_place = True
    if mode == "resident":  # brv mcp: never start or wait for the in-place scan (see _fast)
        mode = choose_mode(conn, project)
        in_place = scan.ready(tree)
    mode = mode or choose_mode(conn, project)
    if mode == "fast" and (report := _fast(project, conn, wall, progress, in_place=in_place,
                                           edited=edited)) is not None:
        return report
    scan.cancel(tree)
    began = time.time_ns()
    dirs_now: dict[str, int] = {}
    listing = {}
    strays: list[str] = []
    _walk(tree, "", dirs_now, listing, strays)
    known = dict(conn.execute("SELECT path, mtime_ns FROM dirs").fetchall())
    gone = [d for d in known if d not in dirs_now]
    moved = {d: m for d, m in dirs_now.items() if known.get(d) != m}
    known_stats = _stats(conn, "", [])
    report = _reconcile(conn, tree, "full", listing, known_stats, moved, gone, wall, progress)
    # a small tree walks every time: without a stamp, the search fast path starts no scan
    scan.mark(project.state, began, keep=int(get_meta(conn, "files") or 0) > FULL_WALK_MAX)
    return _with_strays(report, strays, moved)


def _fast(
    project: Project,
    conn: sqlite3.Connection,
    wall: float,
    progress: Callable[[int, int], None] | None,
    *,
    in_place: bool = True,
    edited: Sequence[str] = (),
) -> SyncReport | None:
    """The folder check plus the in-place scan (``in_place=False``: folders only, stamp kept).

    ``edited`` files are checked as the scan's are. None when the scan is unavailable.
    """
    tree = project.tree
    found = scan.changed(tree, project.state) if in_place else ([], 0)
    if found is None:
        return None
    edited_in_place, began = [*found[0], *edited], found[1]
    dirs_now: dict[str, int] = {}
    listing: dict[str, Stat] = {}
    strays: list[str] = []
    known_dirs = dict(conn.execute("SELECT path, mtime_ns FROM dirs").fetchall())
    gone = []
    base = scan.tree_prefix(tree)
    for rel, mtime in known_dirs.items():
        try:
            now_mtime = os.stat(base + rel if rel else str(tree)).st_mtime_ns
        except OSError:
            gone.append(rel)
            continue
        if now_mtime != mtime:
            dirs_now[rel] = now_mtime
            for sub in _list_dir(tree, rel, listing, strays):
                if sub not in known_dirs:
                    _walk(tree, sub, dirs_now, listing, strays)
    edited = [p for p in edited_in_place
              if p not in listing and (is_indexed(p) or may_be_synthesis(p))]
    if not dirs_now and not gone and not edited:
        if in_place:
            scan.mark(project.state, began)
        return SyncReport("fast")
    for path in edited:  # a synthesis edited into a plain note is dropped by _reconcile
        if (is_indexed(path) or _synthesis(base + path, path)) and (
                st := _stat(base + path)) is not None:
            listing[path] = st
    stored = _stats_where(conn, "dir", [*dirs_now, *gone])
    stored.update(_stats_where(conn, "path", edited))
    report = _reconcile(conn, tree, "fast", listing, stored, dirs_now, gone, wall, progress)
    if in_place:
        scan.mark(project.state, began)
    return _with_strays(report, strays, dirs_now)


def _with_strays(report: SyncReport, strays: list[str], changed: dict[str, int]) -> SyncReport:
    if not strays:
        return report
    new = tuple(sorted(p for p in strays if _parent(p) in changed))
    return report._replace(misplaced=tuple(sorted(strays)), misplaced_new=new)


def _stored_in_paths(conn: sqlite3.Connection, paths: list[str]) -> dict[str, _Stored]:
    found: dict[str, _Stored] = {}
    for start in range(0, len(paths), 500):
        chunk = paths[start : start + 500]
        found.update(_stored(conn, f"WHERE path IN ({','.join('?' * len(chunk))})", chunk))
    return found


def _reconcile(
    conn: sqlite3.Connection,
    tree: Path,
    mode: str,
    listing: dict[str, Stat],
    known: dict[str, Stat],
    dirs_now: dict[str, int],
    dirs_gone: list[str],
    wall: float,
    progress: Callable[[int, int], None] | None = None,
) -> SyncReport:
    changed = [p for p, st in listing.items() if known.get(p) != st]
    removed = [p for p in known if p not in listing]
    touched = bool(changed or removed or dirs_gone or dirs_now)
    if not touched:
        if mode == "full":
            set_meta(conn, "full_walk_at", repr(wall))
        return SyncReport(mode)
    from brv_vc.index.writer import Writer  # the parsers load only on changes

    conn.execute("BEGIN IMMEDIATE")
    try:
        # another brv process may have synced these files while this one waited for the
        # write lock: compare against the rows as they are now
        stored = _stored_in_paths(conn, [*changed, *removed])
        changed = [
            p for p in changed
            if (old := stored.get(p)) is None
            or (old.mtime_ns, old.size, old.ctime_ns) != listing[p]
        ]
        racy = time.time_ns() - scan.MARGIN_NS  # files changed since then may change again
        # within the same clock tick, keeping their stat: store a ctime that matches nothing
        removed = [p for p in removed if p in stored]
        remember = True  # a read of more files than the read-once memo holds adds none to it
        if changed:
            from brv_vc.format.entry import memo_fits

            remember = memo_fits(len(changed))
        writer = Writer(conn, remember=remember, expected=len(changed))
        added: list[str] = []
        updated: list[str] = []
        problems: list[tuple[str, str]] = []
        base = scan.tree_prefix(tree)
        for done, path in enumerate(sorted(changed)):
            if progress is not None and done % 500 == 0:
                progress(done, len(changed))
            try:
                data = read_regular(base + path, file=path, limit=MAX_ENTRY_BYTES)
            except (OSError, InvalidPathError):  # gone, or replaced by a link meanwhile
                removed.append(path)
                continue
            mtime, size, ctime = listing[path]
            stat = (mtime, size, RACY if ctime >= racy else ctime)
            outcome = writer.put(path, _parent(path), stat, data, stored.get(path))
            if outcome.problem:
                problems.append((path, outcome.problem))
            if outcome.content_changed:
                (updated if path in stored else added).append(path)
        for path in removed:
            if path in stored:
                writer.delete(path, stored[path])
        conn.executemany(
            "INSERT OR REPLACE INTO dirs (path, mtime_ns) VALUES (?, ?)", dirs_now.items()
        )
        conn.executemany("DELETE FROM dirs WHERE path = ?", [(d,) for d in dirs_gone])
        writer.finish(wall if mode == "full" else None)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return SyncReport(
        mode,
        tuple(added),
        tuple(updated),
        tuple(sorted(set(removed) & set(stored))),
        tuple(problems),
        seeds=tuple((p, keys, updated) for p, (keys, updated) in writer.seeds.items()),
    )
