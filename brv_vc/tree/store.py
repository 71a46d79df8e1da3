"""Reading and writing the tree: atomic writes (temp file + rename) and a fast walk.

A crash mid-write never leaves a partial file: the new bytes go to a temp file beside the
target and replace it in one ``os.replace``.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from brv_vc.errors import NotFoundError
from brv_vc.format.entry import Entry, parse_entry
from brv_vc.format.limits import MAX_ENTRY_BYTES
from brv_vc.tree.intents import TMP_DIR
from brv_vc.tree.layout import ARCHIVE_DIR, Kind, kind_of
from brv_vc.tree.links import read_regular, refuse_links
from brv_vc.tree.project import Project

_counter = [0]


def _tree_places(path: Path) -> tuple[Path, str, Path] | None:
    """(tree, tree-relative path, state folder) when ``path`` lies in a ``.brv/context-tree``."""
    parts = path.parts
    for i in range(len(parts) - 2, 0, -1):
        if parts[i] == "context-tree" and parts[i - 1] == ".brv":
            brv = Path(*parts[:i])
            return brv / "context-tree", "/".join(parts[i + 1 :]), brv / "state"
    return None


def temp_name(pid: int | None = None) -> str:
    """A temp file's name in ``.brv/state/tmp``: ``<pid>.<n>.tmp``.

    The pid lets a later command sweep what a killed process left.
    """
    _counter[0] += 1
    return f"{os.getpid() if pid is None else pid}.{_counter[0]}.tmp"


def write_atomic(path: Path, data: bytes | Iterable[bytes], *, durable: bool = True) -> bool:
    """Writes ``data`` to ``path`` atomically (temp file + rename), creating parent folders.

    ``data`` may come in pieces, written as they come: a large document encoded as it is
    written is never held whole (a dream log of 100,000 operations: ~160 MB as one
    string); such a write always writes.

    A reader never sees half a file. ``durable=False`` skips the ``fsync``: right for derived
    files, which any refresh can write again, so a 25,000-entry ``brv summarize`` does not
    pay two disk flushes per entry; knowledge is always written durably.

    Inside a context tree the rule of :mod:`brv_vc.tree.links` holds (never through a
    symlink) and the temp file sits in ``.brv/state/tmp``, where neither git nor search sees
    it and the next command sweeps it if this process is killed (docs/robustness.md).

    Returns:
        False when the file already held exactly these bytes (nothing was written).

    Raises:
        InvalidPathError: inside a context tree, a part of ``path`` is a symlink.
    """
    places = _tree_places(path)
    if places is not None:
        refuse_links(places[0], places[1])
    whole = data if isinstance(data, bytes) else None
    try:
        if whole is not None:
            old = read_regular(path, file=places[1]) if places else path.read_bytes()
            if old == whole:
                return False
    except (FileNotFoundError, NotADirectoryError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    if places is not None:
        folder = places[2] / TMP_DIR
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / temp_name()
        except OSError:
            pass  # a read-only state folder: beside the target, as before
    try:
        with open(tmp, "wb") as handle:
            pieces: Iterable[bytes] = (data,) if isinstance(data, bytes) else data
            for piece in pieces:
                handle.write(piece)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        try:
            os.replace(tmp, path)
        except OSError as exc:
            if exc.errno != errno.EXDEV or tmp.parent == path.parent:
                raise
            moved = whole if whole is not None else tmp.read_bytes()
            tmp.unlink(missing_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # state on another disk
            tmp.write_bytes(moved)
            os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return True


def read_bytes(project: Project, relpath: str, *, limit: int | None = MAX_ENTRY_BYTES) -> bytes:
    """The bytes of a tree file, by the rule of :mod:`brv_vc.tree.links`.

    Never through a symlink, never a FIFO or device, at most ``limit + 1`` bytes (the
    decoder then refuses a file above the limit).

    Raises:
        FileNotFoundError, IsADirectoryError: as ``open`` does.
        InvalidPathError: an escape, a symlink on the way, or not a regular file.
    """
    return read_regular(project.path_of(relpath), file=relpath, limit=limit)


def read_entry(project: Project, relpath: str) -> Entry:
    """Reads and parses the entry at a tree-relative path.

    Raises:
        NotFoundError: no such file.
        FormatError: the file is not a valid knowledge file (or above the size limit).
        InvalidPathError: the path escapes the tree, goes through a symlink, or names a FIFO
            or device.
    """
    try:
        data = read_bytes(project, relpath)
    except (FileNotFoundError, NotADirectoryError):
        raise NotFoundError(
            f"no entry at '{relpath}'",
            file=relpath,
            hint="list the entries with 'brv tree' or find one with 'brv search'",
        ) from None
    except IsADirectoryError:
        raise NotFoundError(f"'{relpath}' is a folder, not an entry", file=relpath) from None
    return parse_entry(data, file=relpath, stem=Path(relpath).stem)


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
        import shutil  # ~2.5 ms with bz2/lzma: only for a folder, never on a write's path

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

