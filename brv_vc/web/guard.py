"""The gate in front of every page: loopback Host, the run's token, same-origin POSTs.

A pure ASGI middleware, so it sees every request before routing (static files and unknown
paths included). Why each check:

- Host: a page on another site can make a name of its own resolve to 127.0.0.1 (DNS
  rebinding) and then read our answers as same-origin; such a request carries that name in
  its Host header, so only the loopback names with this server's port are served (else 400).
- token: any local process or page can reach a loopback port; only the person who started
  ``brv ui`` got the random token (in the URL it opened). It is accepted as ``?token=`` once
  (a page asked so is answered by a redirect to itself without the token, setting it as an
  HttpOnly, SameSite=Strict cookie named after the port) and then as that cookie (else 403).
- POST: state changes (approve, reject, undo) are POST only, and their Origin (or, when a
  client sends none, Referer) must be this server (else 403): a SameSite=Strict cookie is
  already not sent cross-site, and this holds even for a browser that ignores SameSite.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs, parse_qsl, quote, urlencode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
SAFE_METHODS = frozenset({"GET", "HEAD"})
# what every answer carries: our own assets only, never framed, no referrer leaves the site
HEADERS = [
    (b"content-security-policy",
     b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


def cookie_name(port: int) -> str:
    """The token cookie of the server on ``port`` (cookies do not tell ports apart)."""
    return f"brv_ui_{port}"


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers", ()):
        out.setdefault(key.decode("latin-1").lower(), value.decode("latin-1"))
    return out


def _cookies(header: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in header.split(";"):
        name, sep, value = part.strip().partition("=")
        if sep:
            out.setdefault(name, value)
    return out


class Guard:
    """Wraps ``app``: only requests passing every check above reach it.

    Args:
        app: the ASGI application behind the gate.
        token: this run's secret.
    """

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    def _cookie(self, port: int) -> tuple[bytes, bytes]:
        value = f"{cookie_name(port)}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        return (b"set-cookie", value.encode("latin-1"))

    def _same(self, given: str | None) -> bool:
        return given is not None and secrets.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answers a refused request itself; passes the others on with our headers."""
        if scope["type"] != "http":  # lifespan; websockets are not served
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        server = scope.get("server") or ("", 0)
        port = int(server[1] or 0)
        headers = _headers(scope)
        host = headers.get("host", "")
        if host not in {f"{name}:{port}" for name in LOOPBACK_NAMES}:
            await _refuse(send, 400, "this server answers only to 127.0.0.1, localhost or [::1] "
                          "with its own port in the Host header")
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        from_query = query.get("token", [None])[-1]
        from_cookie = _cookies(headers.get("cookie", "")).get(cookie_name(port))
        if not (self._same(from_query) or self._same(from_cookie)):
            await _refuse(send, 403, "missing or wrong token: open the URL 'brv ui' printed")
            return
        method = scope.get("method", "GET")
        if method not in SAFE_METHODS:
            origin = headers.get("origin")
            referer = headers.get("referer", "")
            base = f"http://{host}"
            same = origin == base if origin is not None else referer.startswith(base + "/")
            if method != "POST" or not same:
                await _refuse(send, 403, "a change must be a POST from this page (same origin)")
                return
        set_cookie = self._same(from_query) and not self._same(from_cookie)
        if set_cookie and method == "GET" and not scope.get("path", "").startswith("/api/"):
            # the token leaves the address bar (history, a screenshot, a shared link): the
            # same page again without it, the cookie set
            await _redirect(send, scope, self._cookie(port))
            return
        began = time.perf_counter()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # the page's own time, for bench/bench_ui.py and the browser's dev tools
                spent = (time.perf_counter() - began) * 1000
                extra = [*HEADERS, (b"server-timing", f"app;dur={spent:.1f}".encode())]
                if set_cookie:
                    extra.append(self._cookie(port))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _redirect(send: Send, scope: Scope, cookie: tuple[bytes, bytes]) -> None:
    query = [(k, v) for k, v in parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                                          keep_blank_values=True) if k != "token"]
    where = quote(scope.get("path", "/")) + ("?" + urlencode(query) if query else "")
    await send({"type": "http.response.start", "status": 303, "headers": [
        (b"location", where.encode("latin-1")), (b"content-length", b"0"), cookie, *HEADERS]})
    await send({"type": "http.response.body", "body": b""})


async def _refuse(send: Send, status: int, why: str) -> None:
    body = f"brv ui: {why}\n".encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
