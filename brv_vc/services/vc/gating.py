"""Review gates the team (issue 12): pending review entries never leave this machine.

With review enabled, ``brv vc commit`` refuses while a staged path has a pending entry,
``brv vc push`` while a commit it would publish touched one, and the pre-commit hook does
the same for a plain ``git commit``. ``--include-pending`` (or ``BRV_INCLUDE_PENDING=1``
for plain git) overrides. With review disabled nothing is gated (a solo user).
"""

from __future__ import annotations

from brv_vc.errors import ConflictError
from brv_vc.services import review
from brv_vc.tree.project import Project
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: vc push imports no collections.abc
    from collections.abc import Sequence

OVERRIDE_ENV = "BRV_INCLUDE_PENDING"
# The key of a hook's StagedProblem for a staged file waiting for review: valid knowledge,
# only not approved yet (the refusal says pending, never "not valid knowledge").
PENDING_KEY = "review"


def project_of(repo: KnowledgeRepo) -> Project:
    """The project whose ``.brv/context-tree`` the repository holds."""
    return Project(repo.tree.parent.parent)


def pending_in(repo: KnowledgeRepo, paths: Sequence[str]) -> tuple[review.ReviewEntry, ...]:
    """Pending review entries touching any of the tree paths (none when review is off)."""
    project = project_of(repo)
    # the settings alone say review is off (the usual case): the queue is not even imported
    if not paths or not review.is_enabled(project):
        return ()
    return review.pending_for(project, paths)


def describe(entries: Sequence[review.ReviewEntry]) -> list[str]:
    """One line per entry: ``#12 [dream/prune] Archived a/b/c.md — why``."""
    return [f"#{e.id} {e.line()}" for e in entries]


def refuse_pending(repo: KnowledgeRepo, paths: Sequence[str], action: str) -> None:
    """Raises when ``action`` would share changes still waiting for review.

    Raises:
        ConflictError: naming the entries, ``brv review pending`` and the override.
    """
    found = pending_in(repo, paths)
    if not found:
        return
    lines = [f"cannot {action}: {len(found)} change(s) waiting for review would be included"]
    lines.extend(f"  {line}" for line in describe(found))
    raise ConflictError(
        "\n".join(lines), file=found[0].paths[0],
        hint=f"review them with 'brv review pending' (approve or reject), or {action} them "
             "anyway with --include-pending",
    )

