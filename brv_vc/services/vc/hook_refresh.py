"""What a hook run did, and the refresh of derived state that every hook ends with.

The post-change hooks (post-merge, post-checkout, post-rewrite, the framework's ``refresh``)
and the pre-commit check (``events``) each end here: the changed paths are refreshed (or the
archives of ``old..new`` rebuilt first, as ``brv vc pull`` does) and one JSON line is appended
to ``.brv/state/hooks.log`` (per machine). Failures are warnings: a hook never breaks git.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from brv_vc.clock import format_iso
from brv_vc.record import NamedTuple
from brv_vc.services.derived import refresh
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import ensure_state_dir
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime

    from brv_vc.services.vc.checks import StagedProblem

LOG_FILE = "hooks.log"
_LOG_LIMIT = 256 * 1024  # keep the log small: halve it when it grows past this


class HookRun(NamedTuple):
    """What one hook run did."""

    hook: str
    skipped: str = ""  # why nothing was done ("" when it ran)
    blocked: bool = False
    problems: tuple[StagedProblem, ...] = ()
    refreshed: tuple[str, ...] = ()  # tree paths handed to refresh
    trailers: tuple[str, ...] = ()  # commit-msg: archived paths named in Brv-Archived trailers
    full_scan: bool = False  # refresh was asked to find the changes itself
    checked: int = 0
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # told, never blocking: knowledge about changed code


def tree_paths(repo: KnowledgeRepo, paths: Sequence[str]) -> tuple[str, ...]:
    """The repository paths inside the tree, as tree paths (the others left out)."""
    return tuple(rel for p in paths if (rel := repo.tree_path(p)) is not None)


def refresh_between(project: Project, repo: KnowledgeRepo, name: str, old: str, new: str,
                    now: datetime, *, known: bool = False,
                    raw: list[tuple[str, str, str, str]] | None = None) -> HookRun:
    """Rebuilds archives named by commit trailers in old..new, then refreshes the changed paths.

    This is the very step ``brv vc pull`` runs, so a plain ``git pull`` gets it too.
    """
    # Imported here: the archive step reads history with dulwich, which pre-commit never needs.
    from brv_vc.services.vc.archive import after_change

    # known: both are commit ids git just named (post-merge asked for them in one call)
    old_id, new_id = (old, new) if known else (repo.rev(old), repo.rev(new))
    if old_id is None or new_id is None:
        missing = old if old_id is None else new
        return logged(project, HookRun(name, warnings=(
            f"{name} hook could not run: git does not know commit {missing}",)), now)
    try:
        after = after_change(project, repo, old_id, new_id, now, manifest=False, raw=raw)
    except Exception as exc:  # fail open: derived state can always be rebuilt later
        return logged(project, HookRun(name, warnings=(
            f"refreshing derived state failed: {type(exc).__name__}: {exc}",)), now)
    return logged(project, HookRun(name, refreshed=after.changed, warnings=after.problems), now)


def refresh_paths(project: Project, name: str, paths: Sequence[str] | None, now: datetime,
                  *, checked: int = 0, defer: bool = False) -> HookRun:
    """Refreshes derived state for ``paths`` (None: a full scan) and logs the run."""
    warnings: list[str] = []
    try:
        # known paths: the manifest (a whole-tree scan) waits for its next reader
        report = refresh(project, paths, now, defer=defer, manifest=paths is None)
        warnings.extend(report.problems)
    except Exception as exc:  # fail open: derived state can always be rebuilt later
        warnings.append(f"refreshing derived state failed: {type(exc).__name__}: {exc}")
    run = HookRun(name, refreshed=tuple(paths or ()), full_scan=paths is None, checked=checked,
                  warnings=tuple(warnings))
    return logged(project, run, now)


def logged(project: Project, run: HookRun, now: datetime) -> HookRun:
    """``run``, once logged to ``hooks.log``."""
    _log(project, run, now)
    return run


def _scrubbed(warnings: tuple[str, ...]) -> list[str]:
    """The warnings, git's words among them, with no password.

    Most runs warn of nothing: ``brv_vc.scrub`` is imported only for the others.
    """
    if not warnings:
        return []
    from brv_vc.scrub import scrub

    return [scrub(w) for w in warnings]


def _log(project: Project, run: HookRun, now: datetime) -> None:
    line = json.dumps({"at": format_iso(now), "hook": run.hook, "refreshed": list(run.refreshed),
                       "full_scan": run.full_scan, "warnings": _scrubbed(run.warnings)})
    path = project.state / LOG_FILE
    try:
        ensure_state_dir(project.state)
        if path.exists() and path.stat().st_size > _LOG_LIMIT:
            kept = path.read_bytes()[-_LOG_LIMIT // 2:]
            path.write_bytes(kept[kept.find(b"\n") + 1:])
        with path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    except OSError:
        pass  # the log is a convenience; never fail a hook over it
