"""``brv init``: create ``.brv/`` (config, context tree, state) idempotently."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from brv_vc.errors import FormatError
from brv_vc.tree.config import DEFAULT_CONFIG
from brv_vc.tree.project import BRV_DIR, Project, check_layout, find_root
from brv_vc.tree.statedb import ensure_state_dir
from brv_vc.tree.store import write_atomic
from brv_vc.vc import git

# state/ is per machine; this keeps it out of any repository that tracks .brv/ (in-project
# mode) without touching the project's own .gitignore.
BRV_GITIGNORE = "# brv: per-machine state, never committed\nstate/\n"


@dataclass(frozen=True)
class InitResult:
    """What ``brv init`` did."""

    root: str
    created: bool
    created_paths: tuple[str, ...]


def init_root_for(cwd: Path) -> Path:
    """Where ``brv init`` should create ``.brv/``.

    Returns:
        An existing project above ``cwd``, else the top of the git repository holding
        ``cwd``, else ``cwd`` itself.
    """
    existing = find_root(cwd)
    if existing is not None:
        return existing
    return git.toplevel(cwd) or cwd.resolve()


def init_project(root: Path) -> InitResult:
    """Creates ``.brv/config.yaml``, ``.brv/context-tree/`` and ``.brv/state/`` under ``root``.

    Idempotent: existing files are left as they are.

    Raises:
        FormatError: a part of ``.brv/`` has the wrong kind (a file where a folder belongs or
            the reverse); nothing is written then.
    """
    project = Project(root.resolve())
    if project.brv_dir.exists() and not project.brv_dir.is_dir():
        raise FormatError(
            f"{project.brv_dir} is a file, not the .brv/ folder",
            file=BRV_DIR,
            hint=f"move it aside (mv {project.brv_dir} {project.brv_dir}.bak), then run "
                 "'brv init' again",
        )
    check_layout(project)
    ignore = project.brv_dir / ".gitignore"
    if ignore.is_dir():
        raise FormatError(
            ".brv/.gitignore is a folder, not a file",
            file=".brv/.gitignore",
            hint="move it aside (mv .brv/.gitignore .brv/gitignore.bak), then run 'brv init'",
        )
    created: list[str] = []
    for folder in (project.tree, project.state):
        if not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
            created.append(folder.relative_to(project.root).as_posix() + "/")
    ensure_state_dir(project.state)
    for path, text in (
        (project.config_path, DEFAULT_CONFIG),
        (project.brv_dir / ".gitignore", BRV_GITIGNORE),
    ):
        if not path.exists():
            write_atomic(path, text.encode("utf-8"))
            created.append(path.relative_to(project.root).as_posix())
    if created:
        from brv_vc.tree.config import ensure_valid_config

        ensure_valid_config(project)  # records the fresh config as checked: no first-run cost
    return InitResult(str(project.root), bool(created), tuple(created))


__all__ = ["BRV_DIR", "InitResult", "init_project", "init_root_for"]
