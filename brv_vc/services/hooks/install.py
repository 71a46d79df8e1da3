"""Git hooks in a repository: install (or upgrade), uninstall and report brv's hooks.

What each hook does when git runs it is ``services.vc.run_hook`` (``services/vc/events.py``): the
same after-change step as ``brv vc pull``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from brv_vc.tree.project import Project
from brv_vc.vc import exclusions
from brv_vc.vc import hooks_install as hi
from brv_vc.vc.repo import KnowledgeRepo, locate


@dataclass(frozen=True)
class HooksReport:
    """Where the hooks live and the state of each (after install/uninstall, or now)."""

    mode: str
    repository: str
    hooks_dir: str
    hooks_path: str | None  # the core.hooksPath setting, when set
    hooks: tuple[hi.HookState, ...]
    notes: tuple[str, ...] = ()


def _locate(project: Project) -> tuple[KnowledgeRepo, Path, str | None]:
    repo = locate(project)
    folder, hooks_path = hi.hooks_dir(repo.workdir)
    return repo, folder, hooks_path


def _notes(repo: KnowledgeRepo, folder: Path, hooks_path: str | None) -> tuple[str, ...]:
    if hooks_path is None:
        return ()
    return (
        f"core.hooksPath is set to {hooks_path!r}, so git runs hooks from {folder}; brv's "
        "hooks are there too (every repository using that folder runs them; they do nothing "
        "outside a brv project)",
    )


def install_hooks(project: Project, *, python: str | None = None) -> HooksReport:
    """Installs (or upgrades) brv's hooks into the repository that holds the tree.

    Args:
        project: the project.
        python: the interpreter the shims run (default: the one running brv now).

    Returns:
        The report; each hook's ``action`` says what changed.

    Raises:
        NotInitializedError: the tree is in no git repository.
        ConflictError: a foreign hook and its ``.legacy`` both exist (nothing changed).

    It also writes the managed ``.gitignore``/``.gitattributes`` of the tree when missing
    or stale (said in ``notes``).
    """
    repo, folder, hooks_path = _locate(project)
    states = hi.install(folder, python or sys.executable)
    # A tree repository made with plain 'git init' has no managed .gitignore yet: without it
    # the derived files the hooks generate would show up as untracked knowledge.
    written = exclusions.ensure_files(repo.tree)
    notes = tuple(f"wrote {name} (managed sync exclusions: derived files stay untracked)"
                  for name in written)
    return HooksReport(_mode(repo), str(repo.workdir), str(folder), hooks_path, states,
                       (*notes, *_notes(repo, folder, hooks_path)))


def uninstall_hooks(project: Project) -> HooksReport:
    """Removes brv's hooks and restores the hooks they replaced."""
    repo, folder, hooks_path = _locate(project)
    return HooksReport(_mode(repo), str(repo.workdir), str(folder), hooks_path,
                       hi.uninstall(folder))


def hooks_status(project: Project) -> HooksReport:
    """Reports brv's hooks without changing anything."""
    repo, folder, hooks_path = _locate(project)
    return HooksReport(_mode(repo), str(repo.workdir), str(folder), hooks_path,
                       hi.status(folder, sys.executable), _notes(repo, folder, hooks_path))


def _mode(repo: KnowledgeRepo) -> str:
    return "in-project" if repo.in_project else "standalone"
