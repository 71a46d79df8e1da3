"""An entry that was the target of a MERGE here, changed by a teammate and pulled with plain git,
stays where it is: the post-merge hook does not read it as that MERGE's source.

Left by the hook's first rule: each curate-log row was filed under every word of its message,
so the target T's newest row was "merged P into T" (a row about P), read as a MERGE of that
row's path away, whose target is T: the hook folded T into itself and removed it. Now a row
is read about the path it was found under (the entry or a folder above it:
services/vc/written_back.py). Here the person discarded the agent's MERGE (``git checkout``),
so T is clean and the pull writes the teammate's change into it.
"""

from __future__ import annotations

from pathlib import Path

from hooks_support import git
from written_back_support import P, T, brv_ok, change, origin_and_clone


def test_a_merge_target_a_teammate_changed_stays_after_a_plain_pull(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    git("checkout", "--", ".brv/context-tree", cwd=clone.root)  # the MERGE discarded
    change(origin, T)

    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)

    assert (clone.tree / T).is_file(), pulled.stderr
    text = (clone.tree / T).read_text()
    assert "Double_entry zebrafish cutover closes on Fridays." in text, text
    assert (clone.tree / P).is_file()
    assert "git wrote back" not in pulled.stderr, pulled.stderr
    assert git("status", "--porcelain", cwd=clone.root).stdout == ""
