"""``brv vc push``: the current branch to its remote, checked once, never forced.

Apart from ``sync`` (fetch, pull, merge): a push needs none of what a pull imports (the
status of the work tree, intents, the knowledge-made-stale report), and a team pushes on
every change.
"""

from __future__ import annotations

from brv_vc import environment
from brv_vc.errors import GitError
from brv_vc.record import NamedTuple
from brv_vc.services import review
from brv_vc.services.vc.gating import project_of, refuse_pending
from brv_vc.services.vc.hook_env import PUSH_CHECKED_ENV
from brv_vc.services.vc.markers import (
    marker_files_in,
    refuse_excluded,
    refuse_marker_files,
    refuse_markers,
)
from brv_vc.vc import git
from brv_vc.vc.git import remote as git_remote
from brv_vc.vc.git_checked import checked
from brv_vc.vc.repo import KnowledgeRepo, read_ref, read_whereabouts


class PushResult(NamedTuple):
    """``brv vc push``.

    A NamedTuple, not a dataclass: a push (on every change) would import dataclasses (with
    inspect, ~8 ms of CPU) for this one value.
    """

    remote: str
    branch: str
    up_to_date: bool
    set_upstream: bool


def push(repo: KnowledgeRepo, remote: str | None = None, branch: str | None = None, *,
         set_upstream: bool = False, include_pending: bool = False) -> PushResult:
    """Pushes the current branch (never forced).

    Raises:
        GitError: no commits, no remote, no upstream without ``-u``, excluded files tracked,
            a rejected (non-fast-forward) push, an unreachable remote.
        ConflictError: conflict markers in committed knowledge, or (review enabled, without
            ``include_pending``) commits that carry changes still waiting for review.
    """
    # here, not at the top: the pre-push hook imports this module for refuse_unpushable
    from brv_vc.services.vc.remotes import chosen

    read = read_whereabouts(repo.workdir)
    head, local, tracking, tracking_tip = (read[2], read[3], None, None) if read else _bearings(
        repo)
    if head is None:
        raise GitError("nothing to push: no commits yet",
                       hint="commit first: brv vc add && brv vc commit -m \"...\"")
    name, upstream, _ = chosen(repo, remote, local)
    if local == "HEAD":
        raise GitError("HEAD is detached; push needs a branch",
                       hint="create one: brv vc checkout -b <name>")
    if branch is None and upstream is not None and not set_upstream:
        branch = upstream[1]
    if branch is None and not set_upstream and remote is None:
        raise GitError(
            f"branch '{local}' has no upstream branch",
            hint=f"push and set it: brv vc push -u (or brv vc push {name} {local})",
        )
    target = branch or local
    # what the remote has already was checked when it was pushed: only the rest is
    ref = f"refs/remotes/{name}/{target}"
    # a plain repository's ref file says it (a remote-tracking ref: a commit fetch wrote)
    tip = tracking_tip if tracking == ref else (read_ref(read[0], ref) if read else None)
    base = tip or repo.rev(ref)
    pushed: list[str] | None = None
    # the one commit 'brv vc commit' checked, onto the remote's tip: its change was checked
    if read is None or base is None or checked(read[1]) != (head, base):
        pushed = refuse_unpushable(repo, head, base, remote=name)
    if not include_pending:
        if pushed is None and review.is_enabled(project_of(repo)):
            pushed = [rel for _, path, _, _ in git.changed_entries(
                repo.workdir, base or "", head, repo.prefix or None)
                if (rel := repo.tree_path(path)) is not None]
        refuse_pending(repo, pushed or [], "push")
    # checked here: the pre-push hook need not check this commit again
    had = git_remote.push(repo, name, target, upstream=set_upstream,
                          env=environment.child({PUSH_CHECKED_ENV: head}))
    if set_upstream:
        from brv_vc.vc.git.branch import set_upstream as track

        track(repo, f"{name}/{target}")
    return PushResult(name, target, had, set_upstream)


def _bearings(repo: KnowledgeRepo) -> tuple[str | None, str, str | None, str | None]:
    """HEAD's commit, the branch (``HEAD`` when detached), the upstream's ref and its commit.

    One ``rev-parse`` where a branch with a fetched upstream is checked out (a push on every
    change); else HEAD and the branch are asked apart, and no upstream is given (the caller
    reads its tracking ref by name).
    """
    found = git.upstream_of_head(repo.workdir)
    if found is not None:
        head, branch, upstream, tip = found
        return head, branch.removeprefix("refs/heads/"), upstream, tip
    return repo.head(), repo.branch(), None, None


def refuse_unpushable(repo: KnowledgeRepo, rev: str, base: str | None = None,
                      remote: str | None = None) -> list[str]:
    """Refuses to push commit ``rev``: conflict markers, or tracked sync-excluded files.

    One code path for ``brv vc push`` and git's pre-push hook (a plain ``git push``).
    ``base``: the remote's tip the push replaces; only what differs from it is checked (the
    rest is on the remote already). None (a new branch): what differs from the newest commit
    of its history that ``remote`` (the one pushed to) has (:func:`_fork_point`); the whole
    commit when it has none, or when ``remote`` is None or a URL.

    Returns:
        The tree paths the push changes (removals included), as listed for the check: the
        review gate of ``brv vc push`` reads them without a second diff.

    Raises:
        ConflictError: conflict markers in the commit's knowledge.
        GitError: derived or excluded files are tracked in it.
    """
    if base is None:
        base = _fork_point(repo, rev, remote)
    if base is not None:
        changes = git.changed_entries(repo.workdir, base, rev, repo.prefix or None)
        refuse_marker_files(marker_files_in(repo, changes), "push")
        refuse_excluded(repo, [rel for status, path, _, _ in changes if status != "D"
                               and (rel := repo.tree_path(path)) is not None], "push")
        return [rel for _, path, _, _ in changes if (rel := repo.tree_path(path)) is not None]
    refuse_markers(repo, rev, "push")
    paths = [p for p in (repo.tree_path(x) for x in git.tree_paths(
        repo.workdir, rev, *repo.pathspec())) if p]
    refuse_excluded(repo, paths, "push")
    return paths


def _fork_point(repo: KnowledgeRepo, rev: str, remote: str | None) -> str | None:
    """The best common ancestor of ``rev`` and ``remote``'s tracking branches, or None.

    A new branch forked from the team's main line brings only its own commits: what it
    shares with a commit the remote pushed to has was checked when that was pushed (the
    premise of ``base``), so the check reads the fork's change, not the whole tree (``git
    grep`` of a 25,000-entry commit). Only that remote's branches count: another remote's
    (a vendor's, a fork's) were never checked on their way here. None: no remote named (a
    URL), no branch of it, or no history in common: the whole commit is checked.
    """
    if not remote or remote.startswith((".", "/", "-")) or any(c in remote for c in ":\\ "):
        return None
    tips = git_remote.tracking_tips(repo, remote)
    if not tips:
        return None
    from brv_vc.vc.git.merge import base

    return base(repo, rev, *dict.fromkeys(tips))
