"""A real git server on loopback for the team simulation and the tests: ``git daemon``.

One helper, imported by ``bench/team_sim_world.py`` and ``tests/vc_helpers.py`` (brv_vc
carries no test helpers).
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    """A loopback TCP port free at the time of asking."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def git_daemon(served: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """``git daemon`` on a free loopback port serving ``served`` (push enabled).

    Yields:
        its base URL (``git://127.0.0.1:PORT``); a repository ``served/x.git`` is
        ``BASE/x.git``.
    """
    port = free_port()
    proc = subprocess.Popen(
        ["git", "daemon", "--listen=127.0.0.1", f"--port={port}", f"--base-path={served}",
         "--export-all", "--enable=receive-pack", "--reuseaddr", str(served)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("git daemon did not start") from None
                time.sleep(0.05)
        yield f"git://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
