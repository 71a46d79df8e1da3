"""The edge to the process environment: the one module that reads (or sets) ``os.environ``.

Every environment variable brv honours is named here, with its type, so a reader finds them
all in one place and the layering test (``tests/test_layering.py``) keeps it that way. Values
are read when asked (a test's ``monkeypatch.setenv`` and a hook's own environment count);
a command that needs several reads them once into a frozen value (``services/vc/hook_env``'s
``HookEnvironment``) and passes that down. Child processes get their environment from
:func:`child`; git's own (the variables git exports to hooks removed) is built from it in
``vc/git/process.py``. Imports only ``os``: the hook and vc fast paths load it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# brv's own variables (docs/configuration.md and the modules that honour them)
NOW = "BRV_NOW"  # a fixed clock (ISO 8601): tests, demos, reproducible output
LOCK_WAIT = "BRV_LOCK_WAIT"  # seconds a writer waits for the tree's write lock
GIT_WAIT = "BRV_GIT_WAIT"  # seconds a writer waits for git's index.lock
FAULT_AT = "BRV_FAULT_AT"  # "step:n": the crash-test fault injection point
LOG_DIR = "BRV_LOG_DIR"  # where an unexpected error's report is written
# git and the platform, read without starting git
CEILING = "GIT_CEILING_DIRECTORIES"
CONFIG_HOME = "XDG_CONFIG_HOME"
CI_NAMES = ("CI", "GITHUB_ACTIONS")  # set by CI services (GitHub Actions sets both)


def get(name: str) -> str | None:
    """The variable ``name`` (one named above, or one a config names: an API key), or None."""
    return os.environ.get(name)


def is_set(name: str) -> bool:
    """True when ``name`` is in the environment (even empty)."""
    return name in os.environ


def seconds(name: str, default: float) -> float:
    """A wait in seconds from ``name``; ``default`` when unset or not a number."""
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def now_text() -> str | None:
    """``BRV_NOW`` when set and not empty (the caller parses it and says when it is bad)."""
    return os.environ.get(NOW) or None


def in_ci() -> bool:
    """True in a CI job (``CI`` or ``GITHUB_ACTIONS`` set to anything but empty/false/0)."""
    return any(os.environ.get(name, "").lower() not in ("", "0", "false") for name in CI_NAMES)


def config_home() -> str:
    """The XDG config folder (``~/.config`` when ``XDG_CONFIG_HOME`` is unset or empty)."""
    return os.environ.get(CONFIG_HOME) or os.path.join(os.path.expanduser("~"), ".config")


def current() -> Mapping[str, str]:
    """The whole environment, read-only by convention (a value to read once, or to copy)."""
    return os.environ


def child(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a child process: this one, with ``extra`` over it."""
    return {**os.environ, **extra} if extra else dict(os.environ)


def set_default(name: str, value: str) -> None:
    """Sets ``name`` for this process and its children unless it is set (the demo's identity)."""
    os.environ.setdefault(name, value)


def put(name: str, value: str) -> None:
    """Sets ``name`` for this process and its children (the hook recursion guard)."""
    os.environ[name] = value


def unset(name: str) -> None:
    """Removes ``name`` from this process's environment (a value meant for it alone)."""
    os.environ.pop(name, None)
