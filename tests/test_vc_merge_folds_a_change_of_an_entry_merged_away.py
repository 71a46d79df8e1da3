"""An entry MERGEd away on one side and changed on the other: ``brv vc merge/pull`` fold the
change into the MERGE's target, and the entry stays deleted.

Issue 35's standalone loss of the 8 x 50 run (``note_2_29``): on a side branch an agent
changed an entry, on main it was MERGEd into another; ``brv vc merge`` of the branch met a
modify/delete conflict, and either answer dropped one of two reported writes. Now the target
(the one entry the deleting side changed that already holds the entry's base version, by the
MERGE rule) receives the branch's change, the entry is removed, and the merge is committed as
a clean one; the index finds the new text in the target. A DELETE has no target: the
conflict stays, a true one.
"""

from __future__ import annotations

from typing import Any

from merged_away_support import P, T, base, changed_by_bob, changed_on_a_side, commit
from vc_helpers import Member, Team, standalone_member, team  # noqa: F401


def _found_in(member: Member, query: str) -> list[str]:
    hits: Any = member.ok("search", query, "--json").json()
    return [hit["path"] for hit in hits["results"]]


def _folded(member: Member) -> None:
    assert not (member.tree / P).exists(), "the entry merged away came back"
    text = member.text(T)
    assert "Zebrafish cutover windows" in text, text
    assert "Refunds post a reversing entry." in text
    assert "debit and a credit" in text
    assert member.git("status", "--porcelain") == ""
    assert len(member.git("rev-list", "--parents", "-1", "HEAD").split()) == 3  # a merge commit
    assert P not in member.git("ls-files")
    assert _found_in(member, "zebrafish cutover") == [T]


def test_a_branch_change_of_an_entry_merged_away_on_main_is_folded(tmp_path: Any) -> None:
    solo = standalone_member(tmp_path)
    base(solo)
    commit(solo, "base")
    changed_on_a_side(solo, "merge", P, "--into", T, "--reason", "duplicates")

    merged = solo.brv("vc", "merge", "side")
    assert merged.exit_code == 0, merged
    _folded(solo)


def test_a_pulled_merge_of_an_entry_changed_here_is_folded(team: Team) -> None:  # noqa: F811
    bob = changed_by_bob(team, "merge", P, "--into", T, "--reason", "duplicates")

    pulled = bob.brv("vc", "pull")  # modify/delete, deleted by them: the fold resolves it
    assert pulled.exit_code == 0, pulled
    _folded(bob)


def test_a_delete_against_a_change_stays_a_conflict(team: Team) -> None:  # noqa: F811
    bob = changed_by_bob(team, "delete", P, "--reason", "gone")

    pulled = bob.brv("vc", "pull")
    assert pulled.exit_code == 1, pulled
    assert P in bob.git("diff", "--name-only", "--diff-filter=U")
    assert "Zebrafish" not in bob.text(T)
