"""``.brv/state/dream-state.json``: the dream counters (seed 001 "Dream State"), per machine.

Every curate increments ``curationsSinceDream``; several agents curate at once, so every
read-modify-write of the file runs under an exclusive ``flock`` on a lock file beside it
(seed 001: "serialized by a per-file mutex") and replaces the file atomically, so a reader
never sees half a document and no increment is lost.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Callable
from typing import Any

from brv_vc.tree.project import Project
from brv_vc.tree.statedb import ensure_state_dir
from brv_vc.tree.store import write_atomic

STATE_FILE = "dream-state.json"
_LOCK_FILE = "dream-state.lock"


def defaults() -> dict[str, Any]:
    """A fresh state: never dreamed, nothing counted."""
    return {"version": 1, "curationsSinceDream": 0, "lastDreamAt": None,
            "lastDreamLogId": None, "totalDreams": 0, "pendingMerges": [],
            # the wall clock (epoch s) when the last dream ended: files modified after it
            # changed since (lastDreamAt follows BRV_NOW, file mtimes never do)
            "lastDreamWall": None,
            # a consolidate pass the budget cut: {"after": the last entry path it finished,
            # "since": the lastDreamWall it started from}; the next dream goes on from there
            "consolidateCursor": None,
            # the last ``brv dream scan``: {"from": the cursor it began at, "wall": the
            # lastDreamWall it read, "to": the cursor its candidates reach}; ``brv dream
            # apply`` of its decisions moves the cursor there
            "scanCursor": None,
            # entries whose proposals waited past a dream's bound (services/dream/proposals):
            # the next dream decides them again
            "waitingFiles": [],
            # the wall clock when the last dream whose synthesize pass ran to the end ended:
            # a pattern needs an entry modified after it (a tidied tree proposes nothing)
            "synthesizedWall": None,
            # the last dream whose prune pass ran to the end: {"wall": when it ended, "now":
            # its clock (BRV_NOW)}; prune weighs again once an entry was modified after it,
            # or a day later by the dream's clock (services/dream/prune.due)
            "prunedAt": None}


def read_state(project: Project) -> dict[str, Any]:
    """The current state; a missing or unreadable file reads as the defaults."""
    state = defaults()
    try:
        loaded = json.loads((project.state / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return state
    if isinstance(loaded, dict):
        state.update({k: v for k, v in loaded.items() if k in state})
    if not isinstance(state["curationsSinceDream"], int) or state["curationsSinceDream"] < 0:
        state["curationsSinceDream"] = 0
    if not isinstance(state["pendingMerges"], list):
        state["pendingMerges"] = []
    cursor = state["consolidateCursor"]
    if not (isinstance(cursor, dict) and isinstance(cursor.get("after"), str)
            and isinstance(cursor.get("since"), (int, float, type(None)))):
        state["consolidateCursor"] = None  # unreadable: a new pass from lastDreamWall
    if not isinstance(state["scanCursor"], dict):
        state["scanCursor"] = None
    if not (isinstance(state["waitingFiles"], list)
            and all(isinstance(f, str) for f in state["waitingFiles"])):
        state["waitingFiles"] = []
    if not isinstance(state["synthesizedWall"], (int, float)):
        state["synthesizedWall"] = None
    pruned = state["prunedAt"]
    if not (isinstance(pruned, dict)
            and all(isinstance(pruned.get(k), (int, float)) for k in ("wall", "now"))):
        state["prunedAt"] = None
    return state


def update_state(project: Project, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Applies ``change`` to the state under the file lock and writes it back atomically.

    Returns:
        The state as written.
    """
    ensure_state_dir(project.state)
    fd = os.open(project.state / _LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        state = read_state(project)
        change(state)
        data = json.dumps(state, indent=2, sort_keys=True) + "\n"
        write_atomic(project.state / STATE_FILE, data.encode("utf-8"), durable=False)
        return state
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def note_curation(project: Project) -> None:
    """Counts one curation toward the activity gate (called by every applied curate batch)."""

    def bump(state: dict[str, Any]) -> None:
        state["curationsSinceDream"] += 1

    update_state(project, bump)
