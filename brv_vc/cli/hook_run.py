"""The start and end of a git hook's run, shared by ``brv hook-impl`` (click) and its fast path.

The hook's environment is read once here (``hook_env.read``) and passed down; the shim
(``hooks/hook.sh``) only finds brv. When the shim started this run (it names itself in
``hook_env.SCRIPT_ENV``), the recursion guard and the legacy hook it replaced are applied here:
a hook started from inside itself does nothing; ``<name>.legacy`` beside a shim that has its own
name runs first with the same arguments and stdin (pre-commit's migration mode), and when it
fails a blocking hook ends with its status. A hook manager's line and the pre-commit
framework's entry name no script: their manager chains and guards.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from brv_vc import environment
from brv_vc.record import NamedTuple
from brv_vc.services.vc import hook_env


class HookStart(NamedTuple):
    """A hook about to run: git's arguments, its environment and stdin, the legacy's status."""

    name: str
    args: tuple[str, ...]
    env: hook_env.HookEnvironment
    stdin: str
    legacy: int = 0  # the exit status of the legacy hook that ran first (0: none, or passed)


def start(name: str, args: tuple[str, ...], warn: Callable[[str], object]) -> HookStart | int:
    """Reads the hook's environment and runs what comes before brv's part.

    Returns the start, or the exit status when the hook ends here (a loop; a failed legacy
    blocking hook).
    """
    env = hook_env.read(environment.current())
    if env.script is not None:  # for this run only: a child's hook is another run
        environment.unset(hook_env.SCRIPT_ENV)
    if name == "refresh":  # the pre-commit framework's entry: the hook it stands for
        name, args = env.framework
    reads = name in ("post-rewrite", "pre-push")
    stdin = sys.stdin.read() if reads and not sys.stdin.isatty() else ""
    if name == "pre-push" and not stdin and env.to_ref:
        # the pre-commit framework passes the pushed commit as a variable, not on stdin
        stdin = f"HEAD {env.to_ref} HEAD {'0' * 40}\n"
    if env.script is None:
        return HookStart(name, args, env, stdin)
    if hook_env.started_inside_itself(name, env.active):
        warn(f"brv: warning: the brv '{name}' hook was started from inside itself "
             f"({env.script}); skipped")
        return 0
    environment.put(hook_env.ACTIVE_ENV, f"{env.active}<{name}>")  # children inherit it
    legacy = _legacy(env.script, name, args, stdin if reads else None)
    if legacy and name in hook_env.BLOCKING:
        return legacy
    return HookStart(name, args, env, stdin, legacy)


def end(start: HookStart, blocked: bool) -> int:
    """The hook's exit status: a blocking hook's verdict, else the legacy hook's status.

    Only pre-commit and pre-push may refuse (a commit, a push); the other hooks fail open and
    keep the status the replaced hook had, so installing brv changes nothing for it.
    """
    if start.name in hook_env.BLOCKING:
        return 1 if blocked else 0
    return start.legacy


def _legacy(script: str, name: str, args: tuple[str, ...], stdin: str | None) -> int:
    """Runs ``<name>.legacy`` beside the shim when the shim has its own name; its status.

    A hook manager that renamed the shim to ``<name>.legacy`` runs it as its legacy hook:
    that shim must not run itself.
    """
    folder, own = os.path.split(script)
    legacy = os.path.join(folder or ".", name + ".legacy")
    if own != name or not os.access(legacy, os.X_OK):
        return 0
    import subprocess

    try:
        return subprocess.run([legacy, *args], check=False, env=environment.child(),
                              input=None if stdin is None else stdin.encode("utf-8")).returncode
    except OSError:  # not a program the system can start (what the shell says with 126)
        return 126
