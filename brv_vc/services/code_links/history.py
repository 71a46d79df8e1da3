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

from brv_vc.services.code_links.concern import RENAMES  # beside CACHE: new -> former path
from brv_vc.vc import git
from brv_vc.vc.git.raw import Change, records

CACHE = "code-history.bin"
_VERSION = 3
BLOB_CHARS = 16  # of each blob id kept: they only tell two versions of one path apart


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
    names: dict[str, str] = {}  # one string per path: the cache stores each path once
    return [CommitRow(fields[0], tuple(fields[1].split()), int(fields[2]), fields[3], fields[4],
                      tuple(changes))
            for fields, changes in records(out, 5, cut=BLOB_CHARS, names=names)]


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
