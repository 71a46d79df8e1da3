"""Listings of paths: the files of a commit, the work tree's changes, what is ignored."""

from __future__ import annotations

from brv_vc.vc.git.errors import translate
from brv_vc.vc.git.process import _git_bytes, run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

def tree_blobs(repo: Path, rev: str = "HEAD") -> dict[str, str]:
    """Every file of a commit -> its blob id (``ls-tree -r``); empty before the first commit."""
    out = _git_bytes(["ls-tree", "-r", "-z", "--full-tree", rev], repo, ok=(0, 128))
    found: dict[str, str] = {}
    for record in out.decode("utf-8", "surrogateescape").split("\0"):
        meta, _, path = record.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "blob":
            found[path] = parts[2]
    return found


def work_changes(repo: Path, *pathspecs: str) -> list[str]:
    """Paths modified, staged or untracked in the work tree (``status --porcelain``)."""
    args = ["status", "--porcelain", "-z", "--untracked-files=all", "--no-renames"]
    out = _git_bytes([*args, "--", *pathspecs] if pathspecs else args, repo)
    return [p[3:] for p in out.decode("utf-8", "surrogateescape").split("\0") if len(p) > 3]


def ignored_paths(repo: Path, paths: Sequence[str]) -> set[str]:
    """The paths the repository's ignore rules exclude, tracked or not (``check-ignore``)."""
    if not paths:
        return set()
    data = "".join(f"{p}\0" for p in paths).encode("utf-8", "surrogateescape")
    out = _git_bytes(["check-ignore", "--no-index", "-z", "--stdin"], repo, input=data, ok=(0, 1))
    return {p for p in out.decode("utf-8", "surrogateescape").split("\0") if p}


def tree_paths(repo: Path, rev: str, *pathspec: str) -> list[str]:
    """The files of commit ``rev`` (repo-relative), limited to ``pathspec`` (``ls-tree``).

    Raises:
        GitError: ``rev`` names no commit.
    """
    out = _git_bytes(["ls-tree", "-r", "-z", "--name-only", "--full-tree", rev, *pathspec],
                     repo)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def tracked(folder: Path) -> list[str] | None:
    """The files git tracks under ``folder``, relative to it; None outside a repository."""
    proc = run(["ls-files", "-z", "--", "."], folder, check=False)
    return [p for p in proc.stdout.split("\0") if p] if proc.returncode == 0 else None


def is_tracked(repo: Path, path: str) -> bool:
    """True when the index holds ``path`` (``ls-files --error-unmatch``)."""
    return run(["ls-files", "--error-unmatch", "--", path], repo, check=False).returncode == 0


def staged_deletions(repo: Path, pathspec: Sequence[str], index_file: Path | None = None
                     ) -> list[str]:
    """The paths whose deletion is staged (``index_file``: the index a hook was given).

    ``pathspec``: git arguments, starting with ``--``.

    Raises:
        GitError: git refused, in :func:`errors.translate`'s words.
    """
    args = ["diff", "--cached", "--name-only", "-z", "--no-renames", "--diff-filter=D",
            *pathspec]
    proc = run(args, repo, check=False, index_file=index_file)
    if proc.returncode != 0:
        raise translate(args, proc)
    return [p for p in proc.stdout.split("\0") if p]


def write_tree(repo: Path, index_file: Path | None = None) -> str | None:
    """The tree id of the index as git would commit it (``write-tree``); None if git cannot.

    ``index_file``: the index a hook was given. None also for unmerged entries.
    """
    proc = run(["write-tree"], repo, check=False, index_file=index_file)
    return (proc.stdout.strip() or None) if proc.returncode == 0 else None
