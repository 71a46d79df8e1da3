"""brv vc reset: a lone commit moves the branch, paths unstage, one mode at a time, in-project
refusals, where HEAD is now, and derived files refreshed after --hard."""

from __future__ import annotations

from pathlib import Path

from conftest import snapshot
from vc_helpers import Member, git, in_project_app, make_member, standalone_member

ROT = "auth/jwt/token_rotation.md"


def _two_commits_and_a_staged_file(tmp_path: Path) -> Member:
    me = make_member(tmp_path, "me")
    me.ok("vc", "init")
    me.write("kb/n/a.md", "A", facts=["a"])
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "one")
    me.write("kb/n/b.md", "B", facts=["b"])
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "two")
    me.write("kb/n/c.md", "C", facts=["c"])
    me.ok("vc", "add", "kb/n/c.md")
    return me


def test_reset_with_a_lone_commit_moves_the_branch_like_git_mixed(tmp_path: Path) -> None:
    me = _two_commits_and_a_staged_file(tmp_path)
    one = me.git("rev-parse", "HEAD~1").strip()
    out = me.ok("vc", "reset", "HEAD~1", "--json").json()
    assert out["mode"] == "mixed"
    assert out["target"] == "HEAD~1"
    assert out["sha"] == one
    assert me.git("rev-parse", "HEAD").strip() == one
    assert me.git("diff", "--cached", "--name-only") == ""  # unstaged
    assert (me.tree / "kb/n/b.md").is_file()  # files kept
    assert (me.tree / "kb/n/c.md").is_file()


def test_reset_with_a_lone_commit_prints_the_new_head(tmp_path: Path) -> None:
    me = _two_commits_and_a_staged_file(tmp_path)
    assert me.ok("vc", "reset", "HEAD~1").stdout.startswith("HEAD is now at ")
    assert "one" in me.log[-1].stdout


def test_reset_with_a_path_still_unstages(tmp_path: Path) -> None:
    me = _two_commits_and_a_staged_file(tmp_path)
    head = me.git("rev-parse", "HEAD")
    out = me.ok("vc", "reset", "kb/n/c.md", "--json").json()
    assert out["mode"] == "unstage"
    assert me.git("rev-parse", "HEAD") == head
    assert me.git("diff", "--cached", "--name-only") == ""


def test_reset_of_a_staged_deletion_is_a_path_not_a_commit(tmp_path: Path) -> None:
    me = _two_commits_and_a_staged_file(tmp_path)
    (me.tree / "kb/n/b.md").unlink()
    me.ok("vc", "add", "kb/n/b.md")
    head = me.git("rev-parse", "HEAD")
    assert me.ok("vc", "reset", "kb/n/b.md", "--json").json()["mode"] == "unstage"
    assert me.git("rev-parse", "HEAD") == head
    assert "kb/n/b.md" not in me.git("diff", "--cached", "--name-only")


def test_reset_of_a_name_that_is_neither_path_nor_commit_fails_and_changes_nothing(
        tmp_path: Path) -> None:
    me = _two_commits_and_a_staged_file(tmp_path)
    before = snapshot(me.root)
    res = me.fails("vc", "reset", "nonsense")
    assert "no knowledge file or commit named 'nonsense'" in res.stderr
    assert snapshot(me.root) == before
    err = me.fails("vc", "reset", "nonsense", "--json").json()["error"]
    assert "nonsense" in err["message"]
    assert snapshot(me.root) == before


def test_reset_of_a_commit_among_paths_fails_and_changes_nothing(tmp_path: Path) -> None:
    me = _two_commits_and_a_staged_file(tmp_path)
    before = snapshot(me.root)
    res = me.fails("vc", "reset", "kb/n/c.md", "HEAD~1")
    assert "'HEAD~1' is a commit, not a knowledge file" in res.stderr
    assert snapshot(me.root) == before


def test_reset_nonsense_before_the_first_commit_fails(tmp_path: Path) -> None:
    me = make_member(tmp_path, "me")
    me.ok("vc", "init")
    me.write("kb/n/a.md", "A", facts=["a"])
    me.ok("vc", "add")
    before = snapshot(me.root)
    assert "'nonsense'" in me.fails("vc", "reset", "nonsense").stderr
    assert snapshot(me.root) == before
    me.ok("vc", "reset", "kb/n/a.md")
    assert "kb/n/a.md" not in me.git("diff", "--cached", "--name-only")


def test_in_project_reset_with_a_commit_is_refused(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, "kb/n/a.md")
    app.write("kb/n/c.md", "C", facts=["c"])
    app.ok("vc", "add")
    before = snapshot(app.root)
    res = app.fails("vc", "reset", "HEAD~1")
    assert "'brv vc reset HEAD~1' would move the project's branch" in res.stderr
    assert snapshot(app.root) == before
    assert "no knowledge file or commit named 'nonsense'" in app.fails(
        "vc", "reset", "nonsense").stderr
    assert snapshot(app.root) == before
    app.ok("vc", "reset", ".brv/context-tree/kb/n/c.md")
    assert git(app.root, "diff", "--cached", "--name-only") == ""


def test_reset_with_more_than_one_mode_is_a_usage_error(tmp_path: Path) -> None:
    solo = standalone_member(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "one")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.ok("curate", "add", "ops/deploy", "--title", "Gamma", "--content", "draft")
    before = snapshot(solo.root)
    head = solo.git("rev-parse", "HEAD")
    for modes in (("--soft", "--hard"), ("--mixed", "--hard"), ("--soft", "--mixed")):
        result = solo.fails("vc", "reset", *modes, "HEAD", code=2)
        assert "cannot be combined" in result.stderr
        error = solo.fails("vc", "reset", *modes, "--json", code=2).json()["error"]
        assert error["code"] == "usage"
    assert snapshot(solo.root) == before
    assert solo.git("rev-parse", "HEAD") == head
    assert (solo.tree / "ops/deploy/gamma.md").is_file()


def test_in_project_reset_hard_is_a_refused_operation(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    before = snapshot(app.root)
    for mode in ("--hard", "--soft", "--mixed"):
        error = app.fails("vc", "reset", mode, "--json", code=1).json()["error"]
        assert error["code"] == "conflict"
        assert "code included" in error["message"]
    assert snapshot(app.root) == before


def test_reset_says_where_head_is_now(tmp_path: Path) -> None:
    solo = standalone_member(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "one")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "first knowledge")
    solo.ok("curate", "add", "ops/deploy", "--title", "Gamma", "--content", "two")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "second")
    sha = solo.git("rev-parse", "--short=7", "HEAD~1").strip()
    out = solo.ok("vc", "reset", "--soft", "HEAD~1").stdout
    assert out.splitlines()[0] == f"HEAD is now at {sha} first knowledge"
    result = solo.ok("vc", "reset", "--hard", "--json").json()
    assert result["sha"].startswith(sha)
    assert result["subject"] == "first knowledge"


# derived files after --hard --------------------------------------------------------------


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


def _derived(member: Member) -> dict[str, str]:
    """Every derived file of the tree (summaries, abstracts, manifest, archives) and its text."""
    from brv_vc.tree.layout import is_derived

    out = {}
    for path in sorted(member.tree.rglob("*")):
        rel = path.relative_to(member.tree).as_posix()
        if path.is_file() and not rel.startswith(".git/") and is_derived(rel):
            out[rel] = path.read_text(encoding="utf-8")
    return out


def test_reset_hard_refreshes_derived_files_of_discarded_edits(tmp_path: Path) -> None:
    solo = standalone_member(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "canary first")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    clean = _derived(solo)
    solo.ok("curate", "update", "ops/deploy/blue_green.md", "--content", "ocelot draft")
    assert "ocelot" in (solo.tree / "ops/deploy/_index.md").read_text()
    result = solo.ok("vc", "reset", "--hard", "HEAD", "--json").json()
    assert result["after"]["changed"] == ["ops/deploy/blue_green.md"]
    assert "ocelot" not in (solo.tree / "ops/deploy/blue_green.abstract.md").read_text()
    assert "ocelot" not in (solo.tree / "ops/deploy/_index.md").read_text()
    assert solo.ok("search", "ocelot", "--json").json()["results"] == []
    # a staged new entry and a staged new folder are discarded with their derived files
    solo.ok("curate", "add", "ops/deploy", "--title", "Gamma", "--content", "gamma text")
    solo.ok("curate", "add", "billing/invoices", "--title", "Eps", "--content", "eps text")
    solo.ok("vc", "add")
    solo.ok("vc", "reset", "--hard", "HEAD")
    after = _derived(solo)
    assert after.keys() == clean.keys()
    assert "gamma" not in after["_manifest.json"]
    assert "billing" not in after["_manifest.json"]
    assert not (solo.tree / "billing").exists()
    # the folder is new again: a later ADD writes its context.md
    solo.ok("curate", "add", "billing/invoices", "--title", "Zeta", "--content", "z")
    assert (solo.tree / "billing/invoices/context.md").is_file()
    assert (solo.tree / "billing/context.md").is_file()
