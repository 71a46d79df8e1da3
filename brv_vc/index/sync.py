"""Keeping ``index.db`` in step with the tree, cheaply, on every command that reads it.

Three ways to find what changed, cheapest first:

- ``paths``: the caller knows (curate, refresh after a merge): stat just those files.
- ``fast``: stat every *folder* the index knows (about 400 at 25,000 entries: under 1 ms).
  Adding, deleting or renaming a file changes its folder's mtime, and so does every write
  brv, git checkout/merge and most editors make (they write a temp file and rename it).
  Only folders whose mtime moved are listed again.
- ``full``: stat every file (about 95 ms at 25,000 entries). Used for small trees
  (<= FULL_WALK_MAX files, where it costs a few ms), for ``brv index`` and ``refresh(None)``,
  and whenever the last full walk is older than FULL_WALK_EVERY seconds.

Trade-off (docs/retrieval.md): an edit made *in place* (the file rewritten without a rename,
as ``echo >> f`` or some editors do) leaves its folder's mtime alone, so in a large tree a
fast check misses it until the next full walk (at most FULL_WALK_EVERY seconds later, or at
once with ``brv index``). Search results and cached answers re-check their own files before
they are shown, so a stale result is never displayed.

Files are compared by (mtime_ns, size); only those that differ are read and hashed, and only
those whose content hash changed are parsed again.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from brv_vc.errors import InvalidPathError
from brv_vc.format.entry import MAX_ENTRY_BYTES
from brv_vc.index.db import get_meta, set_meta
from brv_vc.index.docs import is_indexed
from brv_vc.tree.layout import (
    ABSTRACT_SUFFIX,
    ARCHIVE_DIR,
    CONTEXT_FILE,
    MAX_DEPTH,
    OVERVIEW_SUFFIX,
    STUB_SUFFIX,
    SUMMARY_FILE,
    misplaced,
)
from brv_vc.tree.links import read_regular
from brv_vc.tree.project import Project

# Up to here a full stat walk costs ~20 ms and every command does one. Beyond, in-place edits
# are found by a full walk at most FULL_WALK_EVERY seconds apart: at 25,000 files the walk
# costs 100-200 ms, so a shorter period would put most spaced-out searches over the 250 ms
# cold budget (measured: ~90 ms without the walk, ~260 ms with it, on a loaded 2-core box).
FULL_WALK_MAX = 5000
FULL_WALK_EVERY = 60.0


@dataclass(frozen=True)
class SyncReport:
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

    @property
    def changed(self) -> bool:
        """True when the index content moved (the tree fingerprint changed)."""
        return bool(self.added or self.updated or self.removed)


@dataclass(frozen=True)
class _Stored:
    id: int
    mtime_ns: int
    size: int
    hash: str
    fp: int
    problem: str | None


def _parent(relpath: str) -> str:
    return relpath.rsplit("/", 1)[0] if "/" in relpath else ""


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _indexable(name: str, depth: int, archived: bool) -> bool:
    """``docs.is_indexed`` for a file of a folder ``depth`` levels deep with no hidden part.

    It does not re-split the path: this runs once per file on every full walk.
    """
    if archived:
        return name.endswith(STUB_SUFFIX)
    if not name.endswith(".md") or name == SUMMARY_FILE:
        return False
    if name.endswith((ABSTRACT_SUFFIX, OVERVIEW_SUFFIX)):
        return False
    if name == CONTEXT_FILE:
        return depth >= 1
    return 2 <= depth <= MAX_DEPTH


def _list_dir(
    tree: Path, rel: str, files: dict[str, tuple[int, int]], strays: list[str] | None = None
) -> list[str]:
    """Lists one folder: its sub-folders are returned, its files sorted into place.

    Indexable files go to ``files``, markdown outside the layout to ``strays``.
    """
    subdirs = []
    depth = rel.count("/") + 1 if rel else 0
    archived = rel == ARCHIVE_DIR or rel.startswith(ARCHIVE_DIR + "/")
    try:
        with os.scandir(os.path.join(str(tree), rel) if rel else str(tree)) as items:
            for item in items:
                if item.name.startswith("."):
                    continue
                path = _join(rel, item.name)
                if item.is_dir(follow_symlinks=False):
                    subdirs.append(path)
                elif _indexable(item.name, depth, archived) and item.is_file(
                    follow_symlinks=False
                ):
                    st = item.stat(follow_symlinks=False)
                    files[path] = (st.st_mtime_ns, st.st_size)
                elif (
                    # at depths 2..MAX_DEPTH every .md is indexable or derived: only the root,
                    # domain folders and folders too deep can hold a stray (a full walk meets
                    # every abstract and overview here, so the check is skipped for them)
                    strays is not None and not archived and (depth < 2 or depth > MAX_DEPTH)
                    and item.name.endswith(".md")
                    and misplaced(path) and item.is_file(follow_symlinks=False)
                ):
                    strays.append(path)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        pass
    return subdirs


def _walk(tree: Path, start: str, dirs: dict[str, int], files: dict[str, tuple[int, int]],
          strays: list[str] | None = None) -> None:
    stack = [start]
    while stack:
        rel = stack.pop()
        try:
            # the folder is stat'ed BEFORE it is listed: a file added meanwhile moves the
            # mtime past the stored one, so the next check lists the folder again
            dirs[rel] = os.stat(tree / rel if rel else tree).st_mtime_ns
        except OSError:
            continue
        stack.extend(_list_dir(tree, rel, files, strays))


def _stored(conn: sqlite3.Connection, where: str, args: list[str]) -> dict[str, _Stored]:
    rows = conn.execute(
        f"SELECT path, id, mtime_ns, size, hash, fp, problem FROM docs {where}", args
    )
    return {path: _Stored(*rest) for path, *rest in rows}


def _stats(conn: sqlite3.Connection, where: str, args: list[str]) -> dict[str, tuple[int, int]]:
    """(mtime_ns, size) by path: all a change check needs.

    Plain tuples, not rows: this runs over every row on a full walk.
    """
    rows = conn.execute(f"SELECT path, mtime_ns, size FROM docs {where}", args)
    return {path: (mtime, size) for path, mtime, size in rows}


def _stats_in_dirs(conn: sqlite3.Connection, folders: list[str]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for start in range(0, len(folders), 500):
        chunk = folders[start : start + 500]
        found.update(_stats(conn, f"WHERE dir IN ({','.join('?' * len(chunk))})", chunk))
    return found


def choose_mode(conn: sqlite3.Connection, wall: float) -> str:
    """Picks ``full`` for small trees or when the last full walk is old, else ``fast``."""
    files = int(get_meta(conn, "files") or 0)
    last = float(get_meta(conn, "full_walk_at") or 0)
    if files <= FULL_WALK_MAX or wall - last >= FULL_WALK_EVERY or wall < last:
        return "full"
    return "fast"


def sync(
    project: Project,
    conn: sqlite3.Connection,
    *,
    mode: str | None = None,
    paths: list[str] | None = None,
    wall: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SyncReport:
    """Brings the index up to date with the tree.

    Args:
        project: the project.
        conn: the open index.
        mode: "full", "fast" or None (choose by tree size and age of the last full walk).
        paths: only check these tree-relative files (mode "paths").
        wall: the wall clock (epoch seconds) used to age full walks; defaults to time.time().
        progress: called as (files done, files to read) while changed files are indexed.

    Returns:
        The report.
    """
    wall = time.time() if wall is None else wall
    tree = project.tree
    if paths is not None:
        wanted = sorted({p for p in paths if is_indexed(p)})
        listing: dict[str, tuple[int, int]] = {}
        for path in wanted:
            try:
                st = os.stat(tree / path)
                listing[path] = (st.st_mtime_ns, st.st_size)
            except OSError:
                pass
        stored = {p: (r.mtime_ns, r.size) for p, r in _stored_in_paths(conn, wanted).items()}
        return _reconcile(conn, tree, "paths", listing, stored, {}, [], wall, progress)
    mode = mode or choose_mode(conn, wall)
    dirs_now: dict[str, int] = {}
    listing = {}
    strays: list[str] = []
    if mode == "full":
        _walk(tree, "", dirs_now, listing, strays)
        known = dict(conn.execute("SELECT path, mtime_ns FROM dirs").fetchall())
        gone = [d for d in known if d not in dirs_now]
        moved = {d: m for d, m in dirs_now.items() if known.get(d) != m}
        known_stats = _stats(conn, "", [])
        report = _reconcile(conn, tree, "full", listing, known_stats, moved, gone, wall, progress)
        return _with_strays(report, strays, moved)
    known_dirs = dict(conn.execute("SELECT path, mtime_ns FROM dirs").fetchall())
    gone = []
    base = str(tree) + os.sep  # plain strings: pathlib costs more than the stat itself
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
    if not dirs_now and not gone:
        return SyncReport("fast")
    stored = _stats_in_dirs(conn, [*dirs_now, *gone])
    report = _reconcile(conn, tree, "fast", listing, stored, dirs_now, gone, wall, progress)
    return _with_strays(report, strays, dirs_now)


def _with_strays(report: SyncReport, strays: list[str], changed: dict[str, int]) -> SyncReport:
    if not strays:
        return report
    new = tuple(sorted(p for p in strays if _parent(p) in changed))
    return replace(report, misplaced=tuple(sorted(strays)), misplaced_new=new)


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
    listing: dict[str, tuple[int, int]],
    known: dict[str, tuple[int, int]],
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
    from brv_vc.index.writer import Writer  # hashlib and the parsers load only on changes

    conn.execute("BEGIN IMMEDIATE")
    try:
        # another brv process may have synced these files while this one waited for the
        # write lock: compare against the rows as they are now
        stored = _stored_in_paths(conn, [*changed, *removed])
        changed = [
            p for p in changed
            if (old := stored.get(p)) is None or (old.mtime_ns, old.size) != listing[p]
        ]
        removed = [p for p in removed if p in stored]
        writer = Writer(conn)
        added: list[str] = []
        updated: list[str] = []
        problems: list[tuple[str, str]] = []
        for done, path in enumerate(sorted(changed)):
            if progress is not None and done % 500 == 0:
                progress(done, len(changed))
            try:
                data = read_regular(tree / path, file=path, limit=MAX_ENTRY_BYTES)
            except (OSError, InvalidPathError):  # gone, or replaced by a link meanwhile
                removed.append(path)
                continue
            outcome = writer.put(path, _parent(path), listing[path], data, stored.get(path))
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
    )
