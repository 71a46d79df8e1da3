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
from brv_vc.index.vector_rows import described, keep_rows, kept_rows
from brv_vc.index.vectors import entries, hashes, mapped, matrix, open_vectors, put, version
from brv_vc.services.semantic.models import embed, text_of
from brv_vc.tree.embed_config import EmbedSettings
from brv_vc.tree.project import Project

# A resident process (brv mcp, brv ui) searches again and again: it keeps the model's matrix
# until vectors.db's version changes ...
_KEPT: dict[tuple[str, str], tuple[int, list[str], Any]] = {}
# ... and the whole answer while neither the tree (index.db's fingerprint of every entry's
# path and content) nor vectors.db changed: a warm search then reads no entry row (reading
# and matching 25,000 rows was most of a warm search with the lane, about 60 ms of CPU). A
# new process finds the same answer in the file index/vector_rows.py keeps.
_LAST: dict[tuple[str, str, str], tuple[tuple[str | None, int], Vectors]] = {}
SEARCH_BUDGET = 256  # entries a search embeds before answering (about 1 s offline)
CHUNK = 512  # entries embedded and stored at once by embed_all


class Vectors(NamedTuple):
    """The entries with a vector, and how many entries still wait for one.

    Entry ``i`` (docs id ``ids[i]``) is row ``rows[i]`` of ``matrix``: the model's unit rows,
    whose content hashes are ``hashes``.
    """

    ids: Any  # numpy int64 (n,)
    rows: Any  # numpy int64 (n,)
    matrix: Any  # numpy float32 (m, dim): every vector of the model, mapped from its file
    hashes: Any  # (m,) content hash of each row of matrix
    pending: int
    embedded: int


class Near(NamedTuple):
    """An entry the semantic lane found: its docs id, path, title and cosine to the query."""

    id: int
    path: str
    title: str
    cosine: float


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


def _kept(project: Project, settings: EmbedSettings, tree: str, at: int) -> Vectors | None:
    """The answer a process before this one worked out for this tree and version."""
    placed = kept_rows(project.state, settings.key, tree, at)
    model = mapped(project.state, settings.key, at) if placed is not None else None
    if placed is None or model is None:
        return None
    return Vectors(placed[0], placed[1], model[0], model[1], 0, 0)


def vectors_for(project: Project, index: Any, settings: EmbedSettings, *,
                scope: str | None = None, budget: int = SEARCH_BUDGET,
                fresh: bool = False) -> Vectors:
    """The entries' vectors, embedding at most ``budget`` missing ones first.

    ``fresh``: worked out from the entries of ``index.db``, not from what was kept.

    Raises:
        ProviderError: the model failed (what it embedded before is kept).
    """
    import numpy as np

    from brv_vc.index.db import get_meta

    conn = open_vectors(project.state)
    last_key = (str(project.state), settings.key, scope or "")
    tree = get_meta(index, "fingerprint")
    try:
        at = version(conn)
        last = _LAST.get(last_key)
        if not fresh and last is not None and last[0] == (tree, at):
            return last[1]
        kept = _kept(project, settings, tree, at) if not fresh and tree and not scope else None
        if kept is not None:
            _LAST[last_key] = ((tree, at), kept)
            return kept
        rows = entries(index, scope)
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
    kept_ids = [row for row in rows if row[2] in where]
    ids = np.fromiter((r[0] for r in kept_ids), dtype=np.int64, count=len(kept_ids))
    places = np.fromiter((where[r[2]] for r in kept_ids), dtype=np.int64, count=len(kept_ids))
    found = Vectors(ids, places, full, known, len(todo) - len(done), len(done))
    if found.pending == 0:  # nothing left to embed: the same answer until either file changes
        _LAST[last_key] = ((tree, stamp), found._replace(embedded=0))
        if tree and not scope:
            keep_rows(project.state, settings.key, tree, stamp, ids, places)
    return found


def nearest(project: Project, index: Any, settings: EmbedSettings, query: str, depth: int, *,
            scope: str | None = None) -> tuple[list[Near], int]:
    """The ``depth`` entries nearest ``query`` by cosine, best first, and how many wait.

    At most ``SEARCH_BUDGET`` entries without a vector are embedded first; the count is of
    those still waiting after.

    Raises:
        ProviderError: the model failed.
    """
    import numpy as np

    vectors = vectors_for(project, index, settings, scope=scope)
    if not len(vectors.ids):
        return [], vectors.pending
    query_vector = embed(settings, [query])[0]
    for fresh in (False, True):
        if fresh:  # an entry kept is not the one of its id any more (a rebuilt index.db)
            vectors = vectors_for(project, index, settings, scope=scope, fresh=True)
        if vectors.matrix.shape[1] != query_vector.shape[0] or not len(vectors.ids):
            return [], vectors.pending
        cosine = (vectors.matrix @ query_vector)[vectors.rows]
        count = min(depth, len(cosine))
        best = np.argpartition(-cosine, count - 1)[:count]
        best = best[np.argsort(-cosine[best], kind="stable")]
        rows = described(index, [int(vectors.ids[i]) for i in best])
        near = []
        for i in best:
            row = rows.get(int(vectors.ids[i]))
            if row is None or row[2] != str(vectors.hashes[vectors.rows[i]]):
                break
            near.append(Near(int(vectors.ids[i]), row[0], row[1], float(cosine[i])))
        else:
            return near, vectors.pending
    return near, vectors.pending


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
