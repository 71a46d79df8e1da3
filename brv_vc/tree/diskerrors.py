"""A read-only or full disk, told as what to do instead of an internal error.

Any write can meet a read-only mount, a folder without permission or a full disk: the tree
(``brv archive``, ``brv dehydrate``), the state folder (a search records its hits and syncs
the index) or SQLite's own files (``database or disk is full``). These were exit 3 with a
traceback, and a full disk's hint said to move ``brv.db`` aside, which would discard the
scores and the audit log. :func:`disk_error` turns such an exception into a
:class:`BrvError` (exit 1) naming the place and the fix; brv's writes are atomic, so a
refused write leaves every file whole.
"""

from __future__ import annotations

import errno
import os
import sqlite3

from brv_vc.errors import BrvError

_KEEP = ("never delete or move .brv/state/brv.db: it holds the scores, the queues and the "
         "curate audit log")
_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))
_READ_ONLY = (errno.EROFS,)
_DENIED = (errno.EACCES, errno.EPERM)


class DiskError(BrvError):
    """The disk refused a write: full, read-only or not permitted."""

    code = "disk"


def _full(where: str) -> DiskError:
    return DiskError(
        f"no space left on the disk holding {where}; brv stopped before finishing (its "
        "writes are atomic, so no file is half written)",
        file=where,
        hint=f"free some space (df -h {where}), then run the command again; {_KEEP}",
    )


def _read_only(where: str) -> DiskError:
    return DiskError(
        f"{where} is on a read-only file system, and this command needs to write there",
        file=where,
        hint="remount it writable, or run brv in a writable copy of the project "
        "(brv -C DIR); reading commands such as 'brv show' need .brv/state writable too",
    )


def _denied(where: str) -> DiskError:
    return DiskError(
        f"permission denied on {where} (brv reads and writes the project's files as the "
        "user running it)",
        file=where,
        hint=f"check its owner and permissions (ls -ld {where}); run brv as the user who "
        "owns the project",
    )


def _place(filename: object, root: object) -> str:
    """The path an error names, relative to the project when it is inside it."""
    text = str(filename) if filename else ".brv/state"
    folder, _, name = text.rpartition("/")
    if name.startswith(".") and name.endswith(".tmp") and folder:  # a write's staging file
        text = folder
    base = str(root).rstrip("/") + "/" if root else None
    return text[len(base):] if base and text.startswith(base) else text


def _state_unwritable(root: object) -> bool:
    """True when ``.brv/state`` is read-only or its disk full (else the file is to blame)."""
    if not root:
        return False
    state = os.path.join(str(root), ".brv", "state")
    try:
        return not os.access(state, os.W_OK) or os.statvfs(state).f_bavail == 0
    except OSError:
        return False


def disk_error(exc: BaseException, root: object = None) -> DiskError | None:
    """The :class:`DiskError` for ``exc``, or None when it is not about the disk.

    Args:
        exc: an OSError or a SQLite error (SQLite names no file: its files are in
            ``.brv/state``).
        root: the project folder, to shorten the paths named.
    """
    if isinstance(exc, OSError) and exc.errno is not None:
        where = _place(exc.filename, root)
        if exc.errno in _FULL:
            return _full(where)
        if exc.errno in _READ_ONLY:
            return _read_only(where)
        if exc.errno in _DENIED:
            return _denied(where)
        return None
    if isinstance(exc, sqlite3.OperationalError):
        message = str(exc).lower()
        if "disk is full" in message or "no space" in message:
            return _full(".brv/state")
        if "readonly" in message or "read-only" in message:
            return _read_only(".brv/state")
        if "unable to open database file" in message and _state_unwritable(root):
            return DiskError(
                "a database in .brv/state cannot be opened or created (a read-only or full "
                "disk, or a folder without write permission)",
                file=".brv/state",
                hint=f"check that .brv/state is writable and its disk has space (ls -ld "
                f".brv/state; df -h .brv/state); {_KEEP}",
            )
    return None
