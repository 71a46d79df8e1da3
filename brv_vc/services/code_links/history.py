"""The code repository's history, read in one walk and kept as plain tuples.

``git log --raw -M`` over the range that matters gives every commit with its parents, its
committer time and the files it changed (renames detected by git). Everything staleness needs
(changes after an entry was written, renames with their new path, deletions, blobs to tell a
revert from a change) is answered from this one walk: never one ``git log`` per entry.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from brv_vc.vc import git


class Change(NamedTuple):
    """One file change of a commit: ``status`` is git's letter (M, A, D, R, C, T)."""

    status: str
    path: str  # the path before (for R and C: the old path)
    new_path: str  # the path after (== path unless renamed or copied)
    old_blob: str
    new_blob: str


class CommitRow(NamedTuple):
    """One commit of the walk, newest first (topological order)."""

    sha: str
    parents: tuple[str, ...]
    time: int  # committer time, seconds since the epoch
    date: str  # committer date, ISO 8601
    subject: str
    changes: tuple[Change, ...]


def walk(repo: Path, revs: list[str]) -> list[CommitRow]:
    """Parses one ``git log`` over ``revs`` (e.g. ``["HEAD"]`` or ``["HEAD", "^REV"]``)."""
    out = git.history(repo, revs).decode("utf-8", "surrogateescape")
    rows: list[CommitRow] = []
    for chunk in out.split("\x01")[1:]:
        fields = chunk.split("\0")
        sha, parents, time, date, subject = fields[:5]
        changes: list[Change] = []
        rest = fields[5:]
        i = 0
        while i < len(rest):
            meta = rest[i].lstrip("\n")
            if not meta.startswith(":"):
                i += 1
                continue
            parts = meta[1:].split()
            status = parts[4][:1]
            if status in ("R", "C") and i + 2 < len(rest):
                changes.append(Change(status, rest[i + 1], rest[i + 2], parts[2], parts[3]))
                i += 3
            else:
                path = rest[i + 1] if i + 1 < len(rest) else ""
                changes.append(Change(status, path, path, parts[2], parts[3]))
                i += 2
        rows.append(CommitRow(sha, tuple(parents.split()), int(time), date, subject,
                              tuple(changes)))
    return rows


def generations(rows: list[CommitRow]) -> dict[str, int]:
    """Each commit's generation number (1 + the highest of its parents'; walk roots are 1).

    A commit of lower or equal generation than another cannot descend from it, which answers
    most "is C an ancestor of E" questions without visiting the graph.
    """
    gen: dict[str, int] = {}
    for row in reversed(rows):  # topological order reversed: parents before children
        gen[row.sha] = 1 + max((gen.get(p, 0) for p in row.parents), default=0)
    return gen


class Graph:
    """Ancestry questions over a walk (exact within it)."""

    def __init__(self, rows: list[CommitRow]) -> None:
        self.parents = {row.sha: row.parents for row in rows}
        self.gen = generations(rows)
        self._memo: dict[tuple[str, str], bool] = {}

    def is_ancestor(self, older: str, newer: str) -> bool:
        """True when ``older`` is ``newer`` or one of its ancestors."""
        if older == newer:
            return True
        low = self.gen.get(older)
        if low is None or self.gen.get(newer, 0) <= low:
            return False
        key = (older, newer)
        if key not in self._memo:
            seen = {newer}
            todo = [newer]
            found = False
            while todo and not found:
                for parent in self.parents.get(todo.pop(), ()):
                    if parent == older:
                        found = True
                        break
                    if parent not in seen and self.gen.get(parent, 0) > low:
                        seen.add(parent)
                        todo.append(parent)
            self._memo[key] = found
        return self._memo[key]
