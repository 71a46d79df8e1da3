"""The walk of the context tree that ``sync`` compares with the index: folders and files.

One ``os.scandir`` per folder: its sub-folders to walk next, its indexable files with their
stat (mtime, size, ctime), and markdown outside the layout (strays). A folder is stat'ed
before it is listed, so a file added meanwhile is seen by the next check.
"""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc.tree.layout import (
    ABSTRACT_SUFFIX,
    ARCHIVE_DIR,
    CONTEXT_FILE,
    MAX_DEPTH,
    OVERVIEW_SUFFIX,
    STUB_SUFFIX,
    SUMMARY_FILE,
    is_synthesis_file,
    may_be_synthesis,
    misplaced,
)

Stat = tuple[int, int, int]  # mtime_ns, size, ctime_ns


def _parent(relpath: str) -> str:
    return relpath.rsplit("/", 1)[0] if "/" in relpath else ""


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _indexable(name: str, depth: int, archived: bool) -> bool:
    """``docs.is_indexed`` of a file ``depth`` folders deep (no re-split: once per file)."""
    if archived:
        return name.endswith(STUB_SUFFIX)
    if not name.endswith(".md") or name == SUMMARY_FILE or name.endswith(
            (ABSTRACT_SUFFIX, OVERVIEW_SUFFIX)):
        return False
    if name == CONTEXT_FILE:
        return depth >= 1
    return 2 <= depth <= MAX_DEPTH


def _synthesis(full: str, relpath: str) -> bool:
    """A dream synthesis directly in a domain folder (``layout.is_synthesis_file``).

    Only a file whose path allows it is read (not ``_index.md`` and the other derived files).
    """
    if not may_be_synthesis(relpath):
        return False
    try:
        with open(full, "rb") as handle:
            return is_synthesis_file(relpath, handle.read(4096))
    except OSError:
        return False


def _list_dir(
    tree: Path, rel: str, files: dict[str, Stat], strays: list[str] | None = None
) -> list[str]:
    """Lists one folder: its sub-folders are returned, its files sorted into place.

    Indexable files go to ``files``, markdown outside the layout to ``strays``.
    """
    subdirs = []
    depth = rel.count("/") + 1 if rel else 0
    archived = rel == ARCHIVE_DIR or rel.startswith(ARCHIVE_DIR + "/")
    try:
        with os.scandir(os.path.join(str(tree), rel) if rel else str(tree)) as items:
            for item in items:
                if item.name.startswith("."):
                    continue
                path = _join(rel, item.name)
                if item.is_dir(follow_symlinks=False):
                    subdirs.append(path)
                elif (
                    _indexable(item.name, depth, archived) and item.is_file(follow_symlinks=False)
                ) or (depth == 1 and item.name.endswith(".md") and _synthesis(item.path, path)):
                    st = item.stat(follow_symlinks=False)
                    files[path] = (st.st_mtime_ns, st.st_size, st.st_ctime_ns)
                elif (
                    # at depths 2..MAX_DEPTH every .md is indexable or derived: only the root,
                    # domain folders and folders too deep can hold a stray (a full walk meets
                    # every abstract and overview here, so the check is skipped for them)
                    strays is not None and not archived and (depth < 2 or depth > MAX_DEPTH)
                    and item.name.endswith(".md")
                    and misplaced(path) and item.is_file(follow_symlinks=False)
                ):
                    strays.append(path)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        pass
    return subdirs


def _walk(tree: Path, start: str, dirs: dict[str, int], files: dict[str, Stat],
          strays: list[str] | None = None) -> None:
    stack = [start]
    while stack:
        rel = stack.pop()
        try:
            # the folder is stat'ed BEFORE it is listed: a file added meanwhile moves the
            # mtime past the stored one, so the next check lists the folder again
            dirs[rel] = os.stat(tree / rel if rel else tree).st_mtime_ns
        except OSError:
            continue
        stack.extend(_list_dir(tree, rel, files, strays))


def _stat(path: str) -> Stat | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ctime_ns)
