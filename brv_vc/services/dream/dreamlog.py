"""Dream logs: ``.brv/state/dream-log/drm-<ms>.json``, one per dream (seed 001 "Dream Logs").

A log is written when the dream starts (status ``processing``) and again after every
operation, atomically, so a dream killed at any moment leaves a log of the work it did; the
next dream marks such a log ``partial`` (or ``error`` when it holds no operation). Each
operation keeps its file changes (backup hashes in the dream's own store) for ``--undo``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from brv_vc.errors import NotFoundError
from brv_vc.services.review import BlobStore
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import ensure_state_dir
from brv_vc.tree.store import write_atomic

LOG_DIR = "dream-log"
PROCESSING, COMPLETED, PARTIAL, ERROR, UNDONE = (
    "processing", "completed", "partial", "error", "undone")


def folder(project: Project) -> Path:
    """``.brv/state/dream-log/``."""
    return project.state / LOG_DIR


def store(project: Project) -> BlobStore:
    """The dream's own backups (kept for the last dream's undo, whatever review decides)."""
    return BlobStore(folder(project) / "backups")


def write(project: Project, log: dict[str, Any]) -> None:
    """Writes a log atomically."""
    ensure_state_dir(project.state)
    data = json.dumps(log, indent=2, ensure_ascii=False) + "\n"
    write_atomic(folder(project) / f"{log['id']}.json", data.encode("utf-8"))


def ids(project: Project) -> list[str]:
    """Every dream id, oldest first (ids are ``drm-<ms>``, so they sort by time)."""
    names = [p.stem for p in folder(project).glob("drm-*.json")]
    return sorted(names, key=lambda n: (len(n), n))


def read(project: Project, dream_id: str) -> dict[str, Any]:
    """One log.

    Raises:
        NotFoundError: no such dream.
    """
    try:
        data = json.loads((folder(project) / f"{dream_id}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise NotFoundError(f"no dream log {dream_id}",
                            hint="list the dreams with 'brv dream --log'") from None
    if not isinstance(data, dict):
        raise NotFoundError(f"dream log {dream_id} is unreadable", file=f"{LOG_DIR}/{dream_id}.json")
    return data


def summary_line(summary: dict[str, Any]) -> str:
    """``3 consolidated | 1 synthesized | 2 pruned`` (seed 001)."""
    return (f"{summary.get('consolidated', 0)} consolidated | "
            f"{summary.get('synthesized', 0)} synthesized | {summary.get('pruned', 0)} pruned")
