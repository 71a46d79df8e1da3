"""A real OpenAI-compatible ``/v1/embeddings`` server on loopback, for the semantic lane's tests.

Its vectors are deterministic hash-of-words vectors: each word (lowercased, mapped through
``SYNONYMS`` so that other words can mean the same) adds 1 at ``crc32(word) % DIM``. So
"automobile repair" is close to "car fixing" and to nothing else, which no lexical ranking
can see. ``server.requests`` keeps every request body, ``server.headers`` their headers;
``server.fail`` (an HTTP status and body) makes the next requests fail.
"""

from __future__ import annotations

import json
import re
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

DIM = 64
SYNONYMS = {"automobile": "car", "repair": "fix", "fixing": "fix", "mending": "fix",
            "vehicle": "car"}


def vector(text: str) -> list[float]:
    """The hash-of-words vector of ``text``."""
    out = [0.0] * DIM
    for word in re.findall(r"[a-z]+", text.lower()):
        out[zlib.crc32(SYNONYMS.get(word, word).encode()) % DIM] += 1.0
    return out


class EmbedServer:
    """A threaded HTTP server on 127.0.0.1:0 speaking POST /v1/embeddings."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.fail: tuple[int, str] | None = None
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.headers.append(dict(self.headers.items()))
                body = json.loads(raw)
                outer.requests.append(body)
                if outer.fail is not None:
                    self._send(*outer.fail)
                    return
                if not self.path.endswith("/embeddings"):
                    self._send(404, "not found")
                    return
                data = [{"object": "embedding", "index": i, "embedding": vector(text)}
                        for i, text in enumerate(body["input"])]
                self._send(200, json.dumps({"object": "list", "data": data,
                                            "model": body["model"]}))

            def _send(self, status: int, text: str) -> None:
                payload = text.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def inputs(self) -> list[str]:
        """Every text embedded so far, in order."""
        return [text for body in self.requests for text in body.get("input", [])]

    def __enter__(self) -> EmbedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def use_endpoint(monkeypatch: pytest.MonkeyPatch, server: EmbedServer) -> None:
    """Points the user's semantic lane (BRV_EMBED_*) at ``server``, model 'hash-words'."""
    monkeypatch.setenv("BRV_EMBED_BASE_URL", server.base_url)
    monkeypatch.setenv("BRV_EMBED_MODEL", "hash-words")
