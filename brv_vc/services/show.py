"""``brv show`` and ``brv relations --dangling``: an entry with its links and signals.

Reading never writes the tree (the index and the sidecar live under ``.brv/state``), and
``show`` records no search hit: looking at an entry is not a retrieval.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from brv_vc.index import relations
from brv_vc.lifecycle import scoring
from brv_vc.services.index import OpenIndex, with_index
from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class SignalsView:
    """Scoring signals decayed to now (nothing is stored by computing them)."""

    importance: float
    recency: float
    maturity: str
    access_count: int
    update_count: int
    stored: bool


@dataclass(frozen=True)
class DanglingRelation:
    """A relation whose target is neither an entry nor a folder of the tree."""

    source: str
    target: str


@dataclass(frozen=True)
class ShowResult:
    """One entry, its relations and its signals."""

    path: str
    title: str
    frontmatter: dict[str, Any]
    body: str
    relations: tuple[str, ...]
    backlinks: tuple[str, ...]
    dangling: tuple[str, ...]
    signals: SignalsView
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class DanglingResult:
    """Every dangling relation of the tree."""

    dangling: tuple[DanglingRelation, ...]
    notes: tuple[str, ...] = ()


def _entry_path(project: Project, path: str) -> str:
    clean = clean_relpath(path, what="entry path")
    if not clean.endswith(".md") and (project.tree / (clean + ".md")).is_file():
        clean += ".md"
    return clean


def show_entry(project: Project, path: str, *, now: datetime) -> ShowResult:
    """Reads one entry with its backlinks, dangling relations and scoring signals.

    Args:
        project: the project.
        path: the entry's tree path (``.md`` optional).
        now: the clock (signals are decayed to it, not stored).

    Returns:
        The entry.

    Raises:
        NotFoundError: no such entry. FormatError: the file does not parse.
        InvalidPathError: the path escapes the tree.
    """
    from brv_vc.format.entry import FIELD_ORDER
    from brv_vc.lifecycle.sidecar import get_many
    from brv_vc.tree.statedb import open_state
    from brv_vc.tree.store import read_entry

    relpath = _entry_path(project, path)
    entry = read_entry(project, relpath)

    def work(opened: OpenIndex) -> tuple[tuple[str, ...], tuple[str, ...], Any]:
        back = tuple(relations.backlinks(opened.conn, relpath))
        bad = tuple(link.raw for link in relations.dangling(opened.conn, relpath))
        row = opened.conn.execute(
            "SELECT updated, mtime_ns FROM docs WHERE path = ?", (relpath,)
        ).fetchone()
        return back, bad, row

    (back, bad, row), notes = with_index(project, work)
    state = open_state(project)
    try:
        stored = get_many(state, [relpath]).get(relpath)
    finally:
        state.close()
    moment = now.timestamp()
    if stored is None:
        since = (row[0] if row[0] is not None else row[1] / 1e9) if row else moment
        stored_signals, has_row = scoring.Signals(updated_at=since, scored_at=since), False
    else:
        stored_signals, has_row = stored, True
    current = scoring.at(stored_signals, moment)
    values = {
        "title": entry.title,
        "summary": entry.summary,
        "tags": list(entry.tags),
        "keywords": list(entry.keywords),
        "related": list(entry.related),
        "createdAt": entry.created_at,
        "updatedAt": entry.updated_at,
    }
    frontmatter = {k: values[k] for k in FIELD_ORDER} | dict(entry.extra)
    return ShowResult(
        path=relpath,
        title=entry.title,
        frontmatter=frontmatter,
        body=entry.body,
        relations=entry.relations(),
        backlinks=back,
        dangling=bad,
        signals=SignalsView(
            importance=round(current.importance, 2),
            recency=round(scoring.recency(current, moment), 4),
            maturity=current.maturity,
            access_count=current.access_count,
            update_count=current.update_count,
            stored=has_row,
        ),
        notes=tuple(notes),
    )


def dangling_relations(project: Project) -> DanglingResult:
    """Lists relations (frontmatter ``related`` and ``@`` lines) that lead nowhere."""
    links, notes = with_index(project, lambda opened: relations.dangling(opened.conn))
    return DanglingResult(
        tuple(DanglingRelation(link.source, link.raw) for link in links), tuple(notes)
    )
