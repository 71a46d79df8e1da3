"""brv vc pull: unrelated histories, a branch with no commits yet, code changes in the way
(in-project), and the usage lines of pull and push."""

from __future__ import annotations

from pathlib import Path

import vc_helpers
from conftest import snapshot
from vc_helpers import Member, git, in_project_app, make_member

ROT = "auth/jwt/token_rotation.md"

team = vc_helpers.team


def test_pull_of_unrelated_histories_is_explained_then_allowed(team) -> None:
    carol = make_member(team.remote.parent, "carol")
    carol.ok("vc", "init")
    carol.write("api/errors/retry_policy.md", "Retry policy")
    carol.ok("vc", "add")
    carol.ok("vc", "commit", "-m", "carol's own history")
    carol.ok("vc", "remote", "add", "origin", str(team.remote))
    before = snapshot(carol.root)
    refused = carol.fails("vc", "pull", "origin", "main")
    assert "histories are unrelated" in refused.stderr
    assert "no merge base" not in refused.stderr
    assert "brv vc pull --allow-unrelated-histories origin main" in refused.stderr
    assert snapshot(carol.root) == before
    pulled = carol.ok("vc", "pull", "--allow-unrelated-histories", "origin", "main", "--json")
    assert pulled.json()["conflicts"] == []
    assert (carol.tree / ROT).is_file()
    assert (carol.tree / "api/errors/retry_policy.md").is_file()
    assert len(carol.git("rev-list", "--parents", "-n1", "HEAD").split()) == 3


def test_pull_blocked_by_dirty_code_points_at_git(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(bare))
    git(tmp_path, "clone", "-q", str(bare), "bob")
    bob = Member("bob", tmp_path / "bob")
    bob.ok("vc", "init", "--in-project")
    git(app.root, "remote", "add", "origin", str(bare))
    (app.root / "app.py").write_text("print('v2')\n")
    git(app.root, "commit", "-q", "-am", "code v2")
    git(app.root, "push", "-q", "-u", "origin", "HEAD")
    (bob.root / "app.py").write_text("print('local edit')\n")
    refused = bob.fails("vc", "pull")
    assert "app.py" in refused.stderr
    assert "commit or stash the code files with git" in refused.stderr
    assert "brv vc add" not in refused.stderr


def test_pull_into_an_empty_branch_says_what_happened(tmp_path: Path) -> None:
    from vc_helpers import start_team

    team = start_team(tmp_path)
    carol = make_member(tmp_path, "carol")
    carol.ok("vc", "init")
    carol.ok("vc", "remote", "add", "origin", str(team.remote))
    out = carol.ok("vc", "pull", "origin", "main").stdout
    sha = team.alice.git("rev-parse", "--short=7", "HEAD").strip()
    assert "nothing" not in out
    assert out.splitlines()[0] == (f"Branch had no commits; now at {sha} "
                                   "(from branch 'main' of origin)")


def test_pull_and_push_usage_show_branch_as_optional(tmp_path: Path) -> None:
    solo = make_member(tmp_path, "solo")
    for command in ("pull", "push"):
        usage = solo.ok("vc", command, "--help").stdout.splitlines()[0]
        assert usage.endswith("[REMOTE] [BRANCH]"), usage
