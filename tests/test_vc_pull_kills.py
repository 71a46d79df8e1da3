"""Every state a kill -9 of 'brv vc pull' leaves is fixed by the one command its error names.

The focused cases build each state by hand (a merge commit with MERGE_HEAD still there, stale
HEAD/ORIG_HEAD/ref locks, git's merge-driver temp files); the bounded fault run kills real
pulls of two real clones at the moments git holds those locks (bench/fault_pull.py runs the
same with >= 100 kills).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
import vc_helpers
from vc_helpers import Team

from bench import fault_pull

team = vc_helpers.team
ROT = "auth/jwt/token_rotation.md"


def _diverge(team: Team) -> tuple[str, str]:
    """alice pushes a new entry, bob commits one of his own; returns both heads."""
    team.alice.write("auth/jwt/alice.md", "Alice", facts=["a"])
    team.alice.sync("alice")
    team.bob.write("auth/jwt/bob.md", "Bob", facts=["b"])
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob")
    return (team.alice.git("rev-parse", "HEAD").strip(),
            team.bob.git("rev-parse", "HEAD").strip())


def test_a_merge_committed_but_not_cleaned_up_is_finished_by_recover(team: Team) -> None:
    theirs, mine = _diverge(team)
    bob = team.bob
    bob.git("-c", "core.hooksPath=/dev/null", "pull", "-q", "--no-rebase", "--no-edit")
    merge = bob.git("rev-parse", "HEAD").strip()
    # what a kill between git's ref update and its cleanup leaves
    (bob.tree / ".git/MERGE_HEAD").write_text(theirs + "\n")
    (bob.tree / ".git/MERGE_MSG").write_text("Merge\n")
    pulled = bob.fails("vc", "pull")
    assert "just after git made its merge commit" in pulled.stderr
    assert fault_pull.named_commands(pulled.stderr) == ["brv vc recover"]
    aborted = bob.fails("vc", "merge", "--abort")
    assert "just after git made its merge commit" in aborted.stderr
    assert fault_pull.named_commands(aborted.stderr) == ["brv vc recover"]
    assert bob.git("rev-parse", "HEAD").strip() == merge
    recovered = bob.ok("vc", "recover", "--json").json()
    assert recovered["merge"] == "finished"
    assert not (bob.tree / ".git/MERGE_HEAD").exists()
    assert not (bob.tree / ".git/MERGE_MSG").exists()
    assert bob.git("rev-parse", "HEAD").strip() == merge
    for sha in (theirs, mine):
        bob.git("merge-base", "--is-ancestor", sha, "HEAD")
    assert "Already up to date" in bob.ok("vc", "pull").stdout


def test_stale_head_orig_head_and_ref_locks_are_named_and_removed(team: Team) -> None:
    _diverge(team)
    bob = team.bob
    git_dir = bob.tree / ".git"
    (git_dir / "refs/remotes/origin").mkdir(parents=True, exist_ok=True)
    locks = [git_dir / "HEAD.lock", git_dir / "ORIG_HEAD.lock",
             git_dir / "refs/remotes/origin/main.lock"]
    for lock in locks:
        lock.write_text("")
    bob.write("auth/jwt/more.md", "More", facts=["m"])
    bob.ok("vc", "add")
    committed = bob.fails("vc", "commit", "-m", "blocked")
    assert "HEAD.lock is held" in committed.stderr
    assert fault_pull.named_commands(committed.stderr) == ["brv vc recover"]
    pulled = bob.fails("vc", "pull")
    assert "was interrupted" in pulled.stderr
    assert "HEAD.lock" in pulled.stderr
    assert fault_pull.named_commands(pulled.stderr) == ["brv vc recover"]
    recovered = bob.ok("vc", "recover", "--json").json()
    assert sorted(recovered["locks_removed"]) == sorted(map(str, locks))
    text_free = [p for p in locks if p.exists()]
    assert text_free == []
    bob.ok("vc", "commit", "-m", "now it works")
    bob.ok("vc", "pull")


def test_a_lock_of_a_live_git_run_from_another_folder_is_kept(team: Team,
                                                               tmp_path: Path) -> None:
    lock = team.bob.tree / ".git/HEAD.lock"
    lock.write_text("")
    os.utime(lock, (1, 1))  # old: only the live process keeps it
    env = {**os.environ, "GIT_DIR": str(team.bob.tree / ".git")}
    holder = subprocess.Popen(["git", "cat-file", "--batch"], cwd=tmp_path, env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        refused = team.bob.fails("vc", "recover")
        assert f"another git process (pid {holder.pid})" in refused.stderr
        assert lock.exists()
    finally:
        holder.kill()
        holder.wait()
    assert str(lock) in team.bob.ok("vc", "recover").stdout
    assert not lock.exists()


def test_git_merge_driver_temp_files_are_removed(team: Team) -> None:
    _diverge(team)
    left = team.bob.tree / ".merge_file_AbC123"
    left.write_text("half")
    (team.bob.tree / ".git/index.lock").write_text("")
    assert fault_pull.named_commands(team.bob.fails("vc", "pull").stderr) == ["brv vc recover"]
    out = team.bob.ok("vc", "recover").stdout
    assert "removed git's leftover merge file .merge_file_AbC123" in out
    assert not left.exists()
    team.bob.ok("vc", "pull")
    assert team.bob.git("status", "--porcelain") == ""


def test_merge_abort_says_head_stays_where_it_was(team: Team) -> None:
    team.alice.edit(ROT, summary="alice's summary")
    team.alice.sync("alice")
    team.bob.edit(ROT, summary="bob's summary")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob")
    head = team.bob.git("rev-parse", "HEAD").strip()
    assert team.bob.brv("vc", "pull").exit_code == 1  # a conflict
    out = team.bob.ok("vc", "merge", "--abort").stdout
    assert f"HEAD stays at {head[:7]}, the commit before the merge" in out
    assert "back to its state" not in out
    assert team.bob.git("rev-parse", "HEAD").strip() == head


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> fault_pull.Scene:
    """Two clones and a bare remote, built once (the scene has its own HOME and git config)."""
    return fault_pull.build(tmp_path_factory.mktemp("scene"))


@pytest.mark.parametrize("moment", ["prepared:ORIG_HEAD", "prepared:HEAD", "committed:HEAD",
                                    "prepared:refs/remotes/origin/main"])
def test_a_pull_killed_while_git_holds_a_lock_needs_one_named_command(
        scene: fault_pull.Scene, tmp_path: Path, moment: str) -> None:
    root = tmp_path / "killed"
    shutil.copytree(scene.bob, root, symlinks=True)
    assert fault_pull.kill_at(root, scene.env, moment, limit=120)
    outcome = fault_pull.follow(root, scene)
    assert outcome.problems == []
    assert outcome.needed in ("nothing", "brv vc recover")


def test_a_git_that_ends_within_the_wait_does_not_block_recover(team: Team) -> None:
    lock = team.bob.tree / ".git/HEAD.lock"
    lock.write_text("")
    holder = subprocess.Popen(["git", "cat-file", "--batch"], cwd=team.bob.tree,
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    assert holder.stdin is not None
    closing = threading.Timer(1.0, holder.stdin.close)  # git ends a second later
    closing.start()
    try:
        out = team.bob.ok("vc", "recover").stdout
    finally:
        closing.join()
        holder.wait()
    assert f"removed the stale git lock {lock}" in out
    assert not lock.exists()
