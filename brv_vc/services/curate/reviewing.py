"""Curate operations that wait for review: DELETE, MERGE, and any op marked ``"review": true``.

With review enabled, the files such an operation will touch are read before the batch is
written, and afterwards the change (with backups of the replaced bytes) goes to the review
queue as ``curate/<TYPE>``. With review disabled this costs one small config read.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from brv_vc.services import review
from brv_vc.services.curate.plan import Plan
from brv_vc.tree.project import Project

REVIEWED = ("DELETE", "MERGE")
Watch = list[tuple[Mapping[str, Any], Plan, "review.Snapshot"]]


def _wants(op: Mapping[str, Any]) -> bool:
    return op["type"] in REVIEWED or op.get("review") is True


def _files(project: Project, plan: Plan) -> list[str]:
    paths = [rel for rel, _ in plan.writes]
    for rel in plan.deletes:
        folder = project.tree / rel
        if folder.is_dir():
            paths.extend(project.relpath(p) for p in sorted(folder.rglob("*")) if p.is_file())
        else:
            paths.append(rel)
    return paths


def watch(project: Project, ops: Sequence[Mapping[str, Any]],
          plans: Sequence[Plan | Exception]) -> Watch:
    """Snapshots the files of the operations that need review (none when review is off)."""
    wanted = [(op, p) for op, p in zip(ops, plans, strict=True)
              if isinstance(p, Plan) and _wants(op)]
    if not wanted or not review.is_enabled(project):
        return []
    return [(op, plan, review.capture(project, _files(project, plan))) for op, plan in wanted]


def record(project: Project, watched: Watch, applied: Sequence[Plan], now: datetime) -> None:
    """Queues each applied watched operation with the backups of what it replaced."""
    task = f"cur-{int(time.time() * 1000)}"
    done = {id(p) for p in applied}
    store = review.review_store(project)
    for op, plan, snapshot in watched:
        if id(plan) not in done:
            continue
        changes = review.changes_since(project, snapshot, store)
        review.record(project, now, f"curate/{op['type']}", plan.message or plan.file,
                      str(op.get("reason", "")), task, changes)
