"""A dream operation cut short (a kill, a failure half-way) is rolled back whole.

Trigger: every dream operation that may write. Why: an operation changes several files (a
MERGE: target, source and every backlink; CROSS_REFERENCE: each linked entry) and is kept
for ``--undo`` and review only once its line is in the dream's journal; a kill in between
left changes that neither undo nor review knew of, and a CROSS_REFERENCE failing on its
second file kept its first. Outcome: before acting, the files the operation may touch are
backed up in the dream's store and named in an intent record
(``.brv/state/pending/dream-<pid>.json``, tree/intents.py); the record goes once the
operation's journal line is written. The next process that takes the write lock (the writer
is then dead: tree/writelock.py) puts every file back as it was, withdraws the review entry
the operation made, and logs a MERGE's undoing in the curate audit log. The dream's log then
shows the operations before it; the next dream marks it partial.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from brv_vc.services import curate, review
from brv_vc.services.dream import dreamlog
from brv_vc.tree import intents
from brv_vc.tree.project import Project

KIND = "dream"


def begin(project: Project, dream_id: str, op: dict[str, Any],
          before: review.Snapshot) -> Path:
    """Backs up the snapshot's files and writes the operation's intent record."""
    store = dreamlog.store(project)
    files = {rel: [store.put(data) if data is not None else None, mtime]
             for rel, (data, mtime) in before.files.items()}
    sources = list(op.get("sources", [])) if op["action"] == "MERGE" else []
    return intents.begin(project, KIND, {"dream": dream_id, "action": op["action"],
                                         "files": files, "sources": sources,
                                         "target": op.get("target", ""), "review": None,
                                         "signals": _signals(project, op)},
                         durable=False)


def _signals(project: Project, op: dict[str, Any]) -> dict[str, list[Any]]:
    """The sidecar rows an operation deletes, kept so that a rollback puts them back.

    An ARCHIVE deletes the entry's row (its importance and maturity, which nothing can
    rebuild from the files).
    """
    if op["action"] != "ARCHIVE":
        return {}
    from brv_vc.lifecycle import sidecar
    from brv_vc.tree.statedb import open_state

    conn = open_state(project)
    try:
        return {rel: list(row) for rel, row in sidecar.get_many(conn, [op["file"]]).items()}
    finally:
        conn.close()


def _put_signals(project: Project, rows: dict[str, list[Any]]) -> None:
    from brv_vc.lifecycle import sidecar
    from brv_vc.lifecycle.scoring import Signals
    from brv_vc.tree.statedb import open_state

    conn = open_state(project)
    try:
        sidecar.put_many(conn, {rel: Signals(*row) for rel, row in rows.items()})
    finally:
        conn.close()


def reviewed(path: Path, review_id: int | None) -> None:
    """Notes the review entry the operation made (withdrawn if the operation is undone)."""
    if review_id is None:
        return
    data = intents.read(path)
    if data is not None:
        intents.rewrite(path, {**data, "review": review_id})


def undo_interrupted(project: Project, data: dict[str, Any], now: datetime) -> list[str]:
    """Puts the files of an interrupted operation back as they were; returns the paths.

    Raises:
        OSError: a file could not be written (the record stays; the next command retries).
    """
    from brv_vc.tree.store import remove_empty_parents, write_atomic

    store = dreamlog.store(project)
    restored = []
    for rel, (before, mtime) in data.get("files", {}).items():
        target = project.path_of(rel)
        try:
            current: bytes | None = target.read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            current = None
        if before is None:
            if current is not None:
                target.unlink()
                remove_empty_parents(project, target.parent)
                restored.append(rel)
            continue
        old = store.get(before)
        if old is None or old == current:
            continue
        write_atomic(target, old)
        if mtime is not None:
            os.utime(target, ns=(mtime, mtime))
        restored.append(rel)
    signals = data.get("signals") or {}
    if restored and isinstance(signals, dict) and signals:
        _put_signals(project, signals)
    if isinstance(data.get("review"), int):
        review.withdraw(project, now, [data["review"]])
    if data.get("action") == "MERGE" and restored:
        curate.log_undone(project, now, [
            ("MERGE", source, f"undone: the dream operation merging it into "
                              f"{data.get('target', '')} was interrupted; the files are back "
                              "as they were", f"dream {data.get('dream', '')}")
            for source in data.get("sources", [])])
    return restored
