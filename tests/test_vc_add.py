"""brv vc add: paths as the shell and git print them, resolving a conflict, and a warning for a
file that still holds conflict markers."""

from __future__ import annotations

from pathlib import Path

from conftest import run_brv
from vc_helpers import Team, in_project_app, make_member, team  # noqa: F401

from brv_vc.format.conflicts import conflict_line_in as conflict_marker_line

ROT = "auth/jwt/token_rotation.md"


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


# files still holding conflict markers ----------------------------------------------------


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
