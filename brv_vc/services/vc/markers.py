"""What no commit and no push may carry: conflict markers, tracked sync-excluded files.

Shared by ``brv vc commit``, ``merge --continue``, ``brv vc push`` and the pre-push hook.
Apart from ``committing`` so that a push, run on every change, imports none of what a
commit needs (its records, ``typing``, the trailers): only the marker rule
(``format/conflicts.py``) and the git adapter.
"""

from __future__ import annotations

from brv_vc.errors import ConflictError, GitError
from brv_vc.format.conflicts import has_conflict
from brv_vc.vc import exclusions, git
from brv_vc.vc.git.conflict_grep import files_with_conflicts
from brv_vc.vc.git.symlinks import LINK_MODE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from brv_vc.vc.repo import KnowledgeRepo


def conflict_marker_files(repo: KnowledgeRepo, where: str) -> list[str]:
    """Tracked knowledge files holding a conflict block (``format/conflicts.py``).

    ``where`` is "worktree", "index" or a commit.

    Raises:
        GitError: ``git grep`` failed (a match and no match are both normal).
    """
    names = files_with_conflicts(repo.workdir, where, repo.pathspec())
    return [p for p in (repo.tree_path(n) for n in sorted(names)) if p]


def refuse_markers(repo: KnowledgeRepo, where: str, action: str) -> None:
    """Raises ConflictError when tracked knowledge files still hold conflict markers."""
    refuse_marker_files(conflict_marker_files(repo, where), action)


def refuse_marker_files(found: list[str], action: str) -> None:
    """Raises ConflictError naming the files (tree paths) that hold conflict markers."""
    if found:
        raise ConflictError(
            f"cannot {action}: conflict markers remain in " + ", ".join(found),
            file=found[0],
            hint="edit the files to resolve each <<<<<<< / ======= / >>>>>>> block, then "
                 "'brv vc add' them",
        )


def marker_files_in(repo: KnowledgeRepo, changes: Sequence[tuple[str, str, str, str]],
                    blobs: Mapping[str, bytes] | None = None) -> list[str]:
    """The tree paths among ``changes`` whose new blob holds a conflict block.

    ``changes``: ``(status, path, blob, mode)`` rows of ``git diff --raw`` (staged, or
    between two commits). Only these blobs are read: a file the change does not touch
    cannot bring markers in, so the check costs what the change costs. ``blobs``: those the
    caller read already; the others are read here (``git.changed_blobs``).
    """
    present = [(rel, blob) for status, path, blob, mode in changes
               if status != "D" and mode not in (LINK_MODE, "160000")
               and (rel := repo.tree_path(path)) is not None]
    blobs = git.changed_blobs(repo.workdir, changes, blobs)
    return [rel for rel, blob in present if has_conflict(blobs.get(blob, b""))]


def refuse_excluded(repo: KnowledgeRepo, tracked: list[str], action: str) -> None:
    """Raises GitError when sync-excluded files (force-added) are tracked."""
    bad = [p for p in tracked if exclusions.is_excluded(p)]
    if bad:
        cmd = "git rm --cached -- " + " ".join(repo.repo_path(p) for p in bad)
        if not repo.prefix:
            cmd = "git -C .brv/context-tree rm --cached -- " + " ".join(bad)
        raise GitError(
            f"cannot {action}: sync-excluded (derived) files are tracked: {', '.join(bad)}"
,
            file=bad[0],
            hint=f"untrack them (the files stay on disk): {cmd}",
        )
