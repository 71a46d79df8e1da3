"""Opening the index and the sidecar for the brain, and reading its pool of items."""

from __future__ import annotations

from datetime import datetime

from brv_vc.services.brain.items import Pool, gather
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state


def load_pool(project: Project, now: datetime, prefix: str = "") -> Pool:
    """The pool of items under ``prefix`` (default: the whole tree), from index and sidecar."""
    def work(opened: OpenIndex) -> Pool:
        state = open_state(project)
        try:
            return gather(project, opened.conn, state, now.timestamp(), prefix)
        finally:
            state.close()

    pool, _notes = with_index(project, work)
    return pool
