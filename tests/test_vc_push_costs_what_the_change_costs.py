"""`brv vc push` checks what the push brings, and costs little more than `git push` (issue 24)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from test_vc_fast_paths_import_little import loaded
from vc_helpers import Team, team, traced_gits  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def test_push_imports_no_dataclasses_nor_typing(team: Team) -> None:  # noqa: F811
    """Its records are NamedTuples and it never imports the commit's module."""
    team.alice.edit(ROT, summary="pushed")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "change")
    code, names = loaded(team.alice.root, "vc", "push")
    assert code == 0
    assert not {"click", "jsonschema", "yaml", "dataclasses", "typing"} & set(names), names
    assert team.alice.git("rev-parse", "HEAD") == team.alice.git("rev-parse", "origin/main")


def _git_commands(trace: Path) -> list[str]:
    """The git commands a ``GIT_TRACE`` file shows started, in order (``rev-parse``...)."""
    return [cmd.split()[0] for cmd in traced_gits(trace)]


def test_push_reads_its_bearings_from_the_files(team: Team, tmp_path: Path,  # noqa: F811
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """HEAD, the branch and the upstream's tip from the ref files (no rev-parse); then the
    config and, for a commit vc commit did not check, the pushed change, whose files are read
    from disk where they hold the committed bytes (no cat-file); then git push, whose hook
    starts no git of ours. The one commit vc commit checked, onto the remote's tip, is not
    diffed again (vc/git_checked.py)."""
    team.alice.edit(ROT, summary="pushed")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "change")
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    team.alice.ok("vc", "push")
    monkeypatch.delenv("GIT_TRACE")
    commands = _git_commands(trace)
    assert commands[:commands.index("push")] == ["config"]
    assert team.alice.git("rev-parse", "HEAD") == team.alice.git("rev-parse", "origin/main")
    team.alice.edit(ROT, summary="pushed by plain git")
    team.alice.git("commit", "-q", "--no-verify", "-am", "plain")  # checked by no brv
    trace.unlink()
    monkeypatch.setenv("GIT_TRACE", str(trace))
    team.alice.ok("vc", "push")
    monkeypatch.delenv("GIT_TRACE")
    commands = _git_commands(trace)
    assert commands[:commands.index("push")] == ["config", "diff"]
    assert "symbolic-ref" not in commands
    assert (team.alice.tree / ".git/hooks/pre-push").is_file()  # it ran, and skipped
    assert not {"rev-parse", "diff", "cat-file", "grep"} & set(commands[commands.index("push"):])
    assert team.alice.git("rev-parse", "HEAD") == team.alice.git("rev-parse", "origin/main")


CONFLICTED = ("---\ntitle: Token rotation\n---\n<<<<<<< ours\nRotate daily.\n=======\n"
              "Rotate weekly.\n>>>>>>> theirs\n")


def test_push_judges_the_committed_bytes_whatever_the_work_tree_holds(
        team: Team) -> None:  # noqa: F811
    """A file edited since its commit is read from git: the commit is what is pushed."""
    alice = team.alice
    clean = alice.text(ROT)
    (alice.tree / ROT).write_text(CONFLICTED)
    alice.git("commit", "-q", "--no-verify", "-am", "markers")  # a plain commit, unchecked
    (alice.tree / ROT).write_text(clean)  # resolved on disk only
    refused = alice.fails("vc", "push")
    assert f"cannot push: conflict markers remain in {ROT}" in refused.stderr
    alice.git("commit", "-q", "--no-verify", "-am", "resolved")
    (alice.tree / ROT).write_text(CONFLICTED)  # markers on disk only: not pushed
    alice.ok("vc", "push")
    assert alice.git("rev-parse", "HEAD") == alice.git("rev-parse", "origin/main")


def test_worktree_blobs_are_only_the_plain_files_that_hold_the_bytes(tmp_path: Path) -> None:
    """Edited, linked, a FIFO, removed: left to git (a FIFO is not even waited on)."""
    import os

    from brv_vc.vc import git as brv_git

    data = b"---\ntitle: Same\n---\nbody\n"
    (tmp_path / "same.md").write_bytes(data)
    blob = subprocess.run(["git", "hash-object", "same.md"], cwd=tmp_path, text=True,
                          capture_output=True, check=True).stdout.strip()
    (tmp_path / "edited.md").write_bytes(data + b"more\n")
    (tmp_path / "linked.md").symlink_to("same.md")
    os.mkfifo(tmp_path / "fifo.md")
    pairs = [(name, blob) for name in ("edited.md", "linked.md", "fifo.md", "gone.md",
                                       "same.md")]
    assert brv_git.worktree_blobs(tmp_path, pairs) == {blob: data}
    assert brv_git.worktree_blobs(tmp_path, pairs[:4]) == {}


def test_a_new_branch_is_checked_from_where_it_leaves_the_remote(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """What the remote has already was checked when it was pushed; only the fork's own
    commits are read (no grep, no listing of the whole commit), and they are refused."""
    alice = team.alice
    (alice.tree / "auth/jwt/old.md").write_text(CONFLICTED)  # on the remote, unchecked
    alice.git("add", "-A")
    alice.git("commit", "-q", "--no-verify", "-m", "markers")
    alice.git("push", "-q", "--no-verify", "origin", "main")
    alice.git("checkout", "-q", "-b", "feature")
    alice.write("auth/jwt/new.md", "New", summary="new")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "new")
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    alice.ok("vc", "push", "-u")
    monkeypatch.delenv("GIT_TRACE")
    commands = _git_commands(trace)
    assert {"for-each-ref", "merge-base", "diff"} <= set(commands)
    assert not {"grep", "ls-tree"} & set(commands)
    assert alice.git("rev-parse", "HEAD") == alice.git("rev-parse", "origin/feature")

    alice.git("checkout", "-q", "-b", "another")
    (alice.tree / "auth/jwt/new.md").write_text(CONFLICTED)
    alice.git("commit", "-q", "--no-verify", "-am", "markers in the fork")
    refused = alice.fails("vc", "push", "-u")
    assert "cannot push: conflict markers remain in auth/jwt/new.md" in refused.stderr
