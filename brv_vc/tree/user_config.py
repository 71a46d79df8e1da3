"""The user's own settings file, ``$XDG_CONFIG_HOME/brv/config.yaml``: the one place brv trusts as is.

Everything a repository brings (``.brv/config.yaml``, a ``.brv`` pointer) can come from someone
else; this file lies outside every repository, so what it says holds on this machine: the
user's own ``llm:`` (:mod:`brv_vc.tree.llm_trust`) and ``allow_projects:``, the project roots a
pointer or an MCP tool's ``cwd`` may name from elsewhere (:mod:`brv_vc.tree.confine`).
"""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc import environment
from brv_vc.errors import FormatError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ALLOW_KEY = "allow_projects"
_LIMIT = 256 * 1024


def user_dir() -> Path:
    """``$XDG_CONFIG_HOME/brv`` (``~/.config/brv`` when the variable is unset)."""
    base = environment.config_home()
    return Path(base) / "brv"


def user_config_path() -> Path:
    """The user's own settings file."""
    return user_dir() / "config.yaml"


def user_settings(needle: bytes) -> dict[str, Any]:
    """The user's settings file parsed, or {} when it is missing or never names ``needle``.

    A symlink is followed: the file is the user's own (dotfiles are often linked).

    Raises:
        FormatError: the file is larger than 256 KB, not UTF-8 or malformed YAML.
    """
    path = user_config_path()
    try:
        with open(path, "rb") as handle:
            raw = handle.read(_LIMIT + 1)
    except OSError:
        return {}
    if needle not in raw:
        return {}
    import yaml

    from brv_vc.format.frontmatter import load_yaml

    shown = str(path)
    if len(raw) > _LIMIT:
        raise FormatError(f"{shown} is larger than {_LIMIT:,} bytes", file=shown)
    try:
        data = load_yaml(raw.decode("utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise FormatError(f"{shown} cannot be read: {exc}", file=shown,
                          hint="fix the YAML syntax") from None
    return data if isinstance(data, dict) else {}


def allowed_projects() -> tuple[Path, ...]:
    """The resolved roots listed under ``allow_projects:`` in the user's file.

    Raises:
        FormatError: the key holds something other than a list of absolute paths.
    """
    listed = user_settings(ALLOW_KEY.encode()).get(ALLOW_KEY)
    if listed is None:
        return ()
    shown = str(user_config_path())
    if not isinstance(listed, list) or not all(
            isinstance(item, str) and os.path.isabs(os.path.expanduser(item)) for item in listed):
        raise FormatError(f"'{ALLOW_KEY}' in {shown} must be a list of absolute folder paths",
                          file=shown, key=ALLOW_KEY,
                          hint=f"write it as:\n{ALLOW_KEY}:\n  - /path/to/project")
    return tuple(Path(os.path.realpath(os.path.expanduser(item))) for item in listed)
