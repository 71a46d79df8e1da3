"""What no commit and no push may carry: conflict markers, tracked sync-excluded files.

Shared by ``brv vc commit``, ``merge --continue``, ``brv vc push`` and the pre-push hook.
Apart from ``committing`` so that a push, run on every change, imports none of what a
commit needs (its records, ``typing``, the trailers): only ``re`` and the git adapter.
"""

from __future__ import annotations

import re

from brv_vc.errors import ConflictError, GitError
from brv_vc.pattern import lazy
from brv_vc.vc import exclusions, git
from brv_vc.vc.git_links import LINK_MODE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from brv_vc.vc.repo import KnowledgeRepo


def conflict_marker_files(repo: KnowledgeRepo, where: str) -> list[str]:
    """Tracked knowledge files holding a marker triplet.

    ``where`` is "worktree", "index" or a commit.

    Raises:
        GitError: ``git grep`` failed (a match and no match are both normal).
    """
    scope = [] if where == "worktree" else ["--cached"] if where == "index" else [where]
    proc = repo.git("grep", "-l", "-I", "--all-match", "-e", "^<<<<<<<", "-e", "^=======",
                    "-e", "^>>>>>>>", *scope, *repo.pathspec(), check=False)
    if proc.returncode not in (0, 1):
        raise GitError(f"git grep failed: {proc.stderr.strip()}")
    names = [line.split(":", 1)[1] if where not in ("worktree", "index") else line
             for line in proc.stdout.splitlines() if line]
    return [p for p in (repo.tree_path(n) for n in names) if p]


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


# compiled at the first file that holds <<<<<<< (most commits and pushes have none)
_MARKERS = (lazy(rb"^<<<<<<<", re.M), lazy(rb"^=======", re.M), lazy(rb"^>>>>>>>", re.M))


def _marker_triplet(data: bytes) -> bool:
    """What ``git grep -I --all-match -e ^<<<<<<< -e ^======= -e ^>>>>>>>`` finds in a file."""
    # no ^<<<<<<< without the seven characters: one substring search (~0.2 us for 2 KB)
    # spares the line-anchored scans (~20 us) of every file that has none
    if b"<<<<<<<" not in data or b"\0" in data[:8000]:  # binary, skipped as by grep -I
        return False
    return all(marker.search(data) for marker in _MARKERS)


def marker_files_in(repo: KnowledgeRepo, changes: Sequence[tuple[str, str, str, str]],
                    blobs: Mapping[str, bytes] | None = None) -> list[str]:
    """The tree paths among ``changes`` whose new blob holds a conflict marker triplet.

    ``changes``: ``(status, path, blob, mode)`` rows of ``git diff --raw`` (staged, or
    between two commits). Only these blobs are read: a file the change does not touch
    cannot bring markers in, so the check costs what the change costs. ``blobs``: those the
    caller read already; the others are read here (``git.changed_blobs``).
    """
    present = [(rel, blob) for status, path, blob, mode in changes
               if status != "D" and mode not in (LINK_MODE, "160000")
               and (rel := repo.tree_path(path)) is not None]
    blobs = git.changed_blobs(repo.workdir, changes, blobs)
    return [rel for rel, blob in present if _marker_triplet(blobs.get(blob, b""))]


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
