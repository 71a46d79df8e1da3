"""vc add asks git for unmerged paths only when the index's cache-tree does not rule them out."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from vc_helpers import Team, git_commands, team  # noqa: F401

from brv_vc.vc.git.cache_tree import committed_tree

ROT = "auth/jwt/token_rotation.md"


def _ls_files_u(trace: Path) -> int:
    """How many ``git ls-files -u`` a GIT_TRACE2_EVENT file recorded."""
    return sum(argv[:1] == ["ls-files"] and "-u" in argv for argv in git_commands(trace))


def test_an_add_after_a_commit_asks_git_for_no_unmerged_paths(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    team.alice.edit(ROT, title="Token rotation, edited")
    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    added = team.alice.ok("vc", "add", "--json").json()
    assert added["paths"] == [ROT]
    assert added["resolved"] == []
    assert _ls_files_u(trace) == 0
    # a second add: the first one invalidated the cache-tree along ROT, so git is asked
    team.alice.edit(ROT, title="Token rotation, edited again")
    team.alice.ok("vc", "add")
    assert _ls_files_u(trace) == 1


def test_a_conflict_left_by_stash_pop_is_still_reported_resolved(team: Team) -> None:  # noqa: F811
    """No MERGE_HEAD, no merge in progress: only the index says a path is unmerged."""
    bob = team.bob
    bob.edit(ROT, title="Token rotation (bob, stashed)")
    bob.git("stash", "-q")
    bob.edit(ROT, title="Token rotation (bob, committed)")
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob")
    bob.git("stash", "pop", check=False)
    assert bob.git("ls-files", "-u", "--", ROT).strip()
    assert not (bob.tree / ".git" / "MERGE_HEAD").exists()
    text = bob.text(ROT)
    block = text[text.index("<<<<<<<"):text.index(">>>>>>> ") + text[text.index(">>>>>>> "):]
                 .index("\n") + 1]
    (bob.tree / ROT).write_text(text.replace(block, 'title: "Agreed"\n'))
    added = bob.ok("vc", "add", "--json").json()
    assert added["resolved"] == [ROT]


def _git(repo: Path, *args: str, input: str | None = None) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo,
                          input=input, check=True, capture_output=True, text=True).stdout


def test_an_index_with_unmerged_entries_names_no_tree(tmp_path: Path) -> None:
    """Staged by plumbing (update-index): git invalidates the cache-tree along the path."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "a.md").write_text("a\n")
    (repo / "b.md").write_text("b\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "one")
    index = str(repo / ".git" / "index")
    assert committed_tree(index) is not None  # the commit left a whole cache-tree
    blob = _git(repo, "rev-parse", "HEAD:a.md").strip()
    stages = "".join(f"100644 {blob} {stage}\ta.md\n" for stage in (1, 2, 3))
    _git(repo, "update-index", "--index-info", input=stages)
    assert _git(repo, "ls-files", "-u")
    assert committed_tree(index) is None
