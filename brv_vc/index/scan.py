"""Files changed in place since the last check, without a Python stat of every file.

A write that rewrites a file in place (``echo >> f``, some editors) leaves its folder's mtime
alone, so the folder check of ``index.sync`` cannot see it; only the file's own inode can.
Every such write (and ``touch``, ``chmod``, ``utime``: whatever could hide one) moves the
file's *ctime*, which no user call can set back. So a check lists the files whose ctime is
newer than a stamp: ``find TREE -cnewer .brv/state/scan.stamp``, a C walk that costs about
as much CPU as a Python ``os.stat`` of every file but runs as a separate process beside
Python's own start (``cli/fast.py`` starts it before the search machinery is imported).

The stamp's mtime is the start of the last complete check minus :data:`MARGIN_NS`: a file
changed during or just before that check (timestamps come from a coarse kernel clock) is
listed again by the next one, and ``sync`` compares its full stat (ctime included) with the
index, re-reading it when they differ. Rows stored while their file was that fresh get a
ctime that matches nothing (see ``sync.RACY``), so a second write within the same clock tick
is found too. Where ``find`` is missing or fails, ``sync`` falls back to a full walk: slower,
never wrong.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

STAMP = "scan.stamp"
MARGIN_NS = 2_000_000_000

# a running find by tree: (pid, read end of its stdout, when the check began). posix_spawn,
# not subprocess: importing subprocess costs more than the spawn on the cold search path
_pending: dict[str, tuple[int, int, int]] = {}
_reaped: dict[int, int] = {}  # pid -> wait status of a scan ``ready`` found finished


def stamp_path(state: Path) -> Path:
    """The stamp file of a project's ``.brv/state`` folder."""
    return state / STAMP


def start(tree: Path, state: Path) -> None:
    """Starts the ``find`` of files changed since the stamp (no-op without a stamp)."""
    key = str(tree)
    stamp = stamp_path(state)
    if key in _pending or not hasattr(os, "posix_spawnp") or not stamp.is_file():
        return
    began = time.time_ns()
    argv = ["find", "-H", key, "-mindepth", "1", "-name", ".*", "-prune", "-o",
            "-type", "f", "-name", "*.md", "-cnewer", str(stamp), "-print0"]
    read, write = os.pipe()
    try:
        pid = os.posix_spawnp("find", argv, os.environ, file_actions=[
            (os.POSIX_SPAWN_CLOSE, read),
            (os.POSIX_SPAWN_DUP2, write, 1),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        ])
    except OSError:
        os.close(read)
        return
    finally:
        os.close(write)
    _pending[key] = (pid, read, began)


def _collect(pid: int, read: int) -> tuple[bytes, bool]:
    chunks = []
    with os.fdopen(read, "rb") as out:
        while chunk := out.read(65536):
            chunks.append(chunk)
    status = _reaped.pop(pid) if pid in _reaped else os.waitpid(pid, 0)[1]
    return b"".join(chunks), os.waitstatus_to_exitcode(status) == 0


def ready(tree: Path) -> bool:
    """Whether a scan was started for ``tree`` and :func:`changed` would answer it at once.

    A scan still running after 2 s counts as ready (its output may be waiting on a full
    pipe), so a resident caller waits for it then rather than never seeing its edits.
    """
    found = _pending.get(str(tree))
    if found is None:
        return False
    pid, _, began = found
    if time.time_ns() - began > 2_000_000_000:
        return True
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    if done:
        _reaped[pid] = status
    return bool(done)


def cancel(tree: Path) -> None:
    """Stops a scan started for ``tree`` that no check will use (a small tree walks)."""
    found = _pending.pop(str(tree), None)
    if found is not None:
        with contextlib.suppress(OSError):
            os.kill(found[0], 15)  # SIGTERM; importing signal costs 1.5 ms
        _collect(found[0], found[1])


def changed(tree: Path, state: Path) -> tuple[list[str], int] | None:
    """Tree-relative ``.md`` files changed since the stamp, and when the check began (ns).

    Returns None when there is no stamp yet or ``find`` is unavailable or failed: the caller
    then walks the whole tree.
    """
    start(tree, state)
    found = _pending.pop(str(tree), None)
    if found is None:
        return None
    pid, read, began = found
    out, ok = _collect(pid, read)
    if not ok:
        return None
    prefix = str(tree).rstrip(os.sep) + os.sep
    paths = []
    for raw in out.split(b"\0"):
        if raw:
            name = os.fsdecode(raw)
            if name.startswith(prefix):
                paths.append(name[len(prefix):].replace(os.sep, "/"))
    return paths, began


def mark(state: Path, began_ns: int, *, keep: bool = True) -> None:
    """Records a complete check that began at ``began_ns`` (the stamp only moves forward).

    ``keep=False`` removes the stamp instead (a tree small enough to walk every time).
    """
    stamp = stamp_path(state)
    when = began_ns - MARGIN_NS - 1  # -cnewer is strict: a file of that very ns is listed
    try:
        if not keep:
            stamp.unlink(missing_ok=True)
            return
        if not stamp.is_file():
            stamp.touch()
        elif stamp.stat().st_mtime_ns >= when:
            return
        os.utime(stamp, ns=(when, when))
    except OSError:
        pass  # no stamp: the next check walks the whole tree
