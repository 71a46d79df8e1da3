"""Installing brv's git hook shims: which repository, which folder, and never clobbering.

Policies (docs/hooks.md):
- The repository is the one holding the tree: the nested ``.brv/context-tree/.git`` in
  standalone mode, else the git repository that contains the project (in-project mode).
- The folder is ``git rev-parse --git-path hooks``: the common git dir, so linked worktrees
  share the hooks, and ``core.hooksPath`` when it is set (like git-lfs, not pre-commit,
  which refuses): teams that point hooksPath at a shared folder still get brv's hooks.
- A hook that is not ours is moved to ``<name>.legacy`` and run first by the shim
  (pre-commit's migration mode); appending to it is never safe (DVC #2362). Ours are found
  by the ID line and rewritten in place, so running install again upgrades them.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from dataclasses import dataclass
from pathlib import Path

from brv_vc.errors import ConflictError
from brv_vc.resources import hook_template
from brv_vc.vc import git
from brv_vc.vc.hook_managers import head
from brv_vc.vc.hook_missing import found, legacy_stop, refusal, skip_done, warning

HOOK_NAMES = ("pre-commit", "commit-msg", "post-merge", "post-checkout", "post-rewrite",
              "pre-push")
# The shim's fast exits: the few checks the shell makes before any Python starts, each the
# shell spelling of a rule of run_hook (services/vc/hook_env.py: "outside" find_root,
# "refreshing" done_by_command, "checked" COMMIT_CHECKED_ENV with CHECKED_SUFFIX, "trailers"
# nothing_to_trail, "pushed" PUSH_CHECKED_ENV); tests/test_hook_shim_agrees_with_run_hook.py
# runs both on the same cases. render() writes each hook's row into its shim (FAST='...'); a
# shim with a legacy hook beside it takes none of them (Python runs the legacy hook first).
FAST_EXITS = {
    "pre-commit": ("outside", "refreshing", "checked"),
    "commit-msg": ("outside", "refreshing", "checked", "trailers"),
    "post-merge": ("outside", "refreshing"),
    "post-checkout": ("outside", "refreshing"),
    "post-rewrite": ("outside", "refreshing"),
    "pre-push": ("outside", "refreshing", "pushed"),
}
MARKER = "brv-vc-hook-id: 7c3e91d0a5f4"
_HOOK_LINE = "HOOK=pre-commit"  # the template's hook name; the installer writes each one
_FAST_LINE = "FAST=''"  # and here the hook's fast exits
_PY_LINE = "PY=''"  # the shipped placeholder; the installer writes the interpreter here
_PKG_LINE = "PKG=''"  # and here the package's __main__.py, which the shim stats
_MISSING_LINE = ": brv-missing-refusal"  # and here the hook's refusal when brv is missing
_LEGACY_LINE = ": brv-legacy-stop"  # and whether a failed legacy hook stops it
_FOUND_LINE = ": brv-found"  # and how it finds brv (hook_missing.found, the line's rule too)
_SKIP_LINE = ": brv-refreshing-skip"  # and its skip of what the running brv command does
_WARNING_LINE = ": brv-missing-warning"  # and its warning when brv is missing
# A stat of the package instead of `python -c 'import brv_vc'` before every hook: that probe
# was a whole interpreter start (~30 ms CPU) in each of a commit's two hooks (issue 24).
_MAIN = Path(__file__).resolve().parent.parent / "__main__.py"
PACKAGE_MAIN = str(_MAIN)  # also recorded as git config brv.package for the managers' line
LEGACY_SUFFIX = ".legacy"


@dataclass(frozen=True)
class HookState:
    """One hook file: whose it is, and what an install or uninstall did to it."""

    name: str
    state: str  # "installed" | "outdated" | "foreign" | "missing"
    legacy: bool  # a replaced hook is kept as <name>.legacy and chained
    python: str | None = None  # the interpreter recorded in our shim
    action: str = ""  # installed | upgraded | unchanged | chained | removed | restored | kept
    runner: str = ""  # whose script git runs: brv | pre-commit | husky | ... | foreign | ""
    brv_runs: bool = False  # whether brv's part of this hook runs when git runs it


def hooks_dir(repo: Path) -> tuple[Path, str | None]:
    """Returns the folder git runs hooks from and the ``core.hooksPath`` value (or None)."""
    return git.git_path(repo, "hooks"), git.config_value(repo, "core.hooksPath")


def render(name: str, python: str) -> bytes:
    """Returns the shim for hook ``name`` with ``python`` recorded as its interpreter.

    One template for every hook: its name, the interpreter, the package's ``__main__.py`` and
    the hook's row of fast exits (``hook_env.FAST_EXITS``: the rules the shell may check
    before Python starts) are written into it, and from ``vc/hook_missing.py`` (shared with
    the hook managers' line) how it finds brv, its skip of a hook the running brv command
    does, and its refusal and warning when brv is missing.
    """
    text = hook_template().read_text(encoding="utf-8")
    text = text.replace(_HOOK_LINE, f"HOOK={name}", 1)
    text = text.replace(_FAST_LINE, f"FAST={shlex.quote(' '.join(FAST_EXITS.get(name, ())))}", 1)
    text = text.replace(_PY_LINE, f"PY={shlex.quote(python)}", 1)
    text = text.replace(_MISSING_LINE, refusal(name, "${PY:-none}", "$knowledge"), 1)
    text = text.replace(_LEGACY_LINE, legacy_stop(name), 1)
    text = text.replace(_FOUND_LINE, found("$PY", "$PKG"), 1)
    text = text.replace(_SKIP_LINE, skip_done("$HOOK"), 1)
    text = text.replace(_WARNING_LINE, warning(name, "${PY:-none}", "$0"), 1)
    return text.replace(_PKG_LINE, f"PKG={shlex.quote(PACKAGE_MAIN)}", 1).encode("utf-8")


def is_ours(path: Path) -> bool:
    """True when ``path`` is one of brv's shims (any version: the ID line never changes)."""
    return MARKER in head(path)


def recorded_python(path: Path) -> str | None:
    """The interpreter our shim at ``path`` records, or None."""
    for line in head(path).splitlines():
        if line.startswith("PY="):
            words = shlex.split(line[3:], comments=True)
            return words[0] if words else None
    return None


def _state(folder: Path, name: str, python: str) -> HookState:
    path = folder / name
    legacy = os.path.lexists(folder / (name + LEGACY_SUFFIX))
    if not os.path.lexists(path):
        return HookState(name, "missing", legacy)
    if not is_ours(path):
        return HookState(name, "foreign", legacy, runner="foreign",
                         brv_runs=f"hook-impl {name}" in head(path, 1 << 16))
    recorded = recorded_python(path)
    current = path.read_bytes() == render(name, recorded or python)
    return HookState(name, "installed" if current else "outdated", legacy, recorded,
                     runner="brv", brv_runs=True)


def status(folder: Path, python: str, names: tuple[str, ...] = HOOK_NAMES
           ) -> tuple[HookState, ...]:
    """Reports each hook in ``folder`` without changing anything."""
    return tuple(_state(folder, name, python) for name in names)


def _write_executable(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install(
    folder: Path, python: str, names: tuple[str, ...] = HOOK_NAMES
) -> tuple[HookState, ...]:
    """Installs (or upgrades) the shims in ``folder``, chaining any foreign hook.

    Raises:
        ConflictError: a foreign hook and a ``.legacy`` file both exist; nothing is changed.
    """
    before = [_state(folder, name, python) for name in names]
    clashes = [s.name for s in before if s.state == "foreign" and s.legacy]
    if clashes:
        raise ConflictError(
            f"{', '.join(clashes)}: both the hook and {clashes[0]}{LEGACY_SUFFIX} exist and "
            "neither is brv's, so brv cannot keep both",
            file=str(folder / clashes[0]),
            hint=f"merge or remove one of them in {folder}, then run 'brv hooks install' again",
        )
    folder.mkdir(parents=True, exist_ok=True)
    done = []
    for state in before:
        path = folder / state.name
        data = render(state.name, python)
        if state.state == "foreign":
            os.replace(path, folder / (state.name + LEGACY_SUFFIX))
            action = "chained"
        elif state.state == "missing":
            action = "installed"
        else:
            action = "unchanged" if path.read_bytes() == data else "upgraded"
        if action != "unchanged":
            _write_executable(path, data)
        legacy = state.legacy or action == "chained"
        done.append(HookState(state.name, "installed", legacy, python, action, "brv", True))
    return tuple(done)


def upgrade_in_place(folder: Path, python: str,
                     names: tuple[str, ...] = HOOK_NAMES) -> tuple[str, ...]:
    """Rewrites brv's shims wherever they are (``<name>`` or ``<name>.legacy``), adding none.

    For a folder a hook manager owns: a shim it runs as its legacy hook (pre-commit's
    migration mode) gets this version, which never runs itself. Returns the files rewritten.
    """
    done = []
    for name in names:
        for path in (folder / name, folder / (name + LEGACY_SUFFIX)):
            data = render(name, recorded_python(path) or python) if is_ours(path) else None
            if data is not None and path.read_bytes() != data:
                _write_executable(path, data)
                done.append(path.name)
    return tuple(done)


def uninstall(folder: Path, names: tuple[str, ...] = HOOK_NAMES) -> tuple[HookState, ...]:
    """Removes our shims from ``folder`` and puts back the hooks they replaced."""
    done = []
    for name in names:
        path, legacy = folder / name, folder / (name + LEGACY_SUFFIX)
        if os.path.lexists(path) and not is_ours(path):
            if is_ours(legacy):  # run by a manager as its legacy hook: ours to remove
                legacy.unlink()
            done.append(HookState(name, "foreign", os.path.lexists(legacy), action="kept"))
            continue
        action = "absent"
        if os.path.lexists(path):
            path.unlink()
            action = "removed"
        if os.path.lexists(legacy):
            os.replace(legacy, path)
            action = "restored"
        done.append(HookState(name, "foreign" if action == "restored" else "missing", False,
                              action=action))
    return tuple(done)
