"""The branch-name rule, asked of git itself: the one home of that rule in brv."""

from __future__ import annotations

from pathlib import Path

from brv_vc.errors import GitError
from brv_vc.vc.git.process import run


def refuse_branch_name(cwd: Path, name: str) -> None:
    """Refuses a name that is no branch name: the one home of that rule in brv.

    ``git check-ref-format --branch`` decides (``HEAD``, a leading ``-``, ``..``, spaces,
    ``~^:?*[``, ``.lock``...), and a name it rewrites (``@{-1}`` names the previous branch) is
    refused too. ``@`` alone passes git's check, but every revision git reads takes it for
    HEAD: a branch of that name could never be named again.

    Raises:
        GitError: naming the name and what git accepts.
    """
    proc = run(["check-ref-format", "--branch", name], cwd, check=False)
    code = proc.returncode
    if code == 0 and proc.stdout.strip() == name and name != "@":
        return
    why = ("git reads '@' alone as HEAD" if name == "@" else
           "git check-ref-format --branch refuses it" if code else
           "git reads it as another reference, not a name")
    raise GitError(f"{name!r} is not a valid branch name ({why}); nothing was changed",
                   hint="use letters, digits, '-', '_', '.' and '/' (no leading '-', no '..', "
                        "not HEAD or @), e.g. 'feature/auth-notes'")
