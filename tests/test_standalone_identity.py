"""Standalone mode commits with the project repository's identity when the nested
repository sets none of its own (real git, a different global identity)."""

from __future__ import annotations

from pathlib import Path

from conftest import run_brv
from vc_helpers import git


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Project Person")
    git(root, "config", "user.email", "person@work.example")
    assert run_brv("vc", "init", "--no-hooks", cwd=root).exit_code == 0
    done = run_brv("curate", "add", "auth/jwt", "--title", "Token rotation",
                   "--content", "Refresh tokens are single use.", cwd=root)
    assert done.exit_code == 0, done.stderr
    assert run_brv("vc", "add", cwd=root).exit_code == 0
    return root


def test_commit_uses_the_project_identity_not_the_global_one(tmp_path: Path) -> None:
    root = _project(tmp_path)
    done = run_brv("vc", "commit", "-m", "auth: rotation", cwd=root)
    assert done.exit_code == 0, done.stderr
    tree = root / ".brv" / "context-tree"
    assert git(tree, "log", "-1", "--format=%an <%ae>|%cn <%ce>").strip() == (
        "Project Person <person@work.example>|Project Person <person@work.example>")


def test_an_identity_set_in_the_nested_repository_wins(tmp_path: Path) -> None:
    root = _project(tmp_path)
    tree = root / ".brv" / "context-tree"
    git(tree, "config", "user.name", "Knowledge Bot")
    git(tree, "config", "user.email", "bot@kb.example")
    assert run_brv("vc", "commit", "-m", "auth: rotation", cwd=root).exit_code == 0
    assert git(tree, "log", "-1", "--format=%an <%ae>").strip() == (
        "Knowledge Bot <bot@kb.example>")


def test_without_a_project_identity_the_global_one_is_used(tmp_path: Path) -> None:
    root = _project(tmp_path)
    git(root, "config", "--unset", "user.name")
    git(root, "config", "--unset", "user.email")
    assert run_brv("vc", "commit", "-m", "auth: rotation", cwd=root).exit_code == 0
    tree = root / ".brv" / "context-tree"
    assert git(tree, "log", "-1", "--format=%an <%ae>").strip() == "Test User <test@example.com>"
