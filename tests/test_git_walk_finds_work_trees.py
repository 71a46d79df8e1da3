"""The one filesystem walk for ``.git`` finds what git finds: top, git folder, linked worktrees."""

from __future__ import annotations

from pathlib import Path

from hooks_support import git

from brv_vc.tree.project import git_folder, git_top


def test_walk_finds_the_top_and_git_folder_from_a_subfolder(tmp_path: Path) -> None:
    repo = tmp_path / "code"
    (repo / "app" / "deep").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    shown = git("rev-parse", "--show-toplevel", cwd=repo / "app" / "deep").stdout.strip()
    top = git_top(repo / "app" / "deep")
    assert top == Path(shown)
    assert git_folder(top) == repo / ".git"


def test_walk_follows_a_linked_worktrees_git_file(tmp_path: Path) -> None:
    repo = tmp_path / "code"
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "a",
        cwd=repo)
    git("worktree", "add", "-q", str(tmp_path / "other"), "-b", "other", cwd=repo)
    top = git_top(tmp_path / "other")
    assert top == tmp_path / "other"
    assert (top / ".git").is_file()
    expected = git("rev-parse", "--absolute-git-dir", cwd=tmp_path / "other").stdout.strip()
    assert git_folder(top) == Path(expected)


def test_walk_answers_none_outside_any_repository_and_for_a_bad_git_file(tmp_path: Path) -> None:
    # tmp_path's parents hold no repository (pytest's tmp folders are outside this checkout)
    assert git_top(tmp_path) is None
    (tmp_path / ".git").write_text("not a pointer\n", encoding="utf-8")
    assert git_top(tmp_path) == tmp_path
    assert git_folder(tmp_path) is None
