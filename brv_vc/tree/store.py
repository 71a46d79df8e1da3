"""Reading and writing the tree: atomic writes (temp file + rename) and a fast walk.

A crash mid-write never leaves a partial file: the new bytes go to a temp file beside the
target and replace it in one ``os.replace``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

from brv_vc.errors import InvalidPathError, NotFoundError
from brv_vc.format.entry import Entry, parse_entry
from brv_vc.tree.layout import ARCHIVE_DIR, Kind, kind_of
from brv_vc.tree.project import Project


def write_atomic(path: Path, data: bytes, *, durable: bool = True) -> bool:
    """Writes ``data`` to ``path`` atomically (temp file + rename), creating parent folders.

    A reader never sees half a file. ``durable=False`` skips the ``fsync``: right for derived
    files, which any refresh can write again, so a 25,000-entry ``brv summarize`` does not
    pay two disk flushes per entry; knowledge is always written durably.

    Returns:
        False when the file already held exactly these bytes (nothing was written).
    """
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # A pid-named temp file instead of mkstemp: O_EXCL creation with random names costs
    # about 1 ms a file on some filesystems (overlayfs), a second per 1,000 entries.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return True


def read_entry(project: Project, relpath: str) -> Entry:
    """Reads and parses the entry at a tree-relative path.

    Raises:
        NotFoundError: no such file.
        FormatError: the file is not a valid knowledge file.
        InvalidPathError: the path escapes the tree.
    """
    path = project.path_of(relpath)
    if path.is_symlink() and not path.exists():
        raise InvalidPathError(f"'{relpath}' is a broken symlink", file=relpath)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise NotFoundError(
            f"no entry at '{relpath}'",
            file=relpath,
            hint="list the entries with 'brv tree' or find one with 'brv search'",
        ) from None
    except IsADirectoryError:
        raise NotFoundError(f"'{relpath}' is a folder, not an entry", file=relpath) from None
    return parse_entry(data, file=relpath, stem=path.stem)


def remove_empty_parents(project: Project, folder: Path) -> None:
    """Removes ``folder`` and its parents while they are empty, stopping at the tree root."""
    tree = project.tree.resolve()
    current = folder.resolve()
    while current != tree and tree in current.parents:
        try:
            current.rmdir()
        except OSError:
            return
        current = current.parent


def remove_tree(path: Path) -> None:
    """Deletes a file or a whole folder."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def walk(project: Project) -> Iterator[tuple[str, os.stat_result]]:
    """Yields (relpath, stat) for every file in the tree, skipping ``.git`` and dot folders.

    Uses ``os.scandir`` so a 100,000-file tree costs one stat a file and nothing more.
    """
    root = str(project.tree)
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue
        for item in entries:
            if item.name.startswith("."):
                continue
            rel = prefix + item.name
            if item.is_dir(follow_symlinks=False):
                stack.append((item.path, rel + "/"))
            elif item.is_file(follow_symlinks=False):
                yield rel, item.stat(follow_symlinks=False)


def entry_paths(project: Project) -> list[str]:
    """Returns the sorted tree-relative paths of all knowledge entries (not archived)."""
    return sorted(
        rel for rel, _ in walk(project)
        if not rel.startswith(ARCHIVE_DIR + "/") and kind_of(rel) is Kind.ENTRY
    )

