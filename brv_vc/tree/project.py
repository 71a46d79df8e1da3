"""Finding a project (the folder holding ``.brv/``) from any subfolder, as git finds ``.git``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from brv_vc.errors import InvalidPathError, NotInitializedError
from brv_vc.tree.layout import clean_relpath

BRV_DIR = ".brv"
TREE_DIR = "context-tree"
STATE_DIR = "state"
CONFIG_FILE = "config.yaml"


@dataclass(frozen=True)
class Project:
    """A project's locations. ``root`` holds ``.brv/``."""

    root: Path

    @property
    def brv_dir(self) -> Path:
        """``<root>/.brv``."""
        return self.root / BRV_DIR

    @property
    def tree(self) -> Path:
        """``<root>/.brv/context-tree``: the knowledge, the source of truth."""
        return self.brv_dir / TREE_DIR

    @property
    def state(self) -> Path:
        """``<root>/.brv/state``: per machine, never synced."""
        return self.brv_dir / STATE_DIR

    @property
    def config_path(self) -> Path:
        """``<root>/.brv/config.yaml``."""
        return self.brv_dir / CONFIG_FILE

    def path_of(self, relpath: str) -> Path:
        """Returns the absolute path of a tree-relative path, refusing any escape.

        Raises:
            InvalidPathError: ``..``, absolute paths, or a symlink that leads outside the tree.
        """
        clean = clean_relpath(relpath)
        target = self.tree.joinpath(*clean.split("/"))
        tree_real = os.path.realpath(self.tree)
        real = os.path.realpath(target)
        if real != tree_real and not real.startswith(tree_real + os.sep):
            raise InvalidPathError(
                f"'{relpath}' resolves outside the context tree (through a symlink)",
                file=relpath,
                hint="remove the symlink or point it inside .brv/context-tree",
            )
        return target

    def relpath(self, path: Path) -> str:
        """Returns the tree-relative POSIX path of an absolute path inside the tree."""
        return path.relative_to(self.tree).as_posix()


def find_root(start: Path) -> Path | None:
    """Returns the nearest folder at or above ``start`` that holds ``.brv/``, or None."""
    current = start.resolve()
    for folder in (current, *current.parents):
        if (folder / BRV_DIR).is_dir():
            return folder
    return None


def find_project(start: Path) -> Project:
    """Returns the project that contains ``start``.

    Raises:
        NotInitializedError: no ``.brv/`` in ``start`` or any parent.
    """
    root = find_root(start)
    if root is None:
        raise NotInitializedError(
            f"not a brv project (no .brv/ in {start.resolve()} or any parent)",
            hint="run 'brv init' in your project's root folder",
        )
    return Project(root)
