"""Real repositories where knowledge links to code (a ``Files:`` list), in both git modes:
the fixtures of the surfaces tests (hooks, diff, marks, prune)."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import run_brv
from hooks_support import entry_bytes, git, git_env, in_project, standalone, write

from brv_vc.tree.project import Project

ENTRY = "auth/jwt/tokens.md"
CODE = "src/auth/jwt.ts"


def linked_entry(title: str = "JWT tokens", files: tuple[str, ...] = (CODE,),
                 note: str = "Access tokens expire after 24 hours.") -> bytes:
    """An entry whose Raw Concept lists ``files`` (seed 000's ``**Files:**``)."""
    listed = "".join(f"- {f}\n" for f in files)
    return entry_bytes(title, f"## Raw Concept\n\n**Files:**\n{listed}\n## Narrative\n\n{note}\n")


def hooked_in_project(tmp: Path) -> Project:
    """In-project mode: code and an entry linked to it, committed through brv's hooks."""
    project = in_project(tmp)
    assert run_brv("hooks", "install", cwd=project.root).exit_code == 0
    write(project.root, CODE, "export const ttl = 24;\n")
    write(project.tree, ENTRY, linked_entry())
    git("add", "-A", cwd=project.root)
    git("commit", "-q", "-m", "code and its knowledge", cwd=project.root)
    return project


def commit_at(repo: Path, message: str, when: str, *extra: str) -> None:
    """Commits the staged changes with this author and committer date (standalone mode
    compares an entry's commit time with the code's: one second apart must be told apart)."""
    git("commit", "-q", "-m", message, *extra, cwd=repo,
        env=git_env(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when))


EARLIER, LATER = "2026-01-01T00:00:00+00:00", "2030-01-01T00:00:00+00:00"


def hooked_standalone(tmp: Path) -> Project:
    """Standalone mode: the tree's own repository inside a code repository.

    brv's hooks are installed in the tree's repository; the code repository's pre-commit and
    post-merge run brv's line (what docs/hooks.md tells a team to add). The code's commit
    is dated before the knowledge's (:data:`EARLIER`); commit later changes at :data:`LATER`.
    """
    project = standalone(tmp)
    root = project.root
    git("init", "-q", cwd=root)
    write(root, ".gitignore", ".brv/\n")
    write(root, CODE, "export const ttl = 24;\n")
    for hook in ("pre-commit", "post-merge"):
        write(root, f".git/hooks/{hook}",
              f'#!/bin/sh\nexec {sys.executable} -m brv_vc hook-impl {hook} "$@"\n').chmod(0o755)
    git("add", "-A", cwd=root)
    commit_at(root, "code", EARLIER)
    assert run_brv("hooks", "install", cwd=root).exit_code == 0
    write(project.tree, ENTRY, linked_entry())
    git("add", "-A", cwd=project.tree)
    git("commit", "-q", "-m", "knowledge", cwd=project.tree)
    return project
