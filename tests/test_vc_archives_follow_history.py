"""Fixes from the second verification round of ``brv vc`` (AUDIT2 N1, N2, N7).

Each test reproduces a finding with real git and real repositories.
"""

from __future__ import annotations

from pathlib import Path

from conftest import snapshot
from vc_helpers import (
    Member,
    Team,
    git,
    in_project_app,
    make_member,
    team,  # noqa: F401
)

from brv_vc.vc.status import conflict_marker_line

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


# N2 -------------------------------------------------------------------------------------


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


# N7 -------------------------------------------------------------------------------------

ROT = "auth/jwt/token_rotation.md"


def _conflicted(team: Team) -> int:  # noqa: F811
    """bob pulls a title conflict; returns the line of the conflict's ``<<<<<<<``."""
    team.alice.edit(ROT, title="Token rotation (alice)")
    team.alice.sync("alice title")
    team.bob.edit(ROT, title="Token rotation (bob)")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob title")
    team.bob.fails("vc", "pull")
    lines = team.bob.text(ROT).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith("<<<<<<<"))


def test_add_of_a_file_with_markers_warns_naming_file_and_line(team: Team) -> None:  # noqa: F811
    line = _conflicted(team)
    result = team.bob.ok("vc", "add", ROT)
    assert f"{ROT}:{line}: conflict markers are still in the file" in result.stderr
    assert "vc merge --continue" in result.stderr
    assert "vc commit" in result.stderr
    assert "Marked resolved" not in result.stdout
    team.bob.fails("vc", "merge", "--continue")


def test_add_json_lists_the_files_still_conflicted(team: Team) -> None:  # noqa: F811
    line = _conflicted(team)
    out = team.bob.ok("vc", "add", "--json").json()
    assert out["still_conflicted"] == [{"path": ROT, "line": line}]
    assert out["resolved"] == [ROT]  # git no longer records it as unmerged


def test_add_of_a_real_resolution_warns_nothing(team: Team) -> None:  # noqa: F811
    _conflicted(team)
    text = team.bob.text(ROT)
    block = text[text.index("<<<<<<<"):text.index(">>>>>>> theirs\n") + 15]
    (team.bob.tree / ROT).write_text(text.replace(block, 'title: "Token rotation"\n'))
    result = team.bob.ok("vc", "add", ROT)
    assert result.stderr == ""
    assert f"Marked resolved: {ROT}" in result.stdout
    assert team.bob.ok("vc", "add", "--json").json()["still_conflicted"] == []
    team.bob.ok("vc", "merge", "--continue")


def test_add_of_a_named_file_with_markers_outside_a_merge_warns(tmp_path: Path) -> None:
    me = make_member(tmp_path, "me")
    me.ok("vc", "init")
    me.write("kb/n/a.md", "A", narrative="<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs")
    out = me.brv("vc", "add", "kb/n/a.md", "--json")
    assert out.exit_code == 0
    assert [hit["path"] for hit in out.json()["still_conflicted"]] == ["kb/n/a.md"]
    assert "kb/n/a.md:" in out.stderr


def test_conflict_marker_line_needs_the_whole_triplet() -> None:
    assert conflict_marker_line(b"a\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n") == 2
    assert conflict_marker_line(b"Title\n=======\n") is None
    assert conflict_marker_line(b"<<<<<<< ours\nx\n>>>>>>> theirs\n") is None


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
