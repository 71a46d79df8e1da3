"""Deciding, from one walk, what happened to each linked file after its entry was written.

Pure computation over :mod:`history` rows: no git here. An entry is written either at a
commit of the same graph (in-project mode: exact ancestry) or at a time (standalone and
unversioned trees: the code's commits are compared by committer time).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from typing import NamedTuple

from brv_vc.services.code_links.history import CommitRow, descendants_of
from brv_vc.vc.git.raw import Change

CHANGED = "changed"
RENAMED = "renamed"
DELETED = "deleted"
STRENGTH = {CHANGED: 1, RENAMED: 2, DELETED: 3}


class Written(NamedTuple):
    """When an entry was last written: a commit of the walk, or a time, or before the walk."""

    sha: str | None  # in-project: the commit that last touched the entry (None: not in walk)
    time: float | None  # standalone/unversioned: seconds since the epoch (None: unknown)


class FileFate(NamedTuple):
    """What became of one linked file after the entry was written."""

    path: str
    reason: str  # CHANGED, RENAMED or DELETED
    new_path: str | None
    # the commits that touched it: bit i set for row i of the walk (newest first). An integer
    # bit set: an entry's files are joined by OR and counted by bit_count, in C
    commits: int


class Timeline:
    """The walk indexed by path, with the "after the entry was written" test."""

    def __init__(self, rows: list[CommitRow], head_blobs: dict[str, str],
                 shallow: bool = False) -> None:
        self.rows = rows
        # a shallow clone's boundary commits: an ancestry that reaches one is cut there
        self.cut = [row.sha for row in rows if not row.parents] if shallow else []
        self.head = head_blobs
        self.marks: dict[str, int] = {}
        self.bits: dict[str, int] = {}
        self._fates: dict[tuple[Written, str], FileFate | None] = {}
        self._paths: list[str] | None = None  # every known path, sorted: a folder's files
        self.touches: dict[str, list[tuple[int, Change]]] = {}
        self.position = {row.sha: i for i, row in enumerate(rows)}
        for i, row in enumerate(rows):
            for change in row.changes:
                self.touches.setdefault(change[1], []).append((i, change))
                if change[2] != change[1]:
                    self.touches.setdefault(change[2], []).append((i, change))

    def known(self) -> set[str]:
        """Every path at HEAD or changed in the walk (what a text link may resolve to)."""
        return {*self.head, *self.touches}

    def gone(self, path: str) -> bool:
        """True when ``path`` may have been deleted (every path whose fate is ``deleted``).

        Not at HEAD, and it (or a file in it: a folder) changed in the walk.
        """
        return path not in self.head and (path in self.touches or bool(self.files_under(path)))

    def files_under(self, folder: str) -> list[str]:
        """The paths at HEAD or in the walk inside ``folder`` (empty: not a folder of either)."""
        if self._paths is None:
            self._paths = sorted(self.known())
        low = folder.rstrip("/") + "/"
        start = bisect.bisect_left(self._paths, low)
        end = bisect.bisect_left(self._paths, low[:-1] + "0", start)  # "0" follows "/"
        return self._paths[start:end]

    def mark(self, shas: set[str]) -> None:
        """Prepares the ancestry test for the entries' last commits (in-project mode)."""
        self.marks = {sha: 1 << n for n, sha in enumerate(sorted(shas & set(self.position)))}
        self.bits = descendants_of(self.rows, self.marks)

    def after(self, written: Written) -> Callable[[int], bool]:
        """The test "row i came after the entry was written"."""
        if written.sha is not None and written.sha in self.position:
            if written.sha not in self.marks:
                self.mark({*self.marks, written.sha})
            bit, bits, rows = self.marks[written.sha], self.bits, self.rows
            if written.time is not None and any(bits.get(c, 0) & bit for c in self.cut):
                # its history is cut: a commit the clone cannot place must also be newer
                time = written.time
                return lambda i: not bits.get(rows[i].sha, 0) & bit and rows[i].time > time
            return lambda i: not bits.get(rows[i].sha, 0) & bit  # not an ancestor of it
        if written.time is not None:
            time, rows = written.time, self.rows
            return lambda i: rows[i].time > time
        return lambda i: True  # written before the walk began (--since REV)

    def _events(self, path: str, after: Callable[[int], bool], limit: int
                ) -> list[tuple[int, Change]]:
        """The changes of ``path`` after the entry was written and newer than row ``limit``."""
        found = [(i, c) for i, c in self.touches.get(path, ()) if i < limit and after(i)]
        found.sort(key=lambda event: -event[0])  # oldest first
        return found

    def fate_of(self, path: str, written: Written) -> FileFate | None:
        """:meth:`fate`, remembered per (written, path): entries written together share it."""
        key = (written, path)
        if key not in self._fates:
            if path in self.head or path in self.touches:
                self._fates[key] = self.fate(path, self.after(written))
            else:  # a folder (or a path no commit knows: no files, no fate)
                self._fates[key] = self.folder_fate(path, written)
        return self._fates[key]

    def folder_fate(self, folder: str, written: Written) -> FileFate | None:
        """A folder's fate: its files' (a file added, changed, renamed or deleted in it).

        The folder changed while it still has a file at HEAD; gone, it was renamed when
        every file that left it went to one new folder, else deleted.
        """
        files = self.files_under(folder)
        fates = [f for p in files if (f := self.fate_of(p, written))]
        if not fates:
            return None
        commits = 0
        for fate in fates:
            commits |= fate.commits
        if any(p in self.head for p in files):
            return FileFate(folder, CHANGED, None, commits)
        moved = {_new_folder(folder, f.path, f.new_path) if f.reason == RENAMED else None
                 for f in fates}
        if len(moved) == 1 and None not in moved:
            return FileFate(folder, RENAMED, moved.pop(), commits)
        return FileFate(folder, DELETED, None, commits)

    def fate(self, path: str, after: Callable[[int], bool]) -> FileFate | None:
        """What happened to ``path`` since; None when it is as it was (or never changed).

        A path that exists at HEAD is judged by content: changed unless its blob is the one
        it had when the entry was written (a change undone, a file deleted and re-added as
        it was), as ``git diff`` between the two would say. A path gone from HEAD is followed
        through git's renames to its new name; when the chain ends nowhere, it was deleted.
        """
        events = self._events(path, after, len(self.rows))
        if not events:
            return None
        commits = [i for i, _ in events]
        if path in self.head:
            first = events[0][1]
            before = first[3] if first[1] == path and first[0] != "A" else None
            if before is not None and before == self.head[path]:
                return None
            return FileFate(path, CHANGED, None, _bits(commits))
        current = path
        while True:
            rename = next(((i, c[2]) for i, c in events  # (status, path, new path, ...)
                           if c[0] == "R" and c[1] == current and c[2] != current), None)
            if rename is None:
                break
            current = rename[1]
            if current in self.head:
                events = self._events(current, after, rename[0])
                commits.extend(i for i, _ in events)
                break
            events = self._events(current, after, rename[0])
            commits.extend(i for i, _ in events)
        ordered = _bits(commits)
        if current != path and current in self.head:
            return FileFate(path, RENAMED, current, ordered)
        return FileFate(path, DELETED, None, ordered)


def _new_folder(folder: str, old: str, new: str | None) -> str | None:
    """``src/a`` for a file moved from ``src/auth/x/f.py`` to ``src/a/x/f.py`` (else None)."""
    rest = old[len(folder):]  # "/x/f.py"
    if new is None or not new.endswith(rest) or len(new) == len(rest):
        return None
    return new[:-len(rest)]


def _bits(rows: list[int]) -> int:
    mask = 0
    for i in rows:
        mask |= 1 << i
    return mask


def newest(mask: int) -> int:
    """The lowest set bit's index: the newest commit of a bit set."""
    return (mask & -mask).bit_length() - 1
