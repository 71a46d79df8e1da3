"""A core.hooksPath set in the user's global git config after brv's hooks: said once, fixed by one command."""

from __future__ import annotations

import os
from pathlib import Path

from hooks_support import git, head, in_project, write
from manager_support import BROKEN, brv_cli, ok, run


def _global_hooks_folder(tmp: Path) -> Path:
    """What a dotfiles repository or a security tool does: every repository's hooks in one folder."""
    folder = tmp / "global-hooks"
    folder.mkdir()
    git("config", "--global", "core.hooksPath", str(folder), cwd=tmp)
    return folder


def test_global_hooks_path_after_brv_is_said_and_named(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    ok(brv_cli("hooks", "install", cwd=root))
    assert "brv: warning" not in ok(brv_cli("vc", "status", cwd=root)).stderr
    folder = _global_hooks_folder(tmp_path)
    told = ok(brv_cli("vc", "status", cwd=root))
    assert f"core.hooksPath = {folder} is set in {os.environ['GIT_CONFIG_GLOBAL']}" in told.stderr
    assert "not from .git/hooks" in told.stderr
    assert "fix: brv hooks install\n" in told.stderr
    assert "brv: warning" not in ok(brv_cli("vc", "log", cwd=root)).stderr  # said once


def test_the_named_fix_makes_git_commit_check_again(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    ok(brv_cli("hooks", "install", cwd=root))
    folder = _global_hooks_folder(tmp_path)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", ".brv", cwd=root)
    before = head(root)
    unchecked = run("git", "commit", "-q", "--dry-run", "-m", "x", cwd=root)
    assert "malformed YAML" not in unchecked.stdout + unchecked.stderr  # brv is silently off
    ok(brv_cli("hooks", "install", cwd=root))
    assert (folder / "pre-commit").is_file()
    refused = run("git", "commit", "-q", "-m", "broken", cwd=root)
    assert refused.returncode != 0
    assert "auth/jwt/broken.md: malformed YAML" in refused.stdout + refused.stderr
    assert head(root) == before
    assert "brv: warning" not in ok(brv_cli("vc", "status", cwd=root)).stderr
