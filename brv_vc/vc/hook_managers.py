"""Hook managers brv must not rewrite, and how brv joins each one (docs/hooks.md).

Renaming a manager's script to ``<name>.legacy`` breaks it: pre-commit's script then runs
itself as its own legacy hook ("bug: pre-commit's script is installed in migration mode"),
and husky v9's ``h`` finds the team's hook by ``basename $0``, so a renamed
``.husky/_/pre-commit.legacy`` looks for ``.husky/pre-commit.legacy`` and silently runs
nothing. So when one of these owns the hooks folder, brv joins it the way it expects:

- pre-commit framework: the ``brv-*`` ids of ``.pre-commit-hooks.yaml`` (printed, not written);
- husky (``core.hooksPath`` = ``.husky/_``, or ``.husky`` before v9): one guarded line in
  the team's ``.husky/<hook>``;
- lefthook, simple-git-hooks, a ``core.hooksPath`` folder holding someone else's hooks (a
  team's committed scripts, a shared folder): the line or config snippet to add is printed;
  their files are not touched. An empty ``core.hooksPath`` folder gets brv's shims as before.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from brv_vc import __version__
from brv_vc.vc.hook_missing import found, refusal, unless_done

# The ID lines of the pre-commit framework's hook script, current and prior
# (pre_commit/commands/install_uninstall.py: CURRENT_HASH, PRIOR_HASHES).
PRE_COMMIT_IDS = (
    "138fd403232d2ddd5efb44317e38bf03", "4d9958c90bc262f47553e2c073f14cfe",
    "d8ee923c46731b42cd95cc869add4062", "49fd668cb42069aa1b6048464be5d395",
    "79f09a650522a87b0da915d0d983b2de", "e358c9dae00eac5d06b38dfdb1e33a8c",
)
LINE_TAG = "# brv-vc-hook-line"
# per clone (git config), written by 'brv hooks install': the interpreter that ran it, and
# the package's __main__.py, which the line stats before it starts that interpreter
PYTHON_KEY = "brv.python"
PACKAGE_KEY = "brv.package"
LEFTHOOK_CONFIGS = ("lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
                    "lefthook.toml", ".lefthook.toml", "lefthook.json", ".lefthook.json")
SIMPLE_CONFIGS = (".simple-git-hooks.json", "simple-git-hooks.json", ".simple-git-hooks.js",
                  "simple-git-hooks.js", ".simple-git-hooks.cjs", "simple-git-hooks.cjs",
                  ".simple-git-hooks.mjs", "simple-git-hooks.mjs")
# Which git hook each id of .pre-commit-hooks.yaml stands for.
FRAMEWORK_IDS = {
    "brv-validate": ("pre-commit",),
    "brv-archive-trailers": ("commit-msg",),
    "brv-refresh": ("post-merge", "post-checkout", "post-rewrite"),
    "brv-pre-push": ("pre-push",),
}
RELEASE = f"v{__version__}"  # releases are tagged v<version> (README, "Releases")


@dataclass(frozen=True)
class Manager:
    """A hook manager that owns the hooks folder, and the file its users edit."""

    name: str  # pre-commit | husky | lefthook | simple-git-hooks | core.hooksPath
    config: Path  # .pre-commit-config.yaml, the .husky folder, lefthook.yml, package.json...


def head(path: Path, size: int = 4096) -> str:
    """The first ``size`` bytes of ``path`` as text ("" when unreadable)."""
    try:
        with path.open("rb") as handle:
            return handle.read(size).decode("utf-8", "replace")
    except OSError:
        return ""


def hook_line(name: str, knowledge: str = ".brv/context-tree") -> str:
    """The one line brv adds to a manager's ``name`` hook; it needs no ``brv`` on PATH.

    It runs the brv this machine's ``brv hooks install`` recorded (``git config
    brv.python``, found as the shim finds it: ``hook_missing.found`` stats ``brv.package``,
    no Python starts to ask), else ``brv`` from PATH. A refusal by brv (pre-commit, pre-push) still
    stops git. With no brv at all it does what the shim does (``hook_missing.refusal``, the
    one wording): a pre-commit that stages knowledge (``knowledge``, a pathspec) fails and
    says how to fix it; any other commit or hook goes on, silently (the line is committed for
    teammates who may not use brv). The line holds no single quote, so ``sh -c '...'`` can
    carry it (the pre-commit framework). brv starts as its shims start it (``-P -c``: no
    runpy, ~4 ms of CPU, no work tree on the import path).

    Of the shim's fast exits (``hooks_install.FAST_EXITS``) it takes the one that fits a
    line: a hook the running brv command does itself (``hook_missing.unless_done``, the
    shim's rule) starts no Python.
    The framework's ``refresh`` stands for three hooks, so Python maps it and checks the same
    rule (``hook_env.done_by_command``). The others stay Python's: the line lives in the
    project's own files, so there is always a ``.brv`` above it ("outside"); the checked
    index writes the trailers note ("checked", "trailers") and the pushed refs are read from
    stdin and fed on ("pushed"), neither of which fits one line.
    """
    run = f'hook-impl {name} "$@"'
    body = (f'p=$(git config {PYTHON_KEY} || :); k=$(git config {PACKAGE_KEY} || :); '
            f'if {found("$p", "$k")}; then '
            f'"$p" -P -c "from brv_vc.cli.entry import main; main()" {run} '
            f"|| exit $?; elif command -v brv >/dev/null 2>&1; then brv {run} || exit $?; "
            f'else {refusal(name, "${p:-none}", knowledge)}; fi')
    if name != "refresh":
        body = unless_done(name, body)
    return f"{body}  {LINE_TAG}"


def detect(top: Path, folder: Path, hooks_path: str | None,
           names: tuple[str, ...]) -> Manager | None:
    """Returns the hook manager that owns ``folder`` (git's hooks folder), or None.

    Args:
        top: the top folder of the work tree (where managers keep their config).
        folder: the folder git runs hooks from.
        hooks_path: the ``core.hooksPath`` setting, when set.
        names: the hooks to look at.
    """
    if hooks_path is not None and (folder / "h").is_file() and folder.parent.name == ".husky":
        return Manager("husky", folder.parent)
    if hooks_path is not None and (folder / "husky.sh").is_file():
        return Manager("husky", folder.parent)
    if hooks_path is not None and (folder / "_" / "husky.sh").is_file():  # husky 5 to 8
        return Manager("husky", folder)
    texts = [head(folder / name) + head(folder / f"{name}.legacy") for name in names]
    if any(i in text for text in texts for i in PRE_COMMIT_IDS):
        return Manager("pre-commit", top / ".pre-commit-config.yaml")
    lefthook = [top / n for n in LEFTHOOK_CONFIGS if (top / n).is_file()]
    if lefthook or any("lefthook" in text for text in texts):
        return Manager("lefthook", lefthook[0] if lefthook else top / "lefthook.yml")
    simple = [top / n for n in SIMPLE_CONFIGS if (top / n).is_file()]
    if simple or any("SKIP_SIMPLE_GIT_HOOKS" in t for t in texts) or _in_package_json(top):
        return Manager("simple-git-hooks", simple[0] if simple else top / "package.json")
    if hooks_path is not None and any(
            text and "brv-vc-hook-id" not in text
            for text in (head(folder / name) for name in names)):
        return Manager("core.hooksPath", folder)
    return None


def _in_package_json(top: Path) -> bool:
    try:
        data = json.loads((top / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "simple-git-hooks" in data


def brv_in_config(manager: Manager, name: str) -> bool:
    """True when the manager's own configuration runs brv's part of hook ``name``."""
    if manager.name == "pre-commit":
        return name in framework_hooks(manager.config)
    if manager.name == "husky":
        return LINE_TAG in head(manager.config / name, 1 << 16)
    if manager.name == "core.hooksPath":
        return f"hook-impl {name}" in head(manager.config / name, 1 << 16)
    return f"hook-impl {name}" in head(manager.config, 1 << 20)


def framework_hooks(config: Path) -> set[str]:
    """The git hooks for which ``.pre-commit-config.yaml`` names one of brv's hooks."""
    import yaml  # only for a repository the framework manages

    try:
        data = yaml.safe_load(config.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return set()
    found: set[str] = set()
    repos = data.get("repos") if isinstance(data, dict) else None
    for repo in repos if isinstance(repos, list) else []:
        hooks = repo.get("hooks") if isinstance(repo, dict) else None
        for hook in hooks if isinstance(hooks, list) else []:
            if isinstance(hook, dict):
                found.update(FRAMEWORK_IDS.get(str(hook.get("id")), ()))
    return found


def append_line(path: Path, name: str, knowledge: str = ".brv/context-tree") -> str:
    """Adds (or brings up to date) brv's line in the husky hook file ``path``."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    line = hook_line(name, knowledge)
    if LINE_TAG in text:
        lines = text.splitlines(keepends=True)
        new = "".join(f"{line}\n" if LINE_TAG in old else old for old in lines)
        if new == text:
            return "unchanged"
        path.write_text(new, encoding="utf-8")
        return "upgraded"
    sep = "" if not text or text.endswith("\n") else "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{text}{sep}{line}\n", encoding="utf-8")
    if not text:  # husky 5 to 8 point git at these files directly: git runs only executables
        path.chmod(0o755)
    return "appended" if text else "created"


def remove_line(path: Path) -> str:
    """Takes brv's line out of the husky hook file ``path`` (the file goes if nothing is left)."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if LINE_TAG not in text:
        return "absent"
    kept = "".join(line for line in text.splitlines(keepends=True) if LINE_TAG not in line)
    if kept.strip():
        path.write_text(kept, encoding="utf-8")
        return "removed"
    path.unlink()
    return "removed"


INSTALL = {"lefthook": "lefthook install", "pre-commit": "pre-commit install",
           "husky": "npx husky", "simple-git-hooks": "npx simple-git-hooks"}


def install_command(manager: Manager, names: tuple[str, ...]) -> str:
    """The command that makes ``manager`` install its git hooks ``names`` in this clone.

    The one home of that advice: printed by ``brv hooks install|status``, the clone notice
    and the config snippet, it works when pasted as printed. A bare ``pre-commit install``
    installs only the pre-commit hook type; each other hook needs its ``--hook-type``.
    """
    types = "".join(f" --hook-type {n}" for n in names) if manager.name == "pre-commit" else ""
    return INSTALL[manager.name] + types if manager.name in INSTALL else ""


def missing_hooks(manager: Manager, folder: Path, names: tuple[str, ...]) -> tuple[str, ...]:
    """The hooks of ``names`` the manager's config runs brv in but git has no script for."""
    return tuple(n for n in names
                 if not os.path.lexists(folder / n) and brv_in_config(manager, n))
