"""Finding a git work tree from the files alone (the cold paths and the tree layer run no git)."""

from __future__ import annotations

import os
from pathlib import Path


def git_top(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``.git`` (a folder or a worktree's file).

    A filesystem walk, no git process (the cold paths and the tree layer run none): what
    ``git rev-parse --show-toplevel`` finds in the common case.
    """
    folder = Path(os.path.abspath(start))
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def git_folder(top: Path) -> Path | None:
    """The git folder of the work tree at ``top`` (None when it cannot be read).

    Its ``.git`` folder, or the gitdir a ``.git`` file names (a linked worktree, a submodule).
    """
    dot = top / ".git"
    if dot.is_dir():
        return dot
    try:
        with open(dot, encoding="utf-8") as handle:
            line = handle.read().strip()
    except OSError:
        return None
    if line.startswith("gitdir:"):
        return Path(os.path.normpath(os.path.join(top, line[7:].strip())))
    return None
