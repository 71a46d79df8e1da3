"""Fixes from the second verification round of ``brv vc`` (AUDIT2 N1, N2, N7).

Each test reproduces a finding with real git and real repositories.
"""

from __future__ import annotations

from pathlib import Path

from vc_helpers import Member, git, make_member

OLD = "kb/topic/old_idea.md"
STUB = f"_archived/{OLD.removesuffix('.md')}.stub.md"
FULL = f"_archived/{OLD.removesuffix('.md')}.full.md"


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


# N1 -------------------------------------------------------------------------------------


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
