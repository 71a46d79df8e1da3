"""What a person sees of entries at a glance: title, importance and maturity, decayed to now.

The same signals ``brv show`` and ``brv search`` compute (stored sidecar row, else the
defaults of a never-scored entry from its date), for a page of entries at once, and the
maturity mix of folders in one read of the sidecar. Reading changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from brv_vc.index.entries import glance_rows
from brv_vc.index.listings import every_path
from brv_vc.index.search import default_signals
from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.sidecar import get_many
from brv_vc.services.derived import with_index
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state


@dataclass(frozen=True)
class Glance:
    """One entry as a line of a list."""

    path: str
    title: str
    importance: float  # 0-100, one decimal, as brv show prints it
    maturity: str


@dataclass(frozen=True)
class Mix:
    """How many entries of a folder are core and validated (the rest are drafts)."""

    core: int = 0
    validated: int = 0


def glance(project: Project, paths: Sequence[str], now: datetime) -> tuple[Glance, ...]:
    """Title and current signals of ``paths`` (entries the index does not know are left out).

    Args:
        project: the project.
        paths: tree paths of entries, in the order wanted.
        now: the clock signals decay to.
    """
    wanted = list(dict.fromkeys(paths))

    rows, _ = with_index(project, lambda opened: glance_rows(opened.conn, wanted))
    state = open_state(project)
    try:
        stored = get_many(state, [p for p in wanted if p in rows])
    finally:
        state.close()
    moment = now.timestamp()
    out = []
    for path in wanted:
        if path not in rows:
            continue
        title, updated, mtime = rows[path]
        current = scoring.at(stored.get(path) or default_signals(updated, mtime), moment)
        out.append(Glance(path, title, round(current.importance, 1), current.maturity))
    return tuple(out)


def indexed_paths(project: Project) -> list[str]:
    """Every path the search index holds (entries, stubs, summaries), from the index."""
    rows, _ = with_index(project, lambda opened: every_path(opened.conn))
    return rows


def maturity_mix(project: Project, folders: Sequence[str], now: datetime) -> dict[str, Mix]:
    """Core and validated counts under each of ``folders`` ('' = the whole tree).

    Only scored entries can be above draft (a never-scored one is a draft at 50), so one
    read of the sidecar answers for every folder.
    """
    moment = now.timestamp()
    counts = {folder: [0, 0] for folder in folders}
    state = open_state(project)
    try:
        from brv_vc.lifecycle.sidecar import above_draft, ensure_schema

        ensure_schema(state)
        rows = above_draft(state, scoring.PROMOTE_VALIDATED)
    finally:
        state.close()
    for path, importance, maturity, scored_at in rows:
        signals = scoring.at(scoring.Signals(importance, maturity, scored_at=scored_at), moment)
        if signals.maturity == scoring.DRAFT:
            continue
        slot = 0 if signals.maturity == scoring.CORE else 1
        for folder in _ancestors(path):
            if folder in counts:
                counts[folder][slot] += 1
    return {folder: Mix(*pair) for folder, pair in counts.items()}


def _ancestors(path: str) -> list[str]:
    parts = path.split("/")[:-1]
    return ["", *("/".join(parts[:i]) for i in range(1, len(parts) + 1))]
