"""Reads of the ``docs`` and ``dirs`` tables by path: titles, a folder's entries, domains.

Each query is bounded by what it is asked (a range of ``docs.path``, a chunk of paths, one
folder), never by the tree; services ask these instead of writing SQL (tests/test_layering.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from brv_vc.index.db import chunks, marks

ENTRY_KINDS = ("entry", "context")  # what a picture of the tree draws as entries


def titles(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, str]:
    """The indexed titles of entries (a path without a title keeps its file name)."""
    wanted = sorted(set(paths))
    out: dict[str, str] = {}
    for chunk in chunks(wanted):
        out.update(conn.execute(
            f"SELECT path, title FROM docs WHERE path IN ({marks(chunk)})", chunk).fetchall())
    return {path: out.get(path) or path.rsplit("/", 1)[-1].removesuffix(".md") for path in wanted}


def is_file(conn: sqlite3.Connection, path: str) -> bool:
    """True when the index holds a file at ``path``."""
    return conn.execute("SELECT 1 FROM docs WHERE path = ?", (path,)).fetchone() is not None


def indexed_as(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, tuple[int, str]]:
    """The indexed files of ``paths`` -> (their file's mtime, nanoseconds; the SHA-1 of its bytes).

    Both as the row was read: what the index saw last, not what the file is now.
    """
    wanted = sorted(set(paths))
    out: dict[str, tuple[int, str]] = {}
    for chunk in chunks(wanted):
        out.update((path, (mtime, digest)) for path, mtime, digest in conn.execute(
            f"SELECT path, mtime_ns, hash FROM docs WHERE path IN ({marks(chunk)})", chunk))
    return out


def is_folder(conn: sqlite3.Connection, path: str) -> bool:
    """True when the index holds a folder at ``path``."""
    return conn.execute("SELECT 1 FROM dirs WHERE path = ?", (path,)).fetchone() is not None


def entries_between(conn: sqlite3.Connection, low: str, high: str) -> list[str]:
    """The entries (and context files) whose path is in ``[low, high)``: a folder's range."""
    return [row[0] for row in conn.execute(
        "SELECT path FROM docs WHERE path >= ? AND path < ? AND kind IN (?, ?)",
        (low, high, *ENTRY_KINDS))]


def siblings(conn: sqlite3.Connection, folder: str, but: str, limit: int) -> list[str]:
    """Up to ``limit`` entries directly in ``folder`` other than ``but``, by path."""
    return [row[0] for row in conn.execute(
        "SELECT path FROM docs WHERE dir = ? AND kind IN (?, ?) AND path != ? "
        "ORDER BY path LIMIT ?", (folder, *ENTRY_KINDS, but, limit))]


def domain_sizes(conn: sqlite3.Connection) -> dict[str, int]:
    """Each domain (top-level folder) -> the entries under it, counted in SQL."""
    return dict(conn.execute(
        "SELECT substr(path, 1, instr(path, '/') - 1) AS d, count(*) FROM docs "
        "WHERE kind IN (?, ?) AND instr(path, '/') > 0 GROUP BY d", ENTRY_KINDS).fetchall())


def entry_paths(conn: sqlite3.Connection) -> list[str]:
    """Every indexed entry's path (no context files): the whole tree's picture (``brv ui``)."""
    return [row[0] for row in conn.execute("SELECT path FROM docs WHERE kind = 'entry'")]


def entries_modified_after(conn: sqlite3.Connection, mtime_ns: int) -> set[str]:
    """The indexed entries whose file changed after ``mtime_ns`` (nanoseconds)."""
    return {row[0] for row in conn.execute(
        "SELECT path FROM docs WHERE kind = 'entry' AND mtime_ns > ?", (mtime_ns,))}


def any_modified_after(conn: sqlite3.Connection, mtime_ns: int) -> bool:
    """True when an indexed entry's file changed after ``mtime_ns`` (nanoseconds)."""
    return conn.execute("SELECT 1 FROM docs WHERE kind = 'entry' AND mtime_ns > ? LIMIT 1",
                        (mtime_ns,)).fetchone() is not None


def stored_titles(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, str | None]:
    """The ``title`` column of each indexed path (absent: not indexed; None: no title)."""
    wanted = list(dict.fromkeys(paths))
    out: dict[str, str | None] = {}
    for chunk in chunks(wanted):
        out.update(conn.execute(
            f"SELECT path, title FROM docs WHERE path IN ({marks(chunk)})", chunk))
    return out


def updated_of(conn: sqlite3.Connection, paths: Iterable[str]) -> list[tuple[str, float | None]]:
    """``(path, updatedAt)`` of each indexed path (epoch seconds, None when not written)."""
    wanted = list(dict.fromkeys(paths))
    out: list[tuple[str, float | None]] = []
    for chunk in chunks(wanted):
        out.extend(conn.execute(
            f"SELECT path, updated FROM docs WHERE path IN ({marks(chunk)})", chunk))
    return out


def glance_rows(conn: sqlite3.Connection, paths: Iterable[str]
                ) -> dict[str, tuple[str, float | None, int]]:
    """Each indexed path -> ``(title, updatedAt, mtime_ns)``: what a glance shows of it."""
    wanted = list(dict.fromkeys(paths))
    rows: dict[str, tuple[str, float | None, int]] = {}
    for chunk in chunks(wanted):
        for path, title, updated, mtime in conn.execute(
            f"SELECT path, title, updated, mtime_ns FROM docs WHERE path IN ({marks(chunk)})",
            chunk,
        ):
            rows[path] = (title, updated, mtime)
    return rows


def ids_of(conn: sqlite3.Connection, paths: list[str]) -> dict[int, str]:
    """Each indexed path's row id -> the path (the key of its stored text)."""
    out: dict[int, str] = {}
    for chunk in chunks(paths):
        out.update(conn.execute(
            f"SELECT id, path FROM docs WHERE path IN ({marks(chunk)})", chunk))
    return out


def stats_of(conn: sqlite3.Connection, paths: list[str]) -> dict[str, tuple[int, int]]:
    """Each indexed path -> the ``(mtime_ns, size)`` its file had when it was indexed."""
    out: dict[str, tuple[int, int]] = {}
    for chunk in chunks(paths):
        out.update((p, (m, s)) for p, m, s in conn.execute(
            f"SELECT path, mtime_ns, size FROM docs WHERE path IN ({marks(chunk)})", chunk))
    return out


def dates_of(conn: sqlite3.Connection, path: str) -> tuple[float | None, int] | None:
    """``(updatedAt, mtime_ns)`` of one indexed path, or None when it is not indexed."""
    row = conn.execute(
        "SELECT updated, mtime_ns FROM docs WHERE path = ?", (path,)
    ).fetchone()
    return None if row is None else (row[0], row[1])
