"""The only module that talks to git (the binary, GitPython or dulwich).

Every git failure becomes a :class:`GitError` carrying the command and git's own words.
Hooks run with ``GIT_DIR``/``GIT_INDEX_FILE`` exported; :func:`no_git_env` strips them so
a git call made from inside a hook acts on the repository we name, not the one git set.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from brv_vc.errors import GitError

_HOOK_VARS = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY",
              "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR")


def no_git_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Returns the environment without the variables git exports to hooks."""
    env = dict(os.environ if base is None else base)
    for name in _HOOK_VARS:
        env.pop(name, None)
    env.setdefault("GIT_TERMINAL_PROMPT", "0")
    return env


def run(
    args: Sequence[str],
    cwd: Path,
    *,
    check: bool = True,
    input: str | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Runs ``git <args>`` in ``cwd`` and returns the completed process.

    Raises:
        GitError: git is missing, or (with ``check``) exited non-zero.
    """
    try:
        proc = subprocess.run(
            ["git", *args],
            cwd=cwd,
            input=input,
            capture_output=True,
            text=True,
            env=no_git_env(env),
            check=False,
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed or not on PATH", hint="install git (https://git-scm.com)"
        ) from None
    if check and proc.returncode != 0:
        words = (proc.stderr or proc.stdout).strip()
        raise GitError(f"git {' '.join(args[:2])} failed: {words}")
    return proc
