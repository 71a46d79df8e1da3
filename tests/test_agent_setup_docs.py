"""docs/agents.md: each client configuration it shows really starts a working brv server."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import anyio
from conftest import REPO
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from brv_vc.tree.project import Project

DOC = (REPO / "docs" / "agents.md").read_text(encoding="utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC, re.DOTALL)


def launchers() -> list[tuple[str, list[str]]]:
    found = []
    for block in blocks("json"):
        data = json.loads(block)
        for server in data.get("mcpServers", {}).values():
            found.append((server["command"], server["args"]))
    for block in blocks("toml"):
        for server in tomllib.loads(block)["mcp_servers"].values():
            found.append((server["command"], server["args"]))
    return found


def brv_command() -> list[str]:
    """The installed ``brv`` beside this interpreter, else ``python -m brv_vc``."""
    script = Path(sys.executable).parent / "brv"
    return [str(script)] if script.exists() else [sys.executable, "-m", "brv_vc"]


def test_the_doc_shows_claude_code_cursor_and_codex() -> None:
    assert len(launchers()) == 3
    assert set(map(tuple, (args for _, args in launchers()))) == {("mcp",)}
    assert "claude mcp add brv --scope project -- brv mcp" in DOC


def test_each_configuration_starts_a_server_that_answers(project: Project) -> None:
    for command, args in launchers():
        assert command == "brv"
        full = [*brv_command(), *args]
        params = StdioServerParameters(command=full[0], args=full[1:], cwd=str(project.root),
                                       env={**os.environ, "PYTHONPATH": str(REPO)})

        async def main(params: StdioServerParameters = params) -> list[str]:
            with anyio.fail_after(60):
                async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
                    await session.initialize()
                    return [t.name for t in (await session.list_tools()).tools]

        assert "brv-search" in anyio.run(main)


def test_the_session_start_hook_prints_the_brain(project: Project) -> None:
    settings = json.loads(next(b for b in blocks("json") if "SessionStart" in b))
    command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    argv = shlex.split(command)
    assert argv[0] == "brv"
    proc = subprocess.run([*brv_command(), *argv[1:]], cwd=project.root, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)},
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Project brain\n")
