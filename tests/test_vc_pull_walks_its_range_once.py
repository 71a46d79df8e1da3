"""A pull walks old..target once (git log --boundary): up to date, fast-forward, unrelated or
diverged as git merge-base says, and the archive trailers of a fast-forward from that walk."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from vc_helpers import git_commands, start_team

from brv_vc.services.vc.sync import _relation
from brv_vc.vc.repo import KnowledgeRepo

ROT = "auth/jwt/token_rotation.md"


def test_a_fast_forward_pull_reads_its_archive_trailers_from_the_one_walk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    team = start_team(tmp_path)
    alice, bob = team.alice, team.bob
    alice.ok("archive", ROT)
    alice.sync("archive rotation")
    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    bob.ok("vc", "pull")
    monkeypatch.delenv("GIT_TRACE2_EVENT")
    assert (bob.tree / "_archived/auth/jwt/token_rotation.stub.md").is_file()
    assert not (bob.tree / ROT).exists()
    commands = git_commands(trace)
    assert not [c for c in commands if c[0] == "merge-base"]
    logs = [c for c in commands if c[0] == "log"]
    assert len(logs) == 1, logs
    assert "--boundary" in logs[0]


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def _first_commit(tmp_path: Path, message: str) -> tuple[Path, str]:
    """A new repository on ``main`` with one empty commit, and that commit."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return repo, _git(repo, "rev-parse", "HEAD")


def test_each_relation_is_what_merge_base_says(tmp_path: Path) -> None:
    repo, one = _first_commit(tmp_path, "one")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "two")
    two = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "-b", "side", one)
    _git(repo, "commit", "-q", "--allow-empty", "-m", "side")
    side = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "--orphan", "other")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "other")
    other = _git(repo, "rev-parse", "HEAD")
    kr = KnowledgeRepo(repo, "")
    dot = repo / ".git"
    where = (dot, dot, "main")
    cases = {(one, two): "forward", (two, one): "behind", (two, side): "diverged",
             (two, other): "unrelated", (two, two): "same"}
    for (old, target), expected in cases.items():
        walked, walk = _relation(kr, old, target, where)
        asked, none = _relation(kr, old, target, None)  # no git dir known: merge-base
        assert (walked, asked) == (expected, expected), (old, target)
        assert none is None
        assert (walk is not None) == (expected != "same")
    assert _relation(kr, None, two, where) == ("unborn", None)


def test_a_shallow_clone_asks_merge_base(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    team = start_team(tmp_path)
    alice, bob = team.alice, team.bob
    (bob.tree / ".git" / "shallow").write_text(
        bob.git("rev-parse", "HEAD").strip() + "\n", encoding="ascii")
    alice.edit(ROT, summary="after the shallow point")
    alice.sync("more")
    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    bob.ok("vc", "pull")
    monkeypatch.delenv("GIT_TRACE2_EVENT")
    assert bob.git("rev-parse", "HEAD") == alice.git("rev-parse", "HEAD")
    assert [c for c in git_commands(trace) if c[0] == "merge-base"]


def test_a_message_shaped_like_a_record_does_not_make_a_fast_forward(tmp_path: Path) -> None:
    """A remote commit's message may hold any byte but NUL: one that writes a boundary record
    naming the local commit leaves the relation diverged (a fast-forward skips the clash check)."""
    repo, base = _first_commit(tmp_path, "base")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "local")
    local = _git(repo, "rev-parse", "HEAD")
    _git(repo, "checkout", "-q", "-b", "theirs", base)
    forged = f"theirs\n\x1e-\x1f{local}\x1f\x1f\n"
    _git(repo, "commit", "-q", "--allow-empty", "--cleanup=verbatim", "-m", forged)
    target = _git(repo, "rev-parse", "HEAD")
    assert "\x1e" in _git(repo, "log", "-1", "--format=%B", target)  # git kept the bytes
    dot = repo / ".git"
    relation, _ = _relation(KnowledgeRepo(repo, ""), local, target, (dot, dot, "main"))
    assert relation == "diverged"
