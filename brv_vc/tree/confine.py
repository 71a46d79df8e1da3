"""Where a project's own files may lead: never out of the repository that brought them.

A repository can hold a symlink at ``.brv/config.yaml`` or ``.brv``, or a ByteRover pointer
``.brv`` file (``{"projectRoot": "../other"}``); followed, they make brv read another file's
text into its messages (a token, ``/etc/passwd``), or search and write another project on
the same machine, from every command, the MCP server and the git hooks. The one rule, for
every such file and for an MCP tool's ``cwd``: what it names must lie in the same repository
as the file itself (its git work tree, another worktree of that repository, or, with no git
in sight, the folder that holds it), or in a project the user listed under
``allow_projects:`` in their own settings (:mod:`brv_vc.tree.user_config`), which no
repository can write. Legitimate uses stay: a pointer to a sub-folder or up to the
repository's root, ByteRover's linked worktree pointing at the main checkout.

A filesystem check, no git process: a ``lstat`` on the common path; the walk for ``.git``
and the user's file are read only when a link or a pointer is met.
"""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc.errors import InvalidPathError
from brv_vc.tree.gitwalk import git_folder, git_top
from brv_vc.tree.user_config import ALLOW_KEY, allowed_projects, user_config_path


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _common_dir(top: Path | None) -> str | None:
    """The shared git folder of the work tree at ``top`` (a linked worktree's main ``.git``)."""
    if top is None:
        return None
    folder = git_folder(top)
    if folder is None:
        return None
    try:
        common = (folder / "commondir").read_text(encoding="utf-8").strip()
    except OSError:
        return os.path.realpath(folder)
    return os.path.realpath(folder / common)


def stays(holder: Path, target: Path) -> bool:
    """Whether ``target`` lies where a file in the folder ``holder`` may lead (the rule above).

    Args:
        holder: the folder holding the link, the pointer or the project (for ``cwd``).
        target: where it leads (resolved here).
    """
    real = os.path.realpath(target)
    top = git_top(Path(os.path.realpath(holder)))
    scope = os.path.realpath(top if top is not None else holder)
    if _inside(real, scope):
        return True
    if top is not None:
        mine = _common_dir(top)
        if mine is not None and mine == _common_dir(git_top(Path(real))):
            return True  # another worktree of the same repository
    return any(_inside(real, str(root)) for root in allowed_projects())


def allow_hint(root: Path) -> str:
    """How the user allows a project that is named from elsewhere on this machine."""
    return (f"if you trust it, list it in your own settings ({user_config_path()}):\n"
            f"{ALLOW_KEY}:\n  - {root}")


def refuse_leaving_link(project_root: Path, rel: str) -> None:
    """Refuses ``<project_root>/<rel>`` when it is a symlink that leads out of the repository.

    Args:
        project_root: the project's root.
        rel: the part of ``.brv/`` (``.brv/config.yaml``, ``.brv/state``...).

    Raises:
        InvalidPathError: naming the file and the fix; never the target or its content.
    """
    path = project_root / rel
    try:
        if not path.is_symlink():
            return
    except OSError:
        return
    if stays(project_root, path):
        return
    real = "a regular file (rm {p}, then 'brv init' writes the default settings), or copy in " \
           "the settings you trust" if rel.endswith(".yaml") else \
           "a real folder (rm {p}, then 'brv init')"
    raise InvalidPathError(
        f"'{rel}' is a symlink that leads out of the project; brv does not read or write "
        "through it (nothing was read)",
        file=rel,
        hint=f"replace it with {real.format(p=rel)}",
    )


def refuse_foreign_cwd(own: Path | None, root: Path, cwd: str) -> None:
    """Refuses an MCP tool's ``cwd`` that names a project other than the server's own.

    A server answers for the project it was started in (``-C PATH``); a client (or a prompt
    that steers it) may not read or write another project on the machine through ``cwd``,
    unless the user listed that project under ``allow_projects:`` in their own settings.

    Args:
        own: the root of the server's own project (None: it was started outside any).
        root: the root of the project ``cwd`` lies in.
        cwd: the argument as given (for the message).

    Raises:
        InvalidPathError: naming the argument, the two projects and the fix.
    """
    real = os.path.realpath(root)
    if own is not None and real == os.path.realpath(own):
        return
    if any(_inside(real, str(allowed)) for allowed in allowed_projects()):
        return
    mine = f"the project {own}" if own is not None else "no project (it was started outside any)"
    raise InvalidPathError(
        f"cwd '{cwd}' lies in the project {root}, but this server serves {mine}; nothing "
        "was read or written there",
        key="cwd",
        hint=f"leave cwd out (or name a folder of the server's project), start a server for "
             f"that project (brv -C {root} mcp), or {allow_hint(root)}",
    )
