"""The vectors of a tree's entries for one model, brought up to date as a search needs them.

Keyed by content hash (``index/vectors.py``), so only entries whose text changed since the
last search (or never seen by this model) are embedded, at most ``budget`` per call: a
first search over a large tree embeds a slice and says how many wait, and ``brv index
--embed`` embeds them all with a progress bar.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from brv_vc.index.texts import contents
from brv_vc.index.vectors import entries, hashes, matrix, open_vectors, put, version
from brv_vc.services.semantic.models import embed, text_of
from brv_vc.tree.embed_config import EmbedSettings
from brv_vc.tree.project import Project

# A resident process (brv mcp, brv ui) searches again and again: it keeps the model's matrix
# until vectors.db's version changes, and the rows of the tree's entries while neither the
# version nor the entries change (a warm search with the lane: p50 118 ms at 25,000)
_KEPT: dict[tuple[str, str], tuple[int, list[str], Any]] = {}
_MATRIX: dict[tuple[str, str], tuple[int, tuple[str, ...], Any]] = {}
# ... and the whole answer while neither the tree (index.db's fingerprint of every entry's
# path and content) nor vectors.db changed: a warm search then reads no entry row (reading
# and matching 25,000 rows was most of a warm search with the lane, about 60 ms of CPU)
_LAST: dict[tuple[str, str, str], tuple[tuple[str | None, int], Vectors]] = {}
SEARCH_BUDGET = 256  # entries a search embeds before answering (about 1 s offline)
CHUNK = 512  # entries embedded and stored at once by embed_all


class Vectors(NamedTuple):
    """The entries with a vector (rows of ``matrix``, unit length) and how many still wait."""

    rowids: list[int]
    paths: list[str]
    titles: list[str]
    matrix: Any  # numpy float32 (n, dim)
    pending: int
    embedded: int


def _missing(rows: list[tuple[int, str, str, str]], have: dict[str, int] | set[str]
             ) -> list[tuple[int, str, str]]:
    seen: set[str] = set()
    out = []
    for rowid, _path, digest, title in rows:
        if digest not in have and digest not in seen:
            seen.add(digest)
            out.append((rowid, digest, title))
    return out


def _embed_some(index: Any, conn: Any, settings: EmbedSettings,
                todo: list[tuple[int, str, str]]) -> None:
    texts = contents(index, [rowid for rowid, _, _ in todo])
    vectors = embed(settings, [text_of(title, texts.get(rowid, "")) for rowid, _, title in todo])
    put(conn, settings.key, [(digest, int(vectors.shape[1]), vectors[i].tobytes())
                             for i, (_, digest, _) in enumerate(todo)])


def _model_matrix(project: Project, conn: Any, settings: EmbedSettings
                  ) -> tuple[int, list[str], Any]:
    key = (str(project.state), settings.key)
    kept = _KEPT.get(key)
    if kept is not None and kept[0] == version(conn):
        return kept
    _KEPT[key] = matrix(project.state, conn, settings.key)
    return _KEPT[key]


def vectors_for(project: Project, index: Any, settings: EmbedSettings, *,
                scope: str | None = None, budget: int = SEARCH_BUDGET) -> Vectors:
    """The entries' vectors, embedding at most ``budget`` missing ones first.

    Raises:
        ProviderError: the model failed (what it embedded before is kept).
    """
    import numpy as np

    from brv_vc.index.db import get_meta

    conn = open_vectors(project.state)
    last_key = (str(project.state), settings.key, scope or "")
    tree = get_meta(index, "fingerprint")
    last = _LAST.get(last_key)
    if last is not None and last[0] == (tree, version(conn)):
        conn.close()
        return last[1]
    rows = entries(index, scope)
    try:
        stamp, known, full = _model_matrix(project, conn, settings)
        where = {h: i for i, h in enumerate(known)}
        todo = _missing(rows, where)
        done = todo[:budget]
        if done:
            _embed_some(index, conn, settings, done)
            stamp, known, full = _model_matrix(project, conn, settings)
            where = {h: i for i, h in enumerate(known)}
    finally:
        conn.close()
    kept = [row for row in rows if row[2] in where]
    key = (str(project.state), settings.key)
    ours = tuple(row[2] for row in kept)
    built = _MATRIX.get(key)
    if built is not None and built[0] == stamp and built[1] == ours:
        rows_of = built[2]
    elif not kept:
        rows_of = np.zeros((0, 0), dtype=np.float32)
    elif ours == tuple(known):
        rows_of = full
    else:
        rows_of = full[np.fromiter((where[h] for h in ours), dtype=np.int64, count=len(ours))]
    _MATRIX[key] = (stamp, ours, rows_of)
    found = Vectors([r[0] for r in kept], [r[1] for r in kept], [r[3] for r in kept], rows_of,
                    len(todo) - len(done), len(done))
    if found.pending == 0:  # nothing left to embed: the same answer until either file changes
        _LAST[last_key] = ((tree, stamp), found._replace(embedded=0))
    return found


def embed_all(project: Project, index: Any, settings: EmbedSettings,
              progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """Embeds every entry that has no vector for the model yet; (embedded, entries).

    The matrix file is written at the end, so the next search reads it at once.

    Raises:
        ProviderError: the model failed (what it embedded before is kept).
    """
    rows = entries(index)
    conn = open_vectors(project.state)
    try:
        todo = _missing(rows, hashes(conn, settings.key))
        for start in range(0, len(todo), CHUNK):
            if progress:
                progress(start, len(todo))
            _embed_some(index, conn, settings, todo[start:start + CHUNK])
        if progress:
            progress(len(todo), len(todo))
        _model_matrix(project, conn, settings)
    finally:
        conn.close()
    return len(todo), len(rows)
