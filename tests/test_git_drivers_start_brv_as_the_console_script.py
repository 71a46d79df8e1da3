"""The textconv and merge driver git runs start brv with -c, not -m: no runpy, no work tree on the path."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from vc_helpers import Team, team  # noqa: F401

from brv_vc.services.vc.configure import brv_command

ROT = "auth/jwt/token_rotation.md"
RUNPY = {"runpy"}  # (click, which the driver and textconv use, imports importlib itself)


def test_a_plain_git_diff_converts_without_runpy(team: Team) -> None:  # noqa: F811
    team.alice.edit(ROT, tags=("auth", "jwt", "rotated"))
    env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
    done = subprocess.run(["git", "diff"], cwd=team.alice.tree, env=env, capture_output=True,
                          text=True, check=True)
    assert "+  - rotated" in done.stdout  # brv's textconv rendered both sides
    names = {line.rpartition("|")[2].strip() for line in done.stderr.splitlines()
             if line.startswith("import time:")}
    assert "brv_vc.cli.entry" in names, done.stderr[-2000:]
    assert not RUNPY & names, sorted(RUNPY & names)


def test_the_command_keeps_the_folder_git_runs_in_off_the_import_path(tmp_path: Path) -> None:
    (tmp_path / "pathlib.py").write_text("raise SystemExit('the folder pathlib was imported')\n")
    done = subprocess.run(f"{brv_command()} --version", shell=True, cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("brv"), done.stdout
