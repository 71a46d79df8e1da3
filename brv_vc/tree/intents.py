"""Intent records and temp files under ``.brv/state``: what a killed process leaves behind.

A step that changes several files (archive, restore, pull) first writes an intent record,
``.brv/state/pending/<kind>-<pid>.json``, and removes it when done. A later command finds
the records whose process is gone and finishes or undoes their step; it also sweeps the temp
files such a process left (``.brv/state/tmp/<pid>.<n>.tmp``, ``<file>.<pid>.tmp`` beside a
state file, ``.curate-staging-<pid>``): the one home of "a dead writer's temp files go".
Records of a live process are left alone: it may still be working. "Gone" is read from the
pid for pulls; for the steps taken under the write lock (tree/writelock.py) from the lock.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from brv_vc.tree.leftovers import PENDING_DIR as PENDING_DIR  # the names, in one place
from brv_vc.tree.leftovers import STAGING_PREFIX as STAGING_PREFIX
from brv_vc.tree.leftovers import TMP_DIR as TMP_DIR
from brv_vc.tree.leftovers import pid_in
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import ensure_state_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed but not yet reaped, does not)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def begin(project: Project, kind: str, data: dict[str, Any], *, durable: bool = True) -> Path:
    """Writes an intent record (before the step changes anything) and returns it.

    ``durable=False``: no fsync, for a step whose own writes are not fsynced either (a kill
    cannot lose the record then, only a power cut, which loses the step's writes too).
    """
    folder = project.state / PENDING_DIR
    ensure_state_dir(project.state)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{kind}-{os.getpid()}.json"
    rewrite(path, {**data, "kind": kind, "pid": os.getpid()}, durable=durable)
    return path


def rewrite(path: Path, data: dict[str, Any], *, durable: bool = False) -> None:
    """Replaces an intent record atomically."""
    tmp = path.parent / f".{path.name}.tmp"
    with open(tmp, "w", encoding="utf-8") as out:
        json.dump(data, out)
        if durable:
            out.flush()
            os.fsync(out.fileno())
    os.replace(tmp, path)


def read(path: Path) -> dict[str, Any] | None:
    """An intent record's content (None: gone or unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def done(path: Path) -> None:
    """Removes an intent record: its step is complete."""
    path.unlink(missing_ok=True)


def records(project: Project, kind: str | None = None) -> list[tuple[Path, dict[str, Any]]]:
    """Every intent record (of ``kind``, or all), oldest first, live writers' included.

    A record that is not a JSON object was cut short (its step never began): removed.
    """
    folder = project.state / PENDING_DIR
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        if not name.endswith(".json") or name.startswith("."):
            continue
        if kind is not None and not name.startswith(kind + "-"):
            continue
        path = folder / name
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            stamp = path.stat().st_mtime_ns
        except (OSError, ValueError):
            path.unlink(missing_ok=True)
            continue
        if isinstance(data, dict):
            found.append((stamp, path, data))
        else:
            path.unlink(missing_ok=True)
    return [(path, data) for _, path, data in sorted(found, key=lambda item: item[0])]


def orphans(project: Project, kind: str | None = None) -> list[tuple[Path, dict[str, Any]]]:
    """Intent records (of ``kind``, or all) whose process is gone, oldest first.

    For steps taken without the write lock (pulls); those under it (curate, archive,
    restore) are known abandoned by whoever takes the lock (services/recovery.py).
    """
    found = []
    for path, data in records(project, kind):
        try:
            pid = int(data.get("pid", 0))
        except (TypeError, ValueError):
            pid = 0
        if not alive(pid):
            found.append((path, data))
    return found


def _temps(project: Project) -> list[tuple[Path, int]]:
    """Every temp file under ``.brv/state`` with the pid in its name (staging: below)."""
    found: list[tuple[Path, int]] = []
    for folder, key in ((project.state / TMP_DIR, TMP_DIR),
                        (project.state / PENDING_DIR, PENDING_DIR), (project.state, "")):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            pid = pid_in(key, name)
            if pid is not None:
                found.append((folder / name, pid))
    return found


def sweep_staging(project: Project) -> int:
    """Deletes curate staging folders: the caller holds the write lock, its journals settled.

    Not by pid: the journal of a dead batch needs its staged files to finish it.

    Returns:
        How many were deleted.
    """
    try:
        names = [n for n in os.listdir(project.state) if n.startswith(STAGING_PREFIX)]
    except OSError:
        return 0
    for name in names:
        path = project.state / name
        if path.is_dir() and not path.is_symlink():
            import shutil  # only for a folder left behind (see tree/store.remove_tree)

            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return len(names)


def sweep_temps(project: Project) -> int:
    """Deletes the temp files of processes that are gone.

    Returns:
        How many were deleted.
    """
    swept = 0
    for path, pid in _temps(project):
        if pid and alive(pid):
            continue
        if path.is_dir() and not path.is_symlink():
            import shutil  # only for a folder left behind (see tree/store.remove_tree)

            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        swept += 1
    return swept
