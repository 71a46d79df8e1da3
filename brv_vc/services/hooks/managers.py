"""Living beside a hook manager: join it its own way, and say truly what runs.

See ``vc/hook_managers.py`` for why brv never renames a manager's scripts.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from brv_vc.vc import hook_managers as hm
from brv_vc.vc import hooks_install as hi
from brv_vc.vc import manager_config as mc

# What husky v9 writes into .husky/_/<hook> (husky/index.js): restored over an old brv shim.
HUSKY_STUB = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"'


def truth(manager: hm.Manager | None, folder: Path, state: hi.HookState) -> hi.HookState:
    """``state`` with whose script git runs for it and whether brv's part runs."""
    if manager is None or state.runner == "brv":
        return state
    path, name = folder / state.name, state.name
    if not os.path.lexists(path):
        return replace(state, runner="", brv_runs=False)
    if manager.name == "husky":
        return replace(state, runner="husky", brv_runs=hm.brv_in_config(manager, name))
    if manager.name == "pre-commit":
        if not any(i in hm.head(path) for i in hm.PRE_COMMIT_IDS):
            return state
        legacy = hi.is_ours(folder / (name + hi.LEGACY_SUFFIX))
        return replace(state, runner="pre-commit",
                       brv_runs=legacy or hm.brv_in_config(manager, name))
    runner = manager.name if manager.name != "core.hooksPath" else "foreign"
    return replace(state, runner=runner,
                   brv_runs=state.brv_runs or hm.brv_in_config(manager, name))


def integrate(manager: hm.Manager, knowledge: str) -> str:
    """Writes brv's part into lefthook's or the framework's config; returns the file ("" if not).

    Idempotent: a config that already runs brv is left as it is.
    """
    merged = mc.merged_config(manager, hi.HOOK_NAMES, knowledge)
    if merged is None:
        return ""
    old = manager.config.read_text(encoding="utf-8") if manager.config.is_file() else ""
    if merged == old:
        return ""
    manager.config.write_text(merged, encoding="utf-8")
    return str(manager.config)


def join(manager: hm.Manager, folder: Path, python: str,
         knowledge: str = ".brv/context-tree") -> tuple[hi.HookState, ...]:
    """Integrates brv with ``manager`` the way it expects (renames nothing of its own)."""
    if manager.name == "husky":
        _repair_husky(folder)
        done = []
        for name in hi.HOOK_NAMES:
            action = hm.append_line(manager.config / name, name, knowledge)
            done.append(replace(hi.status(folder, python, (name,))[0], action=action,
                                runner="husky", brv_runs=True))
        return tuple(done)
    dropped = drop_doubles(manager, folder)
    upgraded = hi.upgrade_in_place(folder, python)
    states = [truth(manager, folder, s) for s in hi.status(folder, python)]
    if dropped:
        return tuple(replace(s, action="single" if s.name in dropped else
                             "upgraded" if s.name in upgraded or
                             f"{s.name}{hi.LEGACY_SUFFIX}" in upgraded else "managed")
                     for s in states)
    return tuple(replace(s, action="upgraded" if s.name in upgraded or
                         f"{s.name}{hi.LEGACY_SUFFIX}" in upgraded else "managed")
                 for s in states)


def doubles(manager: hm.Manager, folder: Path) -> tuple[str, ...]:
    """Hooks whose brv check runs twice under the pre-commit framework.

    The framework runs brv's shim as its legacy hook (``<name>.legacy``, its migration
    mode) and brv's part from its config as well.
    """
    if manager.name != "pre-commit":
        return ()
    return tuple(n for n in hi.HOOK_NAMES
                 if hi.is_ours(folder / (n + hi.LEGACY_SUFFIX))
                 and any(i in hm.head(folder / n) for i in hm.PRE_COMMIT_IDS)
                 and hm.brv_in_config(manager, n))


def drop_doubles(manager: hm.Manager, folder: Path) -> tuple[str, ...]:
    """Removes brv's legacy shims the framework's config makes redundant; returns their hooks.

    Trigger: brv's hooks were installed before the pre-commit framework (which moved each
    shim it replaced to ``<name>.legacy``), then brv's part went into its config
    (``--integrate``, or pasted). Why: the check ran twice and a refusal was printed twice.
    Outcome: the config's part alone runs (nothing the shim chained is lost: a shim run as
    a legacy hook never runs a legacy of its own).
    """
    found = doubles(manager, folder)
    for name in found:
        (folder / (name + hi.LEGACY_SUFFIX)).unlink()
    return found


def leave(manager: hm.Manager, folder: Path) -> tuple[hi.HookState, ...]:
    """Takes brv's part out of ``manager``'s hooks (its own scripts stay as they are)."""
    if manager.name != "husky":
        return hi.uninstall(folder)
    _repair_husky(folder)
    return tuple(hi.HookState(name, "foreign" if (folder / name).exists() else "missing", False,
                              action=hm.remove_line(manager.config / name), runner="husky")
                 for name in hi.HOOK_NAMES)


def _repair_husky(folder: Path) -> None:
    """Undoes what brv before 0.2 did to ``.husky/_``: its shims chained husky's as ``.legacy``.

    Trigger: ``.husky/_/<hook>`` is brv's shim (with or without the ``.legacy`` it made), or
    ``npm install`` rewrote it and a stale ``<hook>.legacy`` copy of husky's stub remains.
    Why: husky's ``h`` finds the team's hook by ``basename $0``, so under the ``.legacy``
    name the team's hook never ran. Outcome: husky's own stub is back in place.
    """
    for name in hi.HOOK_NAMES:
        path, legacy = folder / name, folder / (name + hi.LEGACY_SUFFIX)
        if hi.is_ours(path):
            if os.path.lexists(legacy):
                os.replace(legacy, path)
            else:
                path.write_text(HUSKY_STUB, encoding="utf-8")
                path.chmod(0o755)
        elif os.path.lexists(legacy) and hm.head(legacy).strip() == HUSKY_STUB:
            legacy.unlink()
