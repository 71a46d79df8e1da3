"""An entry brv deleted here and a person put back (``git restore``) before a plain ``git pull``
that changes it: the post-merge hook keeps it, once a brv command that reads the index has
seen it back.

The curate log alone says "brv removed it, not committed": the post-merge rule would remove
it again, and the person's restore would be undone. Each removal drops the entry's row from
brv's index, and every brv command that reads the index (search, query, an agent's read)
brings it in step with the tree first, so an entry the index holds again was put back and
seen: the hook leaves it (with the pull's change). With no such command between the restore
and the pull nothing on disk tells the two apart; the entry is then removed again as before (tests/test_plain_git_pull_keeps_entries_brv_deleted.py).
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from hooks_support import git
from written_back_support import D, P, T, brv_ok, change, origin_and_clone, pull_keeps


def test_a_deleted_entry_restored_and_seen_is_kept_by_the_pull(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    time.sleep(1.1)  # the log's times are whole seconds; a person restores later than that
    git("restore", f".brv/context-tree/{D}", cwd=clone.root)  # the person keeps it after all
    brv_ok(clone.root, "search", "chargebacks")  # an agent's read: the index sees it back
    change(origin, D)

    pull_keeps(clone, D)


def test_a_merged_away_entry_restored_and_seen_is_kept_by_the_pull(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    time.sleep(1.1)
    git("restore", f".brv/context-tree/{P}", cwd=clone.root)  # the target keeps its fold
    brv_ok(clone.root, "query", "refunds")  # an agent asks: the index sees it back
    change(origin, P)

    pull_keeps(clone, P)
    assert "zebrafish" not in (clone.tree / T).read_text()


def test_a_deleted_entry_no_command_saw_back_is_removed_again(tmp_path: Path) -> None:
    """No brv command between the removal and the pull: the log's rule alone decides."""
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    brv_ok(clone.root, "search", "chargebacks")  # seen gone
    change(origin, D)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert not (clone.tree / D).exists(), pulled.stderr
    assert D in pulled.stderr


def test_a_row_of_the_removed_file_not_yet_dropped_is_no_restore(tmp_path: Path) -> None:
    """A dream drops its removals' rows in batches: a row still there, read from the file brv
    removed (older than the removal), does not count as the entry put back."""
    origin, clone = origin_and_clone(tmp_path)
    state = clone.root / ".brv" / "state"
    kept = tmp_path / "index-before"
    kept.mkdir()
    for name in ("index.db", "index.db-wal", "index.db-shm"):
        if (state / name).exists():
            shutil.copy2(state / name, kept / name)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    time.sleep(1.1)
    for name in ("index.db", "index.db-wal", "index.db-shm"):
        (state / name).unlink(missing_ok=True)
        if (kept / name).exists():
            shutil.copy2(kept / name, state / name)  # the row of D as it was before
    change(origin, D)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert not (clone.tree / D).exists(), pulled.stderr
    assert D in pulled.stderr


def test_a_restore_no_command_saw_is_removed_again(tmp_path: Path) -> None:
    """The limit the docs name: restored by hand, no brv command before the pull; nothing on
    disk tells it from an entry git wrote back."""
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    time.sleep(1.1)
    git("restore", f".brv/context-tree/{D}", cwd=clone.root)
    change(origin, D)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert not (clone.tree / D).exists(), pulled.stderr
    assert D in pulled.stderr


def test_an_index_read_during_the_pull_is_no_restore(tmp_path: Path) -> None:
    """An agent's search between git's write and the hook (here a legacy post-merge hook, which
    runs first) indexes the entry as the pull wrote it: other bytes than HEAD's, no restore."""
    origin, clone = origin_and_clone(tmp_path)
    legacy = clone.root / ".git" / "hooks" / "post-merge.legacy"
    legacy.write_text(f"#!/bin/sh\n{sys.executable} -m brv_vc search chargebacks >/dev/null\n")
    legacy.chmod(0o755)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    time.sleep(1.1)  # the pull writes the entry in a later second than its removal
    change(origin, D)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert not (clone.tree / D).exists(), pulled.stderr
    assert D in pulled.stderr
