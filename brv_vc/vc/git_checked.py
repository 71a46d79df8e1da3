"""The commit ``brv vc commit`` checked, recorded in the git dir for ``brv vc push``.

A commit's id names its tree and its parents: once ``vc commit`` has checked the change its
new commit brings over its parent (conflict markers, sync-excluded files: the very checks
of ``vc push``, ``services/vc/markers.py``), a push of that one commit onto that parent
would check the same change again (a ``git diff`` and every changed file read and hashed:
~5 ms of CPU for 100 entries at 25,000). The record holds ``<commit> <parent>``; it is
written only when the commit object git wrote names the tree the command checked, and read
only as that pair: any other push is checked in full. The record names the brv that checked:
a newer brv (new checks) checks the commit itself.
"""

from __future__ import annotations

import os

from brv_vc import __version__
from brv_vc.vc.git import object_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

RECORD = "brv-checked-commit"


def record(common_dir: Path, commit: str, parent: str, tree: str) -> None:
    """Records that ``commit`` (on ``parent``) was checked, when its object names ``tree``.

    The object is read loose (git just wrote it); anything else records nothing. Fails open.
    """
    where = os.path.join(common_dir, RECORD)
    try:
        if _loose_commit_tree(common_dir, commit) != tree:
            os.unlink(where)
            return
        # bytes, not a text file with encoding="ascii": that would import the codec module
        with open(where, "wb") as handle:
            handle.write(f"{commit} {parent} {__version__}\n".encode("ascii"))
    except (OSError, ValueError):
        pass


def checked(common_dir: Path) -> tuple[str, str] | None:
    """(commit, parent) of the last commit ``vc commit`` checked, or None."""
    try:
        with open(os.path.join(common_dir, RECORD), "rb") as handle:
            fields = handle.read().decode("ascii").split()
    except (OSError, UnicodeDecodeError):
        return None
    return (fields[0], fields[1]) if len(fields) == 3 and fields[2] == __version__ else None


def _loose_commit_tree(common_dir: Path, commit: str) -> str | None:
    """The tree a loose commit object names (its first line), or None."""
    import zlib

    if not object_id(commit):
        return None
    try:
        with open(os.path.join(common_dir, "objects", commit[:2], commit[2:]), "rb") as handle:
            raw = zlib.decompressobj().decompress(handle.read(), 256)
    except (OSError, zlib.error):
        return None
    head, sep, body = raw.partition(b"\0")
    if not sep or not head.startswith(b"commit ") or not body.startswith(b"tree "):
        return None
    return body[5:5 + len(commit)].decode("ascii", "replace")
