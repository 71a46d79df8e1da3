"""A real OpenAI-compatible chat-completions server on loopback, for provider tests.

    with ChatServer(lambda request: reply("hello")) as server:
        settings = LlmSettings(base_url=server.base_url, model="m")

``handler(request_json)`` returns the response body (a dict, sent as JSON with status 200)
or ``(status, raw_text)``. ``server.requests`` keeps every request body (parsed JSON) and
``server.headers`` the matching request headers.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Handler = Callable[[dict[str, Any]], "dict[str, Any] | tuple[int, str]"]


def reply(content: str = "", tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A chat-completions response body."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {"id": "c1", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}


def tool_call(name: str, arguments: dict[str, Any], call_id: str = "t1") -> dict[str, Any]:
    """One OpenAI-style tool call."""
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


class ChatServer:
    """A threaded HTTP server on 127.0.0.1:0 speaking POST /v1/chat/completions."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        outer = self

        class _Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                outer.headers.append(dict(self.headers.items()))
                outer.requests.append(body)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, "not found")
                    return
                result = outer.handler(body)
                if isinstance(result, tuple):
                    self._send(result[0], result[1])
                else:
                    self._send(200, json.dumps(result))

            def _send(self, status: int, text: str) -> None:
                data = text.encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

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

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


def approve_provider(project: Any) -> None:
    """``brv llm approve`` on this test machine: the provider the project's config.yaml names
    is trusted for it (a project's provider is used only once approved: tree/llm_trust.py)."""
    from brv_vc.services.provider_trust import approve

    approve(project)
