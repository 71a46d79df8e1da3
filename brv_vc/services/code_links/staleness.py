"""``brv stale``: entries whose linked files changed after the entry was last written.

One walk of the code repository's history answers for the whole tree (never one
``git log`` per entry).
"""

from __future__ import annotations

from collections.abc import Mapping

from brv_vc.services.code_links.model import StaleReport
from brv_vc.tree.project import Project


def stale(project: Project, since: str | None = None) -> StaleReport:
    """Every entry whose linked files changed, were deleted or renamed after it was written.

    Args:
        project: the project.
        since: only changes after this revision count (``--since REV``); None means
            since each entry was last committed.

    Returns:
        The stale entries, sorted by path.

    Raises:
        UsageError: ``since`` is not a revision of the code repository.
    """
    raise NotImplementedError


def stale_entries(project: Project, changed: Mapping[str, str] | None = None) -> frozenset[str]:
    """The entries currently stale (cheap, cached by HEAD and tree state: for search and brain marks).

    Args:
        project: the project.
        changed: repository path -> change letter (``M``, ``D``, ``R``...) of a diff the
            caller already has (a pull, a staged commit); when given, only entries linking
            those paths are returned and no history is walked.

    Returns:
        Tree-relative paths of the stale entries.
    """
    if changed is not None:
        from brv_vc.services.code_links.lookup import linked_entries

        found = linked_entries(project, changed)
        return frozenset(entry for entries in found.values() for entry in entries)
    return frozenset()
