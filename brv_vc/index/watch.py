"""Folder watches for a resident process (``brv mcp``): the kernel says what changed.

A resident session runs the change check before every answer. Without help that check stats
every folder the index knows (~1 ms at 25,000 entries) and sees a file edited *in place*
only once ``index.scan``'s ``find`` has finished, up to a second or so later. On Linux,
inotify watches on every folder of the tree report each change as it is made, in place or
not: a session with no event since its last check has nothing to check, and one with only
file events re-reads just those files (``sync``'s ``paths`` mode).

Anything that is not a plain file change asks the caller for a wider check: a folder made,
moved or removed (``Seen.folders``: the folder check, with the watches already set on the new
folders) or events lost to a full queue or a tree replaced (``Seen.lost``: the complete check,
after every watch is set again). Files in the tree's root and domain folders also take the
folder check, which is what notices markdown placed outside the layout.

``Watch.start`` returns None where inotify is missing (not Linux, no watches left): the
session then keeps the ordinary check.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brv_vc.tree.layout import ARCHIVE_DIR, MAX_DEPTH

_MODIFY, _ATTRIB, _MOVED_FROM, _MOVED_TO = 0x2, 0x4, 0x40, 0x80
_CREATE, _DELETE, _DELETE_SELF, _MOVE_SELF = 0x100, 0x200, 0x400, 0x800
_UNMOUNT, _OVERFLOW, _IGNORED, _ONLYDIR = 0x2000, 0x4000, 0x8000, 0x1000000
_DONT_FOLLOW, _ISDIR = 0x2000000, 0x40000000
_CHANGES = _MODIFY | _ATTRIB | _MOVED_FROM | _MOVED_TO | _CREATE | _DELETE
_MASK = _CHANGES | _DELETE_SELF | _MOVE_SELF | _ONLYDIR | _DONT_FOLLOW
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len (then the name)

_libc: Any = None  # ctypes' libc once looked up; False where inotify is missing


class _Unwatchable(Exception):
    """A folder could not be watched for a reason other than being gone."""


@dataclass(frozen=True)
class Seen:
    """What changed since the last ``take``.

    ``files``: tree-relative markdown files changed, added or removed; ``folders``: the
    folder check is needed as well; ``lost``: events were lost, the complete check is needed.
    """

    files: tuple[str, ...] = ()
    folders: bool = False
    lost: bool = False


def _inotify() -> Any:
    global _libc
    if _libc is None:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
            libc.inotify_init1.argtypes = [ctypes.c_int]
            libc.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
            _libc = libc
        except (ImportError, OSError, AttributeError):
            _libc = False
    return _libc or None


class Watch:
    """inotify watches on every folder of one tree (hidden folders, like ``.git``, left out)."""

    def __init__(self, tree: Path, libc: Any) -> None:
        self.tree = tree
        self._libc = libc
        import ctypes

        self._get_errno = ctypes.get_errno
        self._fd = -1
        self._folders: dict[int, str] = {}  # watch descriptor -> tree-relative folder

    @classmethod
    def start(cls, tree: Path) -> Watch | None:
        """Watches ``tree``; None where inotify is unavailable or the tree cannot be watched."""
        libc = _inotify()
        if libc is None:
            return None
        watch = cls(tree, libc)
        try:
            watch._open()
        except (_Unwatchable, OSError):
            watch.close()
            return None
        return watch

    def _open(self) -> None:
        fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            raise _Unwatchable(os.strerror(self._errno()))
        self._fd, self._folders = fd, {}
        if not self._add_tree(""):
            raise _Unwatchable("the tree folder is gone")

    def _errno(self) -> int:
        return int(self._get_errno())

    def _add_tree(self, start: str) -> bool:
        """Watches ``start`` and every folder under it; False when ``start`` is gone.

        Each folder is watched before it is listed, so a sub-folder made meanwhile is either
        listed here or reported by the new watch.
        """
        stack, first = [start], True
        while stack:
            rel = stack.pop()
            path = os.path.join(str(self.tree), rel) if rel else str(self.tree)
            wd = self._libc.inotify_add_watch(self._fd, os.fsencode(path), _MASK)
            if wd < 0:
                code = self._errno()
                if code in (2, 20):  # ENOENT, ENOTDIR: gone or replaced meanwhile
                    if first:
                        return False
                    continue
                raise _Unwatchable(f"{path}: {os.strerror(code)}")
            self._folders[wd] = rel
            first = False
            try:
                with os.scandir(path) as items:
                    stack.extend(
                        f"{rel}/{item.name}" if rel else item.name
                        for item in items
                        if not item.name.startswith(".") and item.is_dir(follow_symlinks=False)
                    )
            except OSError:
                continue
        return True

    def _drop_tree(self, rel: str) -> None:
        """Stops watching ``rel`` and the folders under it (moved away: their paths are stale)."""
        below = rel + "/"
        for wd, folder in list(self._folders.items()):
            if folder == rel or folder.startswith(below):
                del self._folders[wd]
                self._libc.inotify_rm_watch(self._fd, wd)

    def _read(self) -> bytes:
        chunks = []
        while True:
            try:
                chunk = os.read(self._fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def take(self) -> Seen:
        """What changed since the last call (or since the watches were set).

        Raises:
            OSError: the watches could not be set again after lost events; the caller drops
                this watch and keeps the ordinary check.
        """
        data = self._read()
        if not data:
            return Seen()
        files: set[str] = set()
        folders = lost = False
        offset = 0
        while offset < len(data):
            wd, mask, _, size = _EVENT.unpack_from(data, offset)
            raw = data[offset + _EVENT.size : offset + _EVENT.size + size].rstrip(b"\0")
            offset += _EVENT.size + size
            if mask & (_OVERFLOW | _UNMOUNT):
                lost = True
                continue
            folder = self._folders.get(wd)
            if folder is None:  # a watch already dropped
                continue
            if mask & (_DELETE_SELF | _MOVE_SELF | _IGNORED):
                if folder == "":
                    lost = True  # the tree folder itself went away or was replaced
                elif mask & _IGNORED:
                    del self._folders[wd]
                folders = True
                continue
            name = os.fsdecode(raw)
            if not name or name.startswith("."):
                continue
            rel = f"{folder}/{name}" if folder else name
            if mask & _ISDIR:
                folders = True
                if mask & _MOVED_FROM:
                    self._drop_tree(rel)
                elif mask & (_CREATE | _MOVED_TO):
                    try:
                        self._add_tree(rel)
                    except _Unwatchable:
                        lost = True
            elif name.endswith(".md"):
                depth = folder.count("/") + 1 if folder else 0
                archived = folder == ARCHIVE_DIR or folder.startswith(ARCHIVE_DIR + "/")
                if archived or 1 <= depth <= MAX_DEPTH:  # depth 1: context.md, a synthesis
                    files.add(rel)
                if not archived and not 2 <= depth <= MAX_DEPTH:  # where strays can be
                    folders = True
        if lost:
            self._reset()
        return Seen(tuple(sorted(files)), folders or lost, lost)

    def _reset(self) -> None:
        """Sets every watch again on a new inotify instance (the caller checks everything)."""
        old, self._fd = self._fd, -1
        try:
            self._open()
        except _Unwatchable as exc:
            raise OSError(f"watching {self.tree} again: {exc}") from None
        finally:
            os.close(old)

    def close(self) -> None:
        """Removes every watch."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self._folders = {}
