"""What ranking and the hits need of each candidate: its row, default signals, excerpt words."""

from __future__ import annotations

import sqlite3

from brv_vc.index.terms import stem
from brv_vc.lifecycle import scoring

Row = tuple[str, str, str, float | None, int]  # path, title, kind, updatedAt, mtime_ns


def default_signals(updated: float | None, mtime_ns: int) -> scoring.Signals:
    """Signals of an entry with no sidecar row: importance 50, draft, recency from its date.

    Args:
        updated: the frontmatter ``updatedAt`` in epoch seconds, or None when it has none.
        mtime_ns: the file's mtime, the date used without ``updatedAt`` (as ByteRover does).
    """
    since = updated if updated is not None else mtime_ns / 1e9
    return scoring.Signals(updated_at=since, scored_at=since)


def defaults_for(conn: sqlite3.Connection, paths: list[str]) -> dict[str, scoring.Signals]:
    """``default_signals`` of indexed paths (for recording hits on never-scored entries)."""
    if not paths:
        return {}
    marks = ",".join("?" * len(paths))
    rows = conn.execute(f"SELECT path, updated, mtime_ns FROM docs WHERE path IN ({marks})", paths)
    return {path: default_signals(updated, mtime) for path, updated, mtime in rows}


def needles(terms: list[str], alts: dict[str, tuple[str, ...]]) -> list[str]:
    """The words an excerpt is centred on: each term's stem and its fuzzy alternatives.

    Not a lone letter: the excerpt counts substrings, and "c" is in most words.
    """
    out = []
    for term in terms:
        if len(term) > 1:
            out += [stem(term), *alts.get(term, ())]
    return list(dict.fromkeys(out))


def rows_of(conn: sqlite3.Connection, rowids: list[int]) -> dict[int, Row]:
    """What ranking needs of each document: path, title, kind, updatedAt, mtime."""
    marks = ",".join(str(int(r)) for r in rowids)
    found = conn.execute(
        f"SELECT id, path, title, kind, updated, mtime_ns FROM docs WHERE id IN ({marks})"
    )
    return {r[0]: r[1:] for r in found}
