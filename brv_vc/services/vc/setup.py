"""``brv vc init``: put the context tree under git, standalone or in the project's repository.

What ``brv vc clone`` shares with it (the ``.brv`` folder, the project repository's ignore
rule, the hooks) lives here too; the per-clone driver config is :mod:`configure`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from brv_vc.errors import ConflictError, GitError
from brv_vc.services.vc.configure import register_drivers
from brv_vc.tree.project import Project
from brv_vc.vc import exclusions, git
from brv_vc.vc.git.remote import init
from brv_vc.vc.repo import KnowledgeRepo

DEFAULT_BRANCH = "main"


@dataclass(frozen=True)
class InitResult:
    """What ``brv vc init`` / ``clone`` did."""

    mode: str  # standalone | in-project
    workdir: str
    prefix: str
    reinitialized: bool
    written: tuple[str, ...] = ()
    url: str | None = None
    hooks: tuple[str, ...] = ()  # "<hook>: <action>" for each git hook installed
    notes: tuple[str, ...] = ()
    derived_tracked: tuple[str, ...] = ()  # derived files git still tracks (not adopted)
    adopted: tuple[str, ...] = ()  # derived files untracked by --adopt, in their own commit
    adopt_commit: str | None = None


def project_at(cwd: Path) -> Project:
    """The project for ``cwd`` (where ``brv init`` would put it); nothing is created yet."""
    from brv_vc.services.init import init_root_for

    return Project(init_root_for(cwd).resolve())


def create_brv(project: Project) -> None:
    """Creates ``.brv/`` (idempotent); called only once every check has passed."""
    from brv_vc.services.init import init_project

    init_project(project.root)


def ignore_brv_in_project_repo(project: Project) -> bool:
    """Appends ``.brv/`` to the project's ``.gitignore`` when the project is a git repo."""
    if git.toplevel(project.root) is None:
        return False
    path = project.root / ".gitignore"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if any(line.strip() in (".brv/", ".brv", "/.brv/", "/.brv") for line in text.splitlines()):
        return False
    sep = "" if not text or text.endswith("\n") else "\n"
    from brv_vc.tree.store import write_atomic

    write_atomic(path, (text + sep + ".brv/\n").encode("utf-8"))
    return True


def init_repo(cwd: Path, *, in_project: bool = False, hooks: bool = True,
              now: datetime | None = None, adopt: bool = False) -> InitResult:
    """``brv vc init``: put the tree under version control (idempotent).

    Args:
        cwd: a folder of the project.
        in_project: track the tree in the project's own repository.
        hooks: also install brv's git hooks (pre-commit, post-merge, post-checkout,
            post-rewrite) into the repository, so plain git keeps knowledge healthy.
        now: the clock; when given and the tree already holds knowledge (a cloned
            project, an existing tree), derived files are refreshed (fail open).
        adopt: untrack derived files git tracks (a ByteRover tree) in a commit of their
            own; without it they are listed in ``derived_tracked`` and left alone (no
            refresh either: it would rewrite tracked files).

    Raises:
        GitError: ``--in-project`` outside a git repository.
        ConflictError: switching modes on a tree that already has the other one (either
            way: a nested repository, or a tree the project's repository tracks).
    """
    project = project_at(cwd)
    result = _init_in_project(project) if in_project else _init_standalone(project)
    result = _adoption(project, result, adopt)
    if now is not None and not result.derived_tracked:
        result = _refresh_existing(project, result, now)
    return with_hooks(project, result) if hooks else result


def _adoption(project: Project, result: InitResult, adopt: bool) -> InitResult:
    """Finds derived files git tracks; with ``adopt``, untracks them (services.vc.adopt)."""
    from brv_vc.services.vc.adopt import init_step

    step = init_step(project, KnowledgeRepo(Path(result.workdir), result.prefix), adopt)
    return replace(result, derived_tracked=step.tracked, adopted=step.untracked,
                   adopt_commit=step.commit, notes=(*result.notes, *step.notes))


def _refresh_existing(project: Project, result: InitResult, now: datetime) -> InitResult:
    """Builds derived files (indexes, abstracts) for knowledge that arrived without them.

    Trigger: 'git clone' of a project that tracks its tree, or init on an existing tree.
    Why: derived files are never committed, so nothing else would create them. Outcome:
    summaries exist; a failure is a note, never an error (the repository is ready).
    """
    if not any(project.tree.rglob("*.md")):
        return result
    try:
        from brv_vc.services.derived import refresh

        problems = refresh(project, None, now).problems
    except Exception as exc:  # fail open: init must not fail over derived state
        problems = (f"derived files not refreshed: {exc}",)
    return replace(result, notes=(*result.notes, *problems))


def with_hooks(project: Project, result: InitResult) -> InitResult:
    """Installs the git hooks and records what happened.

    A hook that cannot be installed is a note, not a failure: the repository itself is ready.
    """
    from brv_vc.errors import BrvError
    from brv_vc.services.hooks import install_hooks

    try:
        report = install_hooks(project)
    except BrvError as error:
        note = f"git hooks not installed: {error.message}" + (
            f" ({error.hint})" if error.hint else "")
        return replace(result, notes=(*result.notes, note))
    hooks = tuple(f"{h.name}: " + (f"left to {report.manager}" if h.action == "managed"
                                   else h.action) for h in report.hooks)
    snippet = (f"to run brv's part, add to {report.manager_config}:\n{report.snippet}",
               ) if report.snippet else ()
    return replace(result, hooks=hooks, notes=(*result.notes, *report.notes, *snippet))


def _refuse_tracked_by_project(project: Project) -> None:
    """Refuses a nested repository for a tree the project's own repository already tracks.

    Trigger: 'brv vc init' in a clone of a project that tracks its tree (in-project mode).
    Why: a second repository would take the tree over silently and '.brv/' would be added to
    the project's .gitignore, so new knowledge would no longer reach the team. Outcome: a
    ConflictError before anything is written.
    """
    workdir = git.toplevel(project.root)
    if workdir is None:
        return
    try:
        prefix = project.tree.resolve().relative_to(workdir).as_posix()
    except ValueError:
        return
    if git.is_tracked(workdir, prefix):
        raise ConflictError(
            "the context tree is already tracked by the project's repository (in-project mode)",
            file=prefix,
            hint="keep in-project mode: run 'brv vc init --in-project' (a fresh clone needs it "
                 "once for the drivers and hooks); for a separate knowledge repository, untrack "
                 f"the tree first (git rm -r --cached {prefix}) before 'brv vc init'",
        )


def _init_standalone(project: Project) -> InitResult:
    tree = project.tree
    reinit = (tree / ".git").exists()
    if not reinit:
        _refuse_tracked_by_project(project)
    create_brv(project)
    if not reinit:
        init(tree, DEFAULT_BRANCH)
    repo = KnowledgeRepo(tree, "")
    written = exclusions.ensure_files(tree)
    register_drivers(repo)
    if ignore_brv_in_project_repo(project):
        written.append("../../.gitignore")
    return InitResult("standalone", str(tree), "", reinit, tuple(written))


def _init_in_project(project: Project) -> InitResult:
    tree = project.tree
    if (tree / ".git").exists():
        raise ConflictError(
            "the context tree already has its own repository (standalone mode)",
            file=str(tree / ".git"),
            hint="keep standalone mode, or move the history elsewhere and delete "
                 ".brv/context-tree/.git before 'brv vc init --in-project'",
        )
    workdir = git.toplevel(project.root)
    if workdir is None:
        raise GitError(
            f"{project.root} is not inside a git repository, so it cannot track the tree",
            hint="run 'git init' first, or use 'brv vc init' for a separate knowledge repository",
        )
    prefix = tree.resolve().relative_to(workdir).as_posix()
    if git.ignored_paths(workdir, [f"{prefix}/probe.md"]):
        raise ConflictError(
            "the project's .gitignore ignores the context tree (.brv/), so git cannot track it",
            file=".gitignore",
            hint="remove the '.brv/' line from the project's .gitignore, then run "
                 "'brv vc init --in-project' again",
        )
    reinit = (tree / ".gitattributes").exists()
    create_brv(project)
    repo = KnowledgeRepo(workdir, prefix)
    written = exclusions.ensure_files(tree)
    register_drivers(repo)
    return InitResult("in-project", str(workdir), prefix, reinit, tuple(written))
