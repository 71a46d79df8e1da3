"""``brv vc push``: the current branch to its remote, checked once, never forced.

Apart from ``sync`` (fetch, pull, merge): a push needs none of what a pull imports (the
status of the work tree, intents, the knowledge-made-stale report), and a team pushes on
every change.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from brv_vc.errors import GitError
from brv_vc.services.vc.committing import refuse_unpushable
from brv_vc.services.vc.gating import refuse_pending
from brv_vc.services.vc.hook_env import PUSH_CHECKED_ENV
from brv_vc.services.vc.remotes import need_remote, read_config, remotes_of, upstream_of
from brv_vc.vc.repo import KnowledgeRepo, translate


@dataclass(frozen=True)
class PushResult:
    """``brv vc push``."""

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
    head = repo.head()
    if head is None:
        raise GitError("nothing to push: no commits yet",
                       hint="commit first: brv vc add && brv vc commit -m \"...\"")
    local = repo.branch()
    config = read_config(repo)
    upstream = upstream_of(config, local)
    name = need_remote(repo, remote or (upstream[0] if upstream else None), remotes_of(config))
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
    pushed = refuse_unpushable(repo, head, repo.rev(f"refs/remotes/{name}/{target}"))
    if not include_pending:
        refuse_pending(repo, pushed, "push")
    args = ["push", "--porcelain", *(["-u"] if set_upstream else []), name,
            f"HEAD:refs/heads/{target}"]
    # checked here: the pre-push hook need not check this commit again
    proc = repo.git(*args, check=False, env={**os.environ, PUSH_CHECKED_ENV: head})
    if proc.returncode != 0:
        raise translate(args, proc, what=f"push to '{name}'")
    if set_upstream:
        repo.git("branch", "-q", f"--set-upstream-to={name}/{target}")
    return PushResult(name, target, "[up to date]" in proc.stdout, set_upstream)
