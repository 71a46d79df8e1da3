"""SQLite databases under ``.brv/state/`` (per machine, never synced, never in the tree).

Two files, on purpose:
- ``brv.db`` holds state that is *not* derived and must survive any rebuild: the scoring
  sidecar, work queues and the curate log. Back it up; never delete it.
- ``index.db`` holds what is derived (search index, reference index, query cache). It can be
  deleted at any time and ``brv index --rebuild`` makes it again; a corrupted one is rebuilt.
Keeping them apart means a corrupted or dropped index can never take the sidecar with it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from brv_vc.errors import StateError
from brv_vc.tree.project import Project

STATE_DB = "brv.db"
INDEX_DB = "index.db"
# Ignores the folder's whole content, itself included, from inside: state can then never be
# tracked, in any mode or clone, whatever the project's own .gitignore says (pytest does the
# same for .pytest_cache).
STATE_GITIGNORE = "# brv: per-machine state, never committed (written by brv)\n*\n"


def ensure_state_dir(folder: Path) -> None:
    """Creates a state folder (``.brv/state/``) with its self-ignoring ``.gitignore``.

    Trigger: every database open and every other write into the state folder. Why: a
    teammate's clone of an in-project repository has no state yet, and plain ``git add -A``
    must never pick it up. Outcome: one stat when the file exists; a read-only folder is
    left as it is (opening the database reports that problem).
    """
    marker = folder / ".gitignore"
    if marker.exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with open(marker, "x", encoding="utf-8") as out:
            out.write(STATE_GITIGNORE)
    except OSError:  # written meanwhile by another process, or a read-only folder
        pass


def connect(path: Path) -> sqlite3.Connection:
    """Opens a SQLite database in WAL mode with a busy timeout, creating its folder."""
    ensure_state_dir(path.parent)
    conn = sqlite3.connect(str(path), timeout=10.0, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def open_state(project: Project) -> sqlite3.Connection:
    """Opens ``.brv/state/brv.db`` (the non-derived state).

    Raises:
        StateError: the file is damaged or is not a database. Unlike the index it cannot be
            rebuilt from the tree, so brv never replaces it on its own.
    """
    path = project.state / STATE_DB
    try:
        return connect(path)
    except (sqlite3.DatabaseError, OSError) as exc:
        from brv_vc.tree.diskerrors import disk_error

        disk = disk_error(exc, project.root)  # a full or read-only disk: not a damaged file
        if disk is not None:
            raise disk from None
        raise StateError(
            f"the state database is unreadable ({exc}); it holds the scoring signals, work "
            "queues and curate log, which cannot be rebuilt from the tree",
            file=".brv/state/brv.db",
            hint="restore it from a backup, or move it aside to start again with default "
                 "scores: mv .brv/state/brv.db .brv/state/brv.db.broken",
        ) from None


def index_db_path(project: Project) -> Path:
    """Returns the path of ``.brv/state/index.db`` (the derived index)."""
    return project.state / INDEX_DB
