"""Reads of the ``codelinks`` table: which entries name which repository paths.

The index keeps every candidate an entry names (``index/code_refs.py`` finds them, the writer
stores them); ``services.code_links`` resolves them against the code repository. Each read
is bounded by what it is asked (names, a folder's range, one entry), except :func:`every`,
which ``brv stale`` reads whole; services ask these instead of writing SQL
(tests/test_layering.py).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

from brv_vc.index.db import chunks, marks


def every(conn: sqlite3.Connection) -> Iterator[tuple[str, str, str]]:
    """``(entry, path as named, how)`` of every stored candidate.

    Only entries have rows, removed with their file (``index.docs``): no join needed.
    """
    yield from conn.execute("SELECT source, path, how FROM codelinks")


def naming(conn: sqlite3.Connection, names: Sequence[str]) -> list[tuple[str, str, str]]:
    """``(name, entry, how)`` for each entry naming one of ``names`` (one query per chunk)."""
    found: list[tuple[str, str, str]] = []
    for chunk in chunks(list(names)):
        found.extend(conn.execute(
            "SELECT c.path, c.source, c.how FROM codelinks c JOIN docs d ON d.path = c.source "
            f"WHERE d.kind = 'entry' AND c.path IN ({marks(chunk)})", chunk))
    return found


def entries_naming(conn: sqlite3.Connection, forms: Sequence[str]) -> list[tuple[str, str]]:
    """``(entry, how)`` of the entries naming any of ``forms``, by how then entry."""
    wanted = list(forms)
    return conn.execute(
        f"SELECT DISTINCT c.source, c.how FROM codelinks c JOIN docs d ON d.path = c.source "
        f"WHERE d.kind = 'entry' AND c.path IN ({marks(wanted)}) ORDER BY c.how, c.source",
        wanted).fetchall()


def entries_under(conn: sqlite3.Connection, low: str) -> list[tuple[str, str, str]]:
    """``(entry, how, named path)`` of the entries naming a path under ``low``, by entry.

    ``low`` is a folder's name and its ``/``.
    """
    return conn.execute(
        "SELECT c.source, c.how, c.path FROM codelinks c JOIN docs d ON d.path = c.source "
        "WHERE d.kind = 'entry' AND c.path >= ? AND c.path < ? ORDER BY c.source",
        (low, low[:-1] + "0"),
    ).fetchall()


def linking(conn: sqlite3.Connection, paths: Sequence[str]) -> frozenset[str]:
    """The ones of ``paths`` that name repository paths.

    Raises:
        sqlite3.Error: an index that predates the links table.
    """
    wanted = list(paths)
    if not wanted:
        return frozenset()
    rows = conn.execute(
        f"SELECT DISTINCT source FROM codelinks WHERE source IN ({marks(wanted)})", wanted
    ).fetchall()
    return frozenset(row[0] for row in rows)


def files_listed(conn: sqlite3.Connection, entry: str) -> list[str]:
    """The paths ``entry``'s ``Files:`` list names, as written.

    Raises:
        sqlite3.Error: an index that predates the links table.
    """
    return [p for (p,) in conn.execute(
        "SELECT path FROM codelinks WHERE source = ? AND how = 'files'", (entry,))]
