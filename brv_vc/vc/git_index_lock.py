"""git's ``index.lock``, held by a brv writer while it reads, plans and writes the tree.

Trigger: every brv writer (a curate batch from the CLI, MCP, the Python API or an import;
a dream operation, a review decision, an archive or restore, the fold of an entry MERGEd
away in ``brv vc resolve`` / ``pull`` / ``merge``), inside its write lock
(``tree/writelock.py``). Why: plain git knows nothing of brv's write lock. A ``git pull``
that merged into an entry while a curate had read it lost the curate's write (git's result
renamed over), or lost the teammate's change (the curate's rename over git's merge); 30
UPDATEs beside a plain ``git pull`` kept 23. Every git command that rewrites the work tree
(merge, pull, checkout, switch, rebase, stash, reset, cherry-pick, am) first creates
``<git dir>/index.lock`` with ``O_EXCL`` and removes it when done. Outcome: the writer creates
the same file the same way, so git and brv take turns: a git started meanwhile fails at once
with its own "index.lock': File exists" and changes nothing; a writer that finds git's lock
waits for it (up to :data:`WAIT_SECONDS`), then refuses with nothing changed. A git command
that takes the lock step after step (:data:`MULTI_STEP`: ``stash``, ``rebase``...) is waited
for as long as its process runs, even between two steps.

Three locks a writer does not wait for:
- one a git process holds while it runs this very writer (a hook of that git: it waits for
  its hook, so waiting for it would never end); git writes no work-tree file meanwhile;
- a stale one (``vc/git/stale_locks.py``: no git process works in the repository), left by a
  killed git: it stops every git that would rewrite the work tree just as well, and
  ``brv vc recover`` removes it;
- none at all when the tree is not under version control, or git's folder cannot be
  written (no git can write there either).
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path

from brv_vc.errors import ConflictError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from brv_vc.tree.project import Project

LOCK_NAME = "index.lock"
WAIT_SECONDS = 120.0  # BRV_GIT_WAIT overrides: a merge with a driver per file takes seconds
_LOOK_EVERY = 0.5  # how often a waiter asks /proc whether git's lock is still git's
# git commands that rewrite the work tree in several steps, each taking and dropping
# index.lock: 'stash push' snapshots the tree, then 'git add', 'diff-index' and 'apply -R' (or
# 'reset --hard') put it back to HEAD, so a write between two steps was in neither the stash
# nor the tree (a curate told "updated", its text gone); a rebase picks commit after commit.
# 'merge' (a 'git pull' runs one as its own process) refreshes and writes the index, drops
# the lock, then its strategy takes it again: a lock taken in between made git 2.39's merge
# print "error: Unable to write index." yet write MERGE_HEAD and exit 1 ("fix conflicts")
# with the index still HEAD's, so the person's 'git commit --no-edit' recorded HEAD's tree as
# the merge, the teammates' changes and deletions undone (issue 35, clone 7 round 39).
# 'pull' fetches, then starts that merge: a writer that began between the two held the lock
# as the merge's strategy took it, with the same result (CI of f4c6378), so a pull is waited
# for from its start (its fetch takes no lock, but its merge follows at once)
MULTI_STEP = frozenset({"stash", "rebase", "cherry-pick", "revert", "am", "merge", "pull"})
_held: dict[Path, int] = {}  # locks this process made -> depth (a dream's MERGE runs a batch)


def git_dirs(project: Project) -> tuple[Path, Path, Path] | None:
    """(work tree, git dir, common dir) of the repository holding the tree; None: none.

    The repository is the vc adapters' (``vc.repo.of_tree``, ``locate``): standalone the
    tree's own ``.git``, in-project the project's repository (a linked worktree: that
    worktree's git dir, whose ``index.lock`` git takes). Read from the files in the plain
    cases (``read_whereabouts``); git is asked only for the others.
    """
    tree = project.tree
    if not (tree / ".git").exists() and not (tree / ".gitattributes").is_file():
        return None  # unversioned (no import of the git adapters either)
    from brv_vc.errors import BrvError
    from brv_vc.vc.repo import locate, read_whereabouts

    try:
        repo = locate(project)
        read = read_whereabouts(repo.workdir)
        git_dir, common = (read[0], read[1]) if read is not None else repo.git_dirs()
    except BrvError:
        return None  # not a repository git can use: no git rewrites the tree either
    return repo.workdir, git_dir, common


def _wait_limit() -> float:
    from brv_vc import environment

    return environment.seconds(environment.GIT_WAIT, WAIT_SECONDS)


def _parent(pid: int) -> tuple[int, str]:
    """(parent pid, command name) of ``pid`` from ``/proc`` ((0, "") when unknown)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return 0, ""
    name = stat[stat.find(b"(") + 1:stat.rfind(b")")].decode("utf-8", "replace")
    fields = stat[stat.rfind(b")") + 2:].split()
    return (int(fields[1]) if len(fields) > 1 else 0), name


def run_by_git() -> bool:
    """Whether a git process started this one (directly, or through a hook's shell).

    A git that runs a hook (or a merge driver) holds ``index.lock`` and waits for it: that
    lock is, for the hook, already held on its behalf.
    """
    pid = os.getppid()
    for _ in range(6):  # git -> sh (the hook shim) -> brv, with room for a wrapper or two
        if pid <= 1:
            return False
        pid, name = _parent(pid)
        if name.startswith("git"):
            return True
    return False


def _stale(dirs: tuple[Path, Path, Path], lock: Path) -> bool:
    """No git process works in the repository and the lock is older than stale_locks.SETTLE."""
    from brv_vc.vc.git.stale_locks import SETTLE, git_processes

    try:
        age = time.time() - lock.stat().st_mtime
    except OSError:
        return False  # gone: the next try takes it
    return age >= SETTLE and not git_processes(dirs)


def _between_steps(dirs: tuple[Path, Path, Path], seen: set[int]) -> bool:
    """Whether a git command of :data:`MULTI_STEP` runs in the repository (not this one's git).

    ``seen``: the processes already looked at and found to be none (only new ones are read).
    """
    from brv_vc.vc.git.stale_locks import git_processes

    return bool(git_processes(dirs, MULTI_STEP, seen)) and not run_by_git()


def _take(dirs: tuple[Path, Path, Path], lock: Path) -> tuple[int, int] | None:
    """Creates ``lock`` as git does; (device, inode) of the file made, None when not taken.

    A multi-step git is looked for before the lock is made (its next step must not meet it)
    and again, among the processes started since, once it is made (one started later stops
    on the lock at its first step).
    """
    deadline = 0.0
    looked = 0.0
    pause = 0.002
    while True:
        seen: set[int] = set()  # this try's first look: its second reads only newer processes
        if not _between_steps(dirs, seen):
            try:
                fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                pass
            except OSError:
                return None  # git's folder is not writable: no git can write there either
            else:
                made = os.fstat(fd)
                os.close(fd)
                if not _between_steps(dirs, seen):
                    return made.st_dev, made.st_ino
                _release(lock, (made.st_dev, made.st_ino))
        now = time.monotonic()
        if not deadline:
            if run_by_git():
                return None
            deadline = now + _wait_limit()
            looked = now
        elif now - looked >= _LOOK_EVERY:
            looked = now
            if _stale(dirs, lock):
                return None
        if now >= deadline:
            raise GitLockHeld(lock)
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


class GitLockHeld(ConflictError):
    """git held its ``index.lock`` past the wait (``BRV_GIT_WAIT``); the writer changed nothing.

    ``lock``: the lock's path; a caller whose own git already changed the tree (a pull's
    merge) says what it did with it.
    """

    def __init__(self, lock: Path) -> None:
        self.lock = lock
        super().__init__(
            f"git has held {lock} for {_wait_limit():.0f} s (a git command is rewriting "
            "the work tree); nothing was changed",
            file=str(lock),
            hint="wait for that git command to finish, then run this again; if no git "
                 "runs there, 'brv vc recover' removes a stale lock",
        )


def _release(lock: Path, made: tuple[int, int]) -> None:
    """Removes ``lock`` if it is still the file this process made (never a git's)."""
    try:
        found = os.stat(lock)
        if (found.st_dev, found.st_ino) == made:
            os.unlink(lock)
    except OSError:
        pass


@contextmanager
def holding(project: Project) -> Iterator[bool]:
    """Holds git's ``index.lock`` of the repository holding the tree (see the module).

    Yields:
        True when this process made the lock; False when it needed none (no repository,
        a hook of the git holding it, a stale lock, a folder git cannot write either).

    Raises:
        ConflictError: a git process held it for longer than ``BRV_GIT_WAIT`` seconds
            (default 120); nothing was changed.
    """
    dirs = git_dirs(project)
    if dirs is None:
        yield False
        return
    lock = dirs[1] / LOCK_NAME
    if lock in _held:  # this process made it (an outer writer): it is held
        _held[lock] += 1
        try:
            yield True
        finally:
            _held[lock] -= 1
        return
    made = _take(dirs, lock)
    if made is None:
        yield False
        return
    _held[lock] = 1
    try:
        yield True
    finally:
        del _held[lock]
        _release(lock, made)
