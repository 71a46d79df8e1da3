"""``brv curate``: run a batch of curate operations (seed 002 §4.1) and report each one.

Each operation flows once through the stages, driven from here; no stage imports another,
and each uses only the modules below it (``plan``, ``view``, ``content``, ``merge`` ...):

1. ``parse``: the batch is validated against ``schemas/curate-ops.schema.json`` first (by the
   caller, :func:`load_ops`); an invalid batch raises :class:`FormatError` and nothing applies.
2. ``resolve``: the operation's paths and the entries it touches, on the :class:`View` (the
   tree as the operations before it leave it).
3. ``build``: the bytes it writes, the paths it deletes, its sidecar actions.
4. ``check``: obstacles in the tree, the size cap, merge-conflict markers.
   A failed operation changes nothing and is reported ``failed``; the others still apply.
   With ``atomic=True`` none applies if any fails (the others are reported ``skipped``).
5. ``apply``: all plans written in one crash-safe pass.
6. ``record``: the scoring sidecar and the audit log, then derived state is refreshed. A
   failure there is reported in ``problems`` and never undoes knowledge already written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError
from brv_vc.services.curate import journal, reviewing
from brv_vc.services.curate.apply import apply_plans
from brv_vc.services.curate.build import build
from brv_vc.services.curate.check import check
from brv_vc.services.curate.plan import Plan
from brv_vc.services.curate.record import record
from brv_vc.services.curate.report import CurateResult, OpResult, Summary
from brv_vc.services.curate.resolve import resolve
from brv_vc.services.curate.view import View
from brv_vc.tree import statedb, writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git_index_lock

_VERBS = {"added": "add", "updated": "update", "merged": "merge", "deleted": "delete"}
_COUNTED = {"added": "added", "updated": "updated", "merged": "merged", "deleted": "deleted"}


def run_batch(
    project: Project,
    ops: Sequence[Mapping[str, Any]],
    now: datetime,
    *,
    atomic: bool = False,
    dry_run: bool = False,
    review: bool = True,
) -> CurateResult:
    """Applies schema-valid operations to the tree (see the module docstring).

    Every operation is planned first, in order, each on the tree its predecessors leave (a
    failed one leaves nothing); then the plans are written in one pass. The whole batch runs
    under the project's write lock (tree/writelock.py), so batches of other processes run
    before or after it, never interleaved.

    Args:
        project: the project.
        ops: operations already validated by :func:`load_ops` / :func:`validate_ops`.
        now: the clock (createdAt / updatedAt and the sidecar).
        atomic: apply nothing when any operation would fail.
        dry_run: plan and report, but write nothing (not even the sidecar or the log).
        review: queue DELETE / MERGE / ``"review": true`` for review when it is enabled
            (dreams record their own entries and pass False).

    Returns:
        The per-operation results and the summary counts.
    """
    if dry_run:
        return _run(project, ops, now, atomic, dry_run, review)
    with writelock.hold(project):  # planned on what the writers before it left
        return _run(project, ops, now, atomic, dry_run, review)


def _run(project: Project, ops: Sequence[Mapping[str, Any]], now: datetime, atomic: bool,
         dry_run: bool, review: bool) -> CurateResult:
    if dry_run:  # reads only: git may go on
        results = _plan_and_apply(project, ops, now, atomic, dry_run, review, [])
        return _result(results, atomic, [], dry_run)
    applied: list[Plan] = []
    # git's index.lock from the first read to the last rename (vc/git_index_lock.py): a git
    # command that rewrites the work tree runs before or after, never in between
    with git_index_lock.holding(project):
        results = _plan_and_apply(project, ops, now, atomic, dry_run, review, applied)
    return _result(results, atomic, record(project, results, applied, now), dry_run)


def _result(results: list[OpResult], atomic: bool, problems: list[str],
            dry_run: bool) -> CurateResult:
    return CurateResult(
        not any(r.status == "failed" for r in results), tuple(results), _summary(results),
        atomic, tuple(problems), dry_run,
    )


def _plan_and_apply(project: Project, ops: Sequence[Mapping[str, Any]], now: datetime,
                    atomic: bool, dry_run: bool, review: bool,
                    applied: list[Plan]) -> list[OpResult]:
    """Plans every operation, then writes the plans (``applied`` receives those written)."""
    view = View(project)
    planned = _plan_all(view, ops, format_iso(now))
    failures = [i for i, p in enumerate(planned) if isinstance(p, BrvError)]
    if atomic and failures:
        skipped = f"not applied: the batch is atomic and operation {failures[0]} failed"
        results = [
            _failed(op, p)
            if isinstance(p, BrvError)
            else OpResult(op["type"], op["path"], "skipped", skipped, op["reason"])
            for op, p in zip(ops, planned, strict=True)
        ]
    elif dry_run:
        results = [
            _failed(op, p) if isinstance(p, BrvError) else _success(op, p, dry_run=True)
            for op, p in zip(ops, planned, strict=True)
        ]
    else:
        watched = reviewing.watch(project, ops, planned) if review else []
        results = _apply(view, ops, planned, applied)
        reviewing.record(project, watched, applied, now)
    return results


def _plan_all(
    view: View, ops: Sequence[Mapping[str, Any]], now_iso: str
) -> list[Plan | BrvError]:
    """Resolves, builds and checks each operation on the tree its predecessors leave."""
    planned: list[Plan | BrvError] = []
    for op in ops:
        try:
            target = resolve(op, view)
            plan = build(op, target, view, now_iso)
            check(target, plan, view)
        except BrvError as error:
            planned.append(error)
            continue
        view.add(plan)
        planned.append(plan)
    return planned


def _apply(
    view: View,
    ops: Sequence[Mapping[str, Any]],
    planned: list[Plan | BrvError],
    applied: list[Plan],
) -> list[OpResult]:
    """Writes the plans in one pass; ``applied`` receives those that were written."""
    # a damaged brv.db (StateError) stops the batch here, before it writes a file
    statedb.open_state(view.project).close()
    plans = [p for p in planned if isinstance(p, Plan)]
    outcomes = iter(apply_plans(view.project, plans, view.path, journal.intent(
        view.project, ops, planned, lambda op, p: _success(op, p).message)))
    results = []
    for op, p in zip(ops, planned, strict=True):
        outcome = p if isinstance(p, BrvError) else next(outcomes)
        if outcome is None and isinstance(p, Plan):
            applied.append(p)
            results.append(_success(op, p))
        else:
            assert outcome is not None
            results.append(_failed(op, outcome))
    return results


def _summary(results: list[OpResult]) -> Summary:
    counts = dict.fromkeys(("added", "updated", "merged", "deleted", "failed"), 0)
    for result in results:
        if result.status == "failed":
            counts["failed"] += 1
        elif result.status == "success" and result.action in _COUNTED:
            counts[_COUNTED[result.action]] += 1
    return Summary(**counts)


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
