"""``brv mcp --print-config``: the printed client config starts the server with no PATH at all,
and without the MCP extra ``brv mcp`` says how to install it (exit 1, no traceback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from brv_vc.services.init import init_project

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "test", "version": "1"}}}


def _printed(client: str, project: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # as a user's shell
    done = subprocess.run([sys.executable, "-m", "brv_vc", "-C", str(project), "mcp",
                           "--print-config", client], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("client", ["claude", "cursor", "vscode"])
def test_the_printed_config_starts_the_server_in_an_empty_environment(
        client: str, tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    init_project(project)
    config = _printed(client, project)
    servers = config["servers" if client == "vscode" else "mcpServers"]
    assert isinstance(servers, dict)
    entry = servers["brv"]
    assert os.path.isabs(entry["command"])
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps(INITIALIZE) + "\n")
    with requests.open("rb") as stdin:  # a client's fresh process: no PATH, no venv, elsewhere
        done = subprocess.run([entry["command"], *entry["args"]], stdin=stdin,
                              capture_output=True, cwd="/", env=entry.get("env", {}),
                              timeout=60, check=False)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1], done.stderr
    assert answers[0]["result"]["serverInfo"]["name"] == "brv"


def test_without_the_mcp_extra_brv_mcp_says_how_to_install_it(tmp_path: Path) -> None:
    block = tmp_path / "block"
    block.mkdir()
    (block / "sitecustomize.py").write_text(
        "import sys\n\n"
        "class _NoMcp:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'mcp' or name.startswith('mcp.'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n\n"
        "sys.meta_path.insert(0, _NoMcp())\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(block), str(REPO)])}
    done = subprocess.run([sys.executable, "-m", "brv_vc", "mcp"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60, check=False,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert "brv mcp needs the MCP SDK" in done.stderr
    assert "pip install 'brv-vc[mcp]'" in done.stderr
    assert "Traceback" not in done.stderr
