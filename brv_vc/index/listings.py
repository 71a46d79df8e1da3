"""Whole-tree reads of the ``docs`` table: one row per indexed file.

For the commands that judge, export, count or dream over the whole tree (never the search
path, whose reads are bounded by what it is asked: ``index/entries.py``). Services ask these
instead of writing SQL (tests/test_layering.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator


def every_path(conn: sqlite3.Connection) -> list[str]:
    """Every path the index holds (entries, stubs, summaries)."""
    return [row[0] for row in conn.execute("SELECT path FROM docs")]


def entry_updates(conn: sqlite3.Connection) -> dict[str, float | None]:
    """Every entry's ``updatedAt`` (epoch seconds, None when not written), parsed or not."""
    return dict(conn.execute("SELECT path, updated FROM docs WHERE kind = 'entry'"))


def parsed_entry_updates(conn: sqlite3.Connection) -> list[tuple[str, float | None]]:
    """``(path, updatedAt)`` of every entry that parses."""
    return conn.execute(
        "SELECT path, updated FROM docs WHERE kind = 'entry' AND problem IS NULL"
    ).fetchall()


def entries_and_stubs(conn: sqlite3.Connection, under: str
                      ) -> list[tuple[str, str, float | None]]:
    """``(path, kind, updatedAt)`` of the parsed entries and archive stubs under a prefix.

    ``under`` is the start of their paths ("" for the whole tree).
    """
    return conn.execute(
        "SELECT path, kind, updated FROM docs WHERE kind IN ('entry', 'archive_stub') AND problem IS NULL"
        " AND substr(path, 1, ?) = ?", (len(under), under)
    ).fetchall()


def problems(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """``(path, why)`` of every indexed file that does not parse."""
    return conn.execute("SELECT path, problem FROM docs WHERE problem IS NOT NULL").fetchall()


def parsed_count(conn: sqlite3.Connection) -> int:
    """How many indexed files parse."""
    return int(conn.execute("SELECT count(*) FROM docs WHERE problem IS NULL").fetchone()[0])


def sizes(conn: sqlite3.Connection) -> list[tuple[str, str, int]]:
    """``(path, kind, bytes)`` of every entry and context file."""
    return conn.execute(
        "SELECT path, kind, size FROM docs WHERE kind IN ('entry', 'context')"
    ).fetchall()


def parsed_entries(conn: sqlite3.Connection) -> Iterator[tuple[int, str, str]]:
    """``(id, path, title)`` of every entry that parses."""
    yield from conn.execute(
        "SELECT id, path, title FROM docs WHERE kind = 'entry' AND problem IS NULL")


def parsed_entries_with_text(conn: sqlite3.Connection) -> Iterator[tuple[int, str]]:
    """``(id, path)`` of every entry that parses and has stored text, in index order."""
    yield from conn.execute(
        "SELECT docs.id, docs.path FROM docs JOIN texts ON texts.id = docs.id "
        "WHERE docs.kind = 'entry' AND docs.problem IS NULL ORDER BY docs.rowid")


def named(conn: sqlite3.Connection, ids: list[int]) -> dict[int, tuple[str, str]]:
    """Each of ``ids`` -> ``(path, title)`` (ids are integers: inlined, no parameters)."""
    found = ",".join(str(int(i)) for i in ids)
    return {i: (p, t) for i, p, t in conn.execute(
        f"SELECT id, path, title FROM docs WHERE id IN ({found})")}
