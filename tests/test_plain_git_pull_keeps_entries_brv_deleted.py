"""A plain ``git pull`` that writes back an entry brv deleted here: the post-merge hook removes
it again (a MERGE's source folded into its target first), and says so.

Issue 35's in-project loss of the 8 x 50 run (``note_4_29``): an agent MERGEd an entry away
(deleted in the work tree, not staged), then a person's plain ``git pull`` fast-forwarded to
a teammate's change of it and git wrote the file back, exit 0 (git reads a missing tracked
file as unchanged; no hook runs before a merge writes). ``brv vc pull`` refuses that pull
(12fe355); plain git cannot be stopped, so post-merge re-applies what the curate log says
brv did after the pre-pull commit. An entry whose deletion was committed and then undone by
a later commit is the team's choice: it is not deleted again.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from conftest import run_brv
from hooks_support import git
from written_back_support import D, E, P, T, brv_ok, change, origin_and_clone, pull_keeps

from brv_vc.lifecycle.curate_log import recent
from brv_vc.tree import statedb


def test_a_plain_pull_keeps_a_merged_away_and_a_deleted_entry_deleted(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")  # neither staged
    incoming = change(origin, P, D)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert not (clone.tree / P).exists(), "git pull wrote back the entry merged away"
    assert not (clone.tree / D).exists(), "git pull wrote back the deleted entry"
    text = (clone.tree / T).read_text()
    assert "Refunds zebrafish cutover closes on Fridays." in text, text  # the incoming change
    assert "Refunds are posted by the ledger." in text
    for rel in (P, D):
        line = next(ln for ln in pulled.stderr.splitlines() if rel in ln)
        assert f"git show {incoming[:12]}:.brv/context-tree/{rel}" in line, pulled.stderr
    found: Any = run_brv("search", "refunds zebrafish cutover", "--json", cwd=clone.root).json()
    assert [hit["path"] for hit in found["results"]] == [T]
    conn = statedb.open_state(clone)
    try:
        rows = [(r.type, r.path) for r in recent(conn, 2)]
    finally:
        conn.close()
    assert sorted(rows) == [("DELETE", D), ("MERGE", P)]


def test_a_deletion_committed_then_restored_is_not_deleted_again(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "delete", E, "--reason", "obsolete")
    git("add", "-A", cwd=clone.root)
    git("commit", "-qm", "delete disputes", cwd=clone.root)
    git("checkout", "HEAD~1", "--", f".brv/context-tree/{E}", cwd=clone.root)
    git("commit", "-qm", "restore disputes", cwd=clone.root)
    change(origin, E)

    pulled = git("pull", "-q", "--no-rebase", "--no-edit", cwd=clone.root)

    assert (clone.tree / E).is_file(), pulled.stderr
    assert "Disputes zebrafish cutover" in (clone.tree / E).read_text()
    assert E not in pulled.stderr


def test_a_merge_undone_since_is_not_applied_again(tmp_path: Path) -> None:
    """An interrupted dream's MERGE is rolled back and logged ``undone`` after its success
    row: the entry is there on purpose, and a pull that changes it leaves it so."""
    from brv_vc.clock import format_iso, utcnow
    from brv_vc.lifecycle.curate_log import LogRow, append

    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    git("checkout", "--", f".brv/context-tree/{P}", f".brv/context-tree/{T}", cwd=clone.root)
    conn = statedb.open_state(clone)
    try:
        append(conn, [LogRow(format_iso(utcnow()), "MERGE", P, "undone", "dream",
                             f"undone: the dream operation merging it into {T}")])
    finally:
        conn.close()
    change(origin, P)

    pull_keeps(clone, P)
    assert "zebrafish" not in (clone.tree / T).read_text()


def test_a_second_pull_before_any_commit_folds_again(tmp_path: Path) -> None:
    """The hook's own removal is a removal: a second plain pull that changes the entry again,
    before anything was committed, folds that change too."""
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    change(origin, P)
    time.sleep(1.1)  # the log's times are in seconds: the pull comes after the teammate's
    git("pull", "-q", "--no-rebase", cwd=clone.root)  # commit, as it does between people
    assert not (clone.tree / P).exists()
    brv_ok(origin.root, "curate", "update", P, "--content",
         "## Audit\nRefunds quokka ledger audit runs monthly.", "--reason", "teammate")
    git("add", "-A", cwd=origin.root)
    git("commit", "-qm", "teammate: audit", cwd=origin.root)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert not (clone.tree / P).exists(), pulled.stderr
    text = (clone.tree / T).read_text()
    assert "Refunds zebrafish cutover closes on Fridays." in text
    assert "Refunds quokka ledger audit runs monthly." in text


def test_a_merge_put_back_without_a_log_row_is_left_alone(tmp_path: Path) -> None:
    """A MERGE undone by a reset (no curate-log row says so): the target no longer holds the
    entry, so the pull that changes the entry leaves it where the person put it back."""
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    git("checkout", "--", f".brv/context-tree/{P}", f".brv/context-tree/{T}", cwd=clone.root)
    change(origin, P)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert (clone.tree / P).is_file(), pulled.stderr
    assert "Refunds zebrafish cutover" in (clone.tree / P).read_text()
    assert "zebrafish" not in (clone.tree / T).read_text()
