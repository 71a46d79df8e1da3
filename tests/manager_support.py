"""Helpers for tests with real hook managers: every process has a timeout (a loop fails)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hooks_support import git_env

TIMEOUT = 120  # seconds: a runaway recursion fails the test instead of hanging it
BROKEN = "---\ntitle: [x\n---\n"  # malformed YAML: brv's pre-commit refuses it
# The team's own pre-commit framework hook: appends to team.log in the git dir each time it runs.
TEAM_CONFIG = """\
repos:
  - repo: local
    hooks:
      - id: team-check
        name: team check
        language: system
        entry: sh -c 'echo ran >> "$(git rev-parse --git-dir)/team.log"'
        always_run: true
        pass_filenames: false
"""


def run(*argv: str | Path, cwd: Path, env: dict[str, str] | None = None,
        input: str | None = None, timeout: int = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Runs a real process with a timeout; returns it whatever its exit status."""
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env or git_env(), text=True,
                          capture_output=True, input=input, timeout=timeout, check=False)


def ok(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    """``proc`` when it succeeded, else an AssertionError showing its output."""
    assert proc.returncode == 0, f"{proc.args} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def brv_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``brv ARGS`` as a real process (the way a user runs it)."""
    return run(sys.executable, "-m", "brv_vc", *args, cwd=cwd)


def pre_commit(*args: str, cwd: Path, home: Path,
               timeout: int = TIMEOUT) -> subprocess.CompletedProcess[str]:
    """pip's real ``pre-commit`` (the test extra), with its cache in ``home``.

    ``try-repo`` pip-installs brv and its dependencies first: give it a longer ``timeout``.
    """
    return run(sys.executable, "-m", "pre_commit", *args, cwd=cwd,
               env=git_env(PRE_COMMIT_HOME=str(home)), timeout=timeout)


def commit(cwd: Path, message: str, home: Path) -> subprocess.CompletedProcess[str]:
    """A plain ``git commit`` (the hooks run), with the framework's cache in ``home``."""
    return run("git", "commit", "-q", "-m", message, cwd=cwd,
               env=git_env(PRE_COMMIT_HOME=str(home)))
