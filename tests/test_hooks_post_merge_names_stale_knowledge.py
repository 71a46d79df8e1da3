"""A plain ``git pull`` reports the knowledge whose code the pulled commits changed."""

from __future__ import annotations

import sys
from pathlib import Path

from code_surfaces_support import CODE, ENTRY, hooked_in_project, hooked_standalone, linked_entry
from conftest import run_brv
from hooks_support import git, write

from brv_vc.tree.project import Project

REPORT = "brv: note: this pull changed code that 1 entry describes; it may be stale:"


def _clone(origin: Path, dest: Path) -> Path:
    git("clone", "-q", str(origin), str(dest), cwd=origin.parent)
    return dest


def _hooked_clone(project: Project, tmp: Path) -> Path:
    clone = _clone(project.root, tmp / "clone")
    assert run_brv("hooks", "install", cwd=clone).exit_code == 0
    assert run_brv("index", cwd=clone).exit_code == 0
    return clone


def test_a_pull_that_changes_linked_code_names_the_entry(tmp_path: Path) -> None:
    project = hooked_in_project(tmp_path)
    clone = _hooked_clone(project, tmp_path)
    write(project.root, CODE, "export const ttl = 1;\n")
    git("commit", "-qam", "shorter tokens", cwd=project.root)
    proc = git("pull", "-q", "--no-rebase", cwd=clone)
    assert REPORT in proc.stderr
    assert f"  {ENTRY} ({CODE} changed)" in proc.stderr
    assert "brv stale" in proc.stderr


def test_a_pull_that_updates_the_entry_with_its_code_says_nothing(tmp_path: Path) -> None:
    project = hooked_in_project(tmp_path)
    clone = _hooked_clone(project, tmp_path)
    write(project.root, CODE, "export const ttl = 1;\n")
    write(project.tree, ENTRY, linked_entry(note="Access tokens expire after 1 hour."))
    git("add", "-A", cwd=project.root)
    git("commit", "-qm", "shorter tokens", cwd=project.root)
    proc = git("pull", "-q", "--no-rebase", cwd=clone)
    assert "may be stale" not in proc.stderr, proc.stderr


def test_a_pull_that_renames_linked_code_says_where_it_went(tmp_path: Path) -> None:
    project = hooked_in_project(tmp_path)
    clone = _hooked_clone(project, tmp_path)
    (project.root / "src/tokens").mkdir()
    git("mv", CODE, "src/tokens/jwt.ts", cwd=project.root)
    git("commit", "-qm", "move", "--no-verify", cwd=project.root)
    proc = git("pull", "-q", "--no-rebase", cwd=clone)
    assert f"  {ENTRY} ({CODE} renamed to src/tokens/jwt.ts)" in proc.stderr


def test_standalone_code_repository_pull_names_the_entry(tmp_path: Path) -> None:
    project = hooked_standalone(tmp_path)
    # a teammate's clone: the code repository with the tree's repository inside it
    other = tmp_path / "other"
    _clone(project.root, other)
    (other / ".brv").mkdir()
    _clone(project.tree, other / ".brv/context-tree")
    for name in ("config.yaml",):
        src = project.root / ".brv" / name
        if src.exists():
            (other / ".brv" / name).write_bytes(src.read_bytes())
    write(other, ".git/hooks/post-merge",
          f'#!/bin/sh\nexec {sys.executable} -m brv_vc hook-impl post-merge "$@"\n').chmod(0o755)
    assert run_brv("index", cwd=other).exit_code == 0
    write(project.root, CODE, "export const ttl = 1;\n")
    git("commit", "-qam", "shorter tokens", cwd=project.root)
    proc = git("pull", "-q", "--no-rebase", cwd=other)
    assert REPORT in proc.stderr
    assert f"  {ENTRY} ({CODE} changed)" in proc.stderr


def test_a_pull_with_rebase_names_the_entry_too(tmp_path: Path) -> None:
    project = hooked_in_project(tmp_path)
    clone = _hooked_clone(project, tmp_path)
    write(project.root, CODE, "export const ttl = 1;\n")
    git("commit", "-qam", "shorter tokens", "--no-verify", cwd=project.root)
    write(clone, "README", "local work\n")
    git("add", "README", cwd=clone)
    git("commit", "-qm", "local", cwd=clone)
    proc = git("pull", "-q", "--rebase", cwd=clone)
    assert "brv: note: this rebase changed code that 1 entry describes; it may be stale:" in (
        proc.stderr)
    assert f"  {ENTRY} ({CODE} changed)" in proc.stderr


def test_brv_vc_pull_reports_it_as_the_hook_would(tmp_path: Path) -> None:
    project = hooked_in_project(tmp_path)
    clone = _hooked_clone(project, tmp_path)
    write(project.root, CODE, "export const ttl = 1;\n")
    git("commit", "-qam", "shorter tokens", "--no-verify", cwd=project.root)
    done = run_brv("vc", "pull", cwd=clone)
    assert done.exit_code == 0, done.stderr
    said = done.stdout + done.stderr
    assert "this pull changed code that 1 entry describes; it may be stale:" in said
    assert f"  {ENTRY} ({CODE} changed)" in said
    assert said.count("may be stale") == 1  # the hook, skipped inside 'brv vc pull', is silent
