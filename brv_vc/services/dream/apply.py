"""Carrying out dream operations: one code path for the detectors, a provider and an agent.

Every operation snapshots the files it may touch, acts (MERGE through curate, so links are
repointed; ARCHIVE through the archive; the rest are atomic writes), and keeps the file
changes with their backups in the dream's store (for ``--undo``) and, when review is on, in
the review queue: pending when seed 001 requires review, else recorded as approved.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError, ConflictError
from brv_vc.format.entry import serialize_entry
from brv_vc.index.relations import backlinks
from brv_vc.lifecycle import sidecar
from brv_vc.services import curate, derived, review
from brv_vc.services.dream import dreamlog, edits, interrupted, synthesize
from brv_vc.services.dream.prune import maturities
from brv_vc.tree import dreamstate, intents, writelock
from brv_vc.tree.fault import point
from brv_vc.tree.layout import Kind, archive_paths, clean_relpath, kind_of
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.tree.store import read_entry, write_atomic
from brv_vc.vc import git_index_lock

Op = dict[str, Any]
_UNDOABLE = ("MERGE", "TEMPORAL_UPDATE", "CROSS_REFERENCE", "CREATE", "ARCHIVE")
SOURCES = {"consolidate": "dream/consolidate", "synthesize": "dream/synthesize",
           "prune": "dream/prune"}
REVIEW_BELOW = 0.7


@dataclass
class Context:
    """What every operation of one dream shares."""

    project: Project
    now: datetime
    dream_id: str
    index: sqlite3.Connection
    review_on: bool
    curations: int = 0  # curate batches this dream ran (not counted as activity)
    intent: Path | None = None  # the running operation's record (interrupted.py)
    touched: set[str] = field(default_factory=set)
    dirty: list[str] = field(default_factory=list)  # written, derived files not yet refreshed

    def flush(self) -> list[str]:
        """Refreshes derived state (index, summaries) for the files written since the last.

        Why batched: a refresh costs ~0.1 s at 25,000 entries and most operations are small
        link edits. Before a MERGE or ARCHIVE (which read the index's backlinks) and at the
        end of each phase the index is brought up to date.
        """
        paths, self.dirty = self.dirty, []
        return list(derived.refresh(self.project, paths, self.now).problems) if paths else []


def needs_review(ctx: Context, op: Op) -> bool:
    """Seed 001's review rules."""
    action, confidence = op["action"], float(op.get("confidence", 1.0))
    if action in ("MERGE", "ARCHIVE"):
        return True
    if action in ("TEMPORAL_UPDATE", "CREATE"):
        return confidence < REVIEW_BELOW
    if action == "CROSS_REFERENCE":
        return "core" in maturities(ctx.project, op["files"], ctx.now).values()
    return False


_SUMMARIES = {
    "MERGE": lambda op: f"Merged {' and '.join(op['sources'])} into {op['target']}",
    "TEMPORAL_UPDATE": lambda op: (f"Updated {op['file']} with newer context from "
                                   f"{op.get('newer', 'this dream')}" if op.get("note") else
                                   f"Linked {op['file']} to its newer {op.get('newer')}"),
    "CROSS_REFERENCE": lambda op: f"Linked {' and '.join(op['files'])}",
    "CREATE": lambda op: f"Generated cross-domain synthesis: {op['title']}",
    "ARCHIVE": lambda op: f"Archived {op['file']}",
    "KEEP": lambda op: f"Kept {op['file']} (staleness clock reset)",
    "MERGE_INTO": lambda op: f"Suggested merging {op['file']} into {op['target']} next dream",
}


def summary_of(op: Op) -> str:
    """The review line's summary (seed 001: ``Merged api/auth.md and api/oauth.md``)."""
    render = _SUMMARIES.get(op["action"])
    return render(op) if render else f"Skipped {', '.join(op.get('files', []))}"


def apply_op(ctx: Context, op: Op) -> Op:
    """Carries out one operation; returns it with status, message, changes and review id.

    Under the project's write lock (tree/writelock.py): the operation reads and writes the
    entries as the curate batches before it left them, and none runs in between; nor does a
    git command that rewrites the work tree (vc/git_index_lock.py).
    """
    with writelock.hold(ctx.project), git_index_lock.holding(ctx.project):
        try:
            return _apply_op(ctx, op)
        except Exception:
            _undo_now(ctx)  # an I/O error half-way: undone now if it can be
            raise


def _apply_op(ctx: Context, op: Op) -> Op:
    action = op["action"]
    if action == "SKIP":
        return {**op, "status": "skipped", "message": summary_of(op), "changes": []}
    try:
        if action in ("MERGE", "ARCHIVE"):
            ctx.flush()
        paths = _paths(ctx, op)
        before = review.capture(ctx.project, paths)
    except BrvError as error:
        return {**op, "status": "failed", "message": error.message, "changes": []}
    if action in _UNDOABLE:  # a kill from here on is rolled back whole by the next command
        ctx.intent = interrupted.begin(ctx.project, ctx.dream_id, op, before)
    try:
        message = _act(ctx, op)
    except BrvError as error:
        _undo_now(ctx)  # a failure half-way (a second file unreadable): nothing of it stays
        return {**op, "status": "failed", "message": error.message, "changes": []}
    changes = review.changes_since(ctx.project, before, dreamlog.store(ctx.project))
    ctx.touched.update(c.path for c in changes)
    flagged = needs_review(ctx, op) if changes else False
    review_id = None
    if changes and ctx.review_on:
        store, mine = review.review_store(ctx.project), dreamlog.store(ctx.project)
        for change in changes:
            for name in (change.before, change.after):
                data = mine.get(name) if name else None
                if data is not None:
                    store.put(data)
        review_id = review.record(ctx.project, ctx.now, SOURCES[op["operation"]],
                                  summary_of(op), str(op.get("reason", "")), ctx.dream_id,
                                  changes, pending=flagged, kind=op["action"])
        if ctx.intent is not None:
            interrupted.reviewed(ctx.intent, review_id)
    point("dream-acted")  # acted and reviewed, its journal line not written yet
    return {**op, "status": "applied", "message": message, "needsReview": flagged,
            "reviewId": review_id, "changes": [c.to_dict() for c in changes]}


def _undo_now(ctx: Context) -> None:
    if ctx.intent is not None:
        data = intents.read(ctx.intent) or {}
        ctx.dirty.extend(interrupted.undo_interrupted(ctx.project, data, ctx.now))
        logged(ctx)


def logged(ctx: Context) -> None:
    """The operation's journal line is written: its intent record goes.

    The caller holds the write lock from :func:`apply_op` to here.
    """
    if ctx.intent is not None:
        intents.done(ctx.intent)
        ctx.intent = None


def _paths(ctx: Context, op: Op) -> list[str]:
    action = op["action"]
    if action == "MERGE":
        links = [b for s in op["sources"] for b in backlinks(ctx.index, s)]
        return [op["target"], *op["sources"], *links]
    if action == "CROSS_REFERENCE":
        return list(op["files"])
    if action == "CREATE":
        return [_entry_path(op["path"])]
    if action == "ARCHIVE":
        return [op["file"], *archive_paths(op["file"])]
    if action in ("TEMPORAL_UPDATE", "KEEP"):
        return [op["file"]]
    return []


def _entry_path(path: str) -> str:
    rel = clean_relpath(path)
    if kind_of(rel) is not Kind.ENTRY:
        raise ConflictError(f"'{path}' is not an entry path (domain/topic/name.md)", file=path)
    return rel


def _act(ctx: Context, op: Op) -> str:
    project, now, stamp = ctx.project, ctx.now, format_iso(ctx.now)
    action = op["action"]
    if action == "MERGE":
        ops = [{"type": "MERGE", "path": s, "target": op["target"],
                "reason": f"dream {ctx.dream_id}: {op.get('reason', '')}"} for s in op["sources"]]
        result = curate.run_batch(project, ops, now, atomic=True, review=False)
        ctx.curations += 1
        if not result.ok:
            failed = next(r for r in result.applied if r.status == "failed")
            raise ConflictError(f"merge refused: {failed.message}", file=failed.path)
        target = read_entry(project, op["target"])
        write_atomic(project.path_of(op["target"]),
                     serialize_entry(edits.with_lineage(target, op["sources"], stamp)))
        _refresh(ctx, [op["target"]])
        return summary_of(op)
    if action == "TEMPORAL_UPDATE":
        entry = read_entry(project, op["file"])
        updated = entry
        if op.get("newer"):  # the relation is a link (issue 37: never a line of its text)
            updated = edits.with_links(updated, [str(op["newer"])])
        if op.get("note"):  # an agent's or a provider's own words on what changed
            updated = edits.with_note(updated, str(op["note"]), stamp[:10], stamp)
        write_atomic(project.path_of(op["file"]), serialize_entry(updated))
        _refresh(ctx, [op["file"]])
        return summary_of(op)
    if action == "CROSS_REFERENCE":
        files = list(op["files"])
        for rel in files:
            entry = read_entry(project, rel)
            linked = edits.with_links(entry, [f for f in files if f != rel])
            if linked != entry:
                write_atomic(project.path_of(rel), serialize_entry(linked))
        _refresh(ctx, files)
        return summary_of(op)
    if action == "CREATE":
        rel = _entry_path(op["path"])
        where = project.path_of(rel)
        if where.exists():
            raise ConflictError(f"a synthesis already exists at {rel}", file=rel,
                                hint="dream again later, or update the file with brv curate")
        write_atomic(where, synthesize.render(op, stamp))
        _refresh(ctx, [rel])
        return summary_of(op)
    if action == "ARCHIVE":
        derived.archive(project, op["file"], now)
        return summary_of(op)
    if action == "KEEP":
        read_entry(project, op["file"])  # must still be an entry
        os.utime(project.path_of(op["file"]), (now.timestamp(), now.timestamp()))
        state = open_state(project)
        try:  # and its decayed importance: kept, it is no candidate of the next dream
            sidecar.record_kept(state, [op["file"]], now.timestamp())
        finally:
            state.close()
        return summary_of(op)
    if action == "MERGE_INTO":
        read_entry(project, op["file"])
        read_entry(project, op["target"])
        hint = {"file": op["file"], "target": op["target"], "reason": op.get("reason", ""),
                "dreamId": ctx.dream_id, "suggestedAt": stamp}
        dreamstate.update_state(project, lambda s: s["pendingMerges"].append(hint))
        return summary_of(op)
    raise ConflictError(f"unknown dream action {action!r}")


def _refresh(ctx: Context, paths: list[str]) -> None:
    ctx.dirty.extend(paths)
