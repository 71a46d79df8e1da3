"""Plain git diff and merge when the Python that registered brv's drivers is gone: raw text,
'brv' on PATH when there is one, and git's own line merge."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from vc_helpers import Member, standalone_member

ROT = "auth/jwt/token_rotation.md"


def _record_missing_interpreter(member: Member) -> None:
    """Rewrites the driver config as if the Python that registered it had been removed."""
    from brv_vc.services.vc.configure import driver_config

    for key, value in driver_config().items():
        member.git("config", key, value.replace(sys.executable, str(member.root / "gone/python")))


def _plain_git(cwd: Path, *args: str, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False)


def test_plain_git_diff_and_merge_survive_a_removed_interpreter(tmp_path: Path) -> None:
    solo = standalone_member(tmp_path, "--no-hooks")
    solo.write(ROT, "Token rotation", tags=("b", "a"), facts=["single use"])
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.edit(ROT, title="Rotation of tokens")
    normal = solo.git("diff")
    assert "+title: Rotation of tokens" in normal  # the textconv's normalised rendering
    _record_missing_interpreter(solo)
    bare = _plain_git(solo.tree, "diff", path="/usr/bin:/bin")
    assert bare.returncode == 0, bare.stderr
    assert '+title: "Rotation of tokens"' in bare.stdout  # raw text, as without brv
    # 'brv' on PATH is used when the recorded interpreter is gone
    bindir = tmp_path / "bin"
    bindir.mkdir()
    shim = bindir / "brv"
    here = Path(__file__).resolve().parent.parent
    shim.write_text(f'#!/bin/sh\nPYTHONPATH={here} exec {sys.executable} -m brv_vc "$@"\n')
    shim.chmod(0o755)
    found = _plain_git(solo.tree, "diff", path=f"{bindir}:/usr/bin:/bin")
    assert found.stdout == normal
    # a merge falls back to git's line merge instead of failing on the driver
    solo.git("commit", "-q", "-am", "title")
    solo.git("checkout", "-q", "-b", "side", "HEAD~1")
    (solo.tree / ROT).write_text(solo.text(ROT) + "\nSide note.\n")
    solo.git("commit", "-q", "-am", "note")
    solo.git("checkout", "-q", "main")
    merged = _plain_git(solo.tree, "merge", "--no-edit", "side", path="/usr/bin:/bin")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = solo.text(ROT)
    assert "Rotation of tokens" in text
    assert "Side note." in text
