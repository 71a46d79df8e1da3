"""On a terminal, 'brv hooks install' beside the pre-commit framework asks before editing its config."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hooks_support import git_env, in_project, write
from manager_support import TEAM_CONFIG, ok, pre_commit

QUESTION = b"Add brv's part to"


def _on_a_terminal(root: Path, answer: bytes) -> bytes:
    """Runs 'brv hooks install' with a pty as stdin/stdout/stderr; answers its question."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "brv_vc", "hooks", "install"], cwd=root,
                            env=git_env(), stdin=follower, stdout=follower, stderr=follower)
    os.close(follower)
    seen, answered, deadline = b"", False, time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                seen += chunk
            if not answered and QUESTION in seen:
                os.write(leader, answer + b"\n")
                answered = True
            if proc.poll() is not None and not ready:
                break
        assert proc.wait(timeout=60) == 0, seen.decode(errors="replace")
    finally:
        os.close(leader)
        if proc.poll() is None:
            proc.kill()
    assert answered, seen.decode(errors="replace")
    return seen


@pytest.mark.parametrize(("answer", "written"), [(b"y", True), (b"n", False)])
def test_the_question_is_asked_and_the_answer_kept(tmp_path: Path, answer: bytes,
                                                   written: bool) -> None:
    root, home = in_project(tmp_path).root, tmp_path / "pc-home"
    write(root, ".pre-commit-config.yaml", TEAM_CONFIG)
    ok(pre_commit("install", cwd=root, home=home))
    seen = _on_a_terminal(root, answer)
    config = (root / ".pre-commit-config.yaml").read_text()
    assert ("brv" in config) is written, config
    assert (b"brv's part was written into" in seen) is written, seen
    if not written:
        assert config == TEAM_CONFIG  # "no" leaves the team's file byte for byte
