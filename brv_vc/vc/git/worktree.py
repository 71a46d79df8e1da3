"""git run in a work tree: the door of the typed questions that act there (stage, commit...).

``vc/repo.KnowledgeRepo.git`` and ``.git_ok`` forward here, and only ``vc/git/`` calls them
(tests/test_layering.py): a committing command borrows the repository's identity, and a
failure is worded once, by :func:`errors.translate`.
"""

from __future__ import annotations

from brv_vc.vc.git.errors import translate
from brv_vc.vc.git.process import run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from brv_vc.vc.git.process import Completed, Worktree

# git commands that write commits: in standalone mode they borrow the project's identity
COMMITTING = frozenset({"commit", "merge", "pull", "revert", "cherry-pick", "rebase", "am",
                        "commit-tree", "stash"})


def in_worktree(repo: Worktree, args: Sequence[str], *, check: bool = True,
                index_file: Path | None = None, what: str | None = None,
                input: str | None = None, env: Mapping[str, str] | None = None) -> Completed:
    """Runs ``git <args>`` in ``repo``'s work tree: the door of the typed questions that act there.

    ``KnowledgeRepo.git`` forwards here. A committing command (:data:`COMMITTING`) runs with
    ``repo.identity_env()`` under the caller's own variables; with ``check``, a failure raises
    in :func:`errors.translate`'s words (``what`` names the action).

    Raises:
        GitError: git is missing, or (with ``check``) exited non-zero.
    """
    identity = repo.identity_env() if args and args[0] in COMMITTING else None
    if identity is not None:  # the borrowed identity joins the caller's own variables
        env = {**identity, **(env or {})}
    proc = run(list(args), repo.workdir, check=False, index_file=index_file, input=input,
               env=env)
    if check and proc.returncode != 0:
        raise translate(list(args), proc, what=what)
    return proc


def ok_in_worktree(repo: Worktree, args: Sequence[str]) -> str | None:
    """The stdout of ``git <args>`` run in ``repo``'s work tree, None when git failed."""
    proc = run(list(args), repo.workdir, check=False)
    return proc.stdout if proc.returncode == 0 else None
