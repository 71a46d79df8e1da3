"""git.run and the bytes runner give what subprocess.run gives (text, bytes, exit codes, large
input and output side by side), spawning git without importing subprocess."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from vc_helpers import git

from brv_vc.errors import GitError
from brv_vc.vc import git as vcgit


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    return repo


def _plain(args: list[str], cwd: Path, data: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", *args], cwd=cwd, input=data, capture_output=True,
                          env=vcgit.no_git_env(), check=False)


def test_text_output_and_exit_codes_are_subprocess_run_s(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "crlf.md").write_bytes(b"one\r\ntwo\rthree\n\xc3\xa9\n")
    blob = git(repo, "hash-object", "-w", "crlf.md").strip()
    for args in (["cat-file", "-p", blob], ["rev-parse", "--verify", "nope"], ["status", "-z"]):
        mine = vcgit.run(args, repo, check=False)
        theirs = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                                env=vcgit.no_git_env(), check=False)
        assert (mine.returncode, mine.stdout, mine.stderr) == (
            theirs.returncode, theirs.stdout, theirs.stderr), args
    assert vcgit.run(["cat-file", "-p", blob], repo).stdout == "one\ntwo\nthree\né\n"
    with pytest.raises(GitError, match="git rev-parse --verify failed"):
        vcgit.run(["rev-parse", "--verify", "nope"], repo)


def test_text_input_reaches_git(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    text = "é line\n" * 20000  # larger than a pipe's buffer
    mine = vcgit.run(["hash-object", "--stdin"], repo, input=text).stdout
    assert mine == _plain(["hash-object", "--stdin"], repo, text.encode()).stdout.decode()


def test_large_input_and_output_flow_side_by_side(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "a.md").write_bytes(b"x" * 200 + b"\n")
    blob = git(repo, "hash-object", "-w", "a.md").strip()
    ids = f"{blob}\n".encode() * 20000  # 820 kB in, 4.2 MB out: neither may wait for the other
    out = vcgit._git_bytes(["cat-file", "--batch"], repo, input=ids)
    assert out == _plain(["cat-file", "--batch"], repo, ids).stdout
    assert len(out) > 4_000_000


def test_a_failure_names_gits_words_and_exit_codes_pass_when_allowed(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    with pytest.raises(GitError, match="git cat-file -p failed: fatal: Not a valid object"):
        vcgit._git_bytes(["cat-file", "-p", "1" * 40], repo)
    assert vcgit._git_bytes(["check-ignore", "--no-index", "-z", "--stdin"], repo,
                            input=b"free.md\0", ok=(0, 1)) == b""


def test_git_missing_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(GitError, match="git is not installed or not on PATH"):
        vcgit.run(["status"], repo)
    with pytest.raises(GitError, match="git is not installed or not on PATH"):
        vcgit._git_bytes(["status"], repo)


def test_stdin_is_inherited_when_no_input_is_given(tmp_path: Path) -> None:
    """As subprocess.run: without input git reads this process's own stdin."""
    repo = _repo(tmp_path)
    read_end, write_end = os.pipe()
    os.write(write_end, b"from the parent\n")
    os.close(write_end)
    saved = os.dup(0)
    try:
        os.dup2(read_end, 0)
        out = vcgit.run(["hash-object", "--stdin"], repo).stdout
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(read_end)
    assert out == _plain(["hash-object", "--stdin"], repo, b"from the parent\n").stdout.decode()
