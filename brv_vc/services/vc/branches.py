"""Branch use cases: ``checkout`` (then the post-change step) and ``branch``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from brv_vc import environment
from brv_vc.errors import ConflictError, GitError, NotFoundError, UsageError
from brv_vc.services.vc.archive import after_change
from brv_vc.services.vc.hook_env import REFRESHING_ENV
from brv_vc.services.vc.sync import SyncResult, refuse_merging
from brv_vc.tree import writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.git import branch as git_branch
from brv_vc.vc.git.branch_names import refuse_branch_name
from brv_vc.vc.repo import KnowledgeRepo, translate


def checkout(project: Project, repo: KnowledgeRepo, now: datetime, name: str, *,
             create: bool = False) -> SyncResult:
    """Switches branch (``create``: a new one from HEAD).

    Raises:
        NotFoundError: an unknown branch.
        GitError: a name that is no branch name (vc/git/branch_names.py).
        ConflictError: local changes would be overwritten (as ``pull`` says it).
        GitError: a bad branch name.
    """
    refuse_branch_name(repo.workdir, name)  # HEAD would be "switched to branch 'HEAD'"
    refuse_merging(repo)
    old = repo.head()
    if not create and repo.rev(name) is None:
        raise NotFoundError(f"unknown branch '{name}'",
                            hint=f"create it with 'brv vc checkout -b {name}'")
    if not create and repo.branch() == name:
        return SyncResult("checkout", old, old, True, source=name, switched=False)
    if create and old is None:
        git_branch.switch_new(repo, name)
        return SyncResult("checkout", None, None, False, source=name)
    with writelock.hold(project):  # git rewrites the work tree: no brv writer meanwhile
        return _checkout(project, repo, now, name, create, old)


def _checkout(project: Project, repo: KnowledgeRepo, now: datetime, name: str, create: bool,
              old: str | None) -> SyncResult:
    # the post-change step runs below, in this process: the post-checkout hook skips it
    proc = git_branch.switch(repo, name, create=create,
                             env=environment.child({REFRESHING_ENV: "post-checkout"}))
    if proc.returncode != 0:
        if git.failure_kind(proc.stderr) == "overwrite":
            files = [line.strip() for line in proc.stderr.splitlines()
                     if line.startswith("\t")]
            raise ConflictError(
                f"checkout of '{name}' would overwrite uncommitted local changes in: "
                + ", ".join(repo.tree_path(p) or p for p in files),
                file=files[0] if files else None,
                hint="commit them ('brv vc add' and 'brv vc commit -m ...') or move them away, "
                     "then checkout again; nothing was changed",
            )
        raise translate(["checkout", name], proc, what=f"checkout of '{name}'")
    new = repo.head()
    return SyncResult("checkout", old, new, old == new, (),
                      after_change(project, repo, old, new, now, manifest=False), name)


@dataclass(frozen=True)
class BranchResult:
    """``brv vc branch``: the branches after the action."""

    current: str
    branches: tuple[str, ...]
    action: str = "list"
    name: str | None = None


def branch(repo: KnowledgeRepo, name: str | None = None, *, delete: bool = False,
           all_branches: bool = False, set_upstream_to: str | None = None) -> BranchResult:
    """Lists, creates, safely deletes a branch, or sets the upstream of the current one.

    Raises:
        GitError: a bad name, a branch before the first commit, an unmerged branch to delete.
    """
    action = "list"
    if set_upstream_to:
        if repo.rev(set_upstream_to) is None:
            raise NotFoundError(f"unknown remote branch '{set_upstream_to}'",
                                hint="fetch first: brv vc fetch")
        git_branch.set_upstream(repo, set_upstream_to)
        action = "set-upstream"
    elif name and delete:
        git_branch.delete(repo, name)
        action = "delete"
    elif name:
        refuse_branch_name(repo.workdir, name)
        if repo.head() is None:
            raise GitError(f"cannot create branch '{name}' before the first commit",
                           hint="commit first, or start on it with 'brv vc checkout -b NAME'")
        git_branch.create(repo, name)
        action = "create"
    names = git_branch.names(repo, remote=all_branches)
    if set_upstream_to is None and name is None and delete:
        raise UsageError("-d needs a branch name", hint="brv vc branch -d NAME")
    return BranchResult(repo.branch(), names, action, name)
