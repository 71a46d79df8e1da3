"""Branches: switch to one, create, delete, set the upstream, list.

Each function runs in a :class:`process.Worktree` (``vc/repo.KnowledgeRepo``); a failure is
worded through :func:`errors.translate` ("creating branch 'x' failed: ...").
"""

from __future__ import annotations

from brv_vc.errors import GitError
from brv_vc.vc.git.errors import translate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from brv_vc.vc.git.process import Completed, Worktree


def switch(repo: Worktree, name: str, *, create: bool = False,
           env: Mapping[str, str] | None = None) -> Completed:
    """``git checkout`` of branch ``name`` (``create``: a new one at HEAD).

    The process is returned: the caller reads a refusal (local changes it would overwrite).
    """
    return repo.git("checkout", "-q", *(["-b"] if create else []), name, check=False,
                    env=dict(env) if env is not None else None)


def switch_new(repo: Worktree, name: str, *, tracking: str | None = None) -> None:
    """Switches to new branch ``name`` at HEAD, or at remote branch ``tracking``.

    ``tracking`` becomes its upstream; before the first commit, the unborn branch is renamed.

    Raises:
        GitError: git refused, as "checkout of TRACKING failed: ..." when tracking.
    """
    if tracking is None:
        repo.git("checkout", "-q", "-b", name)
    else:
        repo.git("checkout", "-q", "-b", name, "--track", tracking,
                 what=f"checkout of {tracking}")


def create(repo: Worktree, name: str) -> None:
    """Creates branch ``name`` at HEAD, staying where HEAD is.

    Raises:
        GitError: git refused, as "creating branch 'NAME' failed: ...".
    """
    repo.git("branch", name, what=f"creating branch '{name}'")


def delete(repo: Worktree, name: str) -> None:
    """Deletes branch ``name`` when its commits are merged (``branch -d``).

    Raises:
        GitError: it is not fully merged (it is kept), or git refused.
    """
    proc = repo.git("branch", "-d", name, check=False)
    if proc.returncode != 0:
        if "not fully merged" in proc.stderr:
            raise GitError(f"branch '{name}' is not fully merged; it was kept",
                           hint=f"merge it first: brv vc merge {name}")
        raise translate(["branch", "-d"], proc, what=f"deleting branch '{name}'")


def set_upstream(repo: Worktree, upstream: str) -> None:
    """Makes remote branch ``upstream`` (``origin/main``) the current branch's upstream.

    Raises:
        GitError: git refused.
    """
    repo.git("branch", "-q", f"--set-upstream-to={upstream}")


def names(repo: Worktree, *, remote: bool = False) -> tuple[str, ...]:
    """The local branches' short names (``remote``: remote tracking ones too, no ``HEAD``)."""
    out = repo.git("branch", "--format=%(refname:short)", *(["-a"] if remote else [])).stdout
    return tuple(x for x in out.splitlines() if x and not x.endswith("HEAD"))
