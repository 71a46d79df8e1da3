"""Repositories and remotes: init, clone, fetch, push, the remotes and their tracking refs.

The functions given a :class:`process.Worktree` (``vc/repo.KnowledgeRepo``) run in it, and
a failure is worded through :func:`errors.translate` ("fetch from 'origin' failed: the
remote cannot be reached"); :func:`init` and :func:`clone` make a repository, so they run in
a folder.
"""

from __future__ import annotations

from brv_vc.vc.git.errors import translate
from brv_vc.vc.git.process import run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from brv_vc.vc.git.process import Completed, Worktree


def init(folder: Path, branch: str, *, bare: bool = False, cwd: Path | None = None) -> None:
    """Makes an empty repository at ``folder`` whose first branch is ``branch``.

    ``bare``: no work tree (a remote on disk). ``cwd``: where git runs (default: ``folder``).

    Raises:
        GitError: git refused.
    """
    run(["init", "-q", *(["--bare"] if bare else []), "-b", branch, str(folder)],
        cwd or folder)


def clone(url: str, folder: Path, *, cwd: Path) -> Completed:
    """``git clone`` of ``url`` into ``folder`` (which git creates), run in ``cwd``.

    The process is returned: the caller rolls back what it prepared before it raises
    :func:`errors.translate`'s error.
    """
    return run(["clone", "-q", "--", url, str(folder)], cwd, check=False)


def fetch(repo: Worktree, remote: str, *refs: str, what: str) -> None:
    """Fetches ``refs`` of ``remote`` (none: its configured ones); ``FETCH_HEAD`` names them.

    Raises:
        GitError: the remote cannot be reached or refused, as "``what`` failed: ...".
    """
    repo.git("fetch", "-q", remote, *refs, what=what)


def push(repo: Worktree, remote: str, branch: str, *, upstream: bool = False,
         env: Mapping[str, str] | None = None) -> bool:
    """Pushes HEAD to ``branch`` of ``remote``; True when the remote had it already.

    ``upstream``: git records the remote's branch as the upstream (``-u``). ``env``: the
    environment git and the pre-push hook get.

    Raises:
        PushRejected: the remote has commits HEAD lacks.
        GitError: any other refusal, as "push to 'REMOTE' failed: ...".
    """
    args = ["push", "--porcelain", *(["-u"] if upstream else []), remote,
            f"HEAD:refs/heads/{branch}"]
    proc = repo.git(*args, check=False, env=dict(env) if env is not None else None)
    if proc.returncode != 0:
        raise translate(args, proc, what=f"push to '{remote}'")
    return "[up to date]" in proc.stdout


def ahead_behind(repo: Worktree) -> tuple[int, int]:
    """Commits HEAD has that its upstream lacks, and the reverse; (0, 0) without one.

    What ``git status`` says of the upstream (branch.ab), counted by ``rev-list``: a status
    would read the whole work tree (~100 ms of CPU at 25,000 entries) for these two numbers.
    """
    counts = (repo.git_ok("rev-list", "--left-right", "--count", "HEAD...@{upstream}")
              or "0 0").split()
    return int(counts[0]), int(counts[1])


def tracking_tips(repo: Worktree, remote: str) -> list[str]:
    """The commits of ``remote``'s tracking branches (``refs/remotes/REMOTE/``), as fetched."""
    return (repo.git_ok("for-each-ref", "--format=%(objectname)", f"refs/remotes/{remote}/")
            or "").split()


def tracking_branches(repo: Worktree, remote: str) -> list[str]:
    """The names of ``remote``'s tracking branches, its ``HEAD`` left out."""
    out = repo.git_ok("for-each-ref", "--format=%(refname:strip=3)", f"refs/remotes/{remote}/")
    return [b for b in (out or "").split() if b != "HEAD"]


def add_remote(repo: Worktree, name: str, url: str) -> None:
    """Adds remote ``name`` at ``url`` (a name starting with '-' stays a name).

    Raises:
        GitError: git refused.
    """
    repo.git("remote", "add", "--", name, url)


def set_url(repo: Worktree, name: str, url: str) -> None:
    """Points remote ``name`` at ``url``.

    Raises:
        GitError: git refused.
    """
    repo.git("remote", "set-url", "--", name, url)


def remove_remote(repo: Worktree, name: str) -> None:
    """Removes remote ``name`` with its tracking branches and settings.

    Raises:
        GitError: git refused.
    """
    repo.git("remote", "remove", "--", name)
