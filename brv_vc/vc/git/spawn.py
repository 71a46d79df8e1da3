"""git as a process with bytes in and out, started without the ``subprocess`` module.

``subprocess`` imports ``signal``, ``threading``, ``selectors`` and ``locale`` (~3-5 ms of CPU
on this machine); the vc commands and the hooks, budgeted against git itself (DESIGN.md), paid
that in every process. ``os.posix_spawnp`` starts git, and one poll loop feeds stdin and
drains stdout and stderr side by side, so no pipe fills up and stalls git. The one runner of
``vc/git/process.py`` (``run``, the bytes runner, ``start``) and of the early ``git status`` (``git/prefetch``).
As ``subprocess`` (``close_fds``), the child gets only stdin, stdout and stderr. Where
``posix_spawnp`` is missing, :func:`available` is False and callers use ``subprocess``.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

_CHUNK = 1 << 16


_AVAILABLE: list[bool] = []  # available()'s answer, found once: it holds for the process


def available() -> bool:
    """True where git can be started this way (POSIX, with its open descriptors listable)."""
    if not _AVAILABLE:  # each start lists the descriptors again; this needs it once
        _AVAILABLE.append(hasattr(os, "posix_spawnp") and _inherited() is not None)
    return _AVAILABLE[0]


def _inherited() -> list[int] | None:
    """This process's inheritable descriptors above 2; None when they cannot be listed.

    ``subprocess`` closes every descriptor but 0-2 in the child (``close_fds``). Python opens
    its own non-inheritable (PEP 446), but one brv inherited from its parent (a shell's
    ``7</dev/null``, a make jobserver) would pass on to git and whatever git starts (hooks,
    ssh, an fsmonitor daemon) and could hold the parent's pipe open: the spawn closes them.
    """
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        found = []
        for name in names:
            fd = int(name)
            try:
                if fd > 2 and os.get_inheritable(fd):
                    found.append(fd)
            except OSError:  # the listing's own descriptor, closed since
                pass
        return found
    return None


def start(argv: Sequence[str], env: Mapping[str, str], with_input: bool = False
          ) -> tuple[int, int, int, int]:
    """Starts ``argv``: (pid, its stdout, its stderr, its stdin or -1), our ends of pipes.

    Without ``with_input`` the child reads the caller's stdin, as ``subprocess`` does.

    Raises:
        FileNotFoundError: the program is not on PATH.
    """
    # the numbers from the C module: ``signal`` builds its enums at import (~0.8 ms)
    from _signal import SIGPIPE, SIGXFSZ  # type: ignore[import-not-found, unused-ignore]

    out_r, out_w = os.pipe()  # both ends close on exec; dup2 gives the child its own
    err_r, err_w = os.pipe()
    in_r, in_w = os.pipe() if with_input else (-1, -1)
    actions: list[tuple[int, ...]] = [(os.POSIX_SPAWN_CLOSE, fd) for fd in _inherited() or ()]
    actions += [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2)]
    if with_input:
        actions.append((os.POSIX_SPAWN_DUP2, in_r, 0))
    try:  # the signals Python ignores back to their default, as Popen's restore_signals
        pid = os.posix_spawnp(argv[0], list(argv), dict(env), file_actions=actions,
                              setsigdef=(SIGPIPE, SIGXFSZ))
    except BaseException:
        for fd in (out_r, err_r, in_w):
            if fd >= 0:
                os.close(fd)
        raise
    finally:
        for fd in (out_w, err_w, in_r):
            if fd >= 0:
                os.close(fd)
    return pid, out_r, err_r, in_w


def drain(pid: int, out_r: int, err_r: int, in_w: int = -1, data: bytes = b""
          ) -> tuple[bytes, bytes]:
    """Writes ``data`` to the child's stdin while reading its stdout and stderr to their end.

    Closes the descriptors. Interrupted (Ctrl-C), the child is stopped with SIGTERM, which
    git catches to remove its lock files (``index.lock``), and reaped before this re-raises.
    """
    import select

    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    poller = select.poll()
    for fd in chunks:
        poller.register(fd, select.POLLIN)
    pending = memoryview(data)
    if in_w >= 0:
        os.set_blocking(in_w, False)
        if pending:
            poller.register(in_w, select.POLLOUT)
        else:
            os.close(in_w)
            in_w = -1
    reading = set(chunks)
    try:
        while reading or in_w >= 0:
            for fd, _ in poller.poll():
                if fd == in_w:
                    try:
                        pending = pending[os.write(in_w, pending[:_CHUNK]):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:  # git stopped reading: what it wrote still counts
                        pending = pending[:0]
                    if not pending:
                        poller.unregister(in_w)
                        os.close(in_w)
                        in_w = -1
                    continue
                chunk = os.read(fd, _CHUNK)
                if chunk:
                    chunks[fd].append(chunk)
                else:  # end of file (POLLHUP without data included)
                    poller.unregister(fd)
                    os.close(fd)
                    reading.discard(fd)
    except BaseException:
        from _signal import SIGTERM  # type: ignore[import-not-found, unused-ignore]

        os.kill(pid, SIGTERM)
        reap(pid)
        for fd in (*reading, in_w):
            if fd >= 0:
                os.close(fd)
        raise
    return b"".join(chunks[out_r]), b"".join(chunks[err_r])


def reap(pid: int, flags: int = 0) -> int | None:
    """The child's exit code (waits unless ``flags`` is ``os.WNOHANG``); None while it runs."""
    try:
        done, status = os.waitpid(pid, flags)
    except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): as Popen, status 0
        return 0
    return os.waitstatus_to_exitcode(status) if done else None


def run_bytes(argv: Sequence[str], env: Mapping[str, str], input: bytes | None = None
              ) -> tuple[int, bytes, bytes]:
    """Runs ``argv`` to its end: (exit code, stdout, stderr), ``input`` written to its stdin.

    Without ``input`` the child reads the caller's stdin, as ``subprocess.run`` does.

    Raises:
        FileNotFoundError: the program is not on PATH.
    """
    pid, out_r, err_r, in_w = start(argv, env, input is not None)
    out, err = drain(pid, out_r, err_r, in_w, input or b"")
    code = reap(pid)
    return (0 if code is None else code), out, err


def text(data: bytes) -> str:
    """``data`` decoded as ``subprocess``'s ``text=True`` does (locale, universal newlines).

    ``io.TextIOWrapper`` without an encoding asks the C runtime, not the ``locale`` module.
    """
    import io

    return io.TextIOWrapper(io.BytesIO(data)).read()


class Spawned:
    """A process started with ``os.posix_spawnp``, its stdout and stderr piped.

    What ``git.Running`` and ``git/prefetch`` use of a ``subprocess.Popen`` opened with
    ``text=True``: ``communicate()`` (both pipes read to their end, decoded as text mode
    does), ``returncode``, ``poll()`` and ``terminate()``.

    Raises:
        OSError: the program cannot be started (git missing).
    """

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.pid, out_r, err_r, _ = start(argv, env)
        self._fds = (out_r, err_r)
        self.returncode: int | None = None

    def communicate(self) -> tuple[str, str]:
        """Reads stdout and stderr to their end (side by side), then reaps the process."""
        out, err = drain(self.pid, *self._fds)
        self._reap(0)
        return text(out), text(err)

    def poll(self) -> int | None:
        """The exit code, or None while the process runs."""
        return self._reap(os.WNOHANG)

    def terminate(self) -> None:
        """Sends SIGTERM (nothing when the process is already reaped)."""
        if self.returncode is None:
            from _signal import SIGTERM  # type: ignore[import-not-found, unused-ignore]

            os.kill(self.pid, SIGTERM)

    def _reap(self, flags: int) -> int | None:
        if self.returncode is None:
            self.returncode = reap(self.pid, flags)
        return self.returncode
