"""Which repository holds the code, how the knowledge is versioned, and where a named path lands.

DESIGN.md "Git: two modes": the code repository is the one around the project (its work tree
holds ``.brv/``). In-project mode, that same repository tracks the tree, so an entry's last
commit and the code's commits are one graph; standalone mode keeps knowledge in the nested
``.brv/context-tree/.git``, and an entry's last commit is compared by time. A tree under no
git at all falls back to the entries' ``updatedAt``.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import NamedTuple

from brv_vc.errors import NotInitializedError
from brv_vc.tree.project import Project, git_top
from brv_vc.vc import git, repo

IN_PROJECT = "in-project"
STANDALONE = "standalone"
UNVERSIONED = "unversioned"  # the tree is under no git: updatedAt tells when it was written


class CodeRepo(NamedTuple):
    """The code repository and the knowledge's place in it."""

    top: Path  # the work tree's top folder (resolved)
    base: str  # the project root relative to ``top`` ('' when they are the same)
    mode: str  # IN_PROJECT, STANDALONE or UNVERSIONED
    tree_prefix: str  # the tree's repository path in IN_PROJECT mode, else ''

    def to_repo(self, named: str) -> str | None:
        """A path as an entry names it -> its repository path, or None outside the repository.

        Relative paths are read from the project root (where ``brv`` and the agent run);
        absolute ones must lie under :attr:`top`.
        """
        if not self.base and not named.startswith(("/", "../")) and named != "..":
            return named  # the index stored it normalised: nothing to do (most paths)
        if named.startswith("/"):
            rel = os.path.relpath(named, self.top)
        else:
            rel = posixpath.normpath(posixpath.join(self.base, named)) if self.base else named
        rel = rel.replace(os.sep, "/")
        if rel == ".." or rel.startswith("../") or rel.startswith("/"):
            return None
        return rel

    def knowledge(self, repo_path: str) -> bool:
        """True for paths inside the project's ``.brv/`` (knowledge, never code)."""
        brv = f"{self.base}/.brv" if self.base else ".brv"
        return repo_path == brv or repo_path.startswith(brv + "/")


def locate(project: Project, *, probe: bool = True) -> CodeRepo | None:
    """Finds the code repository around the project (None when there is none).

    Args:
        project: the project.
        probe: ask git (``rev-parse --show-toplevel``); False stays in process (the mode is
            then read from the files alone).
    """
    root = project.root.resolve()
    top = git.toplevel(root) if probe else git_top(root)
    if top is None:
        return None
    top = top.resolve()
    base = Path(os.path.relpath(root, top)).as_posix()
    base = "" if base == "." else base
    knowledge = repo.of_tree(project, top)  # the mode as every brv vc command reads it
    if knowledge is None:
        return CodeRepo(top, base, UNVERSIONED, "")
    if knowledge.in_project:
        return CodeRepo(top, base, IN_PROJECT, knowledge.prefix)
    return CodeRepo(top, base, STANDALONE, "")


def require(project: Project) -> CodeRepo:
    """:func:`locate`, or a clear error when no git repository holds the project.

    Raises:
        NotInitializedError: the project is in no git repository.
    """
    found = locate(project)
    if found is None:
        raise NotInitializedError(
            f"no git repository holds the project {project.root}: code links follow the "
            "code's git history",
            hint="run brv in the repository of your code (git init, or clone it), then try again",
        )
    return found
