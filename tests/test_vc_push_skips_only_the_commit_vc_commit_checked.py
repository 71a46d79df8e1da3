"""vc push does not check again the one commit vc commit checked, onto the remote's tip; any
other commit (amended, added by plain git, another tree than the one checked) is checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from vc_helpers import Team, team, traced_gits  # noqa: F401

from brv_vc import __version__
from brv_vc.vc import git_checked

ROT = "auth/jwt/token_rotation.md"
CONFLICTED = ("---\ntitle: Token rotation\n---\n<<<<<<< ours\nRotate daily.\n=======\n"
              "Rotate weekly.\n>>>>>>> theirs\n")


def _diffed(team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
            *push: str) -> tuple[bool, str]:
    """(whether the push ran a git diff, its stderr) of ``vc push`` by alice."""
    trace = tmp_path / "trace"
    trace.unlink(missing_ok=True)
    monkeypatch.setenv("GIT_TRACE", str(trace))
    done = team.alice.brv("vc", "push", *push)
    monkeypatch.delenv("GIT_TRACE")
    ran = [cmd.split()[0] for cmd in traced_gits(trace)]
    return "diff" in ran, done.stderr


def test_a_commit_amended_with_markers_after_vc_commit_is_checked(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    alice = team.alice
    alice.edit(ROT, summary="checked")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "checked")
    assert git_checked.checked(alice.tree / ".git") is not None
    (alice.tree / ROT).write_text(CONFLICTED)
    alice.git("commit", "-q", "--no-verify", "--amend", "-am", "amended")
    diffed, stderr = _diffed(team, tmp_path, monkeypatch)
    assert diffed
    assert f"cannot push: conflict markers remain in {ROT}" in stderr


def test_the_record_counts_only_for_its_commit_on_its_parent(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    alice = team.alice
    alice.edit(ROT, summary="checked")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "checked")
    head = alice.git("rev-parse", "HEAD").strip()
    record = alice.tree / ".git" / git_checked.RECORD
    parent = alice.git("rev-parse", "HEAD~1").strip()
    assert record.read_text(encoding="ascii").split() == [head, parent, __version__]
    record.write_text(f"{head} {parent} 0.0.1\n", encoding="ascii")  # another brv checked it
    assert git_checked.checked(alice.tree / ".git") is None
    record.write_text(f"{head} {'1' * 40} {__version__}\n", encoding="ascii")  # another parent
    diffed, _ = _diffed(team, tmp_path, monkeypatch)
    assert diffed
    assert alice.git("rev-parse", "HEAD") == alice.git("rev-parse", "origin/main")


def test_a_commit_whose_tree_is_not_the_one_checked_is_not_recorded(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A legacy pre-commit hook stages one more (valid) entry: the hook judged that tree."""
    alice = team.alice
    hooks = alice.tree / ".git" / "hooks"
    legacy = hooks / "pre-commit.legacy"
    legacy.write_text("#!/bin/sh\ncp auth/jwt/token_rotation.md auth/jwt/late_copy.md\n"
                      "git add auth/jwt/late_copy.md\n", encoding="utf-8")
    legacy.chmod(0o755)
    alice.edit(ROT, summary="checked")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "checked")
    assert "auth/jwt/late_copy.md" in alice.git("show", "--name-only", "--format=", "HEAD")
    assert git_checked.checked(alice.tree / ".git") is None
    diffed, _ = _diffed(team, tmp_path, monkeypatch)
    assert diffed


def test_the_commit_vc_commit_checked_is_pushed_without_a_diff(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    alice = team.alice
    alice.edit(ROT, summary="checked")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "checked")
    diffed, _ = _diffed(team, tmp_path, monkeypatch)
    assert not diffed
    assert alice.git("rev-parse", "HEAD") == alice.git("rev-parse", "origin/main")
