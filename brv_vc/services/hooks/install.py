"""Git hooks in a repository: install (or upgrade), uninstall and report brv's hooks.

What each hook does when git runs it is ``services.vc.run_hook`` (``services/vc/events.py``): the
same after-change step as ``brv vc pull``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from brv_vc.interpreter import interpreter
from brv_vc.services.hooks import managers
from brv_vc.tree.project import Project
from brv_vc.vc import exclusions, git
from brv_vc.vc import hook_managers as hm
from brv_vc.vc import hooks_install as hi
from brv_vc.vc import manager_config as mc
from brv_vc.vc.repo import KnowledgeRepo, locate

HookState = hi.HookState  # part of the face: a report's hooks


@dataclass(frozen=True)
class HooksReport:
    """Where the hooks live and the state of each (after install/uninstall, or now)."""

    mode: str
    repository: str
    hooks_dir: str
    hooks_path: str | None  # the core.hooksPath setting, when set
    hooks: tuple[hi.HookState, ...]
    notes: tuple[str, ...] = ()
    manager: str | None = None  # the hook manager that owns the hooks folder, if any
    manager_config: str | None = None  # the file (or folder) its users edit
    snippet: str = ""  # what to add there so that brv's part runs (when it does not yet)
    integrated: str = ""  # the manager config brv wrote its part into (--integrate), if any
    can_integrate: bool = False  # brv can write its part into manager_config (--integrate)


def _report(repo: KnowledgeRepo, folder: Path, hooks_path: str | None,
            states: tuple[hi.HookState, ...], manager: hm.Manager | None,
            notes: tuple[str, ...] = (), integrated: str = "") -> HooksReport:
    missing = tuple(s.name for s in states if not s.brv_runs)
    knowledge = repo.prefix or "."
    unhooked = bool(missing) and manager is not None and all(
        hm.brv_in_config(manager, n) for n in missing)
    if unhooked and manager is not None:
        # brv is in the manager's config: the manager's own hooks are what is missing
        notes = (*notes, f"{manager.config} runs brv's part, but {manager.name} has not "
                         f"installed its hooks here: run "
                         f"'{hm.install_command(manager, missing)}'")
        missing = ()
    twice = managers.doubles(manager, folder) if manager is not None else ()
    if twice:
        notes = (*notes, f"brv's check runs twice in {', '.join(twice)} (pre-commit runs "
                         "brv's old hook as its legacy hook and brv's part from its config): "
                         "run 'brv hooks install' to keep the config's alone")
    text = mc.snippet(manager, missing, knowledge) if manager is not None and missing else ""
    if manager is not None and not unhooked:
        notes = (*notes, _manager_note(manager, folder, missing))
    can = bool(missing) and manager is not None and mc.merged_config(
        manager, missing, knowledge) is not None
    return HooksReport(_mode(repo), str(repo.workdir), str(folder), hooks_path, states,
                       notes, manager.name if manager else None,
                       str(manager.config) if manager else None, text, integrated, can)


def _manager_note(manager: hm.Manager, folder: Path, missing: tuple[str, ...]) -> str:
    own = ("brv adds one line to each of its hook files (it runs the brv recorded in git config "
           "brv.python, else 'brv' from PATH)" if manager.name == "husky"
           else "brv edits its config only with --integrate")
    if not missing:
        return f"{manager.name} manages the hooks in {folder}; {own}; brv's part runs in every hook"
    fix = ("run 'brv hooks install' to add them, or add the lines below yourself"
           if manager.name == "husky" else
           f"run 'brv hooks install --integrate', or make {manager.config} what is below"
           if mc.merged_config(manager, missing, ".") is not None
           else f"add the snippet below to {manager.config}")
    return (f"{manager.name} manages the hooks in {folder}; {own}; brv's part does not run in "
            f"{', '.join(missing)}: {fix}")


def _locate(project: Project) -> tuple[KnowledgeRepo, Path, str | None]:
    repo = locate(project)
    folder, hooks_path = hi.hooks_dir(repo.workdir)
    return repo, folder, hooks_path


def _notes(repo: KnowledgeRepo, folder: Path, hooks_path: str | None) -> tuple[str, ...]:
    if hooks_path is None:
        return ()
    return (
        f"core.hooksPath is set to {hooks_path!r}, so git runs hooks from {folder}; brv's "
        "hooks go there (every repository using that folder runs them; they do nothing "
        "outside a brv project)",
    )


def install_hooks(project: Project, *, python: str | None = None,
                  integrate: bool = False) -> HooksReport:
    """Installs (or upgrades) brv's hooks into the repository that holds the tree.

    Args:
        project: the project.
        python: the interpreter the shims run (default: the one running brv now).
        integrate: write brv's part into the config of lefthook or the pre-commit framework
            when one of them manages the hooks (else the report carries the snippet).

    Returns:
        The report; each hook's ``action`` says what changed.

    Raises:
        NotInitializedError: the tree is in no git repository.
        ConflictError: a foreign hook and its ``.legacy`` both exist (nothing changed).

    It also writes the managed ``.gitignore``/``.gitattributes`` of the tree when missing
    or stale (said in ``notes``).
    """
    repo, folder, hooks_path = _locate(project)
    manager = hm.detect(repo.workdir, folder, hooks_path, hi.HOOK_NAMES)
    python = python or interpreter()
    # the lines in a manager's files reach this brv through it, without PATH (per clone)
    for key, value in ((hm.PYTHON_KEY, python), (hm.PACKAGE_KEY, hi.PACKAGE_MAIN)):
        if git.config_value(repo.workdir, key) != value:
            git.set_config(repo.workdir, key, value)
    integrated = ""
    if manager is not None and integrate:
        integrated = managers.integrate(manager, repo.prefix or ".")
    states = (managers.join(manager, folder, python, repo.prefix or ".")
              if manager is not None else hi.install(folder, python))
    # A tree repository made with plain 'git init' has no managed .gitignore yet: without it
    # the derived files the hooks generate would show up as untracked knowledge.
    written = exclusions.ensure_files(repo.tree)
    notes = tuple(f"wrote {name} (managed sync exclusions: derived files stay untracked)"
                  for name in written)
    if integrated:
        notes = (*notes, f"brv's part was written into {integrated}: commit it so your team "
                         "runs it too")
    if manager is not None:
        return _report(repo, folder, hooks_path, states, manager, notes, integrated)
    return HooksReport(_mode(repo), str(repo.workdir), str(folder), hooks_path, states,
                       (*notes, *_notes(repo, folder, hooks_path)))


def uninstall_hooks(project: Project) -> HooksReport:
    """Removes brv's hooks and restores the hooks they replaced."""
    repo, folder, hooks_path = _locate(project)
    manager = hm.detect(repo.workdir, folder, hooks_path, hi.HOOK_NAMES)
    states = managers.leave(manager, folder) if manager is not None else hi.uninstall(folder)
    return HooksReport(_mode(repo), str(repo.workdir), str(folder), hooks_path, states,
                       manager=manager.name if manager else None,
                       manager_config=str(manager.config) if manager else None)


def hooks_status(project: Project) -> HooksReport:
    """Reports brv's hooks without changing anything."""
    repo, folder, hooks_path = _locate(project)
    manager = hm.detect(repo.workdir, folder, hooks_path, hi.HOOK_NAMES)
    states = tuple(managers.truth(manager, folder, s) for s in hi.status(folder, interpreter()))
    return _report(repo, folder, hooks_path, states, manager,
                   _notes(repo, folder, hooks_path) if manager is None else ())


def _mode(repo: KnowledgeRepo) -> str:
    return "in-project" if repo.in_project else "standalone"
