"""Bad input: clear message (what, where, what next), exit 1, nothing changed on disk."""

from __future__ import annotations

from pathlib import Path

import vc_helpers
from conftest import snapshot
from vc_helpers import Member, Team, free_port, git, make_member

ROT = "auth/jwt/token_rotation.md"

team = vc_helpers.team


def _unchanged(member: Member, *args: str, code: int = 1) -> dict:
    before = snapshot(member.root)
    head = member.git("rev-parse", "--verify", "-q", "HEAD", check=False)
    result = member.fails(*args, "--json", code=code)
    assert snapshot(member.root) == before
    assert member.git("rev-parse", "--verify", "-q", "HEAD", check=False) == head
    error = result.json()["error"]
    assert error["message"]
    assert error["hint"]
    return error


def test_unknown_refs(team: Team) -> None:
    for args in (("vc", "diff", "nosuch"), ("vc", "diff", "HEAD..nosuch"),
                 ("vc", "merge", "nosuch"), ("vc", "log", "nosuch"),
                 ("vc", "checkout", "nosuch"), ("vc", "reset", "--hard", "nosuch")):
        error = _unchanged(team.alice, *args)
        assert "nosuch" in error["message"], args
    assert "three-dot" in _unchanged(team.alice, "vc", "diff", "a...b", code=2)["message"]


def test_no_remote(tmp_path: Path) -> None:
    solo = make_member(tmp_path, "solo")
    solo.ok("vc", "init")
    solo.write(ROT, "Rotation")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "first")
    for command in ("push", "pull", "fetch"):
        error = _unchanged(solo, "vc", command)
        assert error["message"] == "no remote configured"
        assert "brv vc remote add origin" in error["hint"]


def test_no_commits_and_nothing_staged(tmp_path: Path) -> None:
    solo = make_member(tmp_path, "solo")
    solo.ok("vc", "init")
    assert "no commits yet" in _unchanged(solo, "vc", "push")["message"]
    assert "nothing to commit" in _unchanged(solo, "vc", "commit", "-m", "x")["message"]


def test_no_upstream(team: Team) -> None:
    team.alice.ok("vc", "checkout", "-b", "topic")
    error = _unchanged(team.alice, "vc", "pull")
    assert "has no upstream" in error["message"]
    assert "brv vc pull origin" in error["hint"]
    error = _unchanged(team.alice, "vc", "push")
    assert "has no upstream branch" in error["message"]
    assert "push -u" in error["hint"]
    team.alice.ok("vc", "push", "-u")
    assert "topic" in git(team.remote, "branch")


def test_unreachable_remote(team: Team) -> None:
    url = f"git://127.0.0.1:{free_port()}/nothing.git"
    team.alice.ok("vc", "remote", "set-url", "origin", url)
    team.alice.write("auth/jwt/new.md", "New")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "new")
    for command in ("fetch", "pull", "push"):
        error = _unchanged(team.alice, "vc", command)
        assert "cannot be reached" in error["message"], command
        assert "check the URL" in error["hint"]


def test_clone_of_a_missing_repository_leaves_nothing(tmp_path: Path) -> None:
    carol = make_member(tmp_path, "carol")
    result = carol.fails("vc", "clone", str(tmp_path / "missing.git"))
    assert "cannot be reached" in result.stderr
    assert list(carol.root.iterdir()) == []  # not even .brv/
    carol.ok("init")
    before = snapshot(carol.root)
    carol.fails("vc", "clone", str(tmp_path / "missing.git"))
    assert snapshot(carol.root) == before
    assert carol.tree.is_dir()


def test_init_in_project_outside_a_repository_creates_nothing(tmp_path: Path) -> None:
    lone = make_member(tmp_path, "lone")
    error = lone.fails("vc", "init", "--in-project", "--json").json()["error"]
    assert "not inside a git repository" in error["message"]
    assert "git init" in error["hint"]
    assert list(lone.root.iterdir()) == []


def test_conflict_markers_block_commit(team: Team) -> None:
    text = (team.alice.tree / ROT).read_text()
    (team.alice.tree / ROT).write_text(
        text + "\n<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs\n")
    team.alice.ok("vc", "add")
    error = _unchanged(team.alice, "vc", "commit", "-m", "with markers")
    assert error["message"] == f"cannot commit: conflict markers remain in {ROT}"
    assert error["file"] == ROT


def test_a_setext_rule_is_not_a_conflict_marker(team: Team) -> None:
    text = (team.alice.tree / ROT).read_text()
    (team.alice.tree / ROT).write_text(text + "\nHeading\n=======\n")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "setext heading")
    assert team.alice.ok("vc", "status", "--json").json()["markers"] == []


def test_missing_identity_gives_gits_problem_and_the_hint(team: Team, isolated_machine: Path,
                                                          monkeypatch) -> None:
    config = isolated_machine / "no-identity.gitconfig"
    config.write_text("[user]\n\tuseConfigOnly = true\n[init]\n\tdefaultBranch = main\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    team.alice.edit(ROT, title="Changed")
    team.alice.ok("vc", "add")
    error = _unchanged(team.alice, "vc", "commit", "-m", "who am i")
    assert "git does not know who you are" in error["message"]
    assert 'git config --global user.email "you@example.com"' in error["hint"]


def test_not_under_version_control(project) -> None:
    member = Member("p", project.root)
    error = _unchanged(member, "vc", "status")
    assert "not under version control" in error["message"]
    assert "brv vc init" in error["hint"]


def test_remote_errors(team: Team) -> None:
    assert "already exists" in _unchanged(team.alice, "vc", "remote", "add", "origin", "x")[
        "message"]
    assert "no remote named 'up'" in _unchanged(team.alice, "vc", "remote", "remove", "up")[
        "message"]
    team.alice.ok("vc", "remote", "add", "backup", "https://user:secret@example.com/kb.git")
    listed = team.alice.ok("vc", "remote", "--json").json()["remotes"]
    assert listed["backup"] == "https://user:***@example.com/kb.git"
    team.alice.ok("vc", "remote", "remove", "backup")


def test_merge_needs_exactly_one_of_ref_abort_continue(team: Team) -> None:
    assert _unchanged(team.alice, "vc", "merge", code=2)["message"].startswith("give a branch")
    assert "no merge to abort" in _unchanged(team.alice, "vc", "merge", "--abort")["message"]


def test_checkout_refuses_to_overwrite_local_changes(team: Team) -> None:
    team.alice.ok("vc", "checkout", "-b", "other")
    team.alice.edit(ROT, title="Other")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "other title")
    team.alice.ok("vc", "checkout", "main")
    team.alice.edit(ROT, title="Uncommitted")
    error = _unchanged(team.alice, "vc", "checkout", "other")
    assert error["message"] == ("checkout of 'other' would overwrite uncommitted local "
                                f"changes in: {ROT}")
    # the same condition reads the same as on 'vc pull': code conflict, the file named
    assert error["code"] == "conflict"
    assert error["file"] == ROT


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
