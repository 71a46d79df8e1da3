"""``brv about PATH...``: the entries that describe repository files, with their freshness."""

from __future__ import annotations

from collections.abc import Iterable

from brv_vc.services.code_links.model import About
from brv_vc.tree.project import Project


def linked_entries(project: Project, paths: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The entries that link each repository path directly (``Files:`` or text).

    Args:
        project: the project.
        paths: repository-relative POSIX paths (as ``git diff --name-only`` prints them).

    Returns:
        Each asked path -> the tree-relative paths of the entries linking it, sorted
        (an empty tuple when none do). Reads the index only: no git call.
    """
    return {path: () for path in paths}


def about(project: Project, paths: Iterable[str]) -> About:
    """What the tree knows about each path: direct links first, then entries about its folders.

    Args:
        project: the project.
        paths: repository paths (relative to the repository root, or to the current
            folder when the caller resolved them), files or folders; a path that does not
            exist is a valid question (it may have been deleted).

    Returns:
        The entries per path, each with its :class:`Freshness`.
    """
    raise NotImplementedError
