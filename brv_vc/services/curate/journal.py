"""The curate audit log, kill-proof: intent before the renames, commit with the sidecar.

Trigger: a batch about to rename its staged files into the tree. Why: the log and the
sidecar were written after the renames, so a kill between them lost the record of applied
operations (5,654 in 18 kills). Outcome:
1. :func:`intent` writes, in one transaction before the first rename, a journal row holding
   each plan's audit row, its sidecar actions and what the tree holds once it is applied
   (the sha1 of its file, or its absence);
2. the record stage appends the audit rows and the sidecar updates and deletes the journal
   row in one transaction (:func:`close`);
3. after a kill, :func:`settle` (run by the next command) compares each planned operation
   with the tree and logs it as applied (with its sidecar actions) or as interrupted.
So the log says what happened, whatever the moment of the kill.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from brv_vc.clock import format_iso
from brv_vc.lifecycle import sidecar
from brv_vc.services.curate.log import LogRow, append
from brv_vc.services.curate.plan import Plan
from brv_vc.tree import intents, statedb
from brv_vc.tree.intents import alive
from brv_vc.tree.project import Project

_SCHEMA = """
CREATE TABLE IF NOT EXISTS curate_journal (
    pid INTEGER PRIMARY KEY,
    time REAL NOT NULL,
    ops TEXT NOT NULL
)
"""


def _sha(data: bytes) -> str:
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def _expect(plan: Plan) -> tuple[str, str | None]:
    """The plan's main file and its sha1 once applied (None: deleted; "": nothing to see)."""
    written = dict(plan.writes)
    if plan.file in written:
        return plan.file, _sha(written[plan.file])
    if plan.file in plan.deletes:
        return plan.file, None
    return plan.file, ""


def intent(
    project: Project, ops: Sequence[Mapping[str, Any]], planned: Sequence[Any],
    message: Callable[[Mapping[str, Any], Plan], str],
) -> Callable[[], None]:
    """The callback ``apply_plans`` runs after staging and before the first rename.

    Args:
        project: the project.
        ops: the batch's operations.
        planned: one Plan (or error) per operation.
        message: the audit message of a successful plan (the batch's own wording).
    """
    rows = [
        {"type": op["type"], "path": op["path"], "reason": op["reason"],
         "message": message(op, p), "expect": _expect(p), "sidecar": p.sidecar}
        for op, p in zip(ops, planned, strict=True) if isinstance(p, Plan)
    ]

    def write() -> None:
        # the marker first: the next command opens brv.db only when one is orphaned
        intents.begin(project, "curate", {})
        conn = statedb.open_state(project)
        try:
            conn.execute(_SCHEMA)
            conn.execute("INSERT OR REPLACE INTO curate_journal VALUES (?, ?, ?)",
                         (os.getpid(), time.time(), json.dumps(rows)))
        finally:
            conn.close()

    return write


def close(conn: sqlite3.Connection) -> None:
    """Deletes this process's journal row (inside the record stage's transaction)."""
    conn.execute(_SCHEMA)
    conn.execute("DELETE FROM curate_journal WHERE pid = ?", (os.getpid(),))


def closed(project: Project) -> None:
    """Removes this process's marker once :func:`close` is committed."""
    intents.done(project.state / intents.PENDING_DIR / f"curate-{os.getpid()}.json")


def _applied(project: Project, rel: str, sha: str | None) -> bool:
    if sha == "":
        return True
    path = project.tree / rel
    if sha is None:  # the operation deletes it
        return not path.exists()
    try:
        return _sha(path.read_bytes()) == sha
    except OSError:
        return False


def _outcomes(project: Project, ops: list[dict[str, Any]]) -> list[bool]:
    """Which planned operations reached the tree.

    Renames run in order: an operation on a file that a later applied operation rewrote
    was applied too.
    """
    done: list[bool] = []
    later: set[str] = set()
    for op in reversed(ops):
        rel = op["expect"][0]
        applied = rel in later or _applied(project, rel, op["expect"][1])
        if applied:
            later.add(rel)
        done.append(applied)
    return done[::-1]


def apply_sidecar(conn: sqlite3.Connection, kind: str, items: Sequence[Sequence[str]],
                  now: float) -> None:
    """Applies one kind of a plan's sidecar actions to each of ``items`` (their arguments).

    ``added``/``updated``/``delete``/``delete_prefix`` take a path each; ``move`` takes
    (source, target) and applies to the first item only, as plans emit one move at a time.
    """
    paths = [args[0] for args in items]
    if kind == "added":
        sidecar.record_added(conn, paths, now)
    elif kind == "updated":
        sidecar.record_updates(conn, paths, now)
    elif kind == "move":
        sidecar.move(conn, items[0][0], items[0][1], now)
    elif kind in ("delete", "delete_prefix"):
        sidecar.delete(conn, paths, prefix=kind == "delete_prefix")


def _replay(conn: sqlite3.Connection, actions: Sequence[Sequence[str]], now: float) -> None:
    for kind, *args in actions:
        apply_sidecar(conn, kind, [args], now)


def settle_journal(project: Project) -> int:
    """Logs the operations of batches whose process died before recording them.

    Returns:
        How many operations were logged.
    """
    try:
        conn = statedb.open_state(project)
    except Exception:  # a damaged brv.db is reported by the commands that need it
        return 0
    logged = 0
    try:
        conn.execute(_SCHEMA)
        for pid, stamp, ops in conn.execute("SELECT pid, time, ops FROM curate_journal"
                                            ).fetchall():
            if alive(pid):
                continue
            when = format_iso(datetime.fromtimestamp(stamp).astimezone())
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows = []
                planned = json.loads(ops)
                for op, done in zip(planned, _outcomes(project, planned), strict=True):
                    if done:
                        _replay(conn, op["sidecar"], stamp)
                    rows.append(LogRow(
                        when, op["type"], op["path"], "success" if done else "failed",
                        op["reason"],
                        op["message"] if done else "interrupted before it was applied "
                        "(the process was killed); nothing of it is in the tree"))
                append(conn, rows)
                conn.execute("DELETE FROM curate_journal WHERE pid = ?", (pid,))
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            logged += len(rows)
    finally:
        conn.close()
    return logged
