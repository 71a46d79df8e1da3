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


def descendants_of(rows: list[CommitRow], marks: dict[str, int]) -> dict[str, int]:
    """For each commit, the bits of the marked commits it is an ancestor (or itself) of.

    ``marks`` gives each marked commit (the entries' last commits) one bit. One pass over
    the walk in topological order (children first) pushes each commit's bits to its parents,
    so "is C an ancestor of E" for every E at once costs one integer operation per question.
    """
    bits: dict[str, int] = {}
    for row in rows:
        mine = bits.get(row.sha, 0) | marks.get(row.sha, 0)
        if mine:
            bits[row.sha] = mine
            for parent in row.parents:
                bits[parent] = bits.get(parent, 0) | mine
    return bits
