"""The relation reference index (seed 002 §3.2.2): forward links and backlinks, O(1) per entry.

Links are rows (source, target) written with each file. A target may name an entry with or
without ``.md``, or a folder; it *resolves* when such a file or folder is in the tree, else
it is dangling.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple


class Link(NamedTuple):
    """One relation: ``source`` names ``target`` (as written: ``raw``)."""

    source: str
    target: str
    raw: str


def forward(conn: sqlite3.Connection, path: str) -> list[Link]:
    """The relations an entry declares, in order."""
    rows = conn.execute(
        "SELECT source, target, coalesce(raw, target) FROM links WHERE source = ? "
        "ORDER BY rowid", (path,)
    )
    return [Link(*row) for row in rows]


def backlinks(conn: sqlite3.Connection, path: str) -> list[str]:
    """Entries that name ``path`` (with or without ``.md``), sorted, unique."""
    return backlinks_of(conn, [path])[path]


def backlinks_of(conn: sqlite3.Connection, paths: list[str]) -> dict[str, list[str]]:
    """:func:`backlinks` of several paths in one query (search's hits)."""
    owner: dict[str, str] = {}
    for path in paths:
        owner[path] = path
        owner.setdefault(path.removesuffix(".md"), path)
    marks = ",".join("?" * len(owner))
    found: dict[str, set[str]] = {path: set() for path in paths}
    for source, target in conn.execute(
        f"SELECT source, target FROM links WHERE target IN ({marks})", list(owner)
    ):
        if source != owner[target]:
            found[owner[target]].add(source)
    return {path: sorted(sources) for path, sources in found.items()}


def naming(conn: sqlite3.Connection, path: str) -> list[str]:
    """Files whose relations name ``path`` in any letter case, sorted, unique.

    What a MERGE relinks (``services/curate/merge.relink`` compares lowercased), so unlike
    :func:`backlinks` only the form with ``.md``. The letter case is folded in Python:
    SQLite's ``lower`` folds ASCII only. One pass over the links table (tens of
    milliseconds at 25,000 entries).
    """
    wanted = path.lower()
    rows = conn.execute("SELECT source, target FROM links")
    return sorted({source for source, target in rows if target.lower() == wanted})


def resolves(conn: sqlite3.Connection, target: str) -> bool:
    """True when ``target`` names a file or a folder of the tree."""
    candidates = (target, target + ".md")
    found = conn.execute(
        "SELECT 1 FROM docs WHERE path IN (?, ?) LIMIT 1", candidates
    ).fetchone() or conn.execute("SELECT 1 FROM dirs WHERE path = ? LIMIT 1", (target,)).fetchone()
    return found is not None


def dangling(conn: sqlite3.Connection, source: str | None = None) -> list[Link]:
    """Relations whose target is neither a file nor a folder (of one source, or all)."""
    where, args = ("WHERE source = ?", (source,)) if source else ("", ())
    rows = conn.execute(
        f"SELECT source, target, coalesce(raw, target) FROM links {where} ORDER BY source, rowid", args
    ).fetchall()
    known: dict[str, bool] = {}
    out = []
    for row in rows:
        link = Link(*row)
        if link.target not in known:
            known[link.target] = resolves(conn, link.target)
        if not known[link.target]:
            out.append(link)
    return out
