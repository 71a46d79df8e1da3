"""``brv dream --undo``: put back everything the last dream changed, byte for byte.

Only the newest dream can be undone, and only while every file it touched still holds the
bytes it left (otherwise the later work would be lost: refused, naming the file). Merges,
temporal updates and cross-references get their old bytes back, syntheses are deleted,
archived entries come back (their stubs and copies go), a KEEP gets its old mtime, and its
``pendingMerges`` suggestions are dropped. The log says ``undone``, the dream counters go
back, and the dream's pending review entries are rejected.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from brv_vc.clock import format_iso
from brv_vc.errors import ConflictError, NotFoundError
from brv_vc.services import derived, review
from brv_vc.services.dream import dreamlog, lock
from brv_vc.tree import dreamstate, writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git_index_lock


@dataclass(frozen=True)
class UndoResult:
    """The dream undone, the files put back and the review entries rejected."""

    id: str
    restored: tuple[str, ...]
    rejected: tuple[int, ...]
    problems: tuple[str, ...] = ()


def _changes(ops: list[dict[str, Any]]) -> list[review.FileChange]:
    return [review.FileChange.from_dict(c) for op in ops for c in op.get("changes", [])]


def last_undoable(project: Project, names: list[str] | None = None) -> str | None:
    """The dream :func:`undo` can undo: the newest of ``names`` whose log is not undone.

    ``names``: every dream's by default; None: none. Each log's status is read from its
    head alone (a first dream's log at 100,000 entries is 39 MB).
    """
    for name in reversed(dreamlog.ids(project) if names is None else names):
        if dreamlog.status(project, name) != dreamlog.UNDONE:
            return name
    return None


def undo(project: Project, now: datetime, dream_id: str | None = None) -> UndoResult:
    """Reverts the last dream (see the module docstring).

    Raises:
        NotFoundError: no dream yet, or no such dream.
        ConflictError: an older dream, one already undone, one still running, or a file
            changed since (nothing is changed).
        StateError: a backup is missing (nothing is changed).
    """
    names = dreamlog.ids(project)
    if not names:
        raise NotFoundError("no dream to undo (no dream log yet)", hint="run 'brv dream' first")
    wanted = dream_id or names[-1]
    if wanted not in names:
        dreamlog.read(project, wanted)  # no such dream: its NotFoundError
    last = last_undoable(project, names[names.index(wanted) + 1:])
    if last is not None:  # asked before the log is read: a refusal reads no operation
        raise ConflictError(f"only the last dream ({last}) can be undone, not {wanted}",
                            hint=f"undo {last} first, or leave {wanted} as it is")
    log = dreamlog.read(project, wanted)
    status = log.get("status")
    if status == dreamlog.UNDONE:
        raise ConflictError(f"dream {wanted} is already undone", hint="nothing to do")
    holder = lock.holder(project)
    if status == dreamlog.PROCESSING and holder is not None and not lock.is_stale(holder, now):
        raise ConflictError(f"dream {wanted} is still running (pid {holder.pid})",
                            hint=f"wait for it, or stop it: brv dream --cancel {wanted}")
    rejected = {e.id for e in review.pending(project, all_entries=True).entries
                if e.task == wanted and e.status == "rejected"}
    # changes rejected in review are already back: they are not undone twice
    live = [op for op in log.get("operations", []) if op.get("status") == "applied"
            and op.get("reviewId") not in rejected]
    changes = _changes(live)
    store = dreamlog.store(project)
    restored: list[str] = []
    # a writer like the others: one at a time, and no git rewriting the tree in between
    with writelock.hold(project), git_index_lock.holding(project):
        review.check_chain(project, changes, store)
        for op in reversed(live):
            ops_changes = [review.FileChange.from_dict(c) for c in op.get("changes", [])]
            restored.extend(review.revert(project, ops_changes, store))
    problems = list(derived.refresh(project, restored, now).problems)
    dismissed = review.dismiss(project, now, wanted)
    _restore_state(project, log)
    log.update(status=dreamlog.UNDONE, undoneAt=format_iso(now))
    dreamlog.write(project, log)
    return UndoResult(wanted, tuple(dict.fromkeys(restored)), dismissed, tuple(problems))


def _restore_state(project: Project, log: dict[str, Any]) -> None:
    before = log.get("stateBefore", {})

    def change(state: dict[str, Any]) -> None:
        state["totalDreams"] = max(0, state["totalDreams"] - 1)
        state["curationsSinceDream"] += int(before.get("curationsSinceDream") or 0)
        for key in ("lastDreamAt", "lastDreamLogId", "lastDreamWall"):
            state[key] = before.get(key)
        if "consolidateCursor" in before:  # logs before issue 24's cursor did not keep it
            state["consolidateCursor"] = before["consolidateCursor"]
        state["pendingMerges"] = [h for h in state["pendingMerges"]
                                  if h.get("dreamId") != log["id"]]

    dreamstate.update_state(project, change)
