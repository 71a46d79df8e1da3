"""`brv vc diff` reads the blobs it compares with one `git cat-file`, not dulwich (~20 ms of imports)."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import REPO
from vc_helpers import Team, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def test_a_range_diff_shows_the_change_without_importing_dulwich(team: Team) -> None:  # noqa: F811
    team.alice.edit(ROT, summary="rotated weekly now")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "weekly")
    script = ("import runpy, sys; sys.argv = ['brv', 'vc', 'diff', 'HEAD~1..HEAD']\n"
              "try:\n    runpy.run_module('brv_vc', run_name='__main__')\n"
              "except SystemExit:\n    pass\n"
              "print('dulwich' in sys.modules, file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run([sys.executable, "-c", script], cwd=team.alice.root, env=env,
                          text=True, capture_output=True, check=False)
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr
    assert ROT in done.stdout, done.stdout
    assert "rotated weekly now" in done.stdout, done.stdout
