"""``.git/index.lock`` left by a git process that was killed: tell a stale lock from a live one.

git creates ``index.lock`` while it writes the index and removes it when done; a ``kill -9``
leaves it, and every later git command that writes the index then fails with "File exists".
A lock is stale when no git process runs in the repository (found through ``/proc`` on
Linux: a process named ``git*`` whose working folder is in the work tree or the git folder);
where ``/proc`` is missing, when it is older than :data:`STALE_AFTER` seconds.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from brv_vc.tree.intents import alive

STALE_AFTER = 600.0  # without /proc: git holds the index lock for seconds, not minutes


@dataclass(frozen=True)
class IndexLock:
    """A found ``index.lock``: its path, its age, and the live git processes, if any."""

    path: Path
    age: float
    owners: tuple[int, ...]

    @property
    def stale(self) -> bool:
        """No live git process can own it."""
        if self.owners:
            return False
        return os.path.isdir("/proc") or self.age > STALE_AFTER


def _inside(path: str, folders: tuple[str, ...]) -> bool:
    return any(path == f or path.startswith(f + os.sep) for f in folders)


def git_processes(folders: tuple[Path, ...]) -> tuple[int, ...]:
    """Pids of running git processes whose working folder lies in one of ``folders``."""
    wanted = tuple(os.path.realpath(f) for f in folders)
    found = []
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return ()
    for pid in pids:
        if pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/comm", encoding="utf-8") as handle:
                name = handle.read().strip()
            if not name.startswith("git"):
                continue
            if not alive(pid):
                continue  # killed, not yet reaped: it holds nothing
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except (OSError, IndexError):
            continue
        if _inside(cwd, wanted):
            found.append(pid)
    return tuple(found)


def index_lock(workdir: Path, git_dir: Path) -> IndexLock | None:
    """The repository's ``index.lock``, or None when there is none."""
    path = git_dir / "index.lock"
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    return IndexLock(path, max(0.0, time.time() - mtime), git_processes((workdir, git_dir)))
