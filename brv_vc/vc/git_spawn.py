"""git as a process with bytes in and out, started without the ``subprocess`` module.

``subprocess`` imports ``signal``, ``threading``, ``selectors`` and ``locale`` (~3-5 ms of CPU
on this machine); the pre-commit hook, whose two git processes are all it runs, paid that in
every ``git commit``. ``os.posix_spawnp`` starts git as ``git_prefetch.Spawned`` does, and one
poll loop feeds stdin and drains stdout and stderr side by side, so no pipe fills up and
stalls git. Where ``posix_spawnp`` is missing, :func:`available` is False and callers use
``subprocess``.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

_CHUNK = 1 << 16


def available() -> bool:
    """True where git can be started this way (POSIX)."""
    return hasattr(os, "posix_spawnp")


def run_bytes(argv: Sequence[str], env: Mapping[str, str], input: bytes | None = None
              ) -> tuple[int, bytes, bytes]:
    """Runs ``argv`` to its end: (exit code, stdout, stderr), ``input`` written to its stdin.

    Without ``input`` the child reads the caller's stdin, as ``subprocess.run`` does.

    Raises:
        FileNotFoundError: the program is not on PATH.
    """
    import select
    from _signal import SIGKILL, SIGPIPE, SIGXFSZ  # type: ignore[import-not-found]

    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    in_r, in_w = os.pipe() if input is not None else (-1, -1)
    actions = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2)]
    if input is not None:
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
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    poller = select.poll()
    for fd in chunks:
        poller.register(fd, select.POLLIN)
    pending = memoryview(input or b"")
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
                data = os.read(fd, _CHUNK)
                if data:
                    chunks[fd].append(data)
                else:  # end of file (POLLHUP without data included)
                    poller.unregister(fd)
                    os.close(fd)
                    reading.discard(fd)
    except BaseException:  # interrupted (Ctrl-C): the child goes too, as subprocess.run's does
        os.kill(pid, SIGKILL)
        try:  # noqa: SIM105 (contextlib is not imported on the budgeted paths)
            os.waitpid(pid, 0)
        except ChildProcessError:  # reaped elsewhere
            pass
        for fd in (*reading, in_w):
            if fd >= 0:
                os.close(fd)
        raise
    try:
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): as Popen, status 0
        code = 0
    return code, b"".join(chunks[out_r]), b"".join(chunks[err_r])
