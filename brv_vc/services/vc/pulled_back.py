"""What the post-merge and post-rewrite hooks do with entries brv deleted here that git wrote back.

``written_back`` holds the rule and the re-application; this module is the hooks' side of it
(``events._post``): a fold a killed hook left finished first, then the re-application, then,
when git holds an autostash it applies after the hook, the entries that apply will stop on.
Imported by those two hooks only.
"""

from __future__ import annotations

from brv_vc.errors import BrvError
from brv_vc.vc import git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime
    from pathlib import Path

    from brv_vc.tree.project import Project
    from brv_vc.vc.repo import KnowledgeRepo


def guarded(step: Callable[..., tuple[str, ...]], *args: object
            ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``step(*args)``'s notes, and its failure as a warning: the hook's refresh runs anyway.

    The re-application waits for brv's write lock (``BRV_LOCK_WAIT``) and git's
    ``index.lock``; a wait run out, or git failing, leaves the entries as git wrote them
    back, and the pull's paths are refreshed still.
    """
    try:
        return step(*args), ()
    except BrvError as error:
        return (), (f"brv's deletions were not re-applied: {error.message}",)


def after_merge(project: Project, repo: KnowledgeRepo, orig: str, head: str | None,
                raw: list[tuple[str, str, str, str]] | None, now: datetime) -> tuple[str, ...]:
    """post-merge: a killed fold finished, then :func:`written_back` (any pull)."""
    return (*_finished(project, now), *written_back(project, repo, orig, head, raw, now))


def after_rebase(project: Project, repo: KnowledgeRepo, orig: str, head: str | None,
                 raw: list[tuple[str, str, str, str]] | None, now: datetime
                 ) -> tuple[str, ...]:
    """post-rewrite of a rebase: as :func:`after_merge`, with an autostash pending only."""
    return (*_finished(project, now),
            *written_back(project, repo, orig, head, raw, now, stashed_only=True))


def _finished(project: Project, now: datetime) -> tuple[str, ...]:
    """A fold a killed hook left (its intent record), finished.

    This pull may have written back the same entries, and no brv command may have run since.
    """
    from brv_vc.tree.leftovers import left_behind  # os only: two listings

    if not left_behind(project.state):
        return ()
    from brv_vc.services.vc.rolled_forward import finish_killed

    return finish_killed(project, now)


def written_back(project: Project, repo: KnowledgeRepo, orig: str, head: str | None,
                 raw: list[tuple[str, str, str, str]] | None, now: datetime, *,
                 stashed_only: bool = False) -> tuple[str, ...]:
    """``written_back``'s jobs, found once: re-applied, then what a pending autostash stops on.

    One line an entry. After a merge the rule (``deleted_here``) runs first, and only if it
    leaves something is git's autostash looked for (``KnowledgeRepo.autostash``: a linked work
    tree's ``rev-parse``, a file read); with one pending, only the deletions it holds count
    (``autostash_deletions``: the stash's ``diff``, only then). ``stashed_only`` (a rebase):
    the autostash is looked for first, and without one nothing is re-applied (a rebase's
    deletions were committed, or git refused the pull), the rule not even asked.
    """
    if head is None or not raw or not any(st == "M" for st, _, _, _ in raw):
        return ()
    from brv_vc.services.vc import written_back as wb

    # a rebase re-applies only what a pending autostash deletes: without one, nothing to ask
    stash = repo.autostash(repo.whereabouts()[0]) if stashed_only else None
    if stashed_only and stash is None:
        return ()
    jobs = wb.deleted_here(project, repo, orig, raw)
    if not jobs:
        return ()
    if not stashed_only:
        stash = repo.autostash(repo.whereabouts()[0])
    held = repo.autostash_deletions(stash) if stash is not None else None
    if held is not None:
        jobs = [job for job in jobs if job[1] in held]
    folds = wb.reapplied(project, repo, orig, head, jobs, now) if jobs else ()
    lines = [wb.describe(repo, fold, stashed=held is not None) for fold in folds]
    if held is not None:
        done = {fold.source for fold in folds}
        lines.extend(wb.autostashed(repo, head, [
            job for job in jobs if job[0] not in done and (project.tree / job[0]).is_file()]))
    return tuple(lines)


def whole_change(top: Path, orig: str, head: str | None
                 ) -> list[tuple[str, str, str, str]] | None:
    """``git.changed_entries`` of ``orig..head`` over the whole repository (None: unknown)."""
    if head is None:
        return None
    try:
        return git.changed_entries(top, orig, head)
    except BrvError:  # fail open: the steps diff on their own
        return None
