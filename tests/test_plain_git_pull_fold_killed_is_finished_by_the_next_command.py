"""The post-merge hook killed in the middle of re-applying brv's deletions: the next command
finishes the fold, whole, and logs each entry once.

Left by issue 35: a kill between writing a MERGE's target and removing its source (or between
two entries) left half a fold, the target holding the incoming change and the source back
beside it, and nothing retried it. The hook now records its plan first
(``.brv/state/pending/reapply-<pid>.json``) and the next process that takes the write lock
rolls it forward (services/vc/written_back.py). A real plain ``git pull`` runs brv's hooks,
in-project; the hook kills itself at each step (``BRV_FAULT_AT``, tree/fault.py).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from conftest import run_brv
from hooks_support import git, git_env
from written_back_support import D, P, T, brv_ok, change, origin_and_clone

from brv_vc.lifecycle.curate_log import recent
from brv_vc.services.vc.written_back import WRITTEN_BACK
from brv_vc.tree import statedb

INCOMING = "Refunds zebrafish cutover closes on Fridays."  # the teammate's change of P


def _records(root: Path) -> list[str]:
    return sorted(p.name for p in (root / ".brv/state/pending").glob("reapply-*.json"))


# the jobs run in path order: D (chargebacks) is removed, then P (refunds) folded into T
@pytest.mark.parametrize(("fault", "left"), [
    ("reapply-recorded", {D: True, P: True, "folded": False}),  # nothing changed yet
    ("reapply-removed:1", {D: False, P: True, "folded": False}),  # between the two entries
    ("reapply-written", {D: False, P: True, "folded": True}),  # T written, P back beside it
    ("reapply-logged", {D: False, P: False, "folded": True}),  # all done, the record left
])
def test_a_fold_killed_at_each_step_is_finished_whole_by_the_next_command(
        tmp_path: Path, fault: str, left: dict[str, bool]) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")  # neither staged
    incoming = change(origin, P, D)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root, env=git_env(BRV_FAULT_AT=fault))

    assert "git wrote back" not in pulled.stderr, pulled.stderr  # killed before its report
    assert len(_records(clone.root)) == 1
    assert (clone.tree / D).exists() == left[D]
    assert (clone.tree / P).exists() == left[P]
    assert (INCOMING in (clone.tree / T).read_text()) == left["folded"]

    found = run_brv("search", "refunds zebrafish cutover", "--json", cwd=clone.root)

    assert found.exit_code == 0, found
    notes = [line for line in found.stderr.splitlines() if "killed post-merge hook" in line]
    for rel in (P, D):  # the report the killed hook never gave, naming the incoming text
        assert any(f"git wrote back {rel}," in line
                   and f"git show {incoming[:12]}:.brv/context-tree/{rel}" in line
                   for line in notes), found.stderr
    assert _records(clone.root) == []
    assert not (clone.tree / P).exists()
    assert not (clone.tree / D).exists()
    text = (clone.tree / T).read_text()
    assert text.count(INCOMING) == 1, text
    assert "Refunds are posted by the ledger." in text
    result: Any = found.json()
    assert [hit["path"] for hit in result["results"]] == [T]
    conn = statedb.open_state(clone)
    try:
        rows = [(r.type, r.path, r.status) for r in recent(conn, 10) if r.reason == WRITTEN_BACK]
    finally:
        conn.close()
    assert sorted(rows) == [("DELETE", D, "success"), ("MERGE", P, "success")]  # once each


@pytest.mark.parametrize("clear", ["by hand", "brv vc recover"])
def test_the_lock_a_killed_fold_left_is_cleared_and_the_next_pull_folds_again(
        tmp_path: Path, clear: str) -> None:
    """The killed hook held git's ``index.lock``: it stays, as a killed git's would, and git
    refuses until it goes. Removed by hand (git's own advice), no brv command runs before the
    next plain pull: its hook finishes the killed fold first, then that pull's change is
    folded too. ``brv vc recover`` finishes the fold as it removes the lock."""
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    change(origin, P)
    time.sleep(1.1)  # the log's times are in seconds: the pull comes after the teammate's
    git("pull", "-q", "--no-rebase", cwd=clone.root,
        env=git_env(BRV_FAULT_AT="reapply-written"))
    assert (clone.tree / P).exists()
    assert INCOMING in (clone.tree / T).read_text()
    lock = clone.root / ".git/index.lock"
    assert lock.exists()
    brv_ok(origin.root, "curate", "update", P, "--content",
           "## Audit\nRefunds quokka ledger audit runs monthly.", "--reason", "teammate")
    git("add", "-A", cwd=origin.root)
    git("commit", "-qm", "teammate: audit", cwd=origin.root)
    second = git("rev-parse", "HEAD", cwd=origin.root).stdout.strip()
    if clear == "by hand":
        lock.unlink()
    else:
        time.sleep(1.1)  # recover calls a lock stale once it is a second old
        brv_ok(clone.root, "vc", "recover")
        assert not (clone.tree / P).exists()

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert _records(clone.root) == [], pulled.stderr
    assert not (clone.tree / P).exists(), pulled.stderr
    text = (clone.tree / T).read_text()
    assert text.count(INCOMING) == 1, text
    assert "Refunds quokka ledger audit runs monthly." in text
    assert f"git show {second[:12]}:.brv/context-tree/{P}" in pulled.stderr
