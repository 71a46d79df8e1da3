"""git's hook processes (brv's shims, a manager's line) start brv as the console script does: no runpy."""

from __future__ import annotations

import sys
from pathlib import Path

from hooks_support import entry_bytes, git, git_env, in_project, log_lines, write

from brv_vc.services.hooks.install import install_hooks
from brv_vc.tree.project import Project
from brv_vc.vc.hook_managers import hook_line

# what ``python -m brv_vc`` imports before brv's own code (~4 ms of CPU a hook process)
RUNPY = ("runpy", "importlib.util", "importlib.machinery", "contextlib")


def _timed_env() -> dict[str, str]:
    """git's environment with import times on, without coverage's start-up (CI=true runs it)."""
    env = git_env(PYTHONPROFILEIMPORTTIME="1")
    return {k: v for k, v in env.items() if not k.startswith(("COVERAGE", "COV_CORE"))}


def _imported(stderr: str) -> set[str]:
    """The modules a ``PYTHONPROFILEIMPORTTIME`` log names."""
    return {line.rpartition("|")[2].strip() for line in stderr.splitlines()
            if line.startswith("import time:")}


def test_a_commit_hook_imports_brv_without_runpy(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/jwt/sessions.md", entry_bytes("Sessions"))
    git("add", "-A", cwd=tree)
    done = git("commit", "-q", "-m", "sessions", cwd=tree, env=_timed_env())
    names = _imported(done.stderr)
    assert "brv_vc.cli.entry" in names, done.stderr[-2000:]  # the hook did start brv
    assert not set(RUNPY) & names, sorted(set(RUNPY) & names)
    assert log_lines(tree_repo)[-1]["refreshed"] == ["auth/jwt/sessions.md"]  # and did its work


def test_a_module_at_the_top_of_the_work_tree_does_not_shadow_brvs(tmp_path: Path) -> None:
    """In-project, git runs hooks at the project's top: its ``pathlib.py`` is not brv's."""
    project = in_project(tmp_path)
    install_hooks(project)
    write(project.root, "pathlib.py", "raise SystemExit('the project pathlib was imported')\n")
    write(project.tree, "auth/jwt/sessions.md", entry_bytes("Sessions"))
    git("add", "-A", cwd=project.root)
    done = git("commit", "-q", "-m", "sessions", cwd=project.root, check=False)
    assert done.returncode == 0, done.stderr
    assert "project pathlib" not in done.stderr
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]


def test_a_managers_hook_line_imports_brv_without_runpy(tree_repo: Project, tmp_path: Path) -> None:
    """The line brv gives husky, lefthook and the pre-commit framework (vc/hook_managers.py)."""
    tree = tree_repo.tree
    hooks = tmp_path / "team-hooks"
    hooks.mkdir()
    (hooks / "pre-commit").write_text(f"#!/bin/sh\n{hook_line('pre-commit', '.')}\n")
    (hooks / "pre-commit").chmod(0o755)
    git("config", "core.hooksPath", str(hooks), cwd=tree)
    git("config", "brv.python", sys.executable, cwd=tree)
    write(tree, "auth/jwt/lines.md", entry_bytes("Lines"))
    git("add", "-A", cwd=tree)
    done = git("commit", "-q", "-m", "lines", cwd=tree, env=_timed_env())
    names = _imported(done.stderr)
    assert "brv_vc.cli.entry" in names, done.stderr[-2000:]
    assert not set(RUNPY) & names, sorted(set(RUNPY) & names)
    assert log_lines(tree_repo)[-1]["refreshed"] == ["auth/jwt/lines.md"]
