"""Archives follow history: reset, checkout, pull and merge (brv vc or plain git through the
hooks) rebuild the _archived/ stub of an entry archived where they land, drop it when the entry
is back, and never invent one for a plain deletion."""

from __future__ import annotations

from pathlib import Path

from vc_helpers import Member, git, in_project_app, make_member, standalone_member

OLD = "kb/topic/old_idea.md"


STUB = f"_archived/{OLD.removesuffix('.md')}.stub.md"


FULL = f"_archived/{OLD.removesuffix('.md')}.full.md"


ROT = "auth/jwt/token_rotation.md"


def _archived_project(tmp_path: Path) -> Member:
    """A standalone project whose history is: one (entry added), archive."""
    me = make_member(tmp_path, "me")
    me.ok("init")
    me.ok("vc", "init")
    me.ok("curate", "add", "kb/topic", "--title", "Old idea", "--content", "platypus idea")
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "one")
    me.ok("archive", OLD)
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "archive")
    assert (me.tree / STUB).is_file()
    return me


def _restore_and_commit(me: Member) -> None:
    me.ok("restore", OLD)
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "restore")
    assert not (me.tree / STUB).exists()
    assert (me.tree / OLD).is_file()


def _finds_platypus(me: Member) -> list[str]:
    hits = me.ok("search", "platypus", "--json").json()
    return [h["path"] for h in hits["results"]]


def test_reset_hard_back_over_a_restore_rebuilds_the_archive(tmp_path: Path) -> None:
    me = _archived_project(tmp_path)
    _restore_and_commit(me)
    out = me.ok("vc", "reset", "--hard", "HEAD~1", "--json").json()
    assert not (me.tree / OLD).exists()
    assert (me.tree / STUB).is_file()
    assert "platypus idea" in (me.tree / FULL).read_text()
    assert OLD in out["after"]["archived"]
    assert any(p.startswith("_archived/kb/topic/old_idea") for p in _finds_platypus(me))


def test_checkout_of_the_archiving_branch_after_a_restore_elsewhere_rebuilds_it(
        tmp_path: Path) -> None:
    me = _archived_project(tmp_path)
    me.ok("vc", "branch", "cleanup")
    me.ok("vc", "checkout", "-b", "restorer")
    _restore_and_commit(me)
    me.ok("vc", "checkout", "cleanup")
    assert not (me.tree / OLD).exists()
    assert (me.tree / STUB).is_file()
    assert "platypus idea" in (me.tree / FULL).read_text()
    assert any(p.startswith("_archived/") for p in _finds_platypus(me))
    # and back: the entry returns, its local archive goes
    me.ok("vc", "checkout", "restorer")
    assert (me.tree / OLD).is_file()
    assert not (me.tree / STUB).exists()


def test_plain_git_checkout_runs_the_same_rebuild_through_the_hook(tmp_path: Path) -> None:
    me = _archived_project(tmp_path)
    me.ok("vc", "branch", "cleanup")
    me.ok("vc", "checkout", "-b", "restorer")
    _restore_and_commit(me)
    git(me.tree, "checkout", "-q", "cleanup")
    assert (me.tree / STUB).is_file()


def test_reset_hard_of_a_staged_restore_rebuilds_the_archive(tmp_path: Path) -> None:
    """HEAD does not move; the working tree loses the restored entry again."""
    me = _archived_project(tmp_path)
    me.ok("restore", OLD)
    me.ok("vc", "add")
    me.ok("vc", "reset", "--hard")
    assert not (me.tree / OLD).exists()
    assert (me.tree / STUB).is_file()


def test_a_plain_deletion_does_not_create_an_archive(tmp_path: Path) -> None:
    me = make_member(tmp_path, "me")
    me.ok("init")
    me.ok("vc", "init")
    me.ok("curate", "add", "kb/topic", "--title", "Old idea", "--content", "platypus idea")
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "one")
    (me.tree / OLD).unlink()
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "delete")
    git(me.tree, "commit", "-q", "--allow-empty", "-m", "later")
    git(me.tree, "branch", "other", "HEAD~2")
    me.ok("vc", "checkout", "other")
    assert (me.tree / OLD).is_file()
    me.ok("vc", "checkout", "main")
    assert not (me.tree / OLD).exists()
    assert not (me.tree / "_archived").exists()


def test_an_archive_followed_by_a_plain_deletion_is_not_rebuilt(tmp_path: Path) -> None:
    """Archived, restored, then deleted outright: history's last word is a plain delete."""
    me = _archived_project(tmp_path)
    _restore_and_commit(me)
    (me.tree / OLD).unlink()
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "delete for good")
    git(me.tree, "branch", "back", "HEAD~1")
    me.ok("vc", "checkout", "back")
    assert (me.tree / OLD).is_file()
    me.ok("vc", "checkout", "main")
    assert not (me.tree / OLD).exists()
    assert not (me.tree / STUB).exists()


def test_in_project_checkout_after_a_restore_elsewhere_rebuilds_the_archive(
        tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    app.ok("archive", ROT)
    app.ok("vc", "add")
    app.ok("vc", "commit", "-m", "archive")
    stub = app.tree / f"_archived/{ROT.removesuffix('.md')}.stub.md"
    assert stub.is_file()
    app.ok("vc", "checkout", "-b", "restorer")
    app.ok("restore", ROT)
    app.ok("vc", "add")
    app.ok("vc", "commit", "-m", "restore")
    assert not stub.exists()
    app.ok("vc", "checkout", "main")
    assert not (app.tree / ROT).exists()
    assert stub.is_file()


def test_an_archived_entry_back_through_checkout_loses_its_ghost(tmp_path: Path) -> None:
    solo = standalone_member(tmp_path, "--no-hooks")  # vc checkout's own step, not the hook's
    solo.ok("curate", "add", "kb/topic", "--title", "Old idea", "--content", "platypus idea")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.ok("vc", "checkout", "-b", "cleanup")
    solo.ok("archive", "kb/topic/old_idea.md")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "archive")
    stub = solo.tree / "_archived/kb/topic/old_idea.stub.md"
    result = solo.ok("vc", "checkout", "main", "--json").json()
    assert result["after"]["unarchived"] == ["kb/topic/old_idea.md"]
    assert not stub.exists()
    assert not (solo.tree / "_archived").exists()
    paths = [h["path"] for h in solo.ok("search", "platypus", "--json").json()["results"]]
    assert paths == ["kb/topic/old_idea.md"]
    solo.ok("vc", "checkout", "cleanup")  # the archive comes back from the trailer
    assert stub.is_file()
    assert not (solo.tree / "kb/topic/old_idea.md").exists()


def test_a_teammates_restore_removes_the_archive_on_pull(tmp_path: Path) -> None:
    from vc_helpers import start_team

    team = start_team(tmp_path)
    alice, bob = team.alice, team.bob
    alice.ok("archive", ROT)
    alice.sync("archive rotation")
    bob.ok("vc", "pull")
    stub = bob.tree / "_archived/auth/jwt/token_rotation.stub.md"
    assert stub.is_file()
    alice.ok("restore", ROT)
    alice.sync("restore rotation")
    bob.ok("vc", "pull")
    assert not stub.exists()
    assert not (bob.tree / "_archived/auth/jwt/token_rotation.full.md").exists()
    paths = [h["path"] for h in bob.ok("search", "rotate", "--json").json()["results"]]
    assert ROT in paths
    assert not [p for p in paths if p.startswith("_archived/")]


def test_plain_git_merge_with_hooks_drops_the_ghost(tmp_path: Path) -> None:
    solo = standalone_member(tmp_path)
    solo.ok("curate", "add", "kb/topic", "--title", "Old idea", "--content", "platypus idea")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.ok("archive", "kb/topic/old_idea.md")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "archive")
    stub = solo.tree / "_archived/kb/topic/old_idea.stub.md"
    # a branch revives the entry with plain git; main takes it with a plain merge, and the
    # post-merge hook (the same step as 'brv vc pull') drops the archive
    git(solo.tree, "checkout", "-q", "-b", "revive")
    solo.write("kb/topic/old_idea.md", "Old idea", narrative="platypus idea, revived")
    git(solo.tree, "add", "-A")
    git(solo.tree, "commit", "-q", "-m", "revive")
    git(solo.tree, "checkout", "-q", "main")
    assert stub.is_file()
    git(solo.tree, "merge", "-q", "--no-edit", "revive")
    assert (solo.tree / "kb/topic/old_idea.md").is_file()
    assert not stub.exists()
