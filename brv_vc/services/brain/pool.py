"""Opening the index and the sidecar for the brain, and reading its pool of items."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from brv_vc.services.brain.items import Pool, gather_under
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state


def load_pool(project: Project, now: datetime, prefix: str = "") -> Pool:
    """The pool of items under ``prefix`` (default: the whole tree), from index and sidecar."""
    (pool,) = load_pools(project, now, (prefix,))
    return pool


def load_pools(project: Project, now: datetime, prefixes: Sequence[str]) -> tuple[Pool, ...]:
    """One pool for each folder of ``prefixes`` (``""``: the whole tree), loaded at once.

    The index is opened (and brought in step) once and the sidecar read once, however many
    folders are asked for (:func:`gather_under`).
    """
    def work(opened: OpenIndex) -> tuple[Pool, ...]:
        state = open_state(project)
        try:
            return gather_under(project, opened.conn, state, now.timestamp(), prefixes)
        finally:
            state.close()

    pools, _notes = with_index(project, work)
    return _marked(project, pools)


def _marked(project: Project, pools: tuple[Pool, ...]) -> tuple[Pool, ...]:
    """Items whose linked code changed since they were written carry ``stale``.

    ``code_links.stale_entries`` keeps its answer per HEAD and tree state; a failure only
    leaves the marks out (the brain is never refused over them).
    """
    try:
        from brv_vc.services.code_links import stale_entries

        stale = stale_entries(project)
    except Exception:
        return pools
    if not stale:
        return pools
    return tuple(replace(pool, items=tuple(replace(i, stale=True) if i.path in stale else i
                                           for i in pool.items)) for pool in pools)
