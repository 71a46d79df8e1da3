"""Curate stage 6, record: what a batch did, in the scoring sidecar, the audit log and derived state.

:func:`record_state` writes the sidecar actions and the audit rows through one connection to
``.brv/state/brv.db``; :func:`record` adds the derived-state refresh. Both fail open: a failure
is reported in ``problems`` and never undoes knowledge already written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime

from brv_vc.clock import format_iso
from brv_vc.lifecycle import sidecar
from brv_vc.lifecycle.curate_log import LogRow, append
from brv_vc.services.curate import journal
from brv_vc.services.curate.plan import Plan
from brv_vc.services.curate.report import OpResult
from brv_vc.services.derived import refresh
from brv_vc.tree import dreamstate, statedb
from brv_vc.tree.project import Project


def record(
    project: Project, results: Sequence[OpResult], applied: Sequence[Plan], now: datetime
) -> list[str]:
    """Records a batch: the sidecar and the audit log, then the derived-state refresh.

    Args:
        project: the project.
        results: every operation's outcome, in order (each becomes an audit row).
        applied: the plans that were written, in order.
        now: the clock.

    Returns:
        The problems met (empty when all went well).
    """
    problems: list[str] = []
    try:
        conn = statedb.open_state(project)
        try:  # one transaction: sidecar, audit rows, and the journal's intent closed
            with sidecar.write_lock(conn):
                record_state(conn, applied, log_rows(results, now), now.timestamp())
                journal.close(conn)
        finally:
            conn.close()
        journal.closed(project)
    except sqlite3.Error as exc:
        problems.append(f"the scoring sidecar or curate log could not be updated: {exc}")
    changed = [rel for plan in applied for rel in plan.changed]
    if applied:
        try:
            dreamstate.note_curation(project)  # the dream's activity gate (seed 001)
        except OSError as exc:
            problems.append(f"the dream counter could not be updated: {exc}")
    if changed:
        problems.extend(refresh(project, changed, now).problems)
    return problems


def log_rows(results: Sequence[OpResult], now: datetime) -> list[LogRow]:
    """One audit row per operation, failed and skipped ones included."""
    stamp = format_iso(now)
    return [LogRow(stamp, r.type, r.path, r.status, r.reason, r.message) for r in results]


def record_state(
    conn: sqlite3.Connection, plans: Sequence[Plan], rows: Sequence[LogRow], now: float
) -> None:
    """Writes the plans' sidecar actions, then the audit rows.

    Raises:
        sqlite3.Error: the state database refused a write.
    """
    _update_sidecar(conn, plans, now)
    append(conn, rows)


def _update_sidecar(conn: sqlite3.Connection, plans: Sequence[Plan], now: float) -> None:
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
        journal.apply_sidecar(conn, kind, items, now)
