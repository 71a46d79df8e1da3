"""After a pull, merge, checkout or clone: rebuild archives, then refresh derived state.

The archives are those named by commit trailers; the refresh covers the changed paths. It is
the same idempotent step the post-merge hook runs, so running both is harmless.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from typing import Any

from brv_vc.errors import BrvError
from brv_vc.services.refresh import refresh
from brv_vc.tree.project import Project
from brv_vc.vc.archived import archived_in_range
from brv_vc.vc.repo import KnowledgeRepo

DEFAULT_IMPORTANCE = 50.0


@dataclass(frozen=True)
class AfterChange:
    """What the post-change step did; problems are reported, never raised (fail open)."""

    changed: tuple[str, ...]
    archived: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def _write_archive() -> Callable[..., Any] | None:
    """``summary.archive.write_archive`` when that layer is present (built in parallel)."""
    try:
        module = import_module("brv_vc.summary.archive")
    except ImportError:
        return None
    func = getattr(module, "write_archive", None)
    return func if callable(func) else None


def _importance(project: Project, path: str) -> float:
    try:
        from brv_vc.lifecycle import sidecar
        from brv_vc.tree.statedb import open_state

        conn = open_state(project)
        try:
            signals = sidecar.get_many(conn, [path]).get(path)
        finally:
            conn.close()
        return float(signals.importance) if signals else DEFAULT_IMPORTANCE
    except Exception:  # the sidecar is optional here: a fresh clone has none
        return DEFAULT_IMPORTANCE


def changed_paths(repo: KnowledgeRepo, old: str | None, new: str | None) -> tuple[str, ...]:
    """Tree paths that differ between two commits (all tracked paths when ``old`` is None)."""
    if new is None or old == new:
        return ()
    if old is None:
        out = repo.git("ls-tree", "-r", "-z", "--name-only", new, *repo.pathspec()).stdout
    else:
        out = repo.git("diff", "--name-only", "-z", "--no-renames", old, new,
                       *repo.pathspec()).stdout
    return tuple(p for p in (repo.tree_path(x) for x in out.split("\0") if x) if p)


def after_change(project: Project, repo: KnowledgeRepo, old: str | None, new: str | None,
                 now: datetime) -> AfterChange:
    """Rebuilds archived entries from history and refreshes derived state.

    Args:
        project: the project.
        repo: its knowledge repository.
        old: HEAD before the change (None: everything is new, as after a clone).
        new: HEAD after it.
        now: the clock.
    """
    changed = changed_paths(repo, old, new)
    problems: list[str] = []
    archived: list[str] = []
    if new is not None and old != new:
        write = _write_archive()
        try:
            found = archived_in_range(repo, old, new)
        except Exception as exc:  # fail open: a pull must never fail on the archive step
            found, problems = [], [f"reading archive trailers: {exc}"]
        for path, data in found:
            if write is None:
                problems.append(f"archive of {path} not rebuilt: summary.archive is missing")
                continue
            try:
                write(project, path, data, importance=_importance(project, path), now=now)
                archived.append(path)
            except (BrvError, OSError, ValueError) as exc:
                problems.append(f"archive of {path} not rebuilt: {exc}")
    report = refresh(project, changed, now)
    return AfterChange(changed, tuple(archived), (*problems, *report.problems))
