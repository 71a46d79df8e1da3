"""``brv mcp`` started as a real process and driven by the MCP SDK's own stdio client."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
from conftest import REPO, run_brv
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from brv_vc.tree.project import Project

TOOLS = {"brv-search", "brv-query", "brv-curate", "brv-show", "brv-brain", "brv-hydrate",
         "brv-dehydrate", "brv-vc-status", "brv-vc-diff"}


def with_server(cwd: Path, work: Callable[[ClientSession], Awaitable[Any]]) -> Any:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "brv_vc", "mcp"], cwd=str(cwd),
        env={**os.environ, "PYTHONPATH": str(REPO), "BRV_NOW": "2026-03-01T12:00:00Z"})

    async def main() -> Any:
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
                await s.initialize()
                return await work(s)

    return anyio.run(main)


def payload(result: Any) -> dict[str, Any]:
    return json.loads(result.content[0].text)


OPS = [{"type": "ADD", "path": "auth/jwt", "title": "Token rotation", "tags": ["decision"],
        "content": "Refresh tokens are single-use; a reused one revokes the family.",
        "reason": "incident review"}]


def test_every_tool_answers_in_the_clis_json_shapes(project: Project) -> None:
    async def work(s: ClientSession) -> None:
        names = {t.name for t in (await s.list_tools()).tools}
        assert names >= TOOLS
        curated = await s.call_tool("brv-curate", {"operations": OPS})
        assert not curated.is_error, curated.content
        body = payload(curated)
        assert body["ok"]
        assert body["summary"]["added"] == 1
        assert body["applied"][0]["file"] == "auth/jwt/token_rotation.md"
        found = payload(await s.call_tool("brv-search", {"query": "reused refresh token"}))
        assert found["results"][0]["path"] == "auth/jwt/token_rotation.md"
        answer = payload(await s.call_tool("brv-query", {"question": "what if a refresh token "
                                                                     "is reused?"}))
        assert answer["tier"] >= 2
        assert "revokes the family" in answer["answer"]
        shown = payload(await s.call_tool("brv-show", {"path": "auth/jwt/token_rotation.md"}))
        assert shown["title"] == "Token rotation"
        brain = payload(await s.call_tool("brv-brain", {}))
        assert brain["itemsLoaded"] == 1
        same = payload(await s.call_tool("brv-brain", {"if_none_match": brain["brainHash"]}))
        assert same == {"ok": True, "version": 1, "notModified": True,
                        "brainHash": brain["brainHash"]}
        assert payload(await s.call_tool("brv-dehydrate", {"path": "auth/jwt",
                                                           "digest": "Single-use."}))["changed"]
        hydrated = payload(await s.call_tool("brv-hydrate", {"path": "auth"}))
        assert "Single-use." in hydrated["document"]
        resource = await s.read_resource("brv://brain")
        assert "Token rotation" in resource.contents[0].text
        manifest = json.loads((await s.read_resource("brv://manifest")).contents[0].text)
        assert "summaries" in manifest

    with_server(project.root, work)
    # what the server curated, the CLI finds
    cli = run_brv("search", "reused refresh token", "--json", cwd=project.root)
    assert cli.json()["results"][0]["path"] == "auth/jwt/token_rotation.md"


def test_edits_between_calls_are_seen(project: Project) -> None:
    async def work(s: ClientSession) -> None:
        assert payload(await s.call_tool("brv-curate", {"operations": OPS}))["ok"]
        first = payload(await s.call_tool("brv-search", {"query": "quokka"}))
        assert first["results"] == []
        entry = project.tree / "auth/jwt/token_rotation.md"
        with entry.open("a", encoding="utf-8") as handle:  # an edit in place, by hand
            handle.write("\nA quokka reviewed this.\n")
        run_brv("curate", "add", "auth/oauth", "--title", "Quokka login", "--content",
                "Quokka is the login provider.", "--reason", "cli", cwd=project.root)
        second = payload(await s.call_tool("brv-search", {"query": "quokka"}))
        assert {r["path"] for r in second["results"]} >= {
            "auth/jwt/token_rotation.md", "auth/oauth/quokka_login.md"}

    with_server(project.root, work)


def test_bad_input_gets_the_clis_error_object(project: Project, tmp_path: Path) -> None:
    async def work(s: ClientSession) -> None:
        bad = await s.call_tool("brv-curate", {"operations": [{"type": "ADD"}]})
        assert bad.is_error
        assert payload(bad)["error"]["code"] == "format"
        limit = await s.call_tool("brv-search", {"query": "x y", "limit": 500})
        assert limit.is_error
        assert "limit" in payload(limit)["error"]["message"]
        missing = await s.call_tool("brv-show", {"path": "no/such/entry.md"})
        assert missing.is_error
        assert payload(missing)["error"]["code"] == "not_found"
        escape = await s.call_tool("brv-hydrate", {"path": "../../etc"})
        assert escape.is_error
        for name, small, message in (
                ("brv-hydrate", 99, "budget 99 is too small"),
                ("brv-brain", 199, "budget 199 is too small for a brain")):
            refused = await s.call_tool(name, {"budget": small})
            assert refused.is_error
            assert payload(refused)["error"]["code"] == "usage"
            assert payload(refused)["error"]["message"] == message  # the argument's name
        typed = await s.call_tool("brv-search", {"query": 5})
        assert typed.is_error  # the input schema refuses a number for a string

    with_server(project.root, work)
    nowhere = tmp_path / "empty"
    nowhere.mkdir()

    async def outside(s: ClientSession) -> None:
        for name, args in (("brv-search", {"query": "x"}), ("brv-brain", {}),
                           ("brv-vc-status", {})):
            result = await s.call_tool(name, args)
            assert result.is_error
            assert "not a brv project" in payload(result)["error"]["message"]
        # a server started outside any project serves no project through cwd unasked
        refused = await s.call_tool("brv-search", {"query": "anything",
                                                   "cwd": str(project.root)})
        assert refused.is_error
        assert "allow_projects" in payload(refused)["error"]["hint"]

    with_server(nowhere, outside)
    # a client without a workspace names a project the user allowed in their own settings
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "brv"
    user.mkdir(parents=True, exist_ok=True)
    (user / "config.yaml").write_text(f"allow_projects:\n  - {project.root}\n")

    async def allowed(s: ClientSession) -> None:
        found = await s.call_tool("brv-search", {"query": "anything", "cwd": str(project.root)})
        assert not found.is_error

    with_server(nowhere, allowed)


def test_search_with_record_false_only_looks(project: Project) -> None:
    """Issue 16: the MCP search tool takes record=false (brv search --no-record)."""
    from brv_vc.lifecycle.sidecar import get_many
    from brv_vc.tree.statedb import open_state

    def access() -> int:
        state = open_state(project)
        try:
            row = get_many(state, ["auth/jwt/token_rotation.md"]).get("auth/jwt/token_rotation.md")
            return 0 if row is None else row.access_count
        finally:
            state.close()

    async def looks(s: ClientSession) -> None:
        assert not (await s.call_tool("brv-curate", {"operations": OPS})).is_error
        found = payload(await s.call_tool("brv-search", {"query": "refresh", "record": False}))
        assert found["results"][0]["path"] == "auth/jwt/token_rotation.md"

    with_server(project.root, looks)
    assert access() == 0

    async def counts(s: ClientSession) -> None:
        payload(await s.call_tool("brv-search", {"query": "refresh"}))

    with_server(project.root, counts)
    assert access() == 1


def _requests(*messages: dict[str, Any]) -> bytes:
    return b"".join(json.dumps({"jsonrpc": "2.0", **m}).encode() + b"\n" for m in messages)


INITIALIZE = {"id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"}}}


def test_requests_from_a_file_are_served_by_the_sdks_own_transport(
        project: Project, tmp_path: Path) -> None:
    """A regular file cannot be watched by the event loop: the SDK's threads read it.

    (At the end of its input the SDK stops, dropping requests still running: only the
    initialize answer is sure to come.)
    """
    import subprocess

    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(_requests(INITIALIZE))
    with requests.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "brv_vc", "mcp"], stdin=stdin, capture_output=True,
            cwd=project.root, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1], done.stderr
    assert answers[0]["result"]["serverInfo"]["name"] == "brv"
