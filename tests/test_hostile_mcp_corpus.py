"""The MCP half of the hostile-input corpus: ``brv mcp`` answers every hostile request line.

One real stdio server (``python -m brv_vc mcp``, under RLIMIT_AS) takes each line; each gets
one answer within a deadline: a JSON-RPC error (the request's id, or null when it cannot be
read), a tool result marked ``isError`` with brv's message, or a correct result; never an
internal error or a traceback, never a change to the tree; and the server keeps serving.
"""

from __future__ import annotations

import json
import os
import resource
import select
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from brv_vc.tree.project import Project
from tests.conftest import REPO, run_brv, snapshot

ANSWER_SECONDS = 30
MEMORY_LIMIT = 2 << 30


def _call(name: str, arguments: Any) -> dict[str, Any]:
    return {"method": "tools/call", "params": {"name": name, "arguments": arguments}}


def _op(**changes: Any) -> dict[str, Any]:
    return {"type": "ADD", "path": "api/auth", "title": "Mcp", "content": "x", "reason": "r",
            **changes}


RAW_LINES = {  # lines sent as they are: their id (if any) cannot be read
    "id-object": '{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}',
    "id-array": '{"jsonrpc": "2.0", "id": [1], "method": "tools/list"}',
    "id-true": '{"jsonrpc": "2.0", "id": true, "method": "tools/list"}',
    "id-nan": '{"jsonrpc": "2.0", "id": NaN, "method": "tools/list"}',
    "id-fraction": '{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}',
    "id-null": '{"jsonrpc": "2.0", "id": null, "method": "tools/list"}',
    "id-inf": '{"jsonrpc": "2.0", "id": 1e400, "method": "tools/list"}',
    "garbage": "garbage", "open-brace": "{", "empty-array": "[]", "array": "[1, 2]",
    "string": '"hello"', "number": "123", "null": "null", "empty-object": "{}",
    "no-jsonrpc": '{"id": 5, "method": "ping"}', "wrong-version": '{"jsonrpc": "1.0", "id": 5, "method": "ping"}',
    "method-int": '{"jsonrpc": "2.0", "id": 5, "method": 12}',
    "bigint-id": '{"jsonrpc": "2.0", "id": ' + "9" * 5000 + ', "method": "ping"}',
    "lone-surrogate": '{"jsonrpc": "2.0", "id": 5, "method": "ping\\ud800"}',
    "deep": '{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": ' + "[" * 50_000 + "]" * 50_000 + "}",
}

REQUESTS: dict[str, dict[str, Any]] = {
    "unknown-method": {"method": "explode"},
    "unknown-tool": _call("brv-explode", {}),
    "call-no-params": {"method": "tools/call"},
    "call-params-array": {"method": "tools/call", "params": [1]},
    "call-args-string": _call("brv-search", "rotation"),
    "search-empty": _call("brv-search", {"query": ""}),
    "search-int": _call("brv-search", {"query": 5}),
    "search-null": _call("brv-search", {"query": None}),
    "search-missing": _call("brv-search", {}),
    "search-huge": _call("brv-search", {"query": "word " * 200_000}),
    "search-limit-neg": _call("brv-search", {"query": "rotation", "limit": -1}),
    "search-limit-huge": _call("brv-search", {"query": "rotation", "limit": 10 ** 30}),
    "search-limit-str": _call("brv-search", {"query": "rotation", "limit": "ten"}),
    "search-scope-dotdot": _call("brv-search", {"query": "rotation", "scope": "../.."}),
    "search-scope-bidi": _call("brv-search", {"query": "rotation", "scope": "api\u202e"}),
    "search-cwd-etc": _call("brv-search", {"query": "rotation", "cwd": "/etc"}),
    "search-cwd-missing": _call("brv-search", {"query": "rotation", "cwd": "/no/such"}),
    "search-cwd-int": _call("brv-search", {"query": "rotation", "cwd": 5}),
    "search-record-str": _call("brv-search", {"query": "rotation", "record": "yes"}),
    "search-extra-key": _call("brv-search", {"query": "rotation", "explode": True}),
    "query-huge": _call("brv-query", {"question": "why " * 200_000}),
    "query-list": _call("brv-query", {"question": ["a"]}),
    "show-dotdot": _call("brv-show", {"path": "../../etc/passwd"}),
    "show-abs": _call("brv-show", {"path": "/etc/passwd"}),
    "show-nul": _call("brv-show", {"path": "api/a\u0000b.md"}),
    "show-long": _call("brv-show", {"path": "x/" * 5000}),
    "show-bidi": _call("brv-show", {"path": "api\u202e/auth/token_rotation.md"}),
    "show-missing": _call("brv-show", {"path": "no/such/entry.md"}),
    "show-int": _call("brv-show", {"path": 5}),
    "curate-string": _call("brv-curate", {"operations": "ADD everything"}),
    "curate-numbers": _call("brv-curate", {"operations": [1, 2]}),
    "curate-no-type": _call("brv-curate", {"operations": [{"path": "api/auth"}]}),
    "curate-month13": _call("brv-curate", {"operations": [_op(createdAt="2024-13-45T00:00:00Z")]}),
    "curate-bidi": _call("brv-curate", {"operations": [_op(path="api\u202e/auth")]}),
    "curate-dotdot": _call("brv-curate", {"operations": [_op(path="../../x")]}),
    "curate-nul": _call("brv-curate", {"operations": [_op(content="a\u0000b")]}),
    "curate-huge": _call("brv-curate", {"operations": [_op(content="c" * 2_000_000)]}),
    "curate-many": _call("brv-curate", {"operations": [_op(path="no/such", type="DELETE")] * 6000}),
    "curate-markers": _call("brv-curate", {"operations": [_op(content="<<<<<<< a\nx\n=======\ny\n>>>>>>> b\n")]}),
    "curate-delete-root": _call("brv-curate", {"operations": [_op(type="DELETE", path=".")]}),
    "hydrate-dotdot": _call("brv-hydrate", {"path": ".."}),
    "hydrate-budget-neg": _call("brv-hydrate", {"path": "api", "budget": -1}),
    "hydrate-budget-huge": _call("brv-hydrate", {"path": "api", "budget": 10 ** 30}),
    "brain-budget-neg": _call("brv-brain", {"budget": -5}),
    "brain-etag-object": _call("brv-brain", {"if_none_match": {}}),
    "dehydrate-dotdot": _call("brv-dehydrate", {"path": "../x", "digest": "d"}),
    "dehydrate-huge": _call("brv-dehydrate", {"path": "api", "digest": "d" * 2_000_000}),
    "about-string": _call("brv-about", {"paths": "x"}),
    "about-dotdot": _call("brv-about", {"paths": ["../../etc/passwd"]}),
    "about-ints": _call("brv-about", {"paths": [1]}),
    "stale-option": _call("brv-stale", {"since": "--output=/tmp/brv-mcp-x"}),
    "stale-range": _call("brv-stale", {"since": "HEAD..nope"}),
    "diff-option": _call("brv-vc-diff", {"ref": "--output=/tmp/brv-mcp-x"}),
    "diff-nul": _call("brv-vc-diff", {"ref": "a\u0000b"}),
    "diff-missing": _call("brv-vc-diff", {"ref": "no-such-ref"}),
    "status-cwd-root": _call("brv-vc-status", {"cwd": "/"}),
    "read-file-uri": {"method": "resources/read", "params": {"uri": "file:///etc/passwd"}},
    "read-unknown": {"method": "resources/read", "params": {"uri": "brv://explode"}},
    "prompt-missing": {"method": "prompts/get", "params": {"name": "explode"}},
}


class Server:
    """The real stdio server, its memory limited, read with a deadline."""

    def __init__(self, root: Any) -> None:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "brv_vc", "mcp"], cwd=root, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit,
            env={**os.environ, "PYTHONPATH": str(REPO), "BRV_NOW": "2026-03-01T12:00:00Z"})
        self.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "corpus", "version": "1"}}}))
        assert self.answer()["id"] == 0
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8", "surrogatepass") + b"\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], ANSWER_SECONDS)
        assert ready, f"no answer within {ANSWER_SECONDS} s"
        line = self.proc.stdout.readline()
        assert line, "the server ended"
        answer: dict[str, Any] = json.loads(line)
        return answer


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Project]]:
    from brv_vc.services.init import init_project

    root = tmp_path_factory.mktemp("mcp-corpus") / "proj"
    root.mkdir()
    init_project(root)
    for args in (("curate", "add", "api/auth", "--title", "Token rotation", "--content",
                  "Refresh tokens are single-use.", "--reason", "seed"), ("vc", "init"),
                 ("vc", "add", "."), ("vc", "commit", "-m", "seed")):
        assert run_brv(*args, cwd=root).exit_code == 0, args
    server = Server(root)
    try:
        yield server, Project(root)
    finally:
        assert server.proc.stdin is not None
        server.proc.stdin.close()
        server.proc.wait(30)


def _judge(answer: dict[str, Any]) -> str:
    text = json.dumps(answer, ensure_ascii=False)
    assert "Traceback (most recent" not in text
    assert '"code": "internal"' not in text, text[:400]
    assert "internal error" not in text, text[:400]
    if "error" in answer:
        assert answer["error"]["message"], answer
        return "refusal"
    result = answer["result"]
    return "refusal" if result.get("isError") else "correct"


@pytest.mark.parametrize("key", list(RAW_LINES))
def test_an_unreadable_line_gets_an_error(served: tuple[Server, Project], key: str) -> None:
    server, project = served
    before = snapshot(project.root)
    server.send(RAW_LINES[key])
    answer = server.answer()
    assert _judge(answer) == "refusal", answer
    assert answer["id"] in (None, 5), answer
    assert snapshot(project.root) == before


@pytest.mark.parametrize("key", list(REQUESTS))
def test_a_hostile_request_is_refused_or_answered(served: tuple[Server, Project],
                                                  key: str) -> None:
    server, project = served
    before = snapshot(project.root)
    request_id = 1000 + list(REQUESTS).index(key)
    server.send(json.dumps({"jsonrpc": "2.0", "id": request_id, **REQUESTS[key]}))
    answer = server.answer()
    assert answer["id"] == request_id, answer
    _judge(answer)
    assert snapshot(project.root) == before
    server.send(json.dumps({"jsonrpc": "2.0", "id": "alive", "method": "ping"}))
    assert server.answer()["id"] == "alive"
