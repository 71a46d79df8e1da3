"""Will brv's checks run on the next ``git commit`` in this clone? What is missing, and the fix.

Run by ``health.notice`` only when the files it depends on changed (their stats are the
key). No git process: ``.git/config`` read once, a few stats and small reads of the hook
files and the managers' config files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from brv_vc.interpreter import interpreter
from brv_vc.services.hooks import managers
from brv_vc.services.hooks.gitconfig import config_files
from brv_vc.tree.project import Project, git_top
from brv_vc.vc import hook_managers as hm
from brv_vc.vc import hooks_install as hi
from brv_vc.vc import manager_config as mc
from brv_vc.vc import repo


def top_of(project: Project) -> tuple[Path, bool] | None:
    """The work tree holding the tree and whether it is the project's own (in-project)."""
    found = repo.of_tree(project, git_top(project.root))  # no git process: files alone
    return None if found is None else (found.workdir, found.in_project)


def config_get(text: str, section: str, key: str) -> str | None:
    """The last value of ``section.key`` in git config ``text`` (no includes), or None."""
    current, found = "", None
    for raw in text.splitlines():
        line = raw.strip()
        head = re.match(r'\[\s*([A-Za-z0-9.-]+)(\s+"[^"]*")?\s*\]', line)
        if head:
            current = head.group(1).lower() + (head.group(2) or "").strip()
            continue
        name, eq, value = line.partition("=")
        if current == section and eq and name.strip().lower() == key.lower():
            value = value.split(" #")[0].split(" ;")[0].strip()
            found = value[1:-1] if value[:1] == value[-1:] == '"' and len(value) > 1 else value
    return found


def hooks_path_of(gitdir: Path) -> tuple[str | None, Path | None]:
    """The effective ``core.hooksPath`` and the config file that sets it (the last wins)."""
    found: tuple[str | None, Path | None] = (None, None)
    for path in config_files(gitdir):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        value = config_get(text, "core", "hookspath")
        found = (value, path) if value else found
    return found


def problems(project: Project) -> tuple[tuple[str, ...], str]:
    """What keeps brv's checks from running here, and the one command that fixes it."""
    found = top_of(project)
    if found is None:
        return (), ""
    top, in_project = found
    gitdir = top / ".git"
    if not gitdir.is_dir():  # a linked worktree or submodule: 'brv hooks status' tells
        return (), ""
    try:
        text = (gitdir / "config").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return (), ""
    said: list[str] = []
    fix = ""
    hooks_path, source = hooks_path_of(gitdir)
    folder = Path(os.path.expanduser(hooks_path)) if hooks_path else gitdir / "hooks"
    folder = folder if folder.is_absolute() else top / folder
    manager = hm.detect(top, folder, hooks_path, ("pre-commit",))
    state = managers.truth(manager, folder, hi.status(folder, interpreter(), ("pre-commit",))[0])
    if not state.brv_runs:
        fix = "brv hooks install"
        elsewhere = source is not None and source != gitdir / "config"
        if manager is None and not elsewhere:
            fix = "brv vc init --in-project" if in_project else fix  # also the merge driver
            said.append("brv's git hooks are not installed in this clone (git does not copy "
                        "hooks), so 'git commit' does not check knowledge")
        elif manager is None:
            pass  # the global hooks folder, said below
        elif not os.path.lexists(folder / "pre-commit") and hm.brv_in_config(manager,
                                                                             "pre-commit"):
            fix = hm.install_command(manager, hm.missing_hooks(manager, folder,
                                                               hi.HOOK_NAMES)) or fix
            said.append(f"{manager.config} runs brv's check, but {manager.name} has not "
                        "installed its git hooks in this clone, so 'git commit' does not "
                        "check knowledge")
        else:
            where = {"husky": f"{manager.config}/pre-commit",
                     "core.hooksPath": f"{folder}/pre-commit"}.get(manager.name,
                                                                  str(manager.config))
            renamed = [n for n in ("pre-commit.old", "pre-commit.legacy")
                       if hi.is_ours(folder / n)]
            took = (f" (it renamed brv's hook to {renamed[0]}, which no longer runs)"
                    if renamed and manager.name != "pre-commit" else "")
            runs = (f"{manager.name} runs git's pre-commit hook here{took}"
                    if os.path.lexists(folder / "pre-commit") else
                    f"{manager.name} manages git's hooks here (not installed in this clone)")
            said.append(f"{runs} and brv's check is not in {where}, so 'git commit' does not "
                        "check knowledge")
            if mc.merged_config(manager, ("pre-commit",), ".") is not None:
                fix = "brv hooks install --integrate"
        if elsewhere:
            said.append(f"core.hooksPath = {hooks_path} is set in {source}, so git runs every "
                        f"repository's hooks from {folder}, not from .git/hooks; the fix puts "
                        "brv's hooks in that folder (they do nothing outside a brv project)")
    if in_project and not re.search(r'^\s*\[merge "brv"\]', text, re.M):
        said.append("the knowledge merge driver is not set up in this clone, so 'git pull' "
                    "of two edits to one entry conflicts on the whole frontmatter")
        fix = (f"brv vc init --in-project && {fix}" if fix and "vc init" not in fix
               else "brv vc init --in-project")
    return tuple(said), fix
