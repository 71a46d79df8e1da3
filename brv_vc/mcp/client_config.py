"""``brv mcp --print-config``: an MCP client entry that starts this brv, whatever the PATH.

Why: clients start servers with their own environment (an IDE launched from the dock has no
activated virtualenv), so ``{"command": "brv"}`` fails with "not found" wherever brv was
installed into a venv that is not on PATH. The entry names this interpreter by its absolute
path and runs ``-m brv_vc``: the same brv in a venv, under pipx or in the system Python.
No import of the MCP SDK here: the config can be printed before the extra is installed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import brv_vc
from brv_vc import environment
from brv_vc.interpreter import interpreter

CLIENTS = ("claude", "cursor", "vscode")
FILES = {"claude": ".mcp.json", "cursor": ".cursor/mcp.json", "vscode": ".vscode/mcp.json"}


def server_entry(project: Path | None) -> dict[str, Any]:
    """``command``/``args`` (and ``env`` for a checkout that is not installed)."""
    args = ["-m", "brv_vc", *(["-C", str(project)] if project is not None else []), "mcp"]
    entry: dict[str, Any] = {"command": interpreter(), "args": args}
    parent = str(Path(brv_vc.__file__).resolve().parent.parent)
    if parent in (environment.get("PYTHONPATH") or "").split(os.pathsep):
        entry["env"] = {"PYTHONPATH": parent}  # importable only through PYTHONPATH now
    return entry


def client_config(client: str, project: Path | None) -> dict[str, Any]:
    """The JSON document ``client`` reads (``FILES[client]``), with brv as its one server."""
    entry = server_entry(project)
    if client == "vscode":
        return {"servers": {"brv": {"type": "stdio", **entry}}}
    return {"mcpServers": {"brv": entry}}


def install_hint() -> str:
    """How to add the MCP extra to the Python running brv (pipx, venv or system)."""
    if "pipx" in Path(sys.prefix).parts:
        return "pipx inject brv-vc 'mcp>=2.3,<3'  (or: pipx install --force 'brv-vc[mcp]')"
    return f"{sys.executable} -m pip install 'brv-vc[mcp]'  (from a checkout: '.[mcp]')"


def sdk_missing() -> bool:
    """True when the MCP SDK cannot be imported by this Python."""
    import importlib.util

    try:
        return importlib.util.find_spec("mcp") is None
    except (ImportError, ValueError):  # blocked, or a broken half-installed package
        return True
