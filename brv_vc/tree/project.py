"""Finding a project (the folder holding ``.brv/``) from any subfolder, as git finds ``.git``."""

from __future__ import annotations

import os
import stat
from functools import cached_property
from pathlib import Path

from brv_vc.errors import FormatError, NotInitializedError

# re-exported: callers found the git walk here before it had its own module
from brv_vc.tree.gitwalk import git_folder as git_folder
from brv_vc.tree.gitwalk import git_top as git_top

BRV_DIR = ".brv"
TREE_DIR = "context-tree"
STATE_DIR = "state"
CONFIG_FILE = "config.yaml"
# ByteRover's linked worktrees make .brv a JSON file naming the main checkout (reference §3)
POINTER_KEY = "projectRoot"


class Project:
    """A project's locations. ``root`` holds ``.brv/``.

    A plain class, not a frozen dataclass: the cold search path creates ~17 record classes,
    and ``dataclasses`` (with ``inspect``) plus their generated methods cost ~37 ms of a
    135 ms cold search (docs/retrieval.md, "Cold start"). Equal when the roots are equal.
    """

    def __init__(self, root: Path) -> None:
        self.root = root

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Project) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    def __repr__(self) -> str:
        return f"Project(root={self.root!r})"

    @cached_property
    def brv_dir(self) -> Path:
        """``<root>/.brv``."""
        return self.root / BRV_DIR

    @cached_property
    def tree(self) -> Path:
        """``<root>/.brv/context-tree``: the knowledge, the source of truth."""
        return self.brv_dir / TREE_DIR

    @cached_property
    def state(self) -> Path:
        """``<root>/.brv/state``: per machine, never synced."""
        return self.brv_dir / STATE_DIR

    @property
    def config_path(self) -> Path:
        """``<root>/.brv/config.yaml``."""
        return self.brv_dir / CONFIG_FILE

    def path_of(self, relpath: str) -> Path:
        """Returns the absolute path of a tree-relative path, refusing any escape or link.

        Raises:
            InvalidPathError: ``..``, absolute paths, or a symlink anywhere on the way (brv
                never reads or writes through a link: docs/robustness.md).
        """
        # here, not at the top: finding a project ('vc status', the hooks) needs no layout
        # rules, and tree/layout.py costs ~0.7 ms of CPU to import (its enum, its regexes)
        from brv_vc.tree.layout import clean_relpath
        from brv_vc.tree.links import refuse_links

        clean = clean_relpath(relpath)
        refuse_links(self.tree, clean)
        return self.tree.joinpath(*clean.split("/")) if clean else self.tree

    def relpath(self, path: Path) -> str:
        """Returns the tree-relative POSIX path of an absolute path inside the tree."""
        return path.relative_to(self.tree).as_posix()


def read_pointer(marker: Path) -> Path:
    """Follows a ``.brv`` *file*: a ByteRover worktree pointer ``{"projectRoot": "<path>"}``.

    Trigger: ``brv worktree add`` (ByteRover) leaves such a file in a linked checkout. Why:
    that checkout shares the main project's knowledge. Outcome: brv uses the main project,
    as ByteRover does. Only one hop is followed: the target must hold a real ``.brv/``.

    Returns:
        The main project's root (a relative ``projectRoot`` is read from the file's folder).

    Raises:
        FormatError: the file is not such a pointer.
        NotInitializedError: the folder it names holds no ``.brv/`` folder.
        InvalidPathError: it names a folder out of its repository that the user did not
            allow (:mod:`brv_vc.tree.confine`).
    """
    import json  # only this rare case pays for it

    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        data = None
    target = data.get(POINTER_KEY) if isinstance(data, dict) else None
    if not isinstance(target, str) or not target.strip():
        raise FormatError(
            f"{marker} is a file, not the .brv/ folder, and not a worktree pointer "
            f'({{"{POINTER_KEY}": "/path/to/main/project"}})',
            file=str(marker),
            hint=f"move it aside (mv {marker} {marker}.bak), then run 'brv init'",
        )
    root = (marker.parent / target.strip()).resolve()
    if not (root / BRV_DIR).is_dir():
        raise NotInitializedError(
            f"{marker} points to {root} ({POINTER_KEY}), which has no .brv/ folder",
            file=str(marker),
            hint=f"fix '{POINTER_KEY}' in {marker} to name the main project, or move the "
                 "file aside and run 'brv init'",
        )
    _confined(marker, root, f"{marker} names {root} ({POINTER_KEY})")
    return root


def _confined(marker: Path, target: Path, what: str) -> None:
    """Refuses a ``.brv`` pointer or symlink that leads out of its repository, unallowed."""
    from brv_vc.tree import confine  # only a pointer or a link pays for the rule

    if not confine.stays(marker.parent, target):
        from brv_vc.errors import InvalidPathError

        raise InvalidPathError(
            f"{what}, out of the repository that holds it; brv does not follow it (nothing "
            "was read or written there)",
            file=str(marker),
            hint=f"{confine.allow_hint(target)}\nor move {marker} aside and run 'brv init' "
                 "for a project of its own",
        )


def find_root(start: Path) -> Path | None:
    """Returns the nearest folder at or above ``start`` that holds ``.brv/``, or None.

    A ``.brv`` file on the way is a worktree pointer: the folder it names is returned. A
    pointer or a ``.brv`` symlink may lead only within its repository
    (:mod:`brv_vc.tree.confine`).

    Raises:
        FormatError, NotInitializedError: a ``.brv`` file that is no valid pointer.
        InvalidPathError: a pointer or a ``.brv`` symlink that leads out of its repository.
    """
    current = start.resolve()
    for folder in (current, *current.parents):
        marker = folder / BRV_DIR
        try:
            mode = os.lstat(marker).st_mode  # one call a folder, as the stat it replaced
        except OSError:
            continue
        if stat.S_ISLNK(mode):
            real = Path(os.path.realpath(marker))
            _confined(marker, real, f"{marker} is a symlink to {real}")
            try:
                mode = os.stat(marker).st_mode
            except OSError:
                continue
        if stat.S_ISDIR(mode):
            return folder
        if stat.S_ISREG(mode):
            return read_pointer(marker)
    return None


def check_layout(project: Project) -> None:
    """Refuses a ``.brv/`` whose parts have the wrong kind (a file where a folder belongs).

    Trigger: every command. Why: otherwise the first read crashes with an OSError (exit 3).
    Outcome: three ``lstat`` calls; a clear error naming the path and the fix. A part that is
    a symlink out of the repository (a committed ``.brv/state`` or ``.brv/context-tree``
    would make brv write another project) is refused by the rule of
    :mod:`brv_vc.tree.confine`.

    Raises:
        FormatError: context-tree or state is a file, or config.yaml is a folder.
        InvalidPathError: one of them is a symlink that leads out of the repository.
    """
    for path, want_dir, fix in (
        (project.tree, True, "move it aside (mv {p} {p}.bak), then run 'brv init'"),
        (project.state, True, "remove it (rm {p}): state is per machine and brv recreates it"),
        (project.config_path, False,
         "move it aside (mv {p} {p}.bak), then run 'brv init' to write the default settings"),
    ):
        rel = f"{BRV_DIR}/{path.name}"
        try:
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                from brv_vc.tree.confine import refuse_leaving_link

                refuse_leaving_link(project.root, rel)
                mode = os.stat(path).st_mode
        except OSError:
            continue
        if stat.S_ISDIR(mode) != want_dir:
            what = "a file, not a folder" if want_dir else "a folder, not a file"
            raise FormatError(
                f"{rel} is {what} (in {project.root})",
                file=rel,
                hint=fix.format(p=rel),
            )


def find_project(start: Path) -> Project:
    """Returns the project that contains ``start``.

    Raises:
        NotInitializedError: no ``.brv/`` in ``start`` or any parent.
        FormatError: a part of ``.brv/`` has the wrong kind (see :func:`check_layout`).
    """
    root = find_root(start)
    if root is None:
        raise NotInitializedError(
            f"not a brv project (no .brv/ in {start.resolve()} or any parent)",
            hint="run 'brv init' in your project's root folder",
        )
    project = Project(root)
    check_layout(project)
    return project
