"""brv vc checkout: what it says when switching, and when already on the branch."""

from __future__ import annotations

from pathlib import Path

from vc_helpers import standalone_member


def test_checkout_of_the_current_branch_says_already_on(tmp_path: Path) -> None:
    solo = standalone_member(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "one")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    assert solo.ok("vc", "checkout", "main").stdout.strip() == "Already on 'main'"
    assert solo.ok("vc", "checkout", "main", "--json").json()["switched"] is False
    solo.ok("vc", "branch", "other")
    assert solo.ok("vc", "checkout", "other").stdout.startswith("Switched to branch 'other'")
