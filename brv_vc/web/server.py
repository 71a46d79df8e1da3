"""Serving the application on the loopback interface with uvicorn.

The socket is bound here, before uvicorn starts, so the port is known (``--port 0`` picks a
free one) and a port in use is a clear error rather than a log line. Only loopback
addresses are accepted: the pages show the whole knowledge tree and change it.
"""

from __future__ import annotations

import errno
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from brv_vc.errors import ConflictError, UsageError

LOOPBACK = ("127.0.0.1", "::1")


def bind(port: int, host: str = "127.0.0.1") -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port).

    Raises:
        UsageError: ``host`` is not a loopback address.
        ConflictError: the port is in use.
    """
    if host not in LOOPBACK:
        raise UsageError(f"brv ui serves on the loopback interface only, not {host}",
                         hint="use 127.0.0.1 or ::1")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConflictError(f"port {port} on {host} is in use",
                                hint="choose another with --port N, or --port 0 for a free one"
                                ) from None
        if exc.errno == errno.EACCES:
            raise ConflictError(f"no permission to listen on port {port} of {host}",
                                hint="ports below 1024 need privileges: choose one above, or "
                                     "--port 0 for a free one") from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise ConflictError(f"{host} is not available on this machine",
                                hint="use 127.0.0.1 (IPv6 may be off)") from None
        raise
    sock.listen(128)
    return sock


def url_of(sock: socket.socket, token: str) -> str:
    """The address to open: the bound host and port, with the token."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def _server(app: Any) -> Any:
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            server_header=False, date_header=False)
    return uvicorn.Server(config)


def serve(app: Any, sock: socket.socket) -> None:
    """Serves ``app`` on ``sock`` until interrupted (Ctrl-C)."""
    _server(app).run(sockets=[sock])


@contextmanager
def running(app: Any, port: int = 0, host: str = "127.0.0.1") -> Iterator[socket.socket]:
    """Serves ``app`` in a background thread while the block runs (tests and benches).

    Yields:
        The bound socket (``getsockname()`` gives the port).
    """
    sock = bind(port, host)
    server = _server(app)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield sock
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
