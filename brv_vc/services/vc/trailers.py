"""Which staged deletions are archives: the ``Brv-Archived:`` trailers of a commit.

Apart from ``committing`` so the commit-msg hook, which runs on every ``git commit``,
imports only this (no review, status or archive services).
"""

from __future__ import annotations

from pathlib import Path

from brv_vc.tree.layout import ARCHIVE_DIR
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo


def archived_deletions(repo: KnowledgeRepo, index_file: Path | None = None,
                       deleted: list[str] | None = None) -> list[str]:
    """Staged deletions of entries archived on this machine (an ``_archived/`` copy exists).

    These are the paths a commit names in ``Brv-Archived:`` trailers, so every other clone
    rebuilds the archive from history. ``index_file`` is the index git handed a hook
    (``commit -a``); ``deleted``: the staged deletions (tree paths) when the caller has
    listed them already.
    """
    if deleted is None:
        out = git.staged_deletions(repo.workdir, repo.pathspec(), index_file)
        deleted = [p for p in (repo.tree_path(x) for x in out) if p]
    return [p for p in deleted if archived_locally(repo, p)]


def archived_locally(repo: KnowledgeRepo, path: str) -> bool:
    """True when this machine holds an archive of the entry at tree path ``path``."""
    stem = path.removesuffix(".md")
    base = repo.tree / ARCHIVE_DIR
    return any((base / name).exists() for name in (f"{stem}.full.md", f"{stem}.stub.md", path))
