"""Will brv's checks run on the next ``git commit`` in this clone? Said once per change.

Trigger: any ``brv vc`` command (``brv vc status`` first of all). Why: brv's hooks switch off
without a word when husky sets ``core.hooksPath``, when lefthook renames brv's script to
``pre-commit.old``, and in a teammate's plain ``git clone`` (git never clones hooks or the
merge driver). Outcome: one warning naming what is missing and the one command that sets it
up, remembered in ``.brv/state/hooks-notice`` so the next command stays quiet until the
situation changes (or is fixed and breaks again).

Cost: the stats of the files the answer depends on (``.git/config``, the hooks folder and
its pre-commit, the managers' config files) are the key; while it is unchanged nothing else
is read or imported (``diagnose.py`` does the real look, no git process either).
"""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc import environment
from brv_vc.services.hooks.gitconfig import config_files
from brv_vc.tree.project import Project

NOTICE = "hooks-notice"  # in .brv/state: the key, then the problems last said
_WATCHED = (".git/config", ".git/hooks", ".git/hooks/pre-commit", ".git/hooks/pre-commit.old",
            ".husky", ".husky/_", ".husky/pre-commit", ".pre-commit-config.yaml",
            "lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", "lefthook.toml",
            ".lefthook.toml", "lefthook.json", ".lefthook.json", "package.json")


def _stat(path: Path) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns}:{st.st_size}:{st.st_ino}"


def _key(project: Project) -> str:
    """The stats the diagnosis depends on, as one line ("" when there is no repository)."""
    tree = project.tree
    parts = [str(os.path.exists(tree / ".git")), str(os.path.exists(tree / ".gitattributes"))]
    top = tree if (tree / ".git").exists() else project.root
    parts += [_stat(top / name) for name in _WATCHED]
    parts += [_stat(path) for path in config_files(top / ".git")[:-1]]  # system and global
    return "|".join(parts)


def in_ci() -> bool:
    """True in a CI job (``environment.in_ci``): no developer's clone, no hooks advice."""
    return environment.in_ci()


def notice(project: Project) -> str:
    """The warning to print now ("" when all is well, it was already said, or in CI)."""
    if in_ci():
        return ""
    path = project.state / NOTICE
    key = _key(project)
    try:
        before = path.read_text(encoding="utf-8") if path.is_file() else ""
    except OSError:
        before = ""
    old_key, _, old_text = before.partition("\n")
    if key == old_key:
        return ""  # nothing it depends on changed: already said (or nothing to say)
    from brv_vc.services.hooks.diagnose import problems

    said, fix = problems(project)
    text = "\n".join([*(f"brv: warning: {p}" for p in said), f"  fix: {fix}"]) if said else ""
    try:
        from brv_vc.tree.statedb import ensure_state_dir

        ensure_state_dir(project.state)
        path.write_text(f"{key}\n{text}", encoding="utf-8")
    except OSError:
        pass  # a read-only .brv: said again next time rather than never
    if not text or text == old_text:
        return ""
    return text + "\n  (said once; 'brv hooks status' shows the details)"


def acknowledge(project: Project) -> None:
    """Records the current situation as said (the user chose it: --no-hooks, uninstall)."""
    notice(project)



