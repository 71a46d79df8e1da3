"""``brv vc resolve``: a modify/delete plain git stopped on, of an entry MERGEd away on one
side, is folded into the MERGE's target; a true conflict is left (exit 1).

Issue 35's loss in the 8 x 50 run after the MCP kills were added (clone 4, ``note_4_42``): an
agent's UPDATE of an entry was in the work tree when its person ran ``git stash``; the agent
then MERGEd the entry (as HEAD had it) into another and the merge was committed; ``git stash
pop`` stopped on a modify/delete, the person kept the file, and the UPDATE never reached the
target while the MERGE's source came back. git runs no merge driver on a modify/delete, so
brv decides it when asked, for whichever operation git stopped in.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from merged_away_support import NEW, P, T, base, changed_on_a_side, commit
from vc_helpers import Member, standalone_member


def _base(member: Member) -> None:
    base(member)
    commit(member, "base")


def _unmerged(member: Member) -> str:
    return member.git("diff", "--name-only", "--diff-filter=U")


def _resolved(member: Member) -> dict[str, Any]:
    ran = member.brv("vc", "resolve", "--json")
    assert ran.exit_code == 0, ran.stdout
    out: dict[str, Any] = json.loads(ran.stdout)
    assert [(f["source"], f["target"]) for f in out["folded"]] == [(P, T)], out
    assert out["conflicts"] == []
    assert _unmerged(member) == ""
    assert not (member.tree / P).exists(), "the entry merged away came back"
    text = member.text(T)
    assert "Zebrafish cutover windows" in text, text
    assert "Refunds post a reversing entry." in text
    assert "debit and a credit" in text
    hits: Any = member.ok("search", "zebrafish cutover", "--json").json()
    assert [h["path"] for h in hits["results"]] == [T]
    return out


_UPDATE = ("update", P, "--content", NEW, "--reason", "an update")
_MERGE = ("merge", P, "--into", T, "--reason", "duplicates")


@pytest.mark.parametrize(("stashed", "committed"), [(_UPDATE, _MERGE), (_MERGE, _UPDATE)],
                         ids=["the-update-stashed", "the-merge-stashed"])
def test_a_stash_pop_stopped_on_an_entry_merged_away_on_one_side(
        tmp_path: Any, stashed: tuple[str, ...], committed: tuple[str, ...]) -> None:
    """The 8 x 50 case (the agent's UPDATE stashed, the MERGE committed: deleted by us) and
    its mirror (the MERGE in the stash, a pulled change committed: deleted by them)."""
    solo = standalone_member(tmp_path)
    _base(solo)
    solo.ok("curate", *stashed)
    solo.git("stash", "push", "-q")
    solo.ok("curate", *committed)
    commit(solo, f"{committed[0]} refunds")
    solo.git("stash", "pop", check=False)
    assert P in _unmerged(solo)  # git's modify/delete

    out = _resolved(solo)
    assert out["operation"] == "stash"
    assert "stash drop" in out["next_step"]


def test_a_plain_git_merge_stopped_on_an_entry_merged_away_on_main(tmp_path: Any) -> None:
    solo = standalone_member(tmp_path)
    _base(solo)
    changed_on_a_side(solo, "merge", P, "--into", T, "--reason", "duplicates")
    solo.git("merge", "side", check=False)
    assert P in _unmerged(solo)
    assert '"brv vc resolve" folds' in solo.ok("vc", "status").stdout  # the way out, named

    out = _resolved(solo)
    assert out["operation"] == "merge"
    solo.git("commit", "-q", "--no-edit")
    assert solo.git("status", "--porcelain") == ""


def test_a_delete_against_a_change_is_left_for_a_person(tmp_path: Any) -> None:
    solo = standalone_member(tmp_path)
    _base(solo)
    changed_on_a_side(solo, "delete", P, "--reason", "obsolete")
    solo.git("merge", "side", check=False)
    assert P in _unmerged(solo)
    before = solo.text(T)

    ran = solo.brv("vc", "resolve", "--json")
    assert ran.exit_code == 1, ran.stdout
    out = json.loads(ran.stdout)
    assert out["ok"] is False
    assert out["folded"] == []
    assert [c["path"] for c in out["conflicts"]] == [P]
    assert "by hand" in out["next_step"]
    assert P in _unmerged(solo)
    assert solo.text(T) == before


def test_nothing_in_conflict_says_so(tmp_path: Any) -> None:
    solo = standalone_member(tmp_path)
    _base(solo)
    ran = solo.brv("vc", "resolve")
    assert ran.exit_code == 0
    assert "no conflict to resolve" in ran.stdout


def test_a_stash_not_the_one_applied_is_left_alone(tmp_path: Any) -> None:
    """A ``git revert`` stopped on a modify/delete while an older, unrelated stash is kept:
    brv folds nothing on the stash's word and never advises dropping it."""
    solo = standalone_member(tmp_path)
    _base(solo)
    solo.ok("curate", "update", P, "--content", NEW, "--reason", "an update")
    commit(solo, "update refunds")
    update = solo.git("rev-parse", "HEAD").strip()
    solo.ok("curate", "merge", P, "--into", T, "--reason", "duplicates")
    commit(solo, "merge refunds")
    solo.ok("curate", "add", "payments/ledger", "--title", "Payouts", "--content",
            "## Narrative\nPayouts settle weekly.", "--reason", "unrelated")
    solo.git("stash", "push", "-q", "--include-untracked")
    stashed = solo.git("stash", "list")
    solo.git("revert", "--no-edit", update, check=False)
    assert P in _unmerged(solo)

    ran = solo.brv("vc", "resolve", "--json")
    out = json.loads(ran.stdout)
    assert ran.exit_code == 1, ran.stdout
    assert out["operation"] == "unknown"
    assert out["folded"] == []
    assert "stash" not in out["next_step"]
    assert solo.git("stash", "list") == stashed
