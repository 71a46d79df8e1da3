"""Whether a killed process left anything under ``.brv/state``: a few listings, ``os`` only.

Every command asks before it reads the tree (the cold ``brv search`` path too), so this stays
import-light; the settling itself (services/recovery.py, with tree/intents.py) is imported
only when the answer is yes. The names are those tree/intents.py writes.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

PENDING_DIR = "pending"  # intent records: <kind>-<pid>.json (.<kind>-<pid>.json.tmp while written)
TMP_DIR = "tmp"  # temp files of writes into the tree: <pid>.<n>.tmp
STAGING_PREFIX = ".curate-staging-"  # a curate batch's staged files: .curate-staging-<pid>
# intents written under the write lock (reapply: the post-merge hook's, services/vc/written_back)
LOCKED_KINDS = ("curate", "archive", "restore", "dream", "reapply")


def pid_beside(name: str) -> int | None:
    """The pid in the name of a temp file written beside a state file, else None.

    ``<file>.<pid>.tmp`` directly in ``.brv/state``: a state file's atomic write
    (``store.write_atomic``: ``.<file>.<pid>.tmp``), the code history cache's, the semantic
    matrix's of stop 20 (``vectors-<digest>.npz.<pid>.tmp``). A name with no pid is no one's
    temp file: never swept.
    """
    parts = name.rsplit(".", 2)
    if len(parts) == 3 and parts[2] == "tmp" and parts[0] and parts[1].isdigit():
        return int(parts[1])
    return None

def _pid(text: str) -> int:
    return int(text) if text.isdigit() else 0


def pid_in(folder: str, name: str) -> int | None:
    """The pid in a temp name of ``folder``, None when the name is not a temp file there.

    ``folder``: ``TMP_DIR``, ``PENDING_DIR``, or "" for the state folder itself. The one rule
    of what :func:`anything_left` sees and ``intents``' sweep removes.
    """
    if folder == TMP_DIR:  # <pid>.<n>.tmp (store.write_atomic into the tree)
        return _pid(name.split(".", 1)[0]) if name.endswith(".tmp") else None
    if folder == "":  # <file>.<pid>.tmp beside a state file
        return pid_beside(name)
    if name.startswith(".") and name.endswith(".tmp"):  # pending/.<kind>-<pid>.json.tmp
        return _pid(name.rsplit("-", 1)[-1].split(".", 1)[0])
    return None


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


def left_behind(state: Path) -> bool:
    """Whether a writer left a step to settle: an intent record or a curate staging folder.

    The records of steps taken under the write lock; one listing of ``state/pending`` and
    one of ``state``.
    """
    return any(n.endswith(".json") and n.startswith(LOCKED_KINDS)
               for n in _names(state / PENDING_DIR)) or any(
        n.startswith(STAGING_PREFIX) for n in _names(state))


def anything_left(state: Path) -> bool:
    """:func:`left_behind`, or a temp file to sweep: whether ``recovery.settle`` has work."""
    return any(pid_in(key, n) is not None for folder, key in (
        (state / TMP_DIR, TMP_DIR), (state / PENDING_DIR, PENDING_DIR), (state, ""))
        for n in _names(folder)) or left_behind(state)
