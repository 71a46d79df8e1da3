"""The git config files git itself reads, for the checks that read them without a git process."""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc import environment


def config_files(gitdir: Path) -> tuple[Path, ...]:
    """The config files git reads, lowest precedence first: system, global, then the clone's.

    Why more than ``.git/config``: a ``core.hooksPath`` set in ``~/.gitconfig`` (a team's
    dotfiles, a security tool) sends every repository's hooks to one folder, and brv's
    hooks in ``.git/hooks`` stop running without a word. ``include`` files are not followed.
    """
    env = environment.current()
    files: list[Path] = []
    if not env.get("GIT_CONFIG_NOSYSTEM"):
        files.append(Path(env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"))
    if env.get("GIT_CONFIG_GLOBAL"):
        files.append(Path(env["GIT_CONFIG_GLOBAL"]))
    else:
        files += [Path(environment.config_home()) / "git" / "config", Path(os.path.expanduser("~/.gitconfig"))]
    return (*files, gitdir / "config")
