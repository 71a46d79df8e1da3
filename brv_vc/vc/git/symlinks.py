"""Symlinks git stores (mode 120000): a commit can bring one, and brv never reads through it.

Part of the git package (only ``vc/git/`` runs git): the pre-commit check, ``vc add``
and the post-change step of pull, clone, merge and checkout ask which paths are links.
"""

from __future__ import annotations

from pathlib import Path

from brv_vc.vc.git.process import _git_bytes

LINK_MODE = "120000"


def symlinks_at(repo: Path, rev: str | None, pathspec: str | None = None,
                index_file: str | None = None) -> list[str]:
    """Repo-relative paths stored as symlinks at commit ``rev`` (None: in the index).

    Args:
        repo: the work tree.
        rev: a commit, or None for the staged index.
        pathspec: limit to this path (the tree's prefix in in-project mode).
        index_file: the GIT_INDEX_FILE a hook was given.
    """
    args = ["ls-tree", "-r", "-z", "--full-tree", rev] if rev else ["ls-files", "-s", "-z"]
    out = _git_bytes([*args, "--", pathspec] if pathspec else args, repo, index_file=index_file)
    found = []
    for record in out.decode("utf-8", "surrogateescape").split("\0"):
        meta, _, path = record.partition("\t")
        if meta.startswith(LINK_MODE + " "):
            found.append(path)
    return found
