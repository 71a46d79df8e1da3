"""Finishing or undoing an archive or restore that was cut short (a kill, a full disk).

Archive writes the full copy, then the stub, then deletes the entry; restore writes the
entry, then deletes the stub and the full copy. Each leaves an intent record first
(tree/intents.py). Whatever moment a kill hits, these functions bring the tree to one of the
two whole states: never both the entry and its archive, never neither.
"""

from __future__ import annotations

from datetime import datetime

from brv_vc.errors import BrvError
from brv_vc.lifecycle import scoring, sidecar
from brv_vc.summary.abstracts import siblings
from brv_vc.summary.archive_files import finish_restore, write_archive
from brv_vc.tree.layout import archive_paths
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.tree.store import read_bytes, remove_empty_parents


def _read(project: Project, rel: str) -> bytes | None:
    try:
        return read_bytes(project, rel, limit=None)
    except (OSError, BrvError):
        return None


def settle_archive(project: Project, rel: str, now: datetime, *, may_finish: bool = True) -> str:
    """Finishes an archive whose full copy is complete, else undoes it.

    Args:
        project: the project.
        rel: the entry's tree path.
        now: the clock (a stub written now is dated now).
        may_finish: False to only undo (the archiving process itself failed).

    Returns:
        "finished", "undone" or "" (nothing was left to do).
    """
    stub_rel, full_rel = archive_paths(rel)
    entry, full = _read(project, rel), _read(project, full_rel)
    if may_finish and full is not None and (entry is None or entry == full):
        if _read(project, stub_rel) is None:
            write_archive(project, rel, full, importance=scoring.DEFAULT_IMPORTANCE, now=now)
        for path in (rel, *siblings(rel)):
            (project.tree / path).unlink(missing_ok=True)
        remove_empty_parents(project, (project.tree / rel).parent)
        conn = open_state(project)
        try:
            sidecar.delete(conn, [rel])
        finally:
            conn.close()
        return "finished" if entry is not None else ""
    if entry is None:
        return ""
    removed = ""
    for path, data in ((stub_rel, _read(project, stub_rel)), (full_rel, full)):
        # a full copy of other bytes is an older archive of this path: not ours to remove
        if data is not None and (path == stub_rel or data == entry):
            (project.tree / path).unlink(missing_ok=True)
            removed = "undone"
    remove_empty_parents(project, (project.tree / full_rel).parent)
    return removed


def settle_restore(project: Project, rel: str, now: datetime) -> str:
    """Finishes a restore whose entry is back, else leaves the archive whole.

    Returns:
        "finished", "undone" or "" (nothing was left to do).
    """
    stub_rel, full_rel = archive_paths(rel)
    entry, full = _read(project, rel), _read(project, full_rel)
    if entry is not None and (full is None or full == entry):
        if full is None and _read(project, stub_rel) is None:
            return ""
        finish_restore(project, rel, now)
        return "finished"
    if entry is None and full is not None and _read(project, stub_rel) is None:
        write_archive(project, rel, full, importance=scoring.DEFAULT_IMPORTANCE, now=now)
        return "undone"
    return ""
