"""A new branch is checked from where it leaves the remote it is pushed to: another remote's
branches (a vendor's, never checked on their way here) do not vouch for their commits."""

from __future__ import annotations

import subprocess
from pathlib import Path

from vc_helpers import Team, team  # noqa: F401

CONFLICTED = ("---\ntitle: Token rotation\n---\n<<<<<<< ours\nRotate daily.\n=======\n"
              "Rotate weekly.\n>>>>>>> theirs\n")


def _feature_on_a_vendor_branch(team: Team, tmp_path: Path) -> None:  # noqa: F811
    """alice's 'feature' forks from a commit with markers that only the 'other' remote has."""
    alice = team.alice
    other = tmp_path / "other.git"
    subprocess.run(["git", "init", "-q", "--bare", str(other)], check=True)
    alice.git("remote", "add", "other", str(other))
    alice.git("checkout", "-q", "-b", "vendor")
    (alice.tree / "auth/jwt/old.md").write_text(CONFLICTED)
    alice.git("add", "-A")
    alice.git("commit", "-q", "--no-verify", "-m", "markers, on another remote only")
    alice.git("push", "-q", "--no-verify", "other", "vendor")
    alice.git("checkout", "-q", "-b", "feature")
    alice.write("auth/jwt/new.md", "New", summary="new")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "new")


def test_brv_vc_push_refuses_markers_another_remote_brought(team: Team,  # noqa: F811
                                                             tmp_path: Path) -> None:
    _feature_on_a_vendor_branch(team, tmp_path)
    refused = team.alice.fails("vc", "push", "-u")
    assert "conflict markers remain in auth/jwt/old.md" in refused.stderr
    heads = team.alice.git("ls-remote", "--heads", "origin")
    assert "refs/heads/feature" not in heads


def test_the_pre_push_hook_refuses_them_for_a_plain_git_push(team: Team,  # noqa: F811
                                                             tmp_path: Path) -> None:
    _feature_on_a_vendor_branch(team, tmp_path)
    pushed = subprocess.run(["git", "push", "-q", "origin", "feature"], cwd=team.alice.tree,
                            capture_output=True, text=True, check=False)
    assert pushed.returncode != 0
    assert "auth/jwt/old.md" in pushed.stderr
    assert "refs/heads/feature" not in team.alice.git("ls-remote", "--heads", "origin")


def test_a_branch_forked_from_the_remote_s_own_line_is_checked_from_the_fork(
        team: Team) -> None:  # noqa: F811
    """What origin has was checked on its way there: only the fork's change is read."""
    alice = team.alice
    alice.git("checkout", "-q", "-b", "topic")
    alice.write("auth/jwt/topic.md", "Topic", summary="topic")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "topic")
    assert "Pushed to origin/topic" in alice.ok("vc", "push", "-u").stdout
