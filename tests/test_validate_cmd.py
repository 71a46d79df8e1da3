"""`brv validate`: the working tree is checked (format, schema, markers, layout, tracked derived files), with or without `brv vc init`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import REPO, snapshot
from hooks_support import entry_bytes, git, write
from manager_support import BROKEN, ok, pre_commit, run

from brv_vc.services.init import init_project
from brv_vc.tree.project import Project

INSTALL_TIMEOUT = 900  # try-repo pip-installs brv and its dependencies into its environment
MARKED = "---\ntitle: Rotation\n---\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n"
LOCAL_HOOK = f"""\
repos:
  - repo: local
    hooks:
      - id: brv-validate
        name: brv validate
        language: system
        entry: {sys.executable} -m brv_vc validate
        require_serial: true
"""


def _project(tmp: Path, *, git_repo: bool) -> Project:
    """A project with .brv/ only (no `brv vc init`), optionally in a plain git repository."""
    root = tmp / "app"
    root.mkdir()
    if git_repo:
        git("init", "-q", cwd=root)
    init_project(root)
    project = Project(root)
    write(project.tree, "auth/jwt/good.md", entry_bytes("Good"))
    return project


def test_a_valid_tree_passes_and_says_what_it_checked(tmp_path: Path, brv) -> None:
    project = _project(tmp_path, git_repo=False)
    write(project.tree, "auth/jwt/also.md", entry_bytes("Also"))
    result = brv("validate", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert "brv validate: 2 knowledge file(s) checked" in result.stdout
    data = brv("validate", "--json", cwd=project.root).json()
    assert data["ok"] is True
    assert data["checked"] == 2
    assert data["tracked_known"] is False  # no git: tracked derived files cannot be judged


def test_each_kind_of_bad_file_is_named_and_nothing_changes(tmp_path: Path, brv) -> None:
    project = _project(tmp_path, git_repo=True)
    write(project.tree, "auth/jwt/broken.md", BROKEN)
    write(project.tree, "auth/jwt/marked.md", MARKED)
    write(project.tree, "auth/stray.md", entry_bytes("Stray"))
    write(project.tree, "auth/_index.md", "---\ntitle: Auth\n---\nsummary\n")
    git("add", "-A", cwd=project.root)
    write(project.tree, "auth/jwt/good.abstract.md", "abstract\n")  # derived, untracked: fine
    before = snapshot(project.root)
    result = brv("validate", "--all", cwd=project.root)
    assert result.exit_code == 1
    err = result.stderr
    assert "brv validate: 4 file(s) are not valid knowledge" in err
    assert ".brv/context-tree/auth/jwt/broken.md: malformed YAML in the frontmatter" in err
    assert ".brv/context-tree/auth/jwt/marked.md: has a merge conflict marker at line 4" in err
    assert ".brv/context-tree/auth/stray.md: is outside the layout" in err
    assert (".brv/context-tree/auth/_index.md: is derived (brv regenerates it on every "
            "machine) but tracked by git") in err
    assert "fix: untrack it (it stays on disk): git rm --cached .brv/context-tree/auth/_index.md" \
        in err
    assert "good.abstract.md" not in err
    assert snapshot(project.root) == before


def test_paths_limit_the_check_and_paths_outside_the_tree_are_ignored(tmp_path: Path, brv) -> None:
    project = _project(tmp_path, git_repo=False)
    write(project.tree, "auth/jwt/broken.md", BROKEN)
    write(project.root, "src/app.py", "x = 1\n")
    good = brv("validate", "--json", ".brv/context-tree/auth/jwt/good.md", "src/app.py",
               cwd=project.root).json()
    assert good["ok"] is True
    assert good["checked"] == 1
    assert good["outside"] == ["src/app.py"]
    folder = brv("validate", ".brv/context-tree/auth", cwd=project.root)
    assert folder.exit_code == 1
    assert "auth/jwt/broken.md: malformed YAML" in folder.stderr
    every = brv("validate", "--all", "src/app.py", cwd=project.root)
    assert every.exit_code == 1  # --all checks the whole tree whatever PATHS say
    missing = brv("validate", ".brv/context-tree/auth/jwt/gone.md", cwd=project.root)
    assert missing.exit_code == 1
    assert "auth/jwt/gone.md: does not exist" in missing.stderr


def test_outside_a_brv_project_is_a_clear_error(tmp_path: Path, brv) -> None:
    result = brv("validate", cwd=tmp_path)
    assert result.exit_code == 1
    assert "brv: error:" in result.stderr
    assert "brv init" in result.stderr


def test_pre_commit_run_all_files_fails_on_a_broken_committed_tree(tmp_path: Path) -> None:
    project = _project(tmp_path, git_repo=True)
    root, home = project.root, tmp_path / "pc-home"
    write(root, ".pre-commit-config.yaml", LOCAL_HOOK)
    write(project.tree, "auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "broken, committed green by mistake", cwd=root)
    proc = pre_commit("run", "--all-files", cwd=root, home=home)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert ".brv/context-tree/auth/jwt/broken.md: malformed YAML" in proc.stdout
    write(project.tree, "auth/jwt/broken.md", entry_bytes("Fixed"))
    ok(pre_commit("run", "--all-files", cwd=root, home=home))


@pytest.mark.slow
def test_try_repo_validates_a_tree_without_vc_init(tmp_path: Path) -> None:
    """The manifest's brv-validate as the framework installs it (this checkout's HEAD)."""
    if git("rev-parse", "-q", "--verify", "HEAD", cwd=REPO, check=False).returncode != 0:
        pytest.skip("try-repo needs a committed HEAD in this checkout")
    project = _project(tmp_path, git_repo=True)
    root, home = project.root, tmp_path / "pc-home"
    write(project.tree, "auth/jwt/broken.md", BROKEN)
    write(project.tree, "auth/_index.md", "---\ntitle: Auth\n---\nsummary\n")
    git("add", "-A", cwd=root)
    git("add", "-f", ".brv/context-tree/auth/_index.md", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "broken", cwd=root)
    proc = pre_commit("try-repo", str(REPO), "brv-validate", "--all-files", cwd=root, home=home,
                      timeout=INSTALL_TIMEOUT)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert ".brv/context-tree/auth/jwt/broken.md: malformed YAML" in proc.stdout
    assert ".brv/context-tree/auth/_index.md: is derived" in proc.stdout

    git("rm", "-q", "--cached", ".brv/context-tree/auth/_index.md", cwd=root)
    write(project.tree, "auth/jwt/broken.md", entry_bytes("Fixed"))
    git("add", "-A", cwd=root)
    staged = pre_commit("try-repo", str(REPO), "brv-validate", cwd=root, home=home,
                        timeout=INSTALL_TIMEOUT)
    assert staged.returncode == 0, staged.stdout + staged.stderr
    assert "Passed" in staged.stdout
    assert run("git", "status", "--short", cwd=root).returncode == 0
