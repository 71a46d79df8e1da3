"""The dream lock: ``.brv/state/dream.lock`` names the process that is dreaming (gate 4).

A lock whose process is gone, or that is older than 30 minutes (seed 001), is stale and
reclaimed; ``--force`` never skips a live one. Taking it is one ``O_EXCL`` create, so two
dreams starting together cannot both win.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime

from brv_vc.summary.queue import alive
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import ensure_state_dir

LOCK_FILE = "dream.lock"
STALE_SECONDS = 30 * 60


@dataclass(frozen=True)
class Holder:
    """Who holds the lock: a process id, the dream's id and when it started (epoch s)."""

    pid: int
    dream_id: str
    started: float


def holder(project: Project) -> Holder | None:
    """The current holder, or None (no lock, or an unreadable one: treated as stale)."""
    try:
        data = json.loads((project.state / LOCK_FILE).read_text(encoding="utf-8"))
        return Holder(int(data["pid"]), str(data.get("dreamId", "")), float(data["started"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def is_stale(found: Holder | None, now: datetime) -> bool:
    """A lock nobody holds any more: the process is gone, or it is older than 30 minutes."""
    return found is None or not alive(found.pid) or now.timestamp() - found.started > STALE_SECONDS


def acquire(project: Project, dream_id: str, now: datetime) -> Holder | None:
    """Takes the lock for this process, reclaiming a stale one.

    Returns:
        None when taken; else the live holder that keeps it.
    """
    ensure_state_dir(project.state)
    path = project.state / LOCK_FILE
    for _ in range(2):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            found = holder(project)
            if found is not None and not is_stale(found, now):
                return found
            path.unlink(missing_ok=True)  # stale: reclaimed
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"pid": os.getpid(), "dreamId": dream_id, "started": now.timestamp()}, out)
        return None
    return holder(project) or Holder(0, "", now.timestamp())


def release(project: Project) -> None:
    """Drops the lock if this process holds it."""
    found = holder(project)
    if found is not None and found.pid == os.getpid():
        (project.state / LOCK_FILE).unlink(missing_ok=True)
