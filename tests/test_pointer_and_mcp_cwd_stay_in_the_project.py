"""A tracked .brv pointer and an MCP tool's cwd can only name their own project (or one the user
allowed in their own settings): a clone never searches or writes another project on the machine.

Real git (the pointer arrives by a clone), real brv processes for the hook and the click-free
path, the MCP tools over the real services.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import brv_process, run_brv, snapshot
from vc_helpers import git

from brv_vc.mcp.tools import ToolFailure, Tools
from brv_vc.services.init import init_project

NOW = datetime(2026, 3, 1, tzinfo=UTC)
ADD = [{"type": "ADD", "path": "auth/jwt", "title": "Planted", "content": "planted",
        "reason": "test"}]


def _victim(tmp_path: Path) -> Path:
    """Another project on the same machine, with one entry."""
    other = tmp_path / "other"
    other.mkdir()
    assert run_brv("init", cwd=other).exit_code == 0
    assert run_brv("curate", "add", "secret/plans", "--title", "Merger plans", "--content",
                   "The quokka merger closes in May.", cwd=other).exit_code == 0
    return other


def _allow(root: Path) -> None:
    user = Path(os.environ["XDG_CONFIG_HOME"]) / "brv"
    user.mkdir(parents=True, exist_ok=True)
    (user / "config.yaml").write_text(f"allow_projects:\n  - {root}\n")


def _clone_with_pointer(tmp_path: Path, target: str) -> Path:
    """A clone of a repository whose commit holds a .brv pointer file naming ``target``."""
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q")
    (origin / ".brv").write_text(json.dumps({"projectRoot": target}))
    (origin / "app.py").write_text("print(1)\n")
    git(origin, "add", ".")
    git(origin, "commit", "-q", "-m", "project")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    return clone


def test_a_tracked_pointer_out_of_the_repository_is_refused(tmp_path: Path) -> None:
    other = _victim(tmp_path)
    before = snapshot(other)
    clone = _clone_with_pointer(tmp_path, "../other")
    for args in (("search", "merger"), ("curate", "add", "auth/jwt", "--title", "Planted",
                                        "--content", "planted")):
        result = run_brv(*args, cwd=clone)
        assert result.exit_code == 1, result.stdout + result.stderr
        assert "out of the repository that holds it" in result.stderr
        assert "allow_projects:" in result.stderr  # how to allow it
        assert "quokka" not in result.stdout
    fast = brv_process("search", "merger", cwd=clone)  # the click-free path
    assert fast.exit_code == 1
    assert "quokka" not in fast.stdout
    hook = brv_process("hook-impl", "post-merge", "0", cwd=clone)  # git's hooks skip it
    assert "quokka" not in hook.stdout + hook.stderr
    assert snapshot(other) == before


def test_a_pointer_the_user_allowed_is_followed(tmp_path: Path) -> None:
    other = _victim(tmp_path)
    clone = _clone_with_pointer(tmp_path, "../other")
    _allow(other)
    found = run_brv("search", "merger", "--json", cwd=clone)
    assert found.exit_code == 0, found.stderr
    assert found.json()["results"][0]["path"] == "secret/plans/merger_plans.md"


def test_a_pointer_to_a_sub_folder_of_the_repository_is_followed(tmp_path: Path) -> None:
    clone = _clone_with_pointer(tmp_path, "app")
    (clone / "app.py").unlink()
    (clone / "app").mkdir()
    init_project(clone / "app")  # 'brv init' there would follow the pointer above it
    assert run_brv("curate", "add", "auth/jwt", "--title", "Token rotation", "--content",
                   "refresh tokens rotate", cwd=clone / "app").exit_code == 0
    (clone / "src").mkdir()
    found = run_brv("search", "rotate", "--json", cwd=clone / "src")
    assert found.exit_code == 0, found.stderr
    assert found.json()["results"][0]["path"] == "auth/jwt/token_rotation.md"


def test_an_mcp_cwd_naming_another_project_is_refused(tmp_path: Path) -> None:
    other = _victim(tmp_path)
    before = snapshot(other)
    mine = tmp_path / "mine"
    mine.mkdir()
    assert run_brv("init", cwd=mine).exit_code == 0
    tools = Tools(mine, lambda: NOW)
    try:
        for call in (lambda: tools.curate(ADD, cwd=str(other)),
                     lambda: tools.search("merger", cwd=str(other / ".brv")),
                     lambda: tools.show("secret/plans/merger_plans.md", cwd=str(other))):
            with pytest.raises(ToolFailure) as refused:
                call()
            error = refused.value.payload["error"]
            assert error["code"] == "invalid_path"
            assert error["key"] == "cwd"
            assert f"lies in the project {other}" in error["message"]
            assert "allow_projects" in error["hint"]
        assert snapshot(other) == before
        # its own project, named by any of its folders, is served as before
        assert tools.curate(ADD, cwd=str(mine / ".brv"))["ok"] is True
        _allow(other)
        assert tools.search("merger", cwd=str(other))["results"]
    finally:
        tools.close()
