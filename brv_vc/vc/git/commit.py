"""Commits: the one ``git commit`` action brv runs (the borrowed identity comes with it).

Each function runs in a :class:`process.Worktree` (``vc/repo.KnowledgeRepo``), whose ``git``
adds the project's identity to a committing command and words a failure through
:func:`errors.translate` ("commit failed: ...").
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from brv_vc.vc.git.process import Worktree


def commit(repo: Worktree, message: str, *body: str, index_file: Path | None = None,
           env: Mapping[str, str] | None = None, hooks: bool = True) -> None:
    """Commits the index (or ``index_file``) with ``message`` and ``body`` paragraphs.

    ``env``: the environment git and its hooks get (a note to the pre-commit hook);
    ``hooks``: False skips the pre-commit and commit-msg hooks (``--no-verify``).

    Raises:
        GitError: git refused (a hook's refusal, no identity), in its words.
    """
    paragraphs = [arg for text in body for arg in ("-m", text)]
    repo.git("commit", "-q", *([] if hooks else ["--no-verify"]), "-m", message, *paragraphs,
             index_file=index_file, what="commit", env=dict(env) if env is not None else None)


def conclude_merge(repo: Worktree) -> None:
    """Commits a merge whose conflicts are resolved, with git's own message (``--no-edit``).

    Raises:
        GitError: git refused, as "merge --continue failed: ...".
    """
    repo.git("commit", "-q", "--no-edit", what="merge --continue")
