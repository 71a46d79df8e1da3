"""A damaged ``.brv/`` (a file where a folder belongs, or the reverse) gets a clear error with
exit 1 and the fix, never a traceback; a ByteRover worktree pointer (``.brv`` as a JSON file)
is followed to the main project."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import brv_process, snapshot

from brv_vc.tree.project import Project

COMMANDS = (("init",), ("search", "token"), ("tree",), ("show", "a/b/c.md"), ("index",),
            ("curate", "add", "a/b", "--title", "T", "--content", "x"))


def _refused(brv, root: Path, message: str, hint: str) -> None:
    before = snapshot(root)
    for args in COMMANDS:
        result = brv(*args, cwd=root)
        assert result.exit_code == 1, (args, result.stdout, result.stderr)
        assert message in result.stderr, (args, result.stderr)
        assert f"hint: {hint}" in result.stderr, (args, result.stderr)
        assert "internal error" not in result.stderr
        as_json = brv(*args, "--json", cwd=root)
        assert as_json.exit_code == 1
        assert message in as_json.json()["error"]["message"]
        assert snapshot(root) == before, args


def test_a_brv_file_that_is_no_pointer_is_refused_everywhere(tmp_path: Path, brv) -> None:
    (tmp_path / ".brv").write_text("junk\n")
    _refused(brv, tmp_path, f"{tmp_path}/.brv is a file, not the .brv/ folder, and not a "
             "worktree pointer", f"move it aside (mv {tmp_path}/.brv {tmp_path}/.brv.bak)")


def test_a_pointer_to_a_folder_without_brv_is_refused(tmp_path: Path, brv) -> None:
    (tmp_path / ".brv").write_text('{"projectRoot": "/nonexistent/main"}')
    _refused(brv, tmp_path, f"{tmp_path}/.brv points to /nonexistent/main (projectRoot), "
             "which has no .brv/ folder", f"fix 'projectRoot' in {tmp_path}/.brv")


@pytest.mark.parametrize("target", ["absolute", "relative"])
def test_a_worktree_pointer_is_followed_to_the_main_project(tmp_path: Path, brv,
                                                             target: str) -> None:
    main, linked = tmp_path / "main", tmp_path / "linked"
    main.mkdir()
    # a ByteRover linked worktree: another git worktree of the main checkout's repository
    # (a pointer may lead out of its own folder only within its repository: tree/confine.py)
    for args in (("init", "-q"), ("commit", "-q", "--allow-empty", "-m", "start"),
                 ("worktree", "add", "-q", str(linked))):
        subprocess.run(["git", *args], cwd=main, check=True, capture_output=True)
    (linked / "src").mkdir(parents=True)
    assert brv("init", cwd=main).exit_code == 0
    added = brv("curate", "add", "auth/jwt", "--title", "Token rotation", "--content",
                "refresh tokens rotate", cwd=main)
    assert added.exit_code == 0, added.stderr
    root = str(main) if target == "absolute" else "../main"
    (linked / ".brv").write_text(json.dumps({"projectRoot": root}))
    found = brv("search", "rotate", "--json", cwd=linked / "src")
    assert found.exit_code == 0, found.stderr
    # the entry first; with stemming its folders' context.md ("rotation") match "rotate" too
    assert found.json()["results"][0]["path"] == "auth/jwt/token_rotation.md"
    assert brv("init", "--json", cwd=linked).json()["root"] == str(main)
    assert (linked / ".brv").is_file()  # the pointer is left as it is
    fast = brv_process("search", "rotate", cwd=linked)  # the click-free path follows it too
    assert fast.exit_code == 0
    assert "token_rotation.md" in fast.stdout


def test_init_refuses_a_context_tree_file(tmp_path: Path, brv) -> None:
    (tmp_path / ".brv").mkdir()
    (tmp_path / ".brv/context-tree").write_text("x\n")
    _refused(brv, tmp_path, ".brv/context-tree is a file, not a folder",
             "move it aside (mv .brv/context-tree .brv/context-tree.bak), then run 'brv init'")
    assert not (tmp_path / ".brv/config.yaml").exists()


def test_a_config_folder_is_refused_by_every_command(project: Project, brv) -> None:
    project.config_path.unlink()
    project.config_path.mkdir()
    _refused(brv, project.root, ".brv/config.yaml is a folder, not a file",
             "move it aside (mv .brv/config.yaml .brv/config.yaml.bak), then run 'brv init'")
    fast = brv_process("search", "token", cwd=project.root)
    assert fast.exit_code == 1
    assert ".brv/config.yaml is a folder" in fast.stderr


def test_a_state_file_is_refused_by_every_command(project: Project, brv) -> None:
    shutil.rmtree(project.state)
    project.state.write_text("x\n")
    _refused(brv, project.root, ".brv/state is a file, not a folder",
             "remove it (rm .brv/state): state is per machine and brv recreates it")


def test_init_refuses_a_gitignore_folder(tmp_path: Path, brv) -> None:
    (tmp_path / ".brv/.gitignore").mkdir(parents=True)
    before = snapshot(tmp_path)
    result = brv("init", cwd=tmp_path)
    assert result.exit_code == 1
    assert ".brv/.gitignore is a folder, not a file" in result.stderr
    assert snapshot(tmp_path) == before
    assert not (tmp_path / ".brv/context-tree").exists()
