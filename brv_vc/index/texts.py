"""The indexed text of each document, compressed: excerpts, feedback and FTS5 deletes.

The FTS5 table is contentless (``content=''``): it holds the inverted index only, not a
second copy of the text, which was the largest part of ``index.db`` (issue 24: 2.75x the
markdown). SQLite before 3.43 can only remove a row from a contentless table when given the
values it was indexed with, and excerpts need the text the ranking saw (not the file, which
may have changed since), so the text is kept here, zlib-compressed (about 2.4x smaller).
Only the top hits of a search are decompressed, so the cost per search is bounded.
"""

from __future__ import annotations

import sqlite3
import zlib

LEVEL = 9  # written once per changed file, read for ten hits: the smallest is worth it
_SEP = "\0"  # never in indexed text (a NUL would have failed the entry's decode)


def pack(content: str, keys: str) -> bytes:
    """The stored form of a document's indexed ``content`` and ``keys`` (title and path are in ``docs``)."""
    return zlib.compress(f"{content}{_SEP}{keys}".encode(), LEVEL)


def store(conn: sqlite3.Connection, rowid: int, content: str, keys: str) -> None:
    """Keeps a document's indexed ``content`` and ``keys`` (see :func:`pack`)."""
    conn.execute("INSERT OR REPLACE INTO texts (id, z) VALUES (?, ?)", (rowid, pack(content, keys)))


def _unpack(blob: bytes) -> tuple[str, str]:
    content, _, keys = zlib.decompress(blob).decode().rpartition(_SEP)
    return content, keys


def load(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, tuple[str, str]]:
    """(content, keys) of each document that has indexed text."""
    marks = ",".join(str(int(r)) for r in dict.fromkeys(rowids))
    rows = conn.execute(f"SELECT id, z FROM texts WHERE id IN ({marks})")
    return {rowid: _unpack(blob) for rowid, blob in rows}


def contents(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, str]:
    """The indexed content of each document (what its excerpt is cut from)."""
    return {rowid: pair[0] for rowid, pair in load(conn, rowids).items()}
