"""`brv vc fetch` counts ahead/behind in commits (rev-list), never with a status of the work tree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from test_vc_fast_paths_import_little import loaded
from vc_helpers import Team, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def test_fetch_says_how_far_apart_the_branches_are_without_a_status(
        team: Team, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    team.alice.edit(ROT, summary="alice's")
    team.alice.sync("alice 1")
    team.alice.write("auth/jwt/two.md", "Two")
    team.alice.sync("alice 2")
    team.bob.write("auth/jwt/bob.md", "Bob")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob")
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    fetched = team.bob.ok("vc", "fetch", "--json").json()
    monkeypatch.delenv("GIT_TRACE")
    assert (fetched["ahead"], fetched["behind"]) == (1, 2)
    assert " status" not in trace.read_text(encoding="utf-8")
    team.bob.git("branch", "--unset-upstream")
    alone = team.bob.ok("vc", "fetch", "--json").json()
    assert (alone["ahead"], alone["behind"]) == (0, 0)  # no upstream: as git status says


def test_plain_fetch_skips_click_and_prints_what_click_prints(team: Team) -> None:  # noqa: F811
    """`vc fetch [--json]` takes the click-free path (cli/fast_vc.py); `vc fetch origin`
    still goes through click: both answer alike."""
    team.alice.edit(ROT, summary="alice's")
    team.alice.sync("alice 1")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    env["PYTHONPATH"] = str(REPO)

    def brv(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "brv_vc", *args], cwd=team.bob.root,
                              env=env, text=True, capture_output=True, check=True)
        return done.stdout

    for flags in ((), ("--json",)):
        assert brv("vc", "fetch", *flags) == brv("vc", "fetch", "origin", *flags)
    assert "0 ahead, 1 behind" in brv("vc", "fetch")
    code, names = loaded(team.bob.root, "vc", "fetch")
    assert code == 0
    assert "click" not in names
