"""``brv mcp`` answers every request line, hostile ones with a JSON-RPC error, and keeps serving."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from brv_vc.mcp.refusals import LINE_LIMIT
from brv_vc.mcp.tools import ToolFailure, Tools
from brv_vc.tree.project import Project


class Client:
    """A raw stdio client: it writes any bytes, as a broken or hostile client would."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "brv_vc", "mcp"], cwd=root, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(REPO), "BRV_NOW": "2026-03-01T12:00:00Z"})
        self.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "1"}}}))
        assert self.answer()["id"] == 0
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def send(self, line: str | bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() if isinstance(line, str) else line)
        self.proc.stdin.write(b"\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 30) -> dict[str, Any]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "no answer"
        line = self.proc.stdout.readline()
        assert line, f"the server ended: {self.proc.stderr.read().decode()[-2000:]}"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def call(self, request_id: int, name: str, arguments: dict[str, Any]) -> str:
        return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                           "params": {"name": name, "arguments": arguments}})

    def still_serves(self) -> None:
        self.send(self.call(99, "brv-search", {"query": "rotation"}))
        answer = self.answer()
        assert answer["id"] == 99
        body = json.loads(answer["result"]["content"][0]["text"])
        assert body["results"][0]["path"] == "api/auth/token_rotation.md"

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)


@pytest.fixture
def client(project: Project, brv) -> Iterator[Client]:
    result = brv("curate", "add", "api/auth", "--title", "Token rotation", "--content",
                 "Refresh tokens are single-use.", "--reason", "seed", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    started = Client(project.root)
    try:
        yield started
    finally:
        started.close()


def test_a_lone_surrogate_gets_a_parse_error(client: Client) -> None:
    client.send(client.call(7, "brv-search", {"query": "x"}).replace('"x"', '"x\\ud800"'))
    answer = client.answer()
    assert answer["id"] == 7
    assert answer["error"]["code"] == -32700
    assert "lone surrogate (\\ud800), which is not a Unicode character" in \
        answer["error"]["message"]
    client.still_serves()


def test_100000_deep_nesting_gets_a_parse_error(client: Client) -> None:
    client.send(client.call(8, "brv-search", {"query": "DEEP"}).replace(
        '"DEEP"', "[" * 100_000 + "]" * 100_000))
    answer = client.answer()
    assert answer["id"] == 8
    assert answer["error"]["code"] == -32700
    assert "nests JSON arrays or objects too deeply" in answer["error"]["message"]
    client.still_serves()


def test_a_line_that_is_not_json_gets_an_error_with_a_null_id(client: Client) -> None:
    client.send("not json at all")
    answer = client.answer()
    assert answer["id"] is None
    assert answer["error"]["code"] == -32700
    assert "the request line is not JSON" in answer["error"]["message"]
    client.send('{"jsonrpc": "2.0", "id": 5, "method": 12}')
    answer = client.answer()
    assert answer["id"] == 5
    assert answer["error"]["code"] == -32600
    assert "not a JSON-RPC 2.0 message" in answer["error"]["message"]
    client.still_serves()


def test_a_curate_call_repeating_a_key_is_refused(client: Client, project: Project) -> None:
    op = '{"type": "ADD", "path": "api/auth", "title": "Dup", "content": "c", "reason": "r"}'
    client.send(client.call(6, "brv-curate", {"operations": ["OP"]}).replace(
        '"OP"', op.replace('"type": "ADD"', '"type": "ADD", "type": "DELETE"')))
    answer = client.answer()
    assert answer["id"] == 6
    assert answer["error"]["code"] == -32602
    assert "repeats the key 'type' in one JSON object" in answer["error"]["message"]
    assert not (project.tree / "api/auth/dup.md").exists()
    client.still_serves()


def test_every_tool_refuses_a_repeated_key_in_its_arguments(client: Client,
                                                              project: Project) -> None:
    client.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
    names = sorted(tool["name"] for tool in client.answer()["result"]["tools"])
    assert {"brv-search", "brv-curate", "brv-dehydrate", "brv-vc-diff"} <= set(names)
    before = {p.relative_to(project.tree) for p in project.tree.rglob("*")}
    for number, name in enumerate(names, start=10):
        root = json.dumps(str(project.root))
        # cwd names the project twice: the SDK would keep the second and run the tool
        client.send(client.call(number, name, {"cwd": "ONE"}).replace(
            '"cwd": "ONE"', f'"cwd": {root}, "cwd": {root}'))
        answer = client.answer()
        assert answer["id"] == number, name
        assert answer["error"]["code"] == -32602, name
        assert f"repeats the key 'cwd' in one JSON object (a {name} call)" in \
            answer["error"]["message"]
    assert {p.relative_to(project.tree) for p in project.tree.rglob("*")} == before
    client.send(client.call(40, "brv-search", {"query": "x"}).replace(
        '"jsonrpc": "2.0"', '"jsonrpc": "2.0", "id": 41'))  # the envelope counts too
    answer = client.answer()
    assert (answer["id"], answer["error"]["code"]) == (40, -32602)
    assert "repeats the key 'id'" in answer["error"]["message"]
    client.still_serves()


def test_a_line_over_64_mib_is_dropped_and_the_server_lives(client: Client) -> None:
    client.send(b'{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": {"x": "'
                + b"a" * (LINE_LIMIT + (1 << 20)) + b'"}}')
    answer = client.answer(timeout=120)
    assert answer["id"] is None
    assert answer["error"]["code"] == -32600
    assert "the request line is longer than 64 MiB and was dropped" in \
        answer["error"]["message"]
    client.still_serves()


def test_a_tool_failing_inside_says_what_failed(project: Project) -> None:
    tools = Tools(project.root, lambda: datetime(2026, 3, 1, tzinfo=UTC))

    def broken() -> Any:
        raise KeyError("signals")

    with pytest.raises(ToolFailure) as caught:
        tools.call(broken)
    error = caught.value.payload["error"]
    assert error["code"] == "internal"
    assert error["message"] == "internal error: KeyError: 'signals'"
    assert "the server keeps running" in error["hint"]

    def full() -> Any:
        raise OSError(28, "No space left on device", str(project.state / "index.db"))

    with pytest.raises(ToolFailure) as caught:
        tools.call(full)
    assert caught.value.payload["error"]["code"] == "disk"
    assert "no space left on the disk holding" in caught.value.payload["error"]["message"]
