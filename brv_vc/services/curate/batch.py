"""``brv curate``: run a batch of curate operations (seed 002 §4.1) and report each one.

Batch semantics (docs/curate.md):
1. The whole batch is validated against ``schemas/curate-ops.schema.json`` first; an invalid
   batch raises :class:`FormatError` and nothing is applied.
2. Operations are then planned in order, each on the tree its predecessors leave, and the
   plans are written in one pass (``curate_apply``). A failed operation changes nothing and is
   reported with status ``failed`` and a message; the others still apply.
3. With ``atomic=True`` every operation is planned first and none is applied if any would fail
   (the others are reported as ``skipped``).
Afterwards the scoring sidecar and the audit log are updated, and derived state is refreshed.
A failure there is reported in ``problems`` and never undoes knowledge already written.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError, FormatError
from brv_vc.format.entry import decode
from brv_vc.format.validate import errors_of
from brv_vc.lifecycle import sidecar
from brv_vc.services.curate import journal
from brv_vc.services.curate import log as curate_log
from brv_vc.services.curate.apply import apply_plans
from brv_vc.services.curate.plan import Plan, plan_op
from brv_vc.services.curate.textcheck import refuse_bad_text
from brv_vc.services.curate.view import View
from brv_vc.services.derived import refresh
from brv_vc.tree import statedb
from brv_vc.tree.project import Project

SCHEMA = "curate-ops"
_VERBS = {"added": "add", "updated": "update", "merged": "merge", "deleted": "delete"}
_COUNTED = {"added": "added", "updated": "updated", "merged": "merged", "deleted": "deleted"}


@dataclass(frozen=True)
class OpResult:
    """The outcome of one operation (seed 002 §4.1.2), plus the file it touched and a hint."""

    type: str
    path: str
    status: str  # success | failed | skipped
    message: str
    reason: str
    file: str = ""
    action: str = ""  # added | updated | merged | deleted | unchanged
    hint: str = ""
    code: str = ""  # a failed operation's error code (errors.py), as in {"error": {"code"}}


@dataclass(frozen=True)
class Summary:
    """How many operations did what."""

    added: int = 0
    updated: int = 0
    merged: int = 0
    deleted: int = 0
    failed: int = 0

    def text(self) -> str:
        """One line: ``2 added, 1 updated, 0 merged, 0 deleted, 0 failed``."""
        return (
            f"{self.added} added, {self.updated} updated, {self.merged} merged, "
            f"{self.deleted} deleted, {self.failed} failed"
        )


@dataclass(frozen=True)
class CurateResult:
    """A batch's report: ``ok`` is False when any operation failed."""

    ok: bool
    applied: tuple[OpResult, ...]
    summary: Summary
    atomic: bool = False
    problems: tuple[str, ...] = ()
    dry_run: bool = False


def load_ops(data: bytes | str, *, file: str = "<ops>") -> list[dict[str, Any]]:
    """Parses and validates a batch: a JSON array, or ``{"operations": [...]}``.

    Raises:
        FormatError: not UTF-8, not JSON, or not valid against the schema (nothing applies).
    """
    if isinstance(data, bytes) and b"\x00" in data:
        raise FormatError(
            "the operations file is binary, not JSON text",
            file=file,
            hint='give a UTF-8 JSON array such as [{"type": "ADD", ...}]',
        )
    text = decode(data, file=file, limit=None) if isinstance(data, bytes) else data
    try:
        parsed = json.loads(text)
    except RecursionError:
        raise FormatError(
            "the operations nest too deeply to be read (JSON arrays or objects inside each "
            "other thousands of levels deep)",
            file=file,
            hint='give a flat JSON array of operations such as [{"type": "ADD", ...}]',
        ) from None
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"the operations are not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
            file=file,
            hint='give a JSON array such as [{"type": "ADD", "path": "auth/jwt", "title": "...", '
            '"content": "...", "reason": "..."}]',
        ) from None
    if isinstance(parsed, dict) and set(parsed) == {"operations"}:
        parsed = parsed["operations"]
    if not isinstance(parsed, list):
        raise FormatError(
            f"the operations must be a JSON array, got {type(parsed).__name__}",
            file=file,
            hint='wrap them as [...] or {"operations": [...]}',
        )
    validate_ops(parsed, file=file)
    return parsed


def validate_ops(ops: Sequence[Any], *, file: str = "<ops>") -> None:
    """Validates operations against the schema, naming ``operations[i].key`` on failure.

    Raises:
        FormatError: the first problem, with the count of the others.
    """
    problems = errors_of(list(ops), SCHEMA)
    if not problems:
        refuse_bad_text(ops, file=file)
        return
    key, message = problems[0]
    key = "operations" + (key if key.startswith("[") else "")
    more = f" ({len(problems) - 1} more problem(s) after this one)" if len(problems) > 1 else ""
    hint = "fix it as docs/curate.md and schemas/curate-ops.schema.json describe"
    if message.startswith("needs one of 'content'"):  # the ADD rule: title and content
        wanted = message.removeprefix("needs ")
        message = f"ADD needs content: give {wanted} (a new entry requires a title and content)"
        hint = 'add "content": "markdown ..." to the operation (or rawConcept, narrative, facts)'
    raise FormatError(
        f"invalid operation at {key}: {message}{more}; nothing was applied",
        file=file,
        key=key,
        hint=hint,
    )


def run_batch(
    project: Project,
    ops: Sequence[Mapping[str, Any]],
    now: datetime,
    *,
    atomic: bool = False,
    dry_run: bool = False,
) -> CurateResult:
    """Applies schema-valid operations to the tree (see the module docstring).

    Every operation is planned first, in order, each on the tree its predecessors leave (a
    failed one leaves nothing); then the plans are written in one pass.

    Args:
        project: the project.
        ops: operations already validated by :func:`load_ops` / :func:`validate_ops`.
        now: the clock (createdAt / updatedAt and the sidecar).
        atomic: apply nothing when any operation would fail.
        dry_run: plan and report, but write nothing (not even the sidecar or the log).

    Returns:
        The per-operation results and the summary counts.
    """
    now_iso = format_iso(now)
    view = View(project)
    planned: list[Plan | BrvError] = []
    for op in ops:
        try:
            plan = plan_op(op, view, now_iso)
        except BrvError as error:
            planned.append(error)
            continue
        view.add(plan)
        planned.append(plan)
    failures = [i for i, p in enumerate(planned) if isinstance(p, BrvError)]
    if atomic and failures:
        results = [
            _failed(op, p)
            if isinstance(p, BrvError)
            else OpResult(
                op["type"],
                op["path"],
                "skipped",
                f"not applied: the batch is atomic and operation {failures[0]} failed",
                op["reason"],
            )
            for op, p in zip(ops, planned, strict=True)
        ]
        applied: list[Plan] = []
    elif dry_run:
        results = [
            _failed(op, p) if isinstance(p, BrvError) else _success(op, p, dry_run=True)
            for op, p in zip(ops, planned, strict=True)
        ]
        applied = []
    else:
        # a damaged brv.db (StateError) stops the batch here, before it writes a file
        statedb.open_state(project).close()
        plans = [p for p in planned if isinstance(p, Plan)]
        outcomes = iter(apply_plans(project, plans, view.path, journal.intent(
            project, ops, planned, now, lambda op, p: _success(op, p).message)))
        results, applied = [], []
        for op, p in zip(ops, planned, strict=True):
            outcome = p if isinstance(p, BrvError) else next(outcomes)
            if outcome is None and isinstance(p, Plan):
                applied.append(p)
                results.append(_success(op, p))
            else:
                assert outcome is not None
                results.append(_failed(op, outcome))
    problems = [] if dry_run else _record(project, results, applied, now)
    counts = dict.fromkeys(("added", "updated", "merged", "deleted", "failed"), 0)
    for result in results:
        if result.status == "failed":
            counts["failed"] += 1
        elif result.status == "success" and result.action in _COUNTED:
            counts[_COUNTED[result.action]] += 1
    summary = Summary(**counts)
    return CurateResult(
        summary.failed == 0, tuple(results), summary, atomic, tuple(problems), dry_run
    )


def _success(op: Mapping[str, Any], plan: Plan, *, dry_run: bool = False) -> OpResult:
    message = plan.message or f"{plan.action} {plan.file}"
    verb = _VERBS.get(plan.action)
    if dry_run and verb and message.startswith(plan.action):
        message = f"would {verb}{message[len(plan.action) :]}"
    return OpResult(
        op["type"], op["path"], "success", message, op["reason"], plan.file, plan.action
    )


def _failed(op: Mapping[str, Any], error: BrvError) -> OpResult:
    return OpResult(
        op["type"],
        op["path"],
        "failed",
        error.message,
        op["reason"],
        error.file or "",
        "",
        error.hint or "",
        error.code,
    )


def _record(
    project: Project,
    results: list[OpResult],
    applied: list[Plan],
    now: datetime,
) -> list[str]:
    """Updates the sidecar and the audit log, then refreshes derived state (fails open)."""
    problems: list[str] = []
    stamp = format_iso(now)
    try:
        conn = statedb.open_state(project)
        try:  # one transaction: sidecar, audit rows, and the journal's intent closed
            with sidecar.write_lock(conn):
                _update_sidecar(conn, applied, now.timestamp())
                curate_log.append(
                    conn,
                    [
                        curate_log.LogRow(stamp, r.type, r.path, r.status, r.reason, r.message)
                        for r in results
                    ],
                )
                journal.close(conn)
        finally:
            conn.close()
        journal.closed(project)
    except sqlite3.Error as exc:
        problems.append(f"the scoring sidecar or curate log could not be updated: {exc}")
    changed = [rel for plan in applied for rel in plan.changed]
    if changed:
        problems.extend(refresh(project, changed, now).problems)
    return problems


def _update_sidecar(conn: sqlite3.Connection, plans: list[Plan], now: float) -> None:
    """Records sidecar actions in order, coalescing runs of the same action.

    One transaction per run, so a batch of 1,000 ADDs costs one insert statement, not 1,000
    commits.
    """
    runs: list[tuple[str, list[tuple[str, ...]]]] = []
    for plan in plans:
        for action in plan.sidecar:
            kind, args = action[0], action[1:]
            # a path twice in one run would get one +5, not two: start a new run instead
            if runs and runs[-1][0] == kind and kind != "move" and args not in runs[-1][1]:
                runs[-1][1].append(args)
            else:
                runs.append((kind, [args]))
    for kind, items in runs:
        paths = [args[0] for args in items]
        if kind == "added":
            sidecar.record_added(conn, paths, now)
        elif kind == "updated":
            sidecar.record_updates(conn, paths, now)
        elif kind == "move":
            sidecar.move(conn, items[0][0], items[0][1], now)
        elif kind == "delete":
            sidecar.delete(conn, paths)
        elif kind == "delete_prefix":
            sidecar.delete(conn, paths, prefix=True)
