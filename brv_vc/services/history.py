"""One entry's git history: each commit that touched it, with the semantic diff of its change.

``git log --follow`` lists the commits (renames followed) with their raw blob ids; dulwich
reads the blobs in process and :func:`brv_vc.vc.semdiff.diff_entry` compares them, the same
comparison as ``brv vc diff`` and ``brv review show``. Work grows with the entry's history
(bounded by ``limit``), never with the tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from brv_vc.errors import BrvError
from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project
from brv_vc.vc import git_objects
from brv_vc.vc.repo import locate
from brv_vc.vc.semdiff import EntryDiff, diff_entry

_NULL = "0" * 40


@dataclass(frozen=True)
class EntryChange:
    """One commit that changed the entry, and what it changed."""

    sha: str
    author: str
    date: str
    subject: str
    diff: EntryDiff | None  # None when the change is only a reflow (nothing meaningful)


@dataclass(frozen=True)
class EntryHistory:
    """The newest commits of one entry; ``tracked`` is False without version control."""

    path: str
    tracked: bool
    changes: tuple[EntryChange, ...]


@dataclass(frozen=True)
class _Commit:
    sha: str
    author: str
    date: str
    subject: str
    old_sha: str
    new_sha: str
    status: str
    path: str
    old_path: str | None


def _parse(out: str) -> list[_Commit]:
    commits = []
    for record in out.split("\x1e")[1:]:
        head, _, raw = record.partition("\0")
        fields = head.split("\x1f")
        if len(fields) != 4:
            continue
        parts = raw.lstrip("\n").split("\0")
        if not parts or not parts[0].startswith(":"):
            continue
        _, _, old_sha, new_sha, status = parts[0][1:].split(" ")
        renamed = status[0] in "RC" and len(parts) > 2
        path = parts[2] if renamed else parts[1]
        sha, author, date, subject = fields
        commits.append(_Commit(sha, author, date, subject, old_sha, new_sha, status[0], path,
                               parts[1] if renamed else None))
    return commits


def entry_history(project: Project, path: str, *, limit: int = 20) -> EntryHistory:
    """The last ``limit`` commits that touched the entry at ``path``, newest first.

    Raises:
        InvalidPathError: the path leaves the tree.
    """
    relpath = clean_relpath(path, what="entry path")
    try:
        repo = locate(project)
    except BrvError:  # not under version control: no history to show
        return EntryHistory(relpath, False, ())
    out = repo.git("log", "--follow", "-M", "--no-abbrev", "--raw", "-z", f"-n{limit}",
                   "--format=%x1e%H%x1f%an%x1f%aI%x1f%s", "--", repo.repo_path(relpath),
                   check=False).stdout
    commits = _parse(out)
    blobs = git_objects.read_blobs(repo.workdir, [s for c in commits
                                                  for s in (c.old_sha, c.new_sha)])
    changes = []
    for c in commits:
        old = None if c.status == "A" else blobs.get(c.old_sha)
        new = None if c.status == "D" else blobs.get(c.new_sha)
        tree_path = repo.tree_path(c.path) or c.path
        old_tree = repo.tree_path(c.old_path) if c.old_path else None
        diff = diff_entry(tree_path, old, new, old_path=old_tree)
        changes.append(EntryChange(c.sha, c.author, c.date, c.subject,
                                   None if diff.empty else diff))
    return EntryHistory(relpath, True, tuple(changes))
