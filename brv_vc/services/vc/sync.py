"""Sync use cases: ``fetch``, ``pull`` and ``merge`` (``push`` is in ``pushing``, branches in ``branches``).

All network and merge work goes through the real ``git`` binary, so the user's credential
helpers, ssh config, hooks and our merge driver behave exactly as with plain git. Nothing is
ever force-pushed. After a pull or merge the post-change step runs (archives from
trailers, then :func:`brv_vc.services.derived.refresh`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from brv_vc.errors import ConflictError, GitError, NotFoundError
from brv_vc.services.vc.changes import status
from brv_vc.services.vc.code_notes import pull_notices
from brv_vc.services.vc.committing import (
    marker_files_in,
    refuse_marker_files,
    refuse_unmerged,
)
from brv_vc.services.vc.hook_env import REFRESHING_ENV
from brv_vc.services.vc.remotes import list_remotes, mask_url
from brv_vc.services.vc.remotes import need_remote as _need_remote
from brv_vc.services.vc.remotes import upstream as _upstream
from brv_vc.services.vc.settings_notice import settings_changes
from brv_vc.tree import intents
from brv_vc.tree.project import Project
from brv_vc.vc import git, git_objects
from brv_vc.vc.repo import KnowledgeRepo, translate
from brv_vc.vc.status import Change

if TYPE_CHECKING:
    from brv_vc.services.vc.archive import AfterChange


@dataclass(frozen=True)
class FetchResult:
    """``brv vc fetch``."""

    remote: str
    url: str
    ahead: int
    behind: int


def fetch(repo: KnowledgeRepo, remote: str | None = None) -> FetchResult:
    """Fetches a remote (default: the upstream's, else origin).

    Raises:
        GitError: no remote, or the remote cannot be reached.
    """
    upstream = _upstream(repo)
    name = _need_remote(repo, remote or (upstream[0] if upstream else None))
    repo.git("fetch", "-q", name, what=f"fetch from '{name}'")
    st = status(repo)
    return FetchResult(name, mask_url(list_remotes(repo)[name]), st.ahead, st.behind)


@dataclass(frozen=True)
class SyncResult:
    """``brv vc pull`` / ``merge`` / ``checkout``: what moved and what is left to resolve."""

    action: str
    old: str | None
    new: str | None
    up_to_date: bool
    conflicts: tuple[Change, ...] = ()
    after: AfterChange | None = None
    source: str = ""
    switched: bool = True  # checkout: False when already on the branch (nothing done)
    notices: tuple[str, ...] = ()  # provider or review settings the merge changed


def refuse_merging(repo: KnowledgeRepo) -> None:
    """Raises ConflictError while a merge waits for --continue or --abort."""
    if repo.merging():
        raise ConflictError("a merge is in progress",
                            hint="resolve it and run 'brv vc merge --continue', or "
                                 "'brv vc merge --abort'")


_DIRTY_SPEC_LIMIT = 1000  # more incoming paths than this: one status of the whole work tree


def _dirty(repo: KnowledgeRepo, paths: list[str]) -> set[str]:
    """Which of ``paths`` (repository-relative) have local changes, tracked or not.

    Only the incoming paths are asked about (git stats those, not the whole work tree), as
    literal pathspecs; a very large change asks about everything instead.
    """
    if not paths:
        return set()
    few = len(paths) <= _DIRTY_SPEC_LIMIT
    spec = ["--", *(f":(literal){p}" for p in paths)] if few else []
    out = repo.git("status", "--porcelain", "-z", "--untracked-files=all",
                   "--no-renames", *spec).stdout
    return {record[3:] for record in out.split("\0") if len(record) > 3}


def _same_as_incoming(repo: KnowledgeRepo, target: str, path: str) -> bool:
    """True for an untracked file identical to the incoming one (the caller removes it).

    Trigger: 'vc init' then 'pull' writes the managed .gitignore/.gitattributes before the
    remote's identical copies arrive. Why: git refuses to overwrite untracked files. Outcome:
    the identical local copy is dropped and the pull goes through.
    """
    if repo.git_ok("ls-files", "--error-unmatch", "--", path) is not None:
        return False
    local = repo.workdir / path
    try:
        return local.read_bytes() == git_objects.blob_at(repo.workdir, target, path)
    except OSError:
        return False


def _refuse_unrelated(repo: KnowledgeRepo, action: str, label: str, rerun: str) -> None:
    fresh = ("reset the branch to the remote's with git" if repo.in_project else
             "move the local tree away and 'brv vc clone URL'")
    raise GitError(
        f"cannot {action} {label}: the local and the remote histories are unrelated (no "
        "commit in common; e.g. both sides ran 'brv vc init' and committed separately); "
        "nothing was changed",
        hint=f"join them with '{rerun}' (files both sides added are merged), or "
             f"start from the remote: {fresh}",
    )


def _merge(project: Project, repo: KnowledgeRepo, target: str, label: str, action: str,
           now: datetime, allow_unrelated: bool = False, rerun: str = "") -> SyncResult:
    from brv_vc.services.vc.archive import after_change
    from brv_vc.services.vc.recovery import begin_pull

    old = repo.head()
    if old == target or (old and git.is_ancestor(repo.workdir, target, old)):
        return SyncResult(action, old, old, True, source=label)
    unrelated = bool(old) and repo.git_ok("merge-base", old or "", target) is None
    if unrelated and not allow_unrelated:
        _refuse_unrelated(repo, action, label, rerun)
    base = [old, target] if unrelated else [f"{old}...{target}"]
    incoming = repo.git("diff", "--name-only", "-z", "--no-renames", *base).stdout if old else (
        repo.git("ls-tree", "-r", "-z", "--name-only", target).stdout)
    arriving = [p for p in incoming.split("\0") if p]
    clash = sorted(_dirty(repo, arriving) & set(arriving))
    same = [p for p in clash if _same_as_incoming(repo, target, p)]
    clash = [p for p in clash if p not in same]
    if clash:
        code = [p for p in clash if repo.tree_path(p) is None]
        if code:  # in-project mode: 'brv vc add' refuses code, so point at git
            advice = ("commit or stash the code files with git ('git stash' or 'git commit')"
                      + (" and commit the knowledge files ('brv vc add', 'brv vc commit')"
                         if len(code) < len(clash) else ""))
        else:
            advice = "commit them ('brv vc add' and 'brv vc commit -m ...') or move them away"
        raise ConflictError(
            f"{action} would overwrite uncommitted local changes in: "
            + ", ".join(repo.tree_path(p) or p for p in clash),
            file=clash[0],
            hint=f"{advice}, then {action} again; nothing was changed",
        )
    # intent first: a kill from here on is recognised and undone or finished (vc recover)
    intent = begin_pull(project, old, target, [p for p in incoming.split("\0") if p])
    try:
        for path in same:
            (repo.workdir / path).unlink()
        extra = ["--allow-unrelated-histories"] if unrelated else []
        # the post-change step runs below, in this process: the post-merge hook skips it
        proc = repo.git("merge", "--no-edit", *extra, "-m", f"Merge {label}", target,
                        check=False, env={**os.environ, REFRESHING_ENV: "post-merge"})
        if proc.returncode != 0:
            st = status(repo)
            if not st.conflicts:
                raise translate(["merge", label], proc, what=f"{action} of {label}")
            return SyncResult(action, old, old, False, st.conflicts, source=label)
        new = repo.head()
        return SyncResult(action, old, new, False, (),
                          after_change(project, repo, old, new, now, manifest=False), label,
                          notices=(*settings_changes(project, repo, old, new),
                                   *pull_notices(project, repo, old, new)))
    finally:
        intents.done(intent)


def pull(project: Project, repo: KnowledgeRepo, now: datetime, remote: str | None = None,
         branch: str | None = None, *, allow_unrelated: bool = False) -> SyncResult:
    """Fetches and merges the upstream (or ``remote branch``) into the current branch.

    ``allow_unrelated`` joins histories with no common commit (refused otherwise).

    Raises:
        GitError: no remote, no upstream, unreachable remote, unrelated histories.
        ConflictError: a merge in progress, or local changes the pull would overwrite.
    """
    # imported here: push, fetch and the branch commands never need the post-change step
    from brv_vc.services.vc.recovery import catch_up, refuse_interrupted

    refuse_interrupted(project, repo, now)
    refuse_merging(repo)
    catch_up(project, repo, now)
    upstream = _upstream(repo)
    name = _need_remote(repo, remote or (upstream[0] if upstream else None))
    if branch is None:
        if upstream is None or (remote and remote != upstream[0]):
            raise GitError(
                f"branch '{repo.branch()}' has no upstream to pull from",
                hint=f"name it: brv vc pull {name} main, or set it with "
                     f"'brv vc branch --set-upstream-to {name}/main' ('push -u' sets it too)",
            )
        branch = upstream[1]
    repo.git("fetch", "-q", name, branch, what=f"pull from '{name}'")
    target = repo.rev("FETCH_HEAD")
    if target is None:  # pragma: no cover - git fetch succeeded, so FETCH_HEAD exists
        raise GitError(f"fetching {name}/{branch} gave no commit")
    return _merge(project, repo, target, f"branch '{branch}' of {name}", "pull", now,
                  allow_unrelated, f"brv vc pull --allow-unrelated-histories {name} {branch}")


def merge(project: Project, repo: KnowledgeRepo, now: datetime, ref: str, *,
          allow_unrelated: bool = False) -> SyncResult:
    """Merges a branch or ref into the current branch.

    ``allow_unrelated`` joins histories with no common commit (refused otherwise).

    Raises:
        NotFoundError: an unknown ref.
        GitError: unrelated histories without ``allow_unrelated``.
        ConflictError: a merge in progress or local changes in the way.
    """
    # imported here: push, fetch and the branch commands never need the post-change step
    from brv_vc.services.vc.recovery import catch_up, refuse_interrupted

    refuse_interrupted(project, repo, now)
    refuse_merging(repo)
    catch_up(project, repo, now)
    target = repo.rev(ref)
    if target is None:
        raise NotFoundError(f"unknown branch or ref '{ref}'",
                            hint="list branches with 'brv vc branch -a'")
    return _merge(project, repo, target, f"'{ref}'", "merge", now, allow_unrelated,
                  f"brv vc merge --allow-unrelated-histories {ref}")


def merge_abort(repo: KnowledgeRepo, project: Project | None = None,
                now: datetime | None = None) -> SyncResult:
    """Restores the state before the merge (``git merge --abort``).

    Raises:
        ConflictError: no merge is in progress, or git was interrupted (names vc recover).
    """
    from brv_vc.services.vc.recovery import RECOVER_HINT, committed_merge, refuse_interrupted

    if project is not None and now is not None:
        refuse_interrupted(project, repo, now)
    merged = committed_merge(repo)
    if merged is not None:  # 'git merge --abort' would keep HEAD on the merge commit
        raise ConflictError(
            f"there is no merge to abort: git already made the merge commit ({merged[:7]}) "
            "and was interrupted before removing its merge state",
            hint=RECOVER_HINT)
    if not repo.merging():
        raise ConflictError("there is no merge to abort", hint="see 'brv vc status'")
    head = repo.head()
    repo.git("merge", "--abort", what="merge --abort")
    return SyncResult("merge --abort", head, repo.head(), False)


def merge_continue(project: Project, repo: KnowledgeRepo, now: datetime) -> SyncResult:
    """Commits the merge once every conflict is resolved and staged.

    Raises:
        ConflictError: no merge in progress, unmerged paths or conflict markers remain.
    """
    from brv_vc.services.vc.archive import after_change
    from brv_vc.services.vc.recovery import refuse_interrupted

    refuse_interrupted(project, repo, now)
    if not repo.merging():
        raise ConflictError("there is no merge to continue", hint="see 'brv vc status'")
    st = status(repo)
    refuse_unmerged(st.conflicts, "finish the merge")
    # the merge's result against HEAD: the only files this commit can bring markers in with
    refuse_marker_files(marker_files_in(repo, git.staged_entries(repo.workdir, None,
                                                                 repo.prefix or None)),
                        "finish the merge")
    old = repo.head()
    repo.git("commit", "-q", "--no-edit", what="merge --continue")
    new = repo.head()
    return SyncResult("merge --continue", old, new, False, (),
                      after_change(project, repo, old, new, now, manifest=False),
                      notices=settings_changes(project, repo, old, new))
