"""Adopting a tree whose derived files are tracked (a ByteRover tree, an older brv setup).

ByteRover repositories commit ``_index.md``, abstracts, overviews and ``_manifest.json``. For
brv they are derived: regenerated on every machine, never synced. Adoption is one clear
step of ``brv vc init --adopt``: the derived files leave the index in a commit of their own
(the files stay on disk), and the summaries and abstracts that were there are kept as
current while what they describe is unchanged, instead of being replaced by brv's shorter
extractive text.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from brv_vc.tree.layout import SUMMARY_FILE, is_derived
from brv_vc.tree.project import Project
from brv_vc.vc import exclusions, git
from brv_vc.vc.git import stage
from brv_vc.vc.git.commit import commit
from brv_vc.vc.repo import KnowledgeRepo

ADOPT_MESSAGE = "brv: stop tracking derived files (regenerated on every machine)"


@dataclass(frozen=True)
class Adoption:
    """What adoption did: the files untracked (repository paths) and the commit."""

    untracked: tuple[str, ...]
    commit: str | None
    kept_summaries: tuple[str, ...]  # tree paths of the _index.md files kept as current
    tracked: tuple[str, ...] = ()  # without adopt: the derived files git still tracks
    notes: tuple[str, ...] = ()


def init_step(project: Project, repo: KnowledgeRepo, adopt: bool) -> Adoption:
    """The adoption step of ``brv vc init``: untrack (``adopt``) or name the tracked files."""
    if adopt:
        return adopt_derived(project, repo)
    tracked = tuple(tracked_derived(repo))
    if not tracked:
        return Adoption((), None, ())
    note = (f"{len(tracked)} derived file(s) (_index.md, abstracts, overviews, manifest) are "
            "tracked by git; brv regenerates them on every machine: run 'brv vc init "
            "--adopt' to untrack them in one commit (the files stay on disk)")
    return Adoption((), None, (), tracked, (note,))


def tracked_derived(repo: KnowledgeRepo) -> list[str]:
    """The derived files of the tree that git tracks (repository paths, sorted)."""
    if repo.head() is None:
        return []
    found = []
    for path in stage.indexed(repo, repo.pathspec()):
        rel = repo.tree_path(path)
        if rel is not None and is_derived(rel):
            found.append(path)
    return sorted(found)


def _dirty(repo: KnowledgeRepo) -> list[str]:
    """Tree paths of knowledge with uncommitted changes (untracked, both sides of renames)."""
    dirty = []
    for path in git.work_changes(repo.workdir, repo.prefix or "."):
        rel = repo.tree_path(path)
        # only knowledge counts: derived files and the managed dot-files describe nothing
        if rel is not None and not is_derived(rel) and not rel.rsplit("/", 1)[-1].startswith("."):
            dirty.append(rel)
    return dirty


def _trusted_folders(repo: KnowledgeRepo, summaries: list[str]) -> list[str]:
    """Folders whose committed ``_index.md`` describes their children as they are on disk.

    Nothing under the folder differs from HEAD: the summary was committed with them.
    """
    dirty = _dirty(repo)
    folders = []
    for rel in summaries:
        folder = rel.removesuffix(SUMMARY_FILE).rstrip("/")
        prefix = folder + "/" if folder else ""
        if not any(path.startswith(prefix) for path in dirty):
            folders.append(folder)
    return folders


def adopt_derived(project: Project, repo: KnowledgeRepo) -> Adoption:
    """Untracks the tree's derived files in one commit of its own; keeps their contents.

    The commit holds only the removals from the index plus the tree's managed
    ``.gitignore``/``.gitattributes`` (which keep the files out from now on); anything else
    staged stays staged and is not committed. brv's pre-commit hook is skipped: the commit
    adds no knowledge.

    Raises:
        GitError: git failed (e.g. no identity); nothing was committed.
    """
    paths = tracked_derived(repo)
    if not paths:
        return Adoption((), None, ())
    summaries = [rel for p in paths
                 if (rel := repo.tree_path(p)) is not None and rel.endswith(SUMMARY_FILE)]
    kept = _keep_summaries(project, _trusted_folders(repo, summaries))
    exclusions.ensure_files(repo.tree)
    managed = [repo.repo_path(name) for name in (".gitignore", ".gitattributes")
               if (repo.tree / name).is_file()]
    fd, tmp = tempfile.mkstemp(prefix="brv-index-")
    os.close(fd)
    index = Path(tmp)
    try:
        index.unlink()
        stage.read_commit(repo, "HEAD", index_file=index)
        stage.drop_entries(repo, paths, index_file=index)
        if managed:
            stage.force_add(repo, managed, index_file=index)
        body = "Untracked:\n" + "".join(f"  {p}\n" for p in paths)
        commit(repo, ADOPT_MESSAGE, body, index_file=index, hooks=False)
    finally:
        index.unlink(missing_ok=True)
    stage.drop_entries(repo, paths)
    if managed:
        stage.unstage(repo, ["--", *managed])
    return Adoption(tuple(paths), repo.head(), tuple(kept))


def _keep_summaries(project: Project, folders: list[str]) -> list[str]:
    """Records the ``_index.md`` of ``folders`` as current (see ``summary.folders.adopt``)."""
    if not folders:
        return []
    from brv_vc.summary import folders as folders_mod
    from brv_vc.summary.records import Records
    from brv_vc.tree.statedb import open_state

    conn = open_state(project)
    try:
        return folders_mod.adopt(project, folders, Records(conn))
    finally:
        conn.close()


__all__ = ["ADOPT_MESSAGE", "Adoption", "adopt_derived", "init_step", "tracked_derived"]
