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

The walk is split between one ``find`` per core (up to :data:`MAX_FINDS`), each given every
n-th entry of the tree's root: the stats are the cost, and two cores halve it. A command
that knows early it will search (``cli/entry.py``) starts the finds before anything else is
imported (:func:`start_early`), with the operating system's calls only.
"""

from __future__ import annotations

import os
import time

from brv_vc import environment

TYPE_CHECKING = False  # typing and pathlib cost ~10 ms: start_early runs before either loads
if TYPE_CHECKING:
    from pathlib import Path

STAMP = "scan.stamp"
MARGIN_NS = 2_000_000_000
MAX_FINDS = 4

# the finds running for a tree: ([(pid, read end of its stdout)], when the check began).
# posix_spawn, not subprocess: importing subprocess costs more than the spawn on the cold
# search path
_pending: dict[str, tuple[list[tuple[int, int]], int]] = {}
_reaped: dict[int, int] = {}  # pid -> wait status of a find ``ready`` found finished


def stamp_path(state: Path) -> Path:
    """The stamp file of a project's ``.brv/state`` folder."""
    return state / STAMP


def start_early(cwd: str) -> None:
    """Starts the finds for the project holding ``cwd``, before the project code is imported.

    Only the plain layout (a ``.brv`` folder in ``cwd`` or a parent); anything else is left
    to :func:`start` once ``find_project`` has run. The key is the tree path exactly as
    ``Project(find_root(cwd)).tree`` spells it, so that call adopts these finds.
    """
    current = os.path.realpath(cwd)
    while True:
        marker = os.path.join(current, ".brv")
        if os.path.isdir(marker):
            start(os.path.join(marker, "context-tree"), os.path.join(marker, "state"))
            return
        if os.path.lexists(marker):
            return  # a worktree pointer: find_project follows it
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


def _spawn(argv: list[str]) -> tuple[int, int] | None:
    read, write = os.pipe()
    try:
        pid = os.posix_spawnp("find", argv, environment.current(), file_actions=[
            (os.POSIX_SPAWN_CLOSE, read),
            (os.POSIX_SPAWN_DUP2, write, 1),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        ])
    except OSError:
        os.close(read)
        return None
    finally:
        os.close(write)
    return pid, read


def start(tree: Path | str, state: Path | str) -> None:
    """Starts the finds of files changed since the stamp (no-op without a stamp)."""
    key = os.fspath(tree)
    stamp = os.path.join(os.fspath(state), STAMP)
    if key in _pending or not hasattr(os, "posix_spawnp") or not os.path.isfile(stamp):
        return
    began = time.time_ns()
    try:
        with os.scandir(key) as items:  # links are never followed, at any depth (-P)
            tops = sorted(item.path for item in items
                          if not item.name.startswith(".") and not item.is_symlink())
    except OSError:
        return
    count = min(MAX_FINDS, os.cpu_count() or 1, len(tops))
    finds: list[tuple[int, int]] = []
    for part in range(count):
        found = _spawn(["find", "-P", *tops[part::count], "-name", ".*", "-prune", "-o",
                        "-type", "f", "-name", "*.md", "-cnewer", stamp, "-print0"])
        if found is None:
            _stop(finds)
            return
        finds.append(found)
    _pending[key] = (finds, began)


def _collect(finds: list[tuple[int, int]]) -> tuple[bytes, bool]:
    chunks, ok = [], True
    for pid, read in finds:
        with os.fdopen(read, "rb") as out:
            while chunk := out.read(65536):
                chunks.append(chunk)
        status = _reaped.pop(pid) if pid in _reaped else os.waitpid(pid, 0)[1]
        ok = ok and os.waitstatus_to_exitcode(status) == 0
    return b"".join(chunks), ok


def _stop(finds: list[tuple[int, int]]) -> None:
    for pid, _ in finds:
        try:  # noqa: SIM105 - contextlib costs ~0.5 ms to import, for this line alone
            os.kill(pid, 15)  # SIGTERM; importing signal costs 1.5 ms
        except OSError:
            pass
    _collect(finds)


def ready(tree: Path) -> bool:
    """Whether a scan was started for ``tree`` and :func:`changed` would answer it at once.

    A scan still running after 2 s counts as ready (its output may be waiting on a full
    pipe), so a resident caller waits for it then rather than never seeing its edits.
    """
    found = _pending.get(str(tree))
    if found is None:
        return False
    finds, began = found
    if time.time_ns() - began > 2_000_000_000:
        return True
    for pid, _ in finds:
        if pid in _reaped:
            continue
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        if not done:
            return False
        _reaped[pid] = status
    return True


def cancel(tree: Path) -> None:
    """Stops a scan started for ``tree`` that no check will use (a small tree walks)."""
    found = _pending.pop(str(tree), None)
    if found is not None:
        _stop(found[0])


def changed(tree: Path, state: Path) -> tuple[list[str], int] | None:
    """Tree-relative ``.md`` files changed since the stamp, and when the check began (ns).

    Returns None when there is no stamp yet or ``find`` is unavailable or failed: the caller
    then walks the whole tree.
    """
    start(tree, state)
    found = _pending.pop(str(tree), None)
    if found is None:
        return None
    finds, began = found
    out, ok = _collect(finds)
    if not ok:
        return None
    prefix = tree_prefix(tree)
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


def tree_prefix(tree: Path) -> str:
    """The tree's folder as a plain string ending in the separator.

    ``prefix + rel`` is a file's path and ``path[len(prefix):]`` its tree path. Why plain
    strings: pathlib costs more than the stat itself (a Path a file: ~12 us at 25,000 entries).
    """
    return str(tree).rstrip(os.sep) + os.sep
