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

from merged_away_support import NEW, P, T, base, changed_by_bob, changed_on_a_side, commit
from vc_helpers import Member, Team, in_project_app, standalone_member, team  # noqa: F401


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


def test_in_project_code_left_unmerged_keeps_the_merge_open(tmp_path: Any) -> None:
    """Every knowledge conflict folds, but a code file is in conflict too: the merge is not
    committed, and the code path is reported with the conflicts (exit 1)."""
    import json

    solo = in_project_app(tmp_path, "notes/misc/other.md")
    base(solo)
    commit(solo, "base")
    app = solo.root / "app.py"

    def code(text: str) -> None:
        app.write_text(text)
        solo.git("add", str(app))
        solo.git("commit", "-qm", f"code: {text.strip()}")

    main = solo.git("rev-parse", "--abbrev-ref", "HEAD").strip()
    solo.git("checkout", "-q", "-b", "side")
    code("ttl = 2\n")
    solo.git("checkout", "-q", main)
    code("ttl = 3\n")
    solo.git("checkout", "-q", "side")
    solo.ok("curate", "update", P, "--content", NEW, "--reason", "side change")
    commit(solo, "side: rollout")
    solo.git("checkout", "-q", main)
    solo.ok("curate", "merge", P, "--into", T, "--reason", "duplicates")
    commit(solo, "main: merge refunds")

    merged = solo.brv("vc", "merge", "side", "--json")
    assert merged.exit_code == 1, merged
    left = json.loads(merged.stdout)["conflicts"]
    assert [(c["path"], c["change"]) for c in left] == [("app.py", "unmerged (not knowledge)")]
    assert solo.git("rev-parse", "-q", "--verify", "MERGE_HEAD", check=False).strip()
    assert not (solo.tree / P).exists()
    assert "Zebrafish cutover windows" in solo.text(T)
