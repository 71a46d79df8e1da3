"""The code repository's history, read in one walk and kept as plain tuples.

``git log --raw -M`` over the range that matters gives every commit with its parents, its
committer time and the files it changed (renames detected by git). Everything staleness needs
(changes after an entry was written, renames with their new path, deletions, blobs to tell a
revert from a change) is answered from this one walk: never one ``git log`` per entry.

The parsed walk is kept in ``.brv/state/code-history.bin`` (marshal: plain tuples, per
machine) keyed by HEAD: after new commits only ``HEAD --not <the HEAD it knew>`` is read,
and a rewritten history (reset, rebase) or a changed shallow boundary reads it all again.
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import NamedTuple

from brv_vc.vc import git

# A file change: (status letter M/A/D/R/C/T, path before, path after, old blob, new blob);
# blob ids cut to BLOB_CHARS hex digits: they only tell two versions of one path apart.
# Plain tuples: a walk of 10,000 commits holds ~100,000 of them (NamedTuple.__new__ costs
# ~5 us each, a third of the whole parse).
Change = tuple[str, str, str, str, str]
STATUS, PATH, NEW_PATH, OLD_BLOB, NEW_BLOB = range(5)
CACHE = "code-history.bin"
RENAMES = "code-renames.bin"  # beside it: new path -> former path, for brv about (small)
_VERSION = 3
BLOB_CHARS = 16


class CommitRow(NamedTuple):
    """One commit of the walk, newest first (topological order)."""

    sha: str
    parents: tuple[str, ...]
    time: int  # committer time, seconds since the epoch
    date: str  # committer date, ISO 8601
    subject: str
    changes: tuple[Change, ...]


def parse(out: str) -> list[CommitRow]:
    """Parses the output of :func:`brv_vc.vc.git.history`."""
    rows: list[CommitRow] = []
    names: dict[str, str] = {}  # one string per path: the cache stores each path once
    cut = BLOB_CHARS
    for chunk in out.split("\x01")[1:]:
        fields = chunk.split("\0")
        sha, parents, time, date, subject = fields[:5]
        changes: list[Change] = []
        i, end = 5, len(fields)
        while i < end:
            meta = fields[i]
            if meta[:1] == "\n":
                meta = meta[1:]
            if meta[:1] != ":":
                i += 1
                continue
            parts = meta.split(" ")
            status = parts[4][:1]
            if status in ("R", "C") and i + 2 < end:
                old = names.setdefault(fields[i + 1], fields[i + 1])
                new = names.setdefault(fields[i + 2], fields[i + 2])
                changes.append((status, old, new, parts[2][:cut], parts[3][:cut]))
                i += 3
            else:
                path = fields[i + 1] if i + 1 < end else ""
                path = names.setdefault(path, path)
                changes.append((status, path, path, parts[2][:cut], parts[3][:cut]))
                i += 2
        rows.append(CommitRow(sha, tuple(parents.split()), int(time), date, subject,
                              tuple(changes)))
    return rows


def walk(repo: Path, revs: list[str]) -> list[CommitRow]:
    """Parses one ``git log`` over ``revs`` (e.g. ``["HEAD"]`` or ``["HEAD", "^REV"]``)."""
    return parse(git.history(repo, revs).decode("utf-8", "surrogateescape"))


def walk_head(repo: Path, head: str, state: Path | None, name: str = CACHE) -> list[CommitRow]:
    """The whole history of ``head``, from the cache when it knows an ancestor of it.

    Args:
        repo: the code repository.
        head: the commit id of HEAD.
        state: the folder holding the cache (None: no cache).
        name: the cache's file name (the knowledge repository of standalone mode has its own).
    """
    cache = state / name if state is not None else None
    shallow = git.is_shallow(repo)
    known: list[CommitRow] = []
    if cache is not None:
        try:
            version, was_shallow, old_head, raw = marshal.loads(cache.read_bytes())
            if version == _VERSION and was_shallow == shallow and (
                    old_head == head or git.is_ancestor(repo, old_head, head)):
                known = [CommitRow(*row) for row in raw]
                if old_head == head:
                    return known
                rows = walk(repo, [head, "^" + old_head]) + known
                _save(cache, shallow, head, rows)
                return rows
        except (OSError, ValueError, EOFError, TypeError):
            pass  # no cache, or one this version cannot read: walk it all
    rows = walk(repo, [head])
    if cache is not None:
        _save(cache, shallow, head, rows)
    return rows


def _save(cache: Path, shallow: bool, head: str, rows: list[CommitRow]) -> None:
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temp = cache.with_name(cache.name + f".{os.getpid()}.tmp")
        temp.write_bytes(marshal.dumps((_VERSION, shallow, head, [tuple(r) for r in rows])))
        os.replace(temp, cache)  # readers see the old file or the new one, never half
        if cache.name == CACHE:
            into: dict[str, str] = {}  # the newest rename into each path
            for row in rows:
                for status, old, new, _, _ in row.changes:
                    if status == "R" and new not in into:
                        into[new] = old
            temp.write_bytes(marshal.dumps(into))
            os.replace(temp, cache.with_name(RENAMES))
    except OSError:
        pass  # a cache: never a reason to fail


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
