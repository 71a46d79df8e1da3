"""Backups of replaced bytes: a content-addressed store and file changes that revert exactly.

A :class:`FileChange` names one tree path with the hash of its bytes before and after a
change (None: the file did not exist) and its mtime before. Reverting checks that the file
still holds the "after" bytes, that every backup is there, and only then writes anything,
so a refused revert changes nothing on disk.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from brv_vc.errors import ConflictError, StateError
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import ensure_state_dir


def digest(data: bytes) -> str:
    """The sha256 of ``data`` (a backup's name)."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class BlobStore:
    """Bytes kept by their sha256 under ``folder`` (one file each, written once)."""

    folder: Path

    def put(self, data: bytes) -> str:
        """Stores ``data`` (durably) and returns its hash."""
        name = digest(data)
        path = self.folder / name[:2] / name
        if not path.exists():
            from brv_vc.tree.store import write_atomic

            ensure_state_dir(self.folder.parent)
            write_atomic(path, data)
        return name

    def get(self, name: str) -> bytes | None:
        """The stored bytes, or None when the backup is missing."""
        try:
            return (self.folder / name[:2] / name).read_bytes()
        except OSError:
            return None

    def has(self, name: str) -> bool:
        """True when the backup is there."""
        return (self.folder / name[:2] / name).is_file()

    def keep_only(self, names: Iterable[str]) -> int:
        """Deletes every backup not in ``names``; returns how many went."""
        wanted = set(names)
        gone = 0
        for path in self.folder.glob("??/*"):
            if path.name not in wanted and not path.name.endswith(".tmp"):
                path.unlink(missing_ok=True)
                gone += 1
        return gone


@dataclass(frozen=True)
class FileChange:
    """One file a change touched: its bytes before and after (hashes) and its old mtime."""

    path: str
    before: str | None
    after: str | None
    before_mtime_ns: int | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (logs, review rows)."""
        return {"path": self.path, "before": self.before, "after": self.after,
                "beforeMtimeNs": self.before_mtime_ns}

    @staticmethod
    def from_dict(data: dict[str, object]) -> FileChange:
        """Reads :meth:`to_dict`'s form back."""
        mtime = data.get("beforeMtimeNs")
        before, after = data.get("before"), data.get("after")
        return FileChange(str(data["path"]), str(before) if before else None,
                          str(after) if after else None,
                          int(mtime) if isinstance(mtime, int) else None)


@dataclass(frozen=True)
class Snapshot:
    """The bytes and mtimes of some tree paths before a change."""

    files: dict[str, tuple[bytes | None, int | None]]


def _read(project: Project, rel: str) -> tuple[bytes | None, int | None]:
    path = project.tree / rel
    try:
        return path.read_bytes(), path.stat().st_mtime_ns
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None, None


def capture(project: Project, paths: Iterable[str]) -> Snapshot:
    """Reads the given tree paths (missing ones as None) before a change."""
    return Snapshot({rel: _read(project, rel) for rel in dict.fromkeys(paths)})


def changes_since(project: Project, snapshot: Snapshot, store: BlobStore) -> tuple[FileChange, ...]:
    """The files of ``snapshot`` whose bytes or mtime changed since, their backups stored."""
    out = []
    for rel, (old, old_mtime) in snapshot.files.items():
        new, new_mtime = _read(project, rel)
        if old == new and old_mtime == new_mtime:
            continue
        before = store.put(old) if old is not None else None
        after = store.put(new) if new is not None else None
        out.append(FileChange(rel, before, after, old_mtime))
    return tuple(out)


def check_revertible(project: Project, changes: Sequence[FileChange], store: BlobStore) -> None:
    """Refuses a revert that would lose work or cannot be done (nothing is written).

    Raises:
        ConflictError: a file no longer holds the bytes the change left.
        StateError: a backup is missing.
    """
    for change in changes:
        current, _ = _read(project, change.path)
        now = digest(current) if current is not None else None
        if now != change.after:
            what = "was deleted" if current is None else "was changed again"
            raise ConflictError(
                f"{change.path} {what} after this change; reverting would lose that work",
                file=change.path,
                hint="revert or commit that later edit first; nothing was changed",
            )
        _check_backup(change, store)


def check_chain(project: Project, changes: Sequence[FileChange], store: BlobStore) -> None:
    """Refuses reverting a chain of changes, oldest first, that cannot be reverted whole.

    Only the newest change of each file meets the disk; an older one found the bytes the
    next one changed. Every change needs its backup all the same.

    Raises:
        ConflictError: a file no longer holds the bytes its newest change left.
        StateError: a backup is missing, of any change in the chain.
    """
    latest = {change.path: change for change in changes}
    first: dict[str, FileChange] = {}
    for change in changes:
        first.setdefault(change.path, change)
    # a file already back as it was (a revert killed half-way) is not "changed again": the
    # same command run again finishes the revert
    waiting = [c for rel, c in latest.items() if _digest_of(project, rel) != first[rel].before]
    check_revertible(project, waiting, store)
    for change in changes:
        _check_backup(change, store)


def _digest_of(project: Project, rel: str) -> str | None:
    current, _ = _read(project, rel)
    return digest(current) if current is not None else None


def _check_backup(change: FileChange, store: BlobStore) -> None:
    if change.before is not None and not store.has(change.before):
        raise StateError(
            f"the backup of {change.path} is missing ({change.before[:12]} under "
            f"{store.folder})",
            file=change.path,
            hint="the change cannot be reverted byte for byte; edit the file by hand or "
                 "approve the change; nothing was changed",
        )


def revert(project: Project, changes: Sequence[FileChange], store: BlobStore) -> list[str]:
    """Puts every file back as it was before (after :func:`check_chain` passed).

    Returns:
        The tree paths written or removed (for the derived refresh).
    """
    # imported here: listing the queue ('brv review pending') never writes, and the store
    # pulls in the entry parser and PyYAML (~0.2 s)
    from brv_vc.tree.store import remove_empty_parents, write_atomic

    for change in reversed(changes):
        target = project.tree / change.path
        if change.before is None:
            target.unlink(missing_ok=True)
            remove_empty_parents(project, target.parent)
            continue
        data = store.get(change.before)
        assert data is not None  # checked by check_chain
        write_atomic(target, data)
        if change.before_mtime_ns is not None:
            os.utime(target, ns=(change.before_mtime_ns, change.before_mtime_ns))
    return [c.path for c in changes]


def review_store(project: Project) -> BlobStore:
    """The review queue's backups: ``.brv/state/review/backups/``."""
    return BlobStore(project.state / "review" / "backups")
