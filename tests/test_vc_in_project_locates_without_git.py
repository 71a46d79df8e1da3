"""In-project, a plain repository is located from its files (no rev-parse); anything unusual asks git."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import brv_process
from vc_helpers import in_project_app

from brv_vc.tree.project import Project
from brv_vc.vc.repo import locate, plain_top

ROT = "auth/jwt/token_rotation.md"


def git_commands(app_root: Path, *args: str, cwd: Path) -> tuple[list[str], str]:
    """(the git commands a real ``brv ARGS`` process ran, its stdout), from git's own trace."""
    trace = app_root.parent / "trace2.json"
    trace.unlink(missing_ok=True)
    done = brv_process(*args, cwd=cwd, env={"GIT_TRACE2_EVENT": str(trace)})
    assert done.exit_code == 0, done.stderr
    events = [json.loads(line) for line in trace.read_text().splitlines()]
    started = [" ".join(e["argv"][1:]) for e in events if e["event"] == "start"]
    return started, done.stdout


def test_status_runs_only_git_status(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, summary="changed")
    app.ok("vc", "status")  # the first one caches what HEAD holds (markers) and the notice
    started, out = git_commands(app.root, "vc", "status", cwd=app.tree / "auth")
    assert len(started) == 1, started
    assert started[0].split()[2] == "status", started
    assert "modified:" in out
    assert "token_rotation.md" in out


def test_the_plain_walk_finds_what_git_finds(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=app.tree, text=True,
                         capture_output=True, check=True).stdout.strip()
    assert plain_top(app.tree / "auth") == Path(top)
    assert locate(Project(app.root)).workdir == Path(top)


@pytest.mark.parametrize("setting", [("core.worktree", "{root}"), ("include.path", "extra"),
                                     ("core.bare", "false")])
def test_a_config_that_may_move_the_work_tree_asks_git(tmp_path: Path,
                                                        setting: tuple[str, str]) -> None:
    app = in_project_app(tmp_path, ROT)
    key, value = setting
    subprocess.run(["git", "config", key, value.format(root=app.root)], cwd=app.root, check=True)
    if key == "core.bare":  # git config rewrites the line as 'bare = false': still plain
        assert plain_top(app.tree) == app.root.resolve()
        return
    assert plain_top(app.tree) is None
    started, out = git_commands(app.root, "vc", "status", cwd=app.root)
    assert any("rev-parse --show-toplevel" in s for s in started), started
    assert "knowledge tree clean" in out  # git's answer: located all the same


def test_a_linked_worktree_asks_git(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    linked = tmp_path / "linked"
    subprocess.run(["git", "worktree", "add", "-q", str(linked)], cwd=app.root, check=True)
    assert (linked / ".git").is_file()
    assert plain_top(linked / ".brv/context-tree") is None
    assert locate(Project(linked)).workdir == linked.resolve()


def test_a_ceiling_asks_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = in_project_app(tmp_path, ROT)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(app.root))
    assert plain_top(app.tree) is None
    monkeypatch.delenv("GIT_CEILING_DIRECTORIES")
    assert plain_top(app.tree) == app.root.resolve()


def test_a_git_folder_that_is_no_repository_asks_git(tmp_path: Path) -> None:
    """git passes such a folder by and looks further up; the walk asks git instead."""
    app = in_project_app(tmp_path, ROT)
    fake = app.tree / "auth/.git"
    fake.mkdir()
    assert plain_top(app.tree / "auth") is None
    (fake / "HEAD").write_text("ref: refs/heads/main\n")  # no objects, no refs: still none
    assert plain_top(app.tree / "auth") is None
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=app.tree / "auth",
                         text=True, capture_output=True, check=True).stdout.strip()
    assert Path(top) == app.root.resolve()  # git passed it by, as said
    (fake / "HEAD").unlink()
    os.rmdir(fake)
    assert plain_top(app.tree / "auth") == app.root.resolve()
