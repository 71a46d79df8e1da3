"""The relation reference index (seed 002 §3.2.2): forward links and backlinks, O(1) per entry.

Links are rows (source, target) written with each file. A target may name an entry with or
without ``.md``, or a folder; it *resolves* when such a file or folder is in the tree, else
it is dangling.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from brv_vc.format.relations import target_key
from brv_vc.index.db import chunks, marks

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable



class Link(NamedTuple):
    """One relation: ``source`` names ``target`` (as written: ``raw``)."""

    source: str
    target: str
    raw: str


def forward(conn: sqlite3.Connection, path: str) -> list[Link]:
    """The relations an entry declares, in order."""
    return forward_of(conn, [path])[path]


def forward_of(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, list[Link]]:
    """:func:`forward` of several entries, a few queries for all (a picture's nodes)."""
    wanted = list(dict.fromkeys(paths))
    found: dict[str, list[Link]] = {path: [] for path in wanted}
    for chunk in chunks(wanted):
        for row in conn.execute(
            "SELECT source, target, coalesce(raw, target) FROM links "
            f"WHERE source IN ({marks(chunk)}) ORDER BY rowid", chunk
        ):
            found[row[0]].append(Link(*row))
    return found


def forms(paths: Iterable[str]) -> dict[str, str]:
    """How a relation may name each path (with or without ``.md``) -> the path it names."""
    owner: dict[str, str] = {}
    for path in paths:
        owner[path] = path
        owner.setdefault(path.removesuffix(".md"), path)
    return owner


def backlinks(conn: sqlite3.Connection, path: str) -> list[str]:
    """Entries that name ``path`` (with or without ``.md``), sorted, unique."""
    return backlinks_of(conn, [path])[path]


def backlinks_of(conn: sqlite3.Connection, paths: list[str]) -> dict[str, list[str]]:
    """:func:`backlinks` of several paths in one query (search's hits)."""
    owner = forms(paths)
    found: dict[str, set[str]] = {path: set() for path in paths}
    for chunk in chunks(list(owner)):
        for source, target in conn.execute(
            f"SELECT source, target FROM links WHERE target IN ({marks(chunk)})", chunk
        ):
            if source != owner[target]:
                found[owner[target]].add(source)
    return {path: sorted(sources) for path, sources in found.items()}


def naming(conn: sqlite3.Connection, path: str) -> list[str]:
    """Files whose relations name ``path`` in any letter case, sorted, unique.

    What a MERGE relinks: the targets whose key (``format/relations.target_key``, which
    ``services/curate/merge.relink`` compares) is ``path``'s, so unlike :func:`backlinks`
    only the form with ``.md``. The letter case is folded in Python: SQLite's ``lower``
    folds ASCII only. One pass over the links table (tens of milliseconds at 25,000
    entries).
    """
    wanted = target_key(path)
    rows = conn.execute("SELECT source, target FROM links")
    return sorted({source for source, target in rows if target_key(target) == wanted})


def resolves(conn: sqlite3.Connection, target: str) -> bool:
    """True when ``target`` names a file or a folder of the tree."""
    return target in resolve(conn, (target,))


def resolve(conn: sqlite3.Connection, targets: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Relation targets -> (the path they name, ``"entry"`` or ``"folder"``); dangling: absent.

    An entry named without ``.md`` resolves to its file; a file wins over a folder.
    """
    wanted = sorted(set(targets))
    found: dict[str, tuple[str, str]] = {}
    for chunk in chunks(wanted):
        files = chunk + [t + ".md" for t in chunk]
        docs = {row[0] for row in conn.execute(
            f"SELECT path FROM docs WHERE path IN ({marks(files)})", files)}
        dirs = {row[0] for row in conn.execute(
            f"SELECT path FROM dirs WHERE path IN ({marks(chunk)})", chunk)}
        for target in chunk:
            if target in docs:
                found[target] = (target, "entry")
            elif target + ".md" in docs:
                found[target] = (target + ".md", "entry")
            elif target in dirs:
                found[target] = (target, "folder")
    return found


def dangling(conn: sqlite3.Connection, source: str | None = None) -> list[Link]:
    """Relations whose target is neither a file nor a folder (of one source, or all)."""
    where, args = ("WHERE source = ?", (source,)) if source else ("", ())
    rows = conn.execute(
        f"SELECT source, target, coalesce(raw, target) FROM links {where} ORDER BY source, rowid", args
    ).fetchall()
    known = resolve(conn, (row[1] for row in rows))
    return [Link(*row) for row in rows if row[1] not in known]


def degrees(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, int]:
    """Links out of and into each entry (into: named with or without ``.md``)."""
    wanted = sorted(set(paths))
    count = dict.fromkeys(wanted, 0)
    for chunk in chunks(wanted):
        for source, n in conn.execute(
            f"SELECT source, count(*) FROM links WHERE source IN ({marks(chunk)}) GROUP BY source",
            chunk,
        ):
            count[source] += n
        owner = forms(chunk)
        named = list(owner)
        for target, n in conn.execute(
            f"SELECT target, count(*) FROM links WHERE target IN ({marks(named)}) GROUP BY target",
            named,
        ):
            count[owner[target]] += n
    return count


def leaving(conn: sqlite3.Connection, low: str, high: str) -> list[tuple[str, str]]:
    """``(source, target)`` of the links whose source is in ``[low, high)`` (a folder's)."""
    return conn.execute(
        "SELECT source, target FROM links WHERE source >= ? AND source < ?", (low, high)
    ).fetchall()


def entering(conn: sqlite3.Connection, low: str, high: str) -> list[tuple[str, str]]:
    """``(source, target)`` of the links whose target is in ``[low, high)`` (as written)."""
    return conn.execute(
        "SELECT source, target FROM links WHERE target >= ? AND target < ?", (low, high)
    ).fetchall()


def between_domains(conn: sqlite3.Connection) -> list[tuple[str, str, int]]:
    """``(source's domain, target's first part, links)``: the links counted per pair, in SQL."""
    return conn.execute(
        "SELECT substr(source, 1, instr(source, '/') - 1) AS a, "
        "CASE WHEN instr(target, '/') > 0 THEN substr(target, 1, instr(target, '/') - 1) "
        "ELSE target END AS b, count(*) FROM links GROUP BY a, b"
    ).fetchall()


def link_counts(conn: sqlite3.Connection) -> list[tuple[str, str, int]]:
    """Every (source, target as written, how many links) of the ``links`` table, one scan."""
    return [(s, t, n) for s, t, n in conn.execute(
        "SELECT source, target, count(*) FROM links GROUP BY source, target")]


def linked_from_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Each target as written -> how many other entries name it (one scan, counted in SQL)."""
    return dict(conn.execute(
        "SELECT target, COUNT(DISTINCT source) FROM links WHERE source != target "
        "GROUP BY target").fetchall())
