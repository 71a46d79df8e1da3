"""The project's write lock: one writer at a time reads, plans and writes the tree.

Trigger: every change of knowledge (a curate batch from the CLI, MCP or an import, an
archive or restore, a review decision, each dream operation). Why: four ``brv curate --ops``
batches of 100 UPDATEs on one entry, run together, reported 400 updates and left 200 on
disk: each planned on a file another batch then rewrote. Outcome: a writer holds an
exclusive ``flock`` on ``.brv/state/write.lock`` from before it reads the tree until its
audit rows are written, so it plans on the state its predecessors left; readers (search,
show) never take it.

The lock also dates journals: a writer writes its intent records only while it holds the
lock, and the kernel drops the lock the moment its holder dies (a ``kill -9`` included).
So a process that holds the lock and finds an intent record knows its writer is gone,
whatever its pid says: a reused pid cannot hide an abandoned batch.

git is a writer too: the ``brv vc`` commands that make git rewrite the work tree (pull,
merge, checkout, reset --hard, recover) hold this lock for their git work, and a writer
holds git's own ``index.lock`` while it reads and writes entries (``vc/git_index_lock.py``;
plain git knows nothing of this lock). The hooks git runs inside those commands (the merge
driver, post-merge, post-checkout) write derived files only and never take this lock, so
none waits for the command that started it; a command's start-up settling tries it without
waiting.

Reentrant within a thread (a dream's MERGE runs a curate batch). POSIX only, as
``tree/dreamstate.py``.
"""

from __future__ import annotations

import fcntl
import os
import time
from _thread import get_ident  # threading's, without importing threading (vc add)

from brv_vc.errors import StateError

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: vc add imports no collections.abc
    from collections.abc import Callable

    from brv_vc.tree.project import Project

LOCK_FILE = "write.lock"
WAIT_SECONDS = 600.0  # BRV_LOCK_WAIT overrides: how long a writer waits for another
_held: dict[str, list[int]] = {}  # state folder + thread -> [descriptor, depth]
# run when a process takes the lock: services/recovery.py registers the settling of what
# dead writers left (a hook, as the services that write cannot import recovery: it uses them)
_settlers: list[Callable[[Project], None]] = []


def on_take(settle: Callable[[Project], None]) -> None:
    """Registers ``settle`` to run each time this process takes the lock (outermost hold)."""
    if settle not in _settlers:
        _settlers.append(settle)


def _key(project: Project) -> str:
    # per thread: another thread opens its own descriptor, and flock makes it wait
    return f"{project.state}\0{get_ident()}"


def held(project: Project) -> bool:
    """Whether this thread holds the project's write lock."""
    return _key(project) in _held


def _open(project: Project) -> int:
    try:
        try:
            return os.open(project.state / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:  # no state folder yet: made as every state write makes it
            from brv_vc.tree.statedb import ensure_state_dir  # sqlite3: not on vc add's path

            ensure_state_dir(project.state)
            return os.open(project.state / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StateError(
            f"cannot open the write lock {project.state / LOCK_FILE}: {exc.strerror}",
            file=str(project.state / LOCK_FILE),
            hint="brv needs to write under .brv/state/; check its permissions and free space",
        ) from None


def _try(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(project: Project) -> str:
    try:
        text = (project.state / LOCK_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""


def _wait_limit() -> float:
    from brv_vc import environment

    return environment.seconds(environment.LOCK_WAIT, WAIT_SECONDS)


def _acquire(project: Project, fd: int, wait: bool) -> bool:
    if _try(fd):
        return True
    if not wait:
        return False
    deadline = time.monotonic() + _wait_limit()
    pause = 0.002
    while time.monotonic() < deadline:  # polled: flock has no timeout of its own
        time.sleep(pause)
        pause = min(pause * 2, 0.05)
        if _try(fd):
            return True
    raise StateError(
        f"another brv process{_holder(project)} has been writing this project for "
        f"{_wait_limit():.0f} s; nothing was changed",
        hint="wait for it to finish (or stop it), then run the command again",
    )


class hold:  # a function to its callers: with writelock.hold(project): ...
    """Holds the write lock for the ``with`` block.

    A class rather than a ``contextlib`` generator: ``brv vc pull`` takes it, and its
    process imports no contextlib (tests/test_vc_fast_paths_import_little.py).

    Args:
        project: the project.
        wait: wait for another writer (up to ``BRV_LOCK_WAIT`` seconds, default 600);
            False: yield False at once when another process holds it.
        settle: run the registered settlers (:func:`on_take`) once the lock is taken by
            this process's outermost ``hold``: what dead writers left is settled before this
            writer reads the tree.

    Yields:
        True when held (always, with ``wait``); False when another process holds it.

    Raises:
        StateError: the lock cannot be opened, or ``wait`` ran out.
    """

    def __init__(self, project: Project, *, wait: bool = True, settle: bool = True) -> None:
        self._project, self._wait, self._settle = project, wait, settle
        self._key = _key(project)
        self._fd = -1  # the descriptor this hold opened (-1: none, or an inner hold)

    def __enter__(self) -> bool:
        key = self._key
        if key in _held:
            _held[key][1] += 1
            return True
        fd = _open(self._project)
        try:
            if not _acquire(self._project, fd, self._wait):
                os.close(fd)
                return False
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        _held[key] = [fd, 1]
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)  # named in the waiters' message
        except OSError:
            pass
        try:
            for settler in _settlers if self._settle else ():
                settler(self._project)
        except BaseException:
            self._release()
            raise
        return True

    def __exit__(self, *exc: object) -> None:
        if self._fd < 0:
            if self._key in _held:  # an inner hold (a hold that was refused never counted)
                _held[self._key][1] -= 1
            return
        self._release()

    def _release(self) -> None:
        del _held[self._key]
        fd, self._fd = self._fd, -1
        os.close(fd)  # closing the descriptor releases the lock
