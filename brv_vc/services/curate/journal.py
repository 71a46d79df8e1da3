"""The curate journal: a batch cut short by a kill is finished by the next command, and logged.

Trigger: a batch about to rename its staged files into the tree. Why: a kill between two
renames left a folder DELETE half done and logged "failed ... nothing of it is in the tree",
and a MERGE with its target written, its source still there and no backlink repointed,
logged "success". Outcome:
1. :func:`intent` writes, in one transaction before the first rename, a journal row holding
   each operation's audit row, its sidecar actions, its staged files (kept in the staging
   folder until the batch is recorded) and the paths it deletes;
2. the record stage appends the audit rows and the sidecar updates and deletes the journal
   row in one transaction (:func:`close`);
3. after a kill, :func:`settle_journal` (run by the next process that takes the write lock,
   tree/writelock.py: no live writer can own the row then, whatever its pid) finishes the
   batch: the staged files not yet renamed are renamed, the deletions redone from the
   first operation not known to be complete, then every operation is logged ``success``
   with "finished after the batch was interrupted". A row that cannot be read is moved to
   ``curate_journal_quarantine`` with a note, so it never blocks a command.
So the log says what happened, and what it says is what the tree holds.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError
from brv_vc.lifecycle import curate_journal, sidecar
from brv_vc.lifecycle.curate_log import LogRow, append
from brv_vc.services.curate.apply import Staged, install, remove
from brv_vc.services.curate.plan import Plan
from brv_vc.tree import intents, statedb
from brv_vc.tree.project import Project

FINISHED = " (finished by the next command: the batch was interrupted)"
_current: list[int] = []  # this process's open batch (one at a time: the write lock)


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
) -> Callable[[str, list[Staged | None]], None]:
    """The callback ``apply_plans`` runs after staging and before the first rename.

    Args:
        project: the project.
        ops: the batch's operations.
        planned: one Plan (or error) per operation.
        message: the audit message of a successful plan (the batch's own wording).
    """

    def write(staging: str, staged: list[Staged | None]) -> None:
        files = iter(staged)
        rows = []
        for op, p in zip(ops, planned, strict=True):
            row = {"type": op["type"], "path": op["path"], "reason": op["reason"]}
            items = next(files) if isinstance(p, Plan) else None
            if isinstance(p, Plan) and items is not None:
                row.update(status="success", message=message(op, p), expect=_expect(p),
                           sidecar=p.sidecar, writes=items, deletes=p.deletes,
                           changed=p.changed)
            else:
                row.update(status="failed", message=p.message if isinstance(p, BrvError)
                           else "could not write the tree (staging its files failed)")
            rows.append(row)
        # the marker first: the next command opens brv.db only when one is left
        intents.begin(project, "curate", {})
        key = secrets.randbits(62)
        conn = statedb.open_state(project)
        try:
            curate_journal.write(conn, key, time.time(),
                                 json.dumps({"staging": staging, "ops": rows}))
        finally:
            conn.close()
        _current[:] = [key]

    return write


def close(conn: sqlite3.Connection) -> None:
    """Deletes this process's journal row (inside the record stage's transaction)."""
    for key in _current:
        curate_journal.drop(conn, key)


def closed(project: Project) -> None:
    """Removes this process's marker once :func:`close` is committed."""
    _current.clear()
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
    """Which planned operations reached the tree (a journal without its staged files).

    Renames run in order: an operation on a file that a later applied operation rewrote
    was applied too.
    """
    done: list[bool] = []
    later: set[str] = set()
    for op in reversed(ops):
        if op.get("status", "success") != "success":
            done.append(False)
            continue
        rel = op["expect"][0]
        applied = rel in later or _applied(project, rel, op["expect"][1])
        if applied:
            later.add(rel)
        done.append(applied)
    return done[::-1]


def _finish(project: Project, staging: str, ops: list[dict[str, Any]]) -> list[bool]:
    """Completes the batch from its staged files; True for each operation it finished.

    Renames ran in operation order, so every operation before the last one with a renamed
    file is complete: redoing its deletions could remove what a later one wrote. From
    that one on, each staged file still there is renamed and each deletion redone, in the
    order the batch would have run them.
    """
    folder = project.state / staging
    applied = [op for op in ops if op.get("status") == "success"]
    start = 0
    for i, op in enumerate(applied):
        if any(not (folder / tmp).exists() for tmp, _ in op["writes"]):
            start = i
    finished = [False] * len(applied)
    for i in range(start, len(applied)):
        op = applied[i]
        for tmp, rel in op["writes"]:
            if (folder / tmp).exists():
                install(folder / tmp, project.path_of(rel))
                finished[i] = True
        for rel in op["deletes"]:
            path = project.path_of(rel)
            finished[i] = finished[i] or path.exists()
            remove(project, path)
    return finished


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


def _rows(project: Project, data: Any, when: str) -> tuple[list[LogRow], list[list[Any]]]:
    """The audit rows and sidecar actions of one journal row, its batch finished first.

    Raises:
        ValueError, KeyError, TypeError: the row is not a journal row (quarantined).
    """
    if isinstance(data, list):  # the old journal: no staged files, outcomes from the tree
        ops, done = data, _outcomes(project, data)
        finished = [False] * len(ops)
    else:
        ops = data["ops"]
        if (project.state / data["staging"]).is_dir():
            done = [op["status"] == "success" for op in ops]
            marks = iter(_finish(project, data["staging"], ops))
            finished = [next(marks) if d else False for d in done]
        else:  # staging removed by hand: say what the tree shows
            done, finished = _outcomes(project, ops), [False] * len(ops)
    rows, actions = [], []
    for op, ok, fin in zip(ops, done, finished, strict=True):
        if ok:
            actions.append(op["sidecar"])
            message = op["message"] + (FINISHED if fin else "")
        elif op.get("status", "success") != "success":
            message = op["message"]
        else:
            message = ("interrupted before it was applied (the process was killed); "
                       "the tree does not show it")
        rows.append(LogRow(when, str(op["type"]), str(op["path"]),
                           "success" if ok else "failed", str(op["reason"]), message))
    return rows, actions


def _quarantine(conn: sqlite3.Connection, key: Any, stamp: Any, ops: Any, error: str) -> str:
    curate_journal.quarantine(conn, key, stamp, ops, error)
    return (f"a damaged row of the curate journal (batch {key}) was set aside in "
            f"brv.db table curate_journal_quarantine ({error}); its operations are not in "
            "the audit log: check the tree with 'git status'")


def settle_journal(project: Project) -> tuple[int, list[str], list[str]]:
    """Finishes and logs the batches of dead writers (the caller holds the write lock).

    Returns:
        How many operations were logged, notes (a damaged row set aside), and the tree
        paths the batches wrote or deleted (for the derived refresh).
    """
    try:
        conn = statedb.open_state(project)
    except Exception:  # a damaged brv.db is reported by the commands that need it
        return 0, [], []
    logged, notes, paths = 0, [], []
    try:
        for key, stamp, ops in curate_journal.every(conn):
            if key in _current:
                continue  # this process's own batch (a recovery run inside it)
            try:
                when = format_iso(datetime.fromtimestamp(float(stamp)).astimezone())
                data = json.loads(ops)
                rows, actions = _rows(project, data, when)
                paths += _paths(data)
            except (ValueError, KeyError, TypeError, IndexError, AttributeError,
                    BrvError) as exc:
                with sidecar.write_lock(conn):
                    notes.append(_quarantine(conn, key, stamp, ops,
                                             f"{type(exc).__name__}: {exc}"[:200]))
                continue
            with sidecar.write_lock(conn):
                for sidecar_actions in actions:
                    _replay(conn, sidecar_actions, float(stamp))
                append(conn, rows)
                curate_journal.drop(conn, key)
            logged += len(rows)
    finally:
        conn.close()
    return logged, notes, paths


def _paths(data: Any) -> list[str]:
    ops = data if isinstance(data, list) else data["ops"]
    return [str(rel) for op in ops for rel in op.get("changed", [])]


def log_undone(project: Project, now: datetime,
               rows: Sequence[tuple[str, str, str, str]]) -> None:
    """Logs operations undone after they were logged (type, path, message, reason each).

    An interrupted dream operation is rolled back whole, its MERGE included: the audit log
    then says so after the MERGE's own success row.
    """
    conn = statedb.open_state(project)
    try:
        append(conn, [LogRow(format_iso(now), kind, path, "undone", reason, message)
                      for kind, path, message, reason in rows])
    finally:
        conn.close()
