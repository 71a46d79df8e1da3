"""Gaps found by the audit of ``brv vc``: each test reproduces one with real git."""

from __future__ import annotations

from pathlib import Path

from conftest import run_brv, snapshot
from vc_helpers import Member, git, in_project_app, make_member, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def test_clone_of_an_in_project_repository_is_refused_and_rolled_back(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    carol = make_member(tmp_path, "carol")
    before = snapshot(carol.root)
    result = carol.fails("vc", "clone", str(app.root))
    assert "tracks its knowledge in-project" in result.stderr
    assert "git clone" in result.stderr
    assert "brv vc init --in-project" in result.stderr
    assert snapshot(carol.root) == before
    assert not (carol.root / ".brv").exists()


def test_init_in_project_after_git_clone_builds_derived_files(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    git(tmp_path, "clone", "-q", str(app.root), "dave")
    dave = Member("dave", tmp_path / "dave")
    assert not (dave.tree / "_index.md").exists()
    dave.ok("vc", "init", "--in-project")
    assert (dave.tree / "_index.md").is_file()
    assert dave.ok("vc", "status", "--json").json()["untracked"] == []


def _bare_with_head_master(tmp_path: Path, branches: tuple[str, ...]) -> Path:
    """A bare remote whose HEAD names 'master' while only ``branches`` were pushed."""
    bare = tmp_path / "kb.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "master", str(bare))
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init")
    alice.write(ROT, "Token rotation")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    alice.ok("vc", "remote", "add", "origin", str(bare))
    for name in branches:
        alice.ok("vc", "push", "origin", name)
    return bare


def test_clone_checks_out_main_when_the_remote_head_is_missing(tmp_path: Path) -> None:
    bare = _bare_with_head_master(tmp_path, ("main",))
    bob = make_member(tmp_path, "bob")
    result = bob.ok("vc", "clone", str(bare), "--json").json()
    assert "checked out 'main'" in " ".join(result["notes"])
    assert (bob.tree / ROT).is_file()
    assert bob.git("rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert bob.git("rev-parse", "--abbrev-ref", "main@{upstream}").strip() == "origin/main"


def test_clone_with_a_missing_head_and_several_branches_is_refused(tmp_path: Path) -> None:
    bare = _bare_with_head_master(tmp_path, ("dev", "review"))
    bob = make_member(tmp_path, "bob")
    result = bob.fails("vc", "clone", str(bare))
    assert "does not exist there" in result.stderr
    assert "dev, review" in result.stderr
    assert not (bob.root / ".brv").exists()


def test_reset_hard_refreshes_derived_files(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init")
    alice.write(ROT, "Token rotation")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    alice.write("auth/jwt/signing_keys.md", "Signing keys")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "second")
    assert "signing_keys" in (alice.tree / "auth/jwt/_index.md").read_text()
    result = alice.ok("vc", "reset", "--hard", "HEAD~1", "--json").json()
    assert not (alice.tree / "auth/jwt/signing_keys.md").exists()
    assert "signing_keys" not in (alice.tree / "auth/jwt/_index.md").read_text()
    assert result["after"]["changed"] == ["auth/jwt/signing_keys.md"]


def test_pull_of_unrelated_histories_is_explained_then_allowed(team) -> None:  # noqa: F811
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


def test_commit_validates_staged_entries_without_hooks(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init", "--no-hooks")
    alice.write(ROT, "Token rotation")
    (alice.tree / "auth/jwt/broken.md").write_text("---\ntitle: [unclosed\n---\nbody\n")
    alice.ok("vc", "add")
    before = alice.git("rev-parse", "--verify", "-q", "HEAD", check=False)
    result = alice.fails("vc", "commit", "-m", "broken")
    assert "1 staged file(s) are not valid knowledge" in result.stderr
    assert "auth/jwt/broken.md" in result.stderr
    assert "no-verify" not in result.stderr
    assert alice.git("rev-parse", "--verify", "-q", "HEAD", check=False) == before
    (alice.tree / "auth/jwt/broken.md").unlink()
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "fixed")


def test_add_accepts_cwd_relative_and_repository_relative_paths(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init")
    alice.write(ROT, "Token rotation")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    alice.edit(ROT, title="Rotation")
    inside = run_brv("vc", "add", "jwt/token_rotation.md", "--json", cwd=alice.tree / "auth")
    assert inside.exit_code == 0, inside.stderr
    assert inside.json()["paths"] == [ROT]
    unchanged = alice.ok("vc", "add", ROT)  # staged already: nothing more to stage
    assert "no knowledge file matches" not in unchanged.stderr
    alice.ok("vc", "commit", "-m", "retitle")
    again = alice.ok("vc", "add", ROT)
    assert f"Unchanged (nothing to stage): {ROT}" in again.stdout


def test_add_accepts_what_git_status_prints_in_project(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, title="Rotation")
    result = app.ok("vc", "add", f".brv/context-tree/{ROT}", "--json").json()
    assert result["paths"] == [ROT]
    assert result["unchanged"] == []


def test_add_that_resolves_a_delete_modify_conflict_says_so(team) -> None:  # noqa: F811
    (team.alice.tree / ROT).unlink()
    team.alice.sync("drop rotation")
    team.bob.edit(ROT, title="Rotation, kept")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob keeps it")
    team.bob.fails("vc", "pull")
    result = team.bob.ok("vc", "add", ROT)
    assert "Staged 0 file(s)" not in result.stdout
    assert f"Marked resolved: {ROT}" in result.stdout
    team.bob.ok("vc", "merge", "--continue")


def test_hooks_install_in_a_plain_tree_repository_writes_the_exclusions(
        tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.write(ROT, "Token rotation")
    git(alice.tree, "init", "-q")
    result = alice.ok("hooks", "install", "--json").json()
    assert any("wrote .gitignore" in note for note in result["notes"])
    git(alice.tree, "add", ROT)
    git(alice.tree, "commit", "-q", "-m", "first")  # the hooks build derived files
    assert (alice.tree / "auth/jwt/_index.md").is_file()
    untracked = git(alice.tree, "status", "--porcelain", "--untracked-files=all")
    assert "_index.md" not in untracked


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


def test_status_lists_committed_conflict_markers(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init", "--no-hooks")
    alice.write(ROT, "Token rotation")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    markers = "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n"
    (alice.tree / ROT).write_text(alice.text(ROT) + markers)
    alice.git("commit", "-q", "--no-verify", "-am", "markers committed with plain git")
    status = alice.ok("vc", "status")
    assert "knowledge tree clean" not in status.stdout
    assert "Committed files with conflict markers:" in status.stdout
    assert ROT in status.stdout
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]  # cached


def test_markdown_diff_escapes_html_and_pipes_in_titles(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init")
    alice.write(ROT, "Tokens <details> & a|b")
    alice.ok("vc", "add")
    out = alice.ok("vc", "diff", "--staged", "--format", "markdown").stdout
    row = next(line for line in out.splitlines() if ROT in line and line.startswith("|"))
    assert "Tokens &lt;details&gt; &amp; a\\|b" in row
    assert "<details>" not in row


def test_committed_markers_follow_new_commits(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init", "--no-hooks")
    alice.write(ROT, "Token rotation")
    alice.write("api/errors/retry.md", "Retry")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == []
    clean = alice.text(ROT)
    (alice.tree / ROT).write_text(clean + "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n")
    alice.git("commit", "-q", "--no-verify", "-am", "markers")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]
    alice.edit("api/errors/retry.md", title="Retry policy")
    alice.git("commit", "-q", "--no-verify", "-am", "unrelated change")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == [ROT]
    (alice.tree / ROT).write_text(clean)
    alice.git("commit", "-q", "--no-verify", "-am", "fixed")
    assert alice.ok("vc", "status", "--json").json()["committed_markers"] == []
