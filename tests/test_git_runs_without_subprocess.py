"""git commands that read nothing from brv start without subprocess, with the same answers."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from brv_vc.errors import GitError
from brv_vc.vc import git


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "r"
    for args in (["init", "-q", "-b", "main", str(repo)],
                 ["-C", str(repo), "config", "user.email", "t@example.com"],
                 ["-C", str(repo), "config", "user.name", "t"]):
        subprocess.run(["git", *args], check=True, capture_output=True)
    return repo


def test_bytes_text_and_failures_come_back_as_from_subprocess(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    name = b"caf\xe9.md"  # not UTF-8: only the bytes path keeps it
    with open(os.path.join(os.fsencode(repo), name), "wb") as handle:
        handle.write(b"one\r\ntwo\n")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "first"], cwd=repo, check=True)
    head = git.run(["rev-parse", "HEAD"], repo).stdout.strip()
    rows = git.changed_entries(repo, "4b825dc642cb6eb9a060e54bf8d69288fbee4904", head)
    assert [row[1] for row in rows] == [name.decode("utf-8", "surrogateescape")]
    shown = git.run(["show", f"{head}:{rows[0][1]}"], repo, check=False)
    assert shown.returncode == 0
    assert shown.stdout == "one\ntwo\n"  # text mode: universal newlines, as subprocess's
    failed = git.run(["rev-parse", "--verify", "no-such-ref"], repo, check=False)
    assert failed.returncode != 0
    assert "no-such-ref" in failed.stderr or "Needed a single revision" in failed.stderr
    with pytest.raises(GitError, match="git rev-parse --verify failed: fatal: Needed a single revision"):
        git.run(["rev-parse", "--verify", "no-such-ref"], repo)
    missing = git.run(["status"], tmp_path / "gone", check=False)  # git says so, not Python
    assert missing.returncode != 0
