"""Writing a batch of planned operations to the tree, crash-safely and fast.

Every new file is first written to a staging folder under ``.brv/state/`` (same ``.brv``
folder, so the same filesystem), then made durable, then renamed into place, operation by
operation, in order. A crash therefore never leaves a partial entry (seed 002 §4.1.3).

Why not ``store.write_atomic`` per file: it fsyncs every file, and 1,000 fsyncs cost 1-5 s
on an ordinary disk (one journal commit each), more when other processes are writing. A
batch with more than :data:`FSYNC_EACH_UP_TO` files is made durable with one ``os.sync()``
before the renames; small batches fsync each file, which is cheaper than a system-wide sync.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from brv_vc.errors import BrvError
from brv_vc.services.curate.plan import Plan
from brv_vc.tree import store
from brv_vc.tree.fault import point
from brv_vc.tree.intents import STAGING_PREFIX
from brv_vc.tree.project import Project

FSYNC_EACH_UP_TO = 16
Staged = list[tuple[str, str]]  # one plan's (staged file name, tree path) pairs


def apply_plans(
    project: Project, plans: Sequence[Plan], resolve: Callable[[str], Path],
    intent: Callable[[str, list[Staged | None]], None] | None = None,
) -> list[BrvError | None]:
    """Applies plans in order: each plan's writes (renamed into place), then its deletions.

    Args:
        project: the project.
        plans: the plans, in operation order.
        resolve: tree-relative path -> absolute path, refusing escapes (``View.path``).
        intent: run once every file is staged and durable, before the first rename, with
            the staging folder's name and each plan's staged files (None: staging failed,
            the plan is not applied): the journal (journal.py) that lets the next command
            finish the batch after a kill.

    Returns:
        One entry per plan: None when it was applied, else the I/O error that stopped it.
    """
    results: list[BrvError | None] = [None] * len(plans)
    count = sum(len(plan.writes) for plan in plans)
    one_sync = count > FSYNC_EACH_UP_TO and hasattr(os, "sync")  # no os.sync on Windows
    staging = project.state / f"{STAGING_PREFIX}{os.getpid()}"
    staged: list[list[tuple[Path, Path]]] = []
    try:
        staging.mkdir(parents=True, exist_ok=True)
        number = 0
        for index, plan in enumerate(plans):
            items: list[tuple[Path, Path]] = []
            try:
                for rel, data in plan.writes:
                    tmp = staging / f"{number}.tmp"
                    number += 1
                    _write(tmp, data, fsync=not one_sync)
                    items.append((tmp, resolve(rel)))
            except OSError as exc:
                results[index] = _io_error(exc)
            staged.append(items)
        if one_sync:
            os.sync()
        if intent is not None:
            intent(staging.name, [None if results[i] else [(tmp.name, rel) for (tmp, _), (rel, _)
                                                           in zip(staged[i], plan.writes,
                                                                  strict=True)]
                                  for i, plan in enumerate(plans)])
        point("curate-staged")
        for index, plan in enumerate(plans):
            if results[index] is None:
                results[index] = _install(project, plan, staged[index], resolve)
        point("curate-applied")
    except OSError as exc:
        for index in range(len(plans)):
            results[index] = results[index] or _io_error(exc)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return results


def _install(
    project: Project, plan: Plan, items: list[tuple[Path, Path]], resolve: Callable[[str], Path]
) -> BrvError | None:
    try:
        for tmp, target in items:
            point("curate-rename")
            install(tmp, target)
        for rel in plan.deletes:
            point("curate-delete")
            remove(project, resolve(rel))
    except OSError as exc:
        return _io_error(exc)
    return None


def install(tmp: Path, target: Path) -> None:
    """Renames a staged file into place (also the journal's replay after a kill)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(tmp, target)
    except OSError as exc:
        if exc.errno != errno.EXDEV:  # .brv/state on another filesystem: copy instead
            raise
        store.write_atomic(target, tmp.read_bytes())
        tmp.unlink()


def remove(project: Project, path: Path) -> None:
    """Deletes a planned path, a folder whole, and its emptied parents (idempotent)."""
    if path.exists() or path.is_symlink():
        store.remove_tree(path)
    store.remove_empty_parents(project, path.parent)


def _write(path: Path, data: bytes, *, fsync: bool) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        if fsync:
            handle.flush()
            os.fsync(handle.fileno())


def _io_error(exc: OSError) -> BrvError:
    return BrvError(f"could not write the tree: {exc}", hint="check permissions and disk space")
