"""Gaps found by the audit of ``brv vc``: each test reproduces one with real git."""

from __future__ import annotations

from pathlib import Path

from conftest import snapshot
from vc_helpers import Member, git, make_member, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def _in_project_app(tmp_path: Path) -> Member:
    """A code project tracking its tree in-project, with one committed entry."""
    app = make_member(tmp_path, "app")
    git(app.root, "init", "-q")
    (app.root / "app.py").write_text("print('v1')\n")
    git(app.root, "add", ".")
    git(app.root, "commit", "-q", "-m", "code")
    app.ok("vc", "init", "--in-project")
    app.write(ROT, "Token rotation", facts=["single use"])
    app.ok("vc", "add")
    app.ok("vc", "commit", "-m", "knowledge")
    return app


def test_clone_of_an_in_project_repository_is_refused_and_rolled_back(tmp_path: Path) -> None:
    app = _in_project_app(tmp_path)
    carol = make_member(tmp_path, "carol")
    before = snapshot(carol.root)
    result = carol.fails("vc", "clone", str(app.root))
    assert "tracks its knowledge in-project" in result.stderr
    assert "git clone" in result.stderr
    assert "brv vc init --in-project" in result.stderr
    assert snapshot(carol.root) == before
    assert not (carol.root / ".brv").exists()


def test_init_in_project_after_git_clone_builds_derived_files(tmp_path: Path) -> None:
    app = _in_project_app(tmp_path)
    git(tmp_path, "clone", "-q", str(app.root), "dave")
    dave = Member("dave", tmp_path / "dave")
    assert not (dave.tree / "_index.md").exists()
    dave.ok("vc", "init", "--in-project")
    assert (dave.tree / "_index.md").is_file()
    assert dave.ok("vc", "status", "--json").json()["untracked"] == []
