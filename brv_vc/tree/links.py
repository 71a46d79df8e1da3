"""One rule for every reader and writer of the tree: never through a link, only regular files.

Git stores symlinks, so a teammate's commit can bring one: an entry pointing at a secret
file, an ``_archived`` folder pointing outside the tree, a FIFO named like an entry. brv
never reads, writes or deletes through a symlink anywhere in the tree (an entry, a folder,
``_archived``, a derived file's place), never opens anything that is not a regular file
(opening a FIFO blocks forever), and reads at most a bounded number of bytes. ``brv index``
lists what it found (:func:`odd_files`); the pre-commit hook and ``vc add`` refuse it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from brv_vc.errors import InvalidPathError

_KINDS = (
    (stat.S_ISLNK, "a symlink"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def kind_name(mode: int) -> str | None:
    """'a symlink', 'a FIFO (named pipe)', ... for what is not a regular file or folder."""
    return next((name for test, name in _KINDS if test(mode)), None)


def link_error(rel: str, link: str, root: Path) -> InvalidPathError:
    """The refusal for ``rel``, which goes through the symlink ``link`` (both tree-relative)."""
    where = root / link
    try:
        target = os.readlink(where)
    except OSError:
        target = "?"
    real = os.path.realpath(where)
    root_real = os.path.realpath(root)
    outside = real != root_real and not real.startswith(root_real + os.sep)
    what = (
        f"'{rel}' resolves outside the context tree (through a symlink), '{link}' -> {target}"
        if outside
        else f"'{rel}' goes through a symlink ('{link}' -> {target})"
    )
    return InvalidPathError(
        f"{what}; brv never reads or writes through a link",
        file=rel,
        hint=f"replace the link with the real file or folder, or remove it: "
        f"rm {(Path('.brv/context-tree') / link).as_posix()}",
    )


def first_link(root: Path, rel: str) -> str | None:
    """The first part of ``rel`` (a clean tree-relative path) that is a symlink, or None.

    One ``lstat`` a part; a missing part ends the check (nothing below it exists).
    """
    current = root
    parts = rel.split("/") if rel else []
    for depth, part in enumerate(parts):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return None
        if stat.S_ISLNK(mode):
            return "/".join(parts[: depth + 1])
    return None


def refuse_links(root: Path, rel: str) -> None:
    """Raises InvalidPathError when any part of ``rel`` under ``root`` is a symlink."""
    link = first_link(root, rel)
    if link is not None:
        raise link_error(rel, link, root)


def read_regular(
    path: Path | str, *, file: str, limit: int | None = None, follow: bool = False
) -> bytes:
    """Reads a regular file without following a final symlink and without blocking.

    Args:
        path: the file (a plain string costs less where many are read: the index build).
        file: its name in messages (tree-relative).
        limit: read at most ``limit + 1`` bytes (the caller refuses a file that long).
        follow: follow a final symlink (for files outside the tree, such as config.yaml).

    Raises:
        FileNotFoundError, IsADirectoryError: as ``open`` does.
        InvalidPathError: a symlink, a FIFO, a device or a socket (nothing is read).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink
            raise not_regular(file, "a symlink") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
        if not stat.S_ISREG(mode):
            raise not_regular(file, kind_name(mode) or "not a regular file")
        chunks = []
        left = -1 if limit is None else limit + 1
        while left != 0:
            chunk = os.read(fd, 1 << 20 if left < 0 else min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            if left > 0:
                left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def not_regular(file: str, what: str) -> InvalidPathError:
    """The refusal for a tree path that is a symlink, FIFO, device or socket."""
    return InvalidPathError(
        f"'{file}' is {what}, not a regular file; brv never reads or writes through it",
        file=file,
        hint=f"replace it with a regular markdown file, or remove it: "
        f"rm {(Path('.brv/context-tree') / file).as_posix()}",
    )


def odd_files(root: Path) -> list[tuple[str, str]]:
    """Every symlink and special file in the tree: ``(relpath, "a symlink" | ...)``, sorted.

    Links are reported, never followed; ``.git`` and other dot folders are skipped.
    """
    found: list[tuple[str, str]] = []
    stack = [(str(root), "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as items:
                listed = list(items)
        except OSError:
            continue
        for item in listed:
            rel = prefix + item.name
            try:
                # the entry's type from the folder listing (no stat per file, ~3x faster
                # over a 75,000-file tree); only an odd one is stat'ed for its kind
                if item.is_file(follow_symlinks=False):
                    continue
                if item.is_dir(follow_symlinks=False):
                    if not item.name.startswith("."):  # .git and other tools' folders
                        stack.append((item.path, rel + "/"))
                    continue
                mode = item.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            found.append((rel, kind_name(mode) or "not a regular file"))
    return sorted(found)
