"""Fixes from the user-facing audit of ``brv vc`` (state, modes, reset, archives, wording).

Each test reproduces an audit finding with real git and real repositories.
"""

from __future__ import annotations

from pathlib import Path

from conftest import snapshot
from vc_helpers import Member, git, make_member

ROT = "auth/jwt/token_rotation.md"


def _in_project_app(tmp_path: Path) -> Member:
    """A code project tracking its tree in-project, with one committed entry."""
    app = make_member(tmp_path, "app")
    git(app.root, "init", "-q")
    (app.root / "app.py").write_text("print('v1')\n")
    git(app.root, "add", ".")
    git(app.root, "commit", "-q", "-m", "code")
    app.ok("vc", "init", "--in-project")
    app.write(ROT, "Token rotation", facts=["single use"], narrative="Tokens rotate.")
    app.ok("vc", "add")
    app.ok("vc", "commit", "-m", "knowledge")
    return app


def _clone(tmp_path: Path, app: Member, name: str) -> Member:
    git(tmp_path, "clone", "-q", str(app.root), name)
    return Member(name, tmp_path / name)


# H2 -------------------------------------------------------------------------------------


def test_in_project_add_commits_the_settings_and_a_clone_searches_at_once(
        tmp_path: Path) -> None:
    app = _in_project_app(tmp_path)
    # nothing brv wrote is left untracked: settings and .brv/.gitignore went with the commit
    assert git(app.root, "status", "--porcelain", "--untracked-files=all") == ""
    tracked = git(app.root, "ls-tree", "-r", "--name-only", "HEAD").split()
    assert ".brv/config.yaml" in tracked and ".brv/.gitignore" in tracked
    assert not [p for p in tracked if p.startswith(".brv/state")]

    mate = _clone(tmp_path, app, "mate")
    hits = mate.ok("search", "rotate", "--json").json()
    assert ROT in [h["path"] for h in hits["results"]]
    assert (mate.root / ".brv/state/index.db").is_file()
    assert git(mate.root, "status", "--porcelain", "--untracked-files=all",
               "--ignored=no") == ""
    git(mate.root, "add", "-A")
    assert git(mate.root, "diff", "--cached", "--name-only") == ""


def test_state_ignores_itself_even_without_brv_gitignore(tmp_path: Path) -> None:
    """A repository that never committed .brv/.gitignore (older brv) still keeps state out."""
    app = make_member(tmp_path, "app")
    git(app.root, "init", "-q")
    app.ok("init")
    app.ok("curate", "add", "ops/ci", "--title", "Pipeline", "--content", "lint first")
    (app.root / ".brv/.gitignore").unlink()
    state_ignore = app.root / ".brv/state/.gitignore"
    state_ignore.unlink()  # a project made before the file existed
    app.ok("search", "pipeline")
    assert state_ignore.read_text().splitlines()[-1] == "*"
    status = git(app.root, "status", "--porcelain", "--untracked-files=all")
    assert ".brv/state" not in status
    assert ".brv/context-tree/ops/ci/pipeline.md" in status
    git(app.root, "add", "-A")
    assert ".brv/state" not in git(app.root, "diff", "--cached", "--name-only")


def test_in_project_add_respects_a_project_that_keeps_settings_local(tmp_path: Path) -> None:
    app = make_member(tmp_path, "app")
    git(app.root, "init", "-q")
    (app.root / ".gitignore").write_text(".brv/config.yaml\n")
    app.ok("vc", "init", "--in-project")
    app.write(ROT, "Token rotation", facts=["single use"])
    app.ok("vc", "add")
    staged = git(app.root, "diff", "--cached", "--name-only").split()
    assert ".brv/config.yaml" not in staged
    assert ".brv/.gitignore" in staged and f".brv/context-tree/{ROT}" in staged
    app.ok("vc", "commit", "-m", "kb")
    assert git(app.root, "status", "--porcelain") == "?? .gitignore\n"


def test_in_project_commit_takes_settings_but_never_code(tmp_path: Path) -> None:
    app = _in_project_app(tmp_path)
    config = app.root / ".brv/config.yaml"
    config.write_text(config.read_text() + "search:\n  limit: 5\n")
    (app.root / "app.py").write_text("print('v2')\n")
    git(app.root, "add", "app.py")
    app.ok("vc", "add")
    result = app.ok("vc", "commit", "-m", "settings", "--json").json()
    assert result["files"] == 1
    assert git(app.root, "show", "--name-only", "--format=", "HEAD").split() == [
        ".brv/config.yaml"]
    assert git(app.root, "diff", "--cached", "--name-only").split() == ["app.py"]


# H3 -------------------------------------------------------------------------------------


def test_standalone_init_in_a_clone_of_an_in_project_repository_is_refused(
        tmp_path: Path) -> None:
    app = _in_project_app(tmp_path)
    mate = _clone(tmp_path, app, "mate")
    before = snapshot(mate.root)
    result = mate.fails("vc", "init")
    assert "already tracked by the project's repository (in-project mode)" in result.stderr
    assert "brv vc init --in-project" in result.stderr
    assert snapshot(mate.root) == before
    assert not (mate.tree / ".git").exists()
    error = mate.fails("vc", "init", "--json").json()["error"]
    assert error["code"] == "conflict"
    mate.ok("vc", "init", "--in-project")  # the way the hint points at works
