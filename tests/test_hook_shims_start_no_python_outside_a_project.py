"""A shim in a repository with no .brv above it (a shared core.hooksPath) starts no Python."""

from __future__ import annotations

import os
from pathlib import Path

from hooks_support import git, git_env, write

from brv_vc.vc.hooks_install import HOOK_NAMES, render


def _shared_hooks(tmp_path: Path) -> tuple[Path, Path]:
    """brv's shims in one folder, their 'Python' a script that only records that it ran."""
    marks = tmp_path / "started"
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> {marks}\n')
    python.chmod(0o755)
    folder = tmp_path / "shared-hooks"
    folder.mkdir()
    for name in HOOK_NAMES:
        (folder / name).write_bytes(render(name, str(python)))
        (folder / name).chmod(0o755)
    return folder, marks


def _commit_and_checkout(repo: Path, folder: Path) -> None:
    env = git_env()
    git("-c", f"core.hooksPath={folder}", "commit", "-q", "-m", "one", cwd=repo, env=env)
    git("-c", f"core.hooksPath={folder}", "checkout", "-q", "-b", "other", cwd=repo, env=env)


def test_no_python_where_no_brv_project_is(tmp_path: Path) -> None:
    folder, marks = _shared_hooks(tmp_path)
    plain = tmp_path / "plain"
    plain.mkdir()
    git("init", "-q", cwd=plain)
    write(plain, "a.txt", "a\n")
    git("add", "-A", cwd=plain)
    _commit_and_checkout(plain, folder)
    assert not marks.exists()


def test_a_project_above_or_behind_a_link_still_runs_brv(tmp_path: Path) -> None:
    folder, marks = _shared_hooks(tmp_path)
    project = tmp_path / "project"
    (project / ".brv").mkdir(parents=True)
    repo = project / "code"  # the repository below the project's root
    repo.mkdir()
    git("init", "-q", cwd=repo)
    write(repo, "a.txt", "a\n")
    git("add", "-A", cwd=repo)
    linked = tmp_path / "linked"
    os.symlink(repo, linked)  # git runs the hooks from the path it was given
    _commit_and_checkout(linked, folder)
    ran = marks.read_text().splitlines()
    hooks = [line.partition(" hook-impl ")[2].split()[0] for line in ran]
    assert hooks == ["pre-commit", "commit-msg", "post-checkout"]
