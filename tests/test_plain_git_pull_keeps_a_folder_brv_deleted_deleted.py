"""A folder brv DELETEd here (every entry under it), one of whose entries a teammate changed:
a plain ``git pull`` writes that entry back, and the post-merge hook removes it again.

Left by issue 35: the hook read only an entry's own curate-log rows, and a folder DELETE logs
one row for the folder ("deleted folder payments/ledger (4 entries)"), so the entry stayed,
back alone in a folder brv had deleted. Now the newest row about the entry or any folder
above it decides (services/vc/written_back.py), by the same rule.
"""

from __future__ import annotations

from pathlib import Path

from hooks_support import git
from written_back_support import D, P, brv_ok, change, origin_and_clone

from brv_vc.lifecycle.curate_log import recent
from brv_vc.tree import statedb


def test_a_plain_pull_keeps_a_deleted_folder_deleted(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "delete", "payments/ledger", "--reason", "obsolete")
    incoming = change(origin, P, D)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    for rel in (P, D):
        assert not (clone.tree / rel).exists(), f"git pull wrote back {rel} of the folder"
        line = next(ln for ln in pulled.stderr.splitlines() if rel in ln)
        assert f"git show {incoming[:12]}:.brv/context-tree/{rel}" in line, pulled.stderr
    assert not (clone.tree / "payments/ledger").exists()  # no folder left with nothing in it
    conn = statedb.open_state(clone)
    try:
        rows = [(r.type, r.path, r.status) for r in recent(conn, 3)]
    finally:
        conn.close()
    assert sorted(rows[:2]) == [("DELETE", D, "success"), ("DELETE", P, "success")]
    assert rows[2][:2] == ("DELETE", "payments/ledger")  # the folder DELETE itself
