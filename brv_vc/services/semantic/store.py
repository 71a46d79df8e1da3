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
from brv_vc.index.vectors import entries, open_vectors, put, stored, version
from brv_vc.services.semantic.models import embed, text_of
from brv_vc.tree.embed_config import EmbedSettings
from brv_vc.tree.project import Project

# A resident process (brv mcp, brv ui) searches again and again: it keeps the vectors read and
# the matrix built until vectors.db's version changes (reading 25,000 blobs a search was
# most of a warm search with the lane: p50 3.2 s at load 25, bench/bench_semantic.py)
_KEPT: dict[tuple[str, str], tuple[tuple[int, ...], dict[str, bytes]]] = {}
_MATRIX: dict[tuple[str, str], tuple[tuple[int, ...], tuple[str, ...], Any]] = {}
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


def _missing(rows: list[tuple[int, str, str, str]], have: dict[str, bytes]
             ) -> list[tuple[int, str, str]]:
    seen: set[str] = set()
    out = []
    for rowid, _path, digest, title in rows:
        if digest not in have and digest not in seen:
            seen.add(digest)
            out.append((rowid, digest, title))
    return out


def _embed_some(index: Any, conn: Any, settings: EmbedSettings,
                todo: list[tuple[int, str, str]], have: dict[str, bytes]) -> None:
    texts = contents(index, [rowid for rowid, _, _ in todo])
    vectors = embed(settings, [text_of(title, texts.get(rowid, "")) for rowid, _, title in todo])
    rows = [(digest, int(vectors.shape[1]), vectors[i].tobytes())
            for i, (_, digest, _) in enumerate(todo)]
    put(conn, settings.key, rows)
    have.update((digest, blob) for digest, _, blob in rows)


def vectors_for(project: Project, index: Any, settings: EmbedSettings, *,
                scope: str | None = None, budget: int = SEARCH_BUDGET) -> Vectors:
    """The entries' vectors, embedding at most ``budget`` missing ones first.

    Raises:
        ProviderError: the model failed (what it embedded before is kept).
    """
    import numpy as np

    rows = entries(index, scope)
    key = (str(project.state), settings.key)
    conn = open_vectors(project.state)
    try:
        stamp: tuple[int, ...] = (version(conn),)  # every write raises it
        kept_before = _KEPT.get(key)
        if kept_before is not None and kept_before[0] == stamp:
            have = kept_before[1]
        else:
            have = stored(conn, settings.key)
        todo = _missing(rows, have)
        done = todo[:budget]
        if done:
            _embed_some(index, conn, settings, done, have)
            stamp = (-1,)  # our own write: read again next time rather than guess
    finally:
        conn.close()
    _KEPT[key] = (stamp, have)
    kept = [row for row in rows if row[2] in have]
    hashes = tuple(row[2] for row in kept)
    built = _MATRIX.get(key)
    if built is not None and built[0] == stamp and built[1] == hashes:
        matrix = built[2]
    elif not kept:
        matrix = np.zeros((0, 0), dtype=np.float32)
    else:
        dims = {len(have[row[2]]) for row in kept}
        if len(dims) > 1:  # an endpoint changed its model's size under one name
            size = max(dims, key=lambda d: sum(len(have[r[2]]) == d for r in kept))
            kept = [row for row in kept if len(have[row[2]]) == size]
            hashes = tuple(row[2] for row in kept)
        matrix = np.frombuffer(b"".join(have[h] for h in hashes),
                               dtype=np.float32).reshape(len(kept), -1)
        _MATRIX[key] = (stamp, hashes, matrix)
    return Vectors([r[0] for r in kept], [r[1] for r in kept], [r[3] for r in kept], matrix,
                   len(todo) - len(done), len(done))


def embed_all(project: Project, index: Any, settings: EmbedSettings,
              progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
    """Embeds every entry that has no vector for the model yet; (embedded, entries).

    Raises:
        ProviderError: the model failed (what it embedded before is kept).
    """
    rows = entries(index)
    conn = open_vectors(project.state)
    try:
        have = stored(conn, settings.key)
        todo = _missing(rows, have)
        for start in range(0, len(todo), CHUNK):
            if progress:
                progress(start, len(todo))
            _embed_some(index, conn, settings, todo[start:start + CHUNK], have)
        if progress:
            progress(len(todo), len(todo))
    finally:
        conn.close()
    return len(todo), len(rows)
