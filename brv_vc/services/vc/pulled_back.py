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
    """post-merge: :func:`kept_deleted`, then what a pending autostash stops on."""
    held = stash_held(repo)[1]  # None: no autostash pending
    return (*kept_deleted(project, repo, orig, head, raw, now, held),
            *autostash_noted(project, repo, orig, (head, held), raw))


def after_rebase(project: Project, repo: KnowledgeRepo, orig: str, now: datetime
                 ) -> tuple[str, ...]:
    """post-rewrite of a rebase: with an autostash pending, as :func:`after_merge`."""
    return autostash_noted(project, repo, orig, stash_held(repo), None, now)


def kept_deleted(project: Project, repo: KnowledgeRepo, orig: str, head: str | None,
                 raw: list[tuple[str, str, str, str]] | None, now: datetime,
                 held: frozenset[str] | None) -> tuple[str, ...]:
    """``written_back.reapply``, one line an entry: what brv deleted and git wrote back.

    Each is removed again (a MERGE's source folded into its target first). A fold a killed
    post-merge hook left (its intent record) is finished first: this pull may have written
    back the same entries, and no brv command may have run since.
    """
    from brv_vc.tree.leftovers import left_behind  # os only: two listings

    finished: tuple[str, ...] = ()
    if left_behind(project.state):
        from brv_vc.services.vc.rolled_forward import finish_killed

        finished = finish_killed(project, now)
    if head is None or not raw or not any(st == "M" for st, _, _, _ in raw):
        return finished
    from brv_vc.services.vc.written_back import describe, reapply

    return (*finished, *(describe(repo, fold)
                         for fold in reapply(project, repo, orig, head, raw, now, held)))


def stash_held(repo: KnowledgeRepo) -> tuple[str | None, frozenset[str] | None]:
    """HEAD and ``KnowledgeRepo.autostash_deletions``: a git process only if one is pending."""
    git_dir, _, head, _ = repo.whereabouts()  # from the files: no git process
    return head, repo.autostash_deletions(git_dir)


def autostash_noted(project: Project, repo: KnowledgeRepo, orig: str,
                    stash: tuple[str | None, frozenset[str] | None],
                    raw: list[tuple[str, str, str, str]] | None = None,
                    now: datetime | None = None) -> tuple[str, ...]:
    """``written_back.autostashed``: what git's autostash, applied after this hook, stops on.

    ``stash``: HEAD and the paths the autostash deletes (None: none pending: nothing to say).
    ``now``: post-rewrite, which re-applies those deletions first, as post-merge does.
    """
    head, held = stash
    if head is None or held is None:
        return ()
    from brv_vc.services.vc.written_back import autostashed

    raw = whole_change(repo.workdir, orig, head) if raw is None else raw
    kept = kept_deleted(project, repo, orig, head, raw, now, held) if now is not None else ()
    return (*kept, *autostashed(project, repo, orig, head, held, raw))


def whole_change(top: Path, orig: str, head: str | None
                 ) -> list[tuple[str, str, str, str]] | None:
    """``git.changed_entries`` of ``orig..head`` over the whole repository (None: unknown)."""
    if head is None:
        return None
    try:
        return git.changed_entries(top, orig, head)
    except BrvError:  # fail open: the steps diff on their own
        return None
