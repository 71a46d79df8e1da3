"""Lock files left by a git process that was killed: tell a stale lock from a live one.

git creates ``<file>.lock`` (``index.lock``, ``HEAD.lock``, ``ORIG_HEAD.lock``,
``refs/.../<branch>.lock``, ``packed-refs.lock``...) while it writes that file and removes it
when done; a ``kill -9`` leaves it, and every later git command that writes the same file then
fails with "File exists". A lock is stale when no git process runs for the repository (found
through ``/proc`` on Linux: a process named ``git*`` whose working folder is in the work tree
or the git folder, or whose command line or ``GIT_DIR``/``GIT_WORK_TREE`` names them); where
``/proc`` is missing, when it is older than :data:`STALE_AFTER` seconds. :func:`settled`
looks a second time, :data:`SETTLE` seconds after the lock was made, before anything is
removed: git holds a lock for milliseconds, so one still there with still no git running
is not about to be used.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from brv_vc.record import NamedTuple
from brv_vc.tree.intents import alive

STALE_AFTER = 600.0  # without /proc: git holds a lock for seconds, not minutes
SETTLE = 1.0  # a lock younger than this is looked at again before it is called stale
WAIT_FOR_GIT = 5.0  # how long a lock's live owner is given to finish before brv refuses
_TOP_LOCKS = ("index.lock", "HEAD.lock", "ORIG_HEAD.lock", "MERGE_HEAD.lock", "FETCH_HEAD.lock",
              "AUTO_MERGE.lock", "packed-refs.lock", "config.lock", "shallow.lock")


class GitLock(NamedTuple):
    """A found lock file: its path, its age, and the live git processes, if any."""

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


def _names_repo(pid: int, wanted: tuple[str, ...]) -> bool:
    """Whether the process's working folder, arguments or git variables point into ``wanted``.

    Arguments and variables count too: ``git --git-dir=X`` or ``GIT_DIR=X git`` run from
    elsewhere still work here (being conservative keeps a live git's lock). A relative one is
    the process's, read from ITS working folder: read from brv's, an in-project
    ``git add -- .brv/context-tree`` of any other project named this repository.
    """
    cwd = os.readlink(f"/proc/{pid}/cwd")
    if _inside(cwd, wanted):
        return True
    with open(f"/proc/{pid}/cmdline", "rb") as handle:
        args = handle.read().decode("utf-8", "replace").split("\0")
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            env = handle.read().decode("utf-8", "replace").split("\0")
    except OSError:
        env = []
    values = [a.split("=", 1)[-1] for a in args[1:]]
    values += [e.split("=", 1)[1] for e in env
               if e.startswith(("GIT_DIR=", "GIT_WORK_TREE=", "GIT_COMMON_DIR="))]
    return any(v and _inside(os.path.realpath(os.path.join(cwd, v)), wanted)
               for v in values if os.sep in v)


def subcommand(pid: int) -> str:
    """The command a ``git`` process runs (``stash`` of ``git -c x=y stash push``); "" if none."""
    with open(f"/proc/{pid}/cmdline", "rb") as handle:
        args = handle.read().decode("utf-8", "replace").split("\0")[1:]
    takes_value = False
    for arg in args:
        if takes_value:
            takes_value = False
        elif arg in ("-c", "-C", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                     "--config-env", "--super-prefix"):
            takes_value = True
        elif arg and not arg.startswith("-"):
            return arg
    return ""


def git_processes(folders: tuple[Path, ...], commands: frozenset[str] | None = None,
                  seen: set[int] | None = None) -> tuple[int, ...]:
    """Pids of running git processes working in one of ``folders``.

    ``commands``: only the processes running one of those git commands (:func:`subcommand`).
    ``seen``: pids looked at before and found to be none of them, skipped; those found to be
    none now are added (a waiter looking again reads only the processes started since).
    """
    wanted = tuple(os.path.realpath(f) for f in folders)
    found = []
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return ()
    for pid in pids:
        if pid == os.getpid() or (seen is not None and pid in seen):
            continue
        try:
            with open(f"/proc/{pid}/comm", encoding="utf-8") as handle:
                name = handle.read().strip()
            if (name.startswith("git") and (commands is None or subcommand(pid) in commands)
                    and alive(pid) and _names_repo(pid, wanted)):  # a zombie holds nothing
                found.append(pid)
                continue
        except (OSError, IndexError):
            continue
        if seen is not None:
            seen.add(pid)
    return tuple(found)


def wait_for_git(folders: tuple[Path, ...], wait: float = WAIT_FOR_GIT) -> tuple[int, ...]:
    """:func:`git_processes`, waited for up to ``wait`` s to end; those still running."""
    owners = git_processes(folders)
    deadline = time.monotonic() + wait
    while owners and time.monotonic() < deadline:
        time.sleep(0.1)
        owners = git_processes(folders)
    return owners


def _age(path: Path, now: float) -> float | None:
    try:
        return max(0.0, now - path.stat().st_mtime)
    except OSError:
        return None


def lock_paths(git_dir: Path, common_dir: Path, refs: Sequence[str] | None = None
               ) -> list[Path]:
    """Every lock file git may have left: top-level files, refs, the maintenance lock.

    ``refs`` (``refs/heads/main``...): only those refs' locks, not a walk of every loose ref
    (thousands of tags or remote branches in a project's repository): what a command about to
    write those refs must know. None: every ref (``brv vc recover`` removes them all).
    """
    found = {d / name for d in {git_dir, common_dir} for name in _TOP_LOCKS
             if (d / name).exists()}
    if refs is not None:
        found.update(p for p in (common_dir / f"{ref}.lock" for ref in refs) if p.exists())
    else:
        for folder, _dirs, files in os.walk(common_dir / "refs"):
            found.update(Path(folder) / f for f in files if f.endswith(".lock"))
    if (common_dir / "objects/maintenance.lock").exists():
        found.add(common_dir / "objects/maintenance.lock")
    return sorted(found)


def git_locks(workdir: Path, git_dir: Path, common_dir: Path,
              wait: float = WAIT_FOR_GIT, refs: Sequence[str] | None = None
              ) -> tuple[GitLock, ...]:
    """The repository's lock files, each with its age and the git processes working there.

    While git processes run there, waits up to ``wait`` s for them to end (a killed pull's
    children may take a moment to go; a detached ``git maintenance`` ends on its own).
    ``refs``: as :func:`lock_paths`.
    """
    paths = lock_paths(git_dir, common_dir, refs)
    if not paths:
        return ()
    owners = wait_for_git((workdir, git_dir, common_dir), wait)
    paths = [p for p in paths if p.exists()]  # the git that ended may have removed its own
    now = time.time()
    locks = []
    for path in paths:
        age = _age(path, now)
        if age is not None:
            locks.append(GitLock(path, age, owners))
    return tuple(locks)


def settled(workdir: Path, git_dir: Path, common_dir: Path,
            sleep: float = SETTLE) -> tuple[GitLock, ...]:
    """:func:`git_locks`, looked at again once the youngest is ``sleep`` s old (see above)."""
    locks = git_locks(workdir, git_dir, common_dir)
    youngest = min((lock.age for lock in locks), default=sleep)
    if youngest < sleep and all(lock.stale for lock in locks):
        time.sleep(sleep - youngest)
        again = git_locks(workdir, git_dir, common_dir)
        first = {lock.path for lock in locks}
        # only a lock seen both times counts: one made in between belongs to a new git
        locks = tuple(lock for lock in again if lock.path in first or lock.owners)
    return locks


def merge_temps(workdir: Path) -> list[Path]:
    """``.merge_file_XXXXXX``: git's copies for a merge driver, left when it was killed."""
    try:
        names = os.listdir(workdir)
    except OSError:
        return []
    return sorted(workdir / n for n in names if n.startswith(".merge_file_") and len(n) == 18)
