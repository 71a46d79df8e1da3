"""The intent record of the post-merge hook's fold holds no entry's text for a DELETE: a hash.

Left by the kill-safe fold: each step recorded its source's whole incoming text, a DELETE's
too, so a folder DELETE of many entries that a pull wrote back put every one of them in
``.brv/state/pending/reapply-<pid>.json``. A DELETE needs no text to be finished, only a
check that the file is still the one the hook meant to remove: a hash of it
(services/vc/written_back.py). A real plain ``git pull`` runs brv's hooks, in-project, and the
hook is killed once its record is written (``BRV_FAULT_AT``).
"""

from __future__ import annotations

import json
from pathlib import Path

from hooks_support import git, git_env
from written_back_support import D, E, P, T, brv_ok, change, origin_and_clone


def test_a_folder_deletes_record_names_its_entries_without_their_text(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "delete", "payments/ledger", "--reason", "obsolete")
    change(origin, P, D, E, T)

    git("pull", "-q", "--no-rebase", cwd=clone.root,
        env=git_env(BRV_FAULT_AT="reapply-recorded"))

    [record] = (clone.root / ".brv/state/pending").glob("reapply-*.json")
    text = record.read_text()
    data = json.loads(text)
    assert sorted(step["source"] for step in data["folds"]) == sorted([P, D, E, T])
    for words in ("zebrafish", "are posted by the ledger", "title:"):
        assert words not in text, text
    assert all(step["target"] == "" and len(step["hash"]) == 64 for step in data["folds"])

    (clone.root / ".git/index.lock").unlink()  # the killed hook's, as git's advice says
    brv_ok(clone.root, "search", "zebrafish cutover")

    assert list(record.parent.glob("reapply-*.json")) == []
    assert not (clone.tree / "payments/ledger").exists()
