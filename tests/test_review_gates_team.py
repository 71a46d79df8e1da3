"""Review gates the team: commit, push and plain git commit refuse pending review entries."""

from __future__ import annotations

import os
import subprocess

from dream_support import NOW
from vc_helpers import Team, git, team  # noqa: F401

from brv_vc.services import dream, review
from brv_vc.tree.project import Project


def _pending_merge(member):
    member.ok("review", "--enable")
    # the duplicate's title repeats the original's names (a subject-aware dream refuses a
    # MERGE when each title names something the other's never does: issue 37)
    member.write("auth/jwt/token_rotation_notes.md", "Token rotation notes",
                 summary="How tokens rotate",
                 tags=("auth", "jwt"), narrative="Refresh tokens rotate on every use.",
                 facts=["refresh tokens are single-use"])
    member.ok("vc", "add")
    member.ok("vc", "commit", "-m", "notes", "--include-pending")
    project = Project(member.root)
    result = dream.dream(project, NOW, force=True)
    assert [op["action"] for op in result.operations if op["action"] == "MERGE"] == ["MERGE"]
    return project


def test_commit_refused_while_pending_then_allowed_after_approval(team: Team):  # noqa: F811
    alice = team.alice
    project = _pending_merge(alice)
    alice.ok("vc", "add")
    refused = alice.fails("vc", "commit", "-m", "dream")
    assert "cannot commit: 1 change(s) waiting for review would be included" in refused.stderr
    assert "[dream/consolidate] Merged" in refused.stderr
    assert "brv review pending" in refused.stderr
    alice.ok("review", "approve", "--all")
    alice.ok("vc", "commit", "-m", "dream")
    assert review.pending(project).entries == ()


def test_push_refused_while_a_commit_carries_pending_changes(team: Team):  # noqa: F811
    alice = team.alice
    _pending_merge(alice)
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "dream", "--include-pending")
    refused = alice.fails("vc", "push")
    assert "cannot push: 1 change(s) waiting for review would be included" in refused.stderr
    remote_head = git(team.remote, "rev-parse", "main").strip()
    assert remote_head != git(alice.tree, "rev-parse", "HEAD").strip()
    alice.ok("review", "approve", "--all")
    alice.ok("vc", "push")
    assert git(team.remote, "rev-parse", "main").strip() == git(
        alice.tree, "rev-parse", "HEAD").strip()


def test_include_pending_overrides_and_disabled_review_gates_nothing(team: Team):  # noqa: F811
    alice = team.alice
    _pending_merge(alice)
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "dream", "--include-pending")
    alice.ok("vc", "push", "--include-pending")
    alice.ok("review", "--disable")
    alice.write("auth/jwt/more.md", "More", narrative="more")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "more")


def test_the_pre_commit_hook_refuses_plain_git_commit(team: Team):  # noqa: F811
    alice = team.alice
    _pending_merge(alice)
    alice.ok("hooks", "install")
    git(alice.tree, "add", "-A")
    refused = subprocess.run(["git", "commit", "-q", "-m", "dream"], cwd=alice.tree,
                             capture_output=True, text=True, check=False)
    assert refused.returncode != 0
    assert "is waiting for review: #1 [dream/consolidate] Merged" in refused.stderr
    # valid knowledge, only not approved yet: called pending, never "not valid knowledge"
    assert "brv: commit refused: 1 staged file is pending: valid knowledge, still waiting " \
           "for review" in refused.stderr
    assert "not valid knowledge" not in refused.stderr
    assert git(alice.tree, "log", "-1", "--format=%s").strip() == "notes"
    env = {**os.environ, "BRV_INCLUDE_PENDING": "1"}
    done = subprocess.run(["git", "commit", "-q", "-m", "dream"], cwd=alice.tree, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert git(alice.tree, "log", "-1", "--format=%s").strip() == "dream"


def test_in_project_commit_refuses_pending_changes_too(tmp_path):
    """The queue names tree paths; in-project the staged paths carry the tree's prefix."""
    from vc_helpers import in_project_app

    app = in_project_app(tmp_path, "auth/jwt/other.md")
    app.write("auth/jwt/token_rotation.md", "Token rotation", summary="How tokens rotate",
              tags=("auth", "jwt"), narrative="Refresh tokens rotate on every use.",
              facts=["refresh tokens are single-use"])
    app.ok("vc", "add")
    app.ok("vc", "commit", "-m", "auth: token rotation")
    _pending_merge(app)
    app.ok("vc", "add")
    head = git(app.root, "rev-parse", "HEAD").strip()
    refused = app.fails("vc", "commit", "-m", "dream")
    assert "cannot commit: 1 change(s) waiting for review would be included" in refused.stderr
    assert git(app.root, "rev-parse", "HEAD").strip() == head
    app.ok("review", "approve", "--all")
    app.ok("vc", "commit", "-m", "dream")
    assert git(app.root, "rev-parse", "HEAD").strip() != head
